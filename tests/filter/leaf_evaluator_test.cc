// Every leaf kind on every logical type, over every null pattern and awkward lengths, at every
// SIMD level: the vectorised leaf evaluator agrees with the row evaluator on the rows it was
// asked about.
#include "filter/leaf_evaluator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>

#include "filter/row_matcher.h"
#include "tests/filter/filter_test_util.h"

namespace columnar {
namespace {

// Lengths around the 8 / 16 / 64-row boundaries get every null pattern; every other length
// in 0..300 gets one, in rotation.
constexpr size_t kEdgeLengths[] = {0,  1,  2,  3,   7,   8,   9,   15,  16,  17,  31,  32, 33,
                                   63, 64, 65, 127, 128, 129, 191, 192, 255, 256, 257, 300};

bool IsEdgeLength(size_t n) {
  return std::find(std::begin(kEdgeLengths), std::end(kEdgeLengths), n) != std::end(kEdgeLengths);
}

std::vector<SimdLevel> AvailableExplicitLevels() {
  std::vector<SimdLevel> levels;
  for (SimdLevel level : kExplicitSimdLevels) {
    if (SimdLevelAvailable(level)) levels.push_back(level);
  }
  return levels;
}

// Leaves of every kind on `column`: each operator, IN lists short and long (both fixed-width
// strategies), and the null tests.
std::vector<Predicate> LeavesOn(const ColumnDef& column, const std::vector<Value>& pool,
                                test::RandomValues* random) {
  std::vector<Predicate> leaves;
  for (CompareOp op : kAllCompareOps) {
    leaves.push_back(
        Predicate::Compare(column.name, op, test::PickValue(pool, column.type, random)));
  }
  const size_t sizes[] = {0, 1, 3, kMaxInListKernelPasses, kMaxInListKernelPasses + 1, 13};
  for (size_t size : sizes) {
    std::vector<Value> list;
    for (size_t k = 0; k < size; k++) list.push_back(test::PickValue(pool, column.type, random));
    leaves.push_back(Predicate::In(column.name, list));
  }
  leaves.push_back(Predicate::IsNull(column.name));
  leaves.push_back(Predicate::IsNotNull(column.name));
  return leaves;
}

// Checks `got` against the row evaluator on the rows of `care`, and that bits past the end
// are clear.
void ExpectMatchesRows(const SelectionBitmap& got, const BoundPredicate& leaf,
                       const std::vector<Value>& cells, const SelectionBitmap& care,
                       const std::string& context) {
  ASSERT_EQ(got.size(), cells.size()) << context;
  for (size_t row = 0; row < cells.size(); row++) {
    if (!care.Get(row)) continue;
    Row r(leaf.column_id + 1);
    r[leaf.column_id] = cells[row];
    ASSERT_EQ(got.Get(row), Matches(leaf, r))
        << context << " row " << row << " cell " << cells[row].ToCqlLiteral();
  }
  if (got.size() % 64 != 0) {
    ASSERT_EQ(got.words()[got.word_count() - 1] >> (got.size() % 64), 0u) << context;
  }
}

TEST(LeafEvaluatorTest, EveryTypeKindNullPatternAndLength) {
  const TableSchema schema = test::AllTypesSchema();
  test::RandomValues random(17);
  for (const ColumnDef& column : schema.columns()) {
    const std::vector<Value> pool = test::ValuePool(column.type, 5, &random);
    for (size_t p = 0; p < std::size(test::kAllNullPatterns); p++) {
      const test::NullPattern pattern = test::kAllNullPatterns[p];
      for (size_t n = 0; n <= 300; n++) {
        const bool edge = IsEdgeLength(n);
        if (!edge && n % 4 != p) continue;
        // The kernels meet every length at every level in compare_kernels_test; here the
        // levels are swept at the edges.
        const std::vector<SimdLevel> levels =
            edge ? AvailableExplicitLevels() : std::vector<SimdLevel>{SimdLevel::kBest};
        const std::vector<Value> cells = test::RandomCells(column.type, n, pattern, pool, &random);
        const ColumnVector vector = test::ToColumnVector(column.type, cells);
        const SelectionBitmap all(n, true);
        for (const Predicate& p : LeavesOn(column, pool, &random)) {
          const BoundPredicate leaf = test::MustBind(schema, p);
          for (SimdLevel level : levels) {
            SelectionBitmap got;
            EvaluateLeaf(leaf, vector, all, level, &got);
            ExpectMatchesRows(
                got, leaf, cells, all,
                p.ToString() + " at " + SimdLevelName(level) + " n=" + std::to_string(n));
          }
        }
      }
    }
  }
}

// Rows outside `care` may be skipped, the others must be exact.
TEST(LeafEvaluatorTest, CareMaskLimitsOnlyTheUnaskedRows) {
  const TableSchema schema = test::AllTypesSchema();
  test::RandomValues random(23);
  for (const ColumnDef& column : schema.columns()) {
    const std::vector<Value> pool = test::ValuePool(column.type, 4, &random);
    for (int round = 0; round < 20; round++) {
      const size_t n = random.Uniform(300);
      const std::vector<Value> cells =
          test::RandomCells(column.type, n, test::NullPattern::kRandom, pool, &random);
      const ColumnVector vector = test::ToColumnVector(column.type, cells);
      SelectionBitmap care(n);
      for (size_t row = 0; row < n; row++) care.Set(row, random.OneIn(3));
      for (const Predicate& p : LeavesOn(column, pool, &random)) {
        const BoundPredicate leaf = test::MustBind(schema, p);
        SelectionBitmap got;
        EvaluateLeaf(leaf, vector, care, SimdLevel::kBest, &got);
        ExpectMatchesRows(got, leaf, cells, care, p.ToString());
      }
    }
  }
}

TEST(LeafEvaluatorTest, EmptyAndNulContainingStrings) {
  const TableSchema schema = test::AllTypesSchema();
  const std::vector<Value> cells = {Value::Blob(""),
                                    Value::Blob(std::string("\0", 1)),
                                    Value::Blob(std::string("\0\0", 2)),
                                    Value::Blob(std::string("a\0b", 3)),
                                    Value(),
                                    Value::Blob("a"),
                                    Value::Blob("\xff")};
  const ColumnVector vector = test::ToColumnVector(LogicalType::kBlob, cells);
  for (const Value& constant : cells) {
    if (constant.is_null()) continue;
    for (CompareOp op : kAllCompareOps) {
      const BoundPredicate leaf =
          test::MustBind(schema, Predicate::Compare("c_blob", op, constant));
      SelectionBitmap got;
      EvaluateLeaf(leaf, vector, SelectionBitmap(cells.size(), true), SimdLevel::kBest, &got);
      ExpectMatchesRows(got, leaf, cells, SelectionBitmap(cells.size(), true), leaf.ToString());
    }
  }
}

}  // namespace
}  // namespace columnar
