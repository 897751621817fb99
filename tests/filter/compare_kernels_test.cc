// The comparison kernels of every instruction set this CPU runs, and the scalar loop, against
// CompareValues on the same values: every fixed-width type, every operator, lengths 0..300,
// edge values (INT_MIN / INT_MAX, NaN payloads of both signs, infinities, -0.0, subnormals).
#include "filter/compare_kernels.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "filter/selection_bitmap.h"
#include "tests/filter/filter_test_util.h"

namespace columnar {
namespace {

struct FixedType {
  PhysicalType physical;
  LogicalType logical;
};
constexpr FixedType kFixedTypes[] = {{PhysicalType::kInt32, LogicalType::kInt},
                                     {PhysicalType::kInt64, LogicalType::kBigInt},
                                     {PhysicalType::kFloat32, LogicalType::kFloat},
                                     {PhysicalType::kFloat64, LogicalType::kDouble}};

std::vector<SimdLevel> AvailableLevelsAndBest() {
  std::vector<SimdLevel> levels;
  for (SimdLevel level : kExplicitSimdLevels) {
    if (SimdLevelAvailable(level)) levels.push_back(level);
  }
  levels.push_back(SimdLevel::kBest);
  return levels;
}

// Runs the kernel on `values` (raw bit patterns at `data`) and checks every bit against
// CompareValues, that bits past n are clear and that nothing past the last word is written.
void CheckKernel(const FixedType& type, const void* data, const std::vector<Value>& cells,
                 const Value& constant, CompareOp op, SimdLevel level) {
  const size_t n = cells.size();
  const size_t words = WordsForRows(n);
  std::vector<uint64_t> out(words + 1, 0xabababababababab);
  CompareFixedValues(type.physical, data, n, op, constant.FixedBits(), out.data(), level);
  for (size_t i = 0; i < n; i++) {
    const bool expected = OrderSatisfies(op, CompareValues(cells[i], constant));
    const bool got = (out[i / 64] >> (i % 64)) & 1;
    ASSERT_EQ(got, expected) << SimdLevelName(level) << " " << PhysicalTypeName(type.physical)
                             << " row " << i << " of " << n << ": " << cells[i].ToCqlLiteral()
                             << " " << CompareOpSymbol(op) << " " << constant.ToCqlLiteral();
  }
  if (n % 64 != 0) {
    ASSERT_EQ(out[words - 1] >> (n % 64), 0u) << "bits past n";
  }
  ASSERT_EQ(out[words], 0xabababababababab) << "wrote past the last word";
}

TEST(CompareKernelsTest, EveryLevelMatchesCompareValues) {
  test::RandomValues random(20240501);
  const std::vector<SimdLevel> levels = AvailableLevelsAndBest();
  for (const FixedType& type : kFixedTypes) {
    const std::vector<Value> pool = test::ValuePool(type.logical, 6, &random);
    for (size_t n = 0; n <= 300; n++) {
      std::vector<Value> cells;
      for (size_t i = 0; i < n; i++) cells.push_back(test::PickValue(pool, type.logical, &random));
      const ColumnVector column = test::ToColumnVector(type.logical, cells);
      for (int k = 0; k < 2; k++) {
        const Value constant = test::PickValue(pool, type.logical, &random);
        for (CompareOp op : kAllCompareOps) {
          for (SimdLevel level : levels) {
            CheckKernel(type, column.fixed_bytes(), cells, constant, op, level);
          }
        }
      }
    }
  }
}

TEST(CompareKernelsTest, UnalignedInput) {
  test::RandomValues random(99);
  for (const FixedType& type : kFixedTypes) {
    const size_t width = FixedWidth(type.physical);
    for (size_t n : {64, 129, 256, 300}) {
      std::vector<Value> cells;
      for (size_t i = 0; i < n; i++) cells.push_back(random.Of(type.logical));
      std::vector<char> buffer(n * width + 3);
      for (size_t i = 0; i < n; i++) {
        const uint64_t bits = cells[i].FixedBits();
        std::memcpy(buffer.data() + 3 + i * width, &bits, width);
      }
      for (CompareOp op : kAllCompareOps) {
        for (SimdLevel level : AvailableLevelsAndBest()) {
          CheckKernel(type, buffer.data() + 3, cells, cells[n / 2], op, level);
        }
      }
    }
  }
}

// The whole float ladder against each of its rungs: the ranks decide every answer.
TEST(CompareKernelsTest, FloatTotalOrderLadder) {
  const uint32_t ladder[] = {0xffc00001, 0xffc00000, 0xff800000, 0xbf800000,
                             0x80000001, 0x80000000, 0x00000000, 0x00000001,
                             0x3f800000, 0x7f800000, 0x7fc00000, 0x7fc00001};
  std::vector<Value> cells;
  for (int repeat = 0; repeat < 12; repeat++) {
    for (uint32_t bits : ladder) cells.push_back(Value::FromFixedBits(LogicalType::kFloat, bits));
  }
  const ColumnVector column = test::ToColumnVector(LogicalType::kFloat, cells);
  for (size_t rung = 0; rung < std::size(ladder); rung++) {
    const Value constant = Value::FromFixedBits(LogicalType::kFloat, ladder[rung]);
    for (CompareOp op : kAllCompareOps) {
      for (SimdLevel level : AvailableLevelsAndBest()) {
        CheckKernel(kFixedTypes[2], column.fixed_bytes(), cells, constant, op, level);
      }
    }
    // Rung k is above exactly k rungs, in every repeat.
    std::vector<uint64_t> out(WordsForRows(cells.size()));
    CompareFixedValues(PhysicalType::kFloat32, column.fixed_bytes(), cells.size(), CompareOp::kLt,
                       ladder[rung], out.data());
    size_t below = 0;
    for (uint64_t w : out) below += static_cast<size_t>(__builtin_popcountll(w));
    EXPECT_EQ(below, rung * 12);
  }
}

TEST(CompareKernelsTest, IntegerExtremes) {
  const int64_t extremes[] = {std::numeric_limits<int64_t>::min(), -1, 0, 1,
                              std::numeric_limits<int64_t>::max()};
  std::vector<Value> cells;
  for (int repeat = 0; repeat < 30; repeat++) {
    for (int64_t v : extremes) cells.push_back(Value::BigInt(v));
  }
  const ColumnVector column = test::ToColumnVector(LogicalType::kBigInt, cells);
  for (int64_t c : extremes) {
    for (CompareOp op : kAllCompareOps) {
      for (SimdLevel level : AvailableLevelsAndBest()) {
        CheckKernel(kFixedTypes[1], column.fixed_bytes(), cells, Value::BigInt(c), op, level);
      }
    }
  }
}

TEST(CompareKernelsTest, LevelNames) {
  EXPECT_STREQ(SimdLevelName(SimdLevel::kAvx512), "avx512");
  EXPECT_TRUE(SimdLevelAvailable(SimdLevel::kScalar));
  EXPECT_TRUE(SimdLevelAvailable(SimdLevel::kSse2));
}

}  // namespace
}  // namespace columnar
