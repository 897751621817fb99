// EncodingMemo (table_format/encoding_memo.h): chunks written with a remembered encoding read
// back exactly, the chooser runs again when the remembered encoding no longer fits, and most
// chunks of steady data skip it.
#include "table_format/encoding_memo.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "table_format/chunk.h"

namespace columnar {
namespace {

// Writes `values` as a chunk through `memo`, reads it back and checks every value.
Encoding WriteAndCheck(const ColumnVector& values, EncodingMemo* memo) {
  ChunkWriteOptions options;
  options.memo = memo;
  std::string chunk;
  Encoding chosen;
  EXPECT_TRUE(WriteChunk(values, options, &chunk, &chosen).ok());
  Slice in(chunk);
  ColumnVector back(values.type());
  EXPECT_TRUE(ReadChunk(&in, values.type(), &back).ok());
  EXPECT_EQ(back.size(), values.size());
  for (size_t i = 0; i < values.size() && i < back.size(); i++) {
    EXPECT_EQ(back.IsNull(i), values.IsNull(i)) << i;
    if (values.IsNull(i) || back.IsNull(i)) continue;
    if (values.type() == PhysicalType::kBytes) {
      EXPECT_EQ(back.GetBytes(i).ToString(), values.GetBytes(i).ToString()) << i;
    } else if (values.type() == PhysicalType::kFloat64) {
      const double a = values.Get<double>(i);
      const double b = back.Get<double>(i);
      EXPECT_EQ(std::memcmp(&a, &b, sizeof(a)), 0) << i;
    } else {
      EXPECT_EQ(back.Get<int64_t>(i), values.Get<int64_t>(i)) << i;
    }
  }
  return chosen;
}

ColumnVector Walk(std::mt19937_64* rng, int64_t* x, int64_t step) {
  ColumnVector v(PhysicalType::kInt64);
  for (int i = 0; i < 128; i++) {
    *x += static_cast<int64_t>((*rng)() % (2 * step + 1)) - step;
    v.Append<int64_t>(*x);
  }
  return v;
}

TEST(EncodingMemoTest, SteadyDataSkipsTheChooserAndReadsBack) {
  std::mt19937_64 rng(1);
  EncodingMemo memo;
  int64_t x = 1000;
  for (int c = 0; c < 90; c++) WriteAndCheck(Walk(&rng, &x, 3), &memo);
  // One chooser run per kReusedChunks + 1 chunks, plus a few where the size drifted.
  EXPECT_GE(memo.reused_chunks(), 60u);
  EXPECT_GE(memo.chooser_runs(), 90u / (EncodingMemo::kReusedChunks + 1));
  EXPECT_EQ(memo.reused_chunks() + memo.chooser_runs(), 90u);
}

TEST(EncodingMemoTest, RefusedOrGrownEncodingsRunTheChooserAgain) {
  EncodingMemo memo;
  ColumnVector constant(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) constant.AppendBytes("us-east-1a");
  EXPECT_EQ(WriteAndCheck(constant, &memo), Encoding::kConstant);
  // constant refuses these: the chooser picks something else, and the data is intact.
  ColumnVector two(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) two.AppendBytes(i < 64 ? "us-east-1a" : "us-west-2b");
  EXPECT_NE(WriteAndCheck(two, &memo), Encoding::kConstant);
  EXPECT_EQ(memo.chooser_runs(), 2u);

  // A walk with small steps, then one with huge steps: the remembered encoding's body grows
  // past the tolerance, so the chooser runs for it.
  std::mt19937_64 rng(2);
  EncodingMemo walk_memo;
  int64_t x = 0;
  WriteAndCheck(Walk(&rng, &x, 2), &walk_memo);
  WriteAndCheck(Walk(&rng, &x, 1 << 30), &walk_memo);
  EXPECT_EQ(walk_memo.chooser_runs(), 2u);
  EXPECT_EQ(walk_memo.reused_chunks(), 0u);
}

TEST(EncodingMemoTest, FloatsSkipAlpWhileItLoses) {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> step(0, 1);
  EncodingMemo memo;
  double x = 50;
  for (int c = 0; c < 45; c++) {
    ColumnVector v(PhysicalType::kFloat64);
    for (int i = 0; i < 128; i++) {
      x = std::min(100.0, std::max(0.0, x + step(rng)));
      v.Append<double>(x);
    }
    EXPECT_NE(WriteAndCheck(v, &memo), Encoding::kAlp);
  }
  EXPECT_EQ(memo.chooser_runs(), 5u);
  EXPECT_EQ(memo.reused_chunks(), 40u);
  // Decimal values: ALP wins its full run, and is then not skipped.
  EncodingMemo decimal_memo;
  for (int c = 0; c < 10; c++) {
    ColumnVector v(PhysicalType::kFloat64);
    for (int i = 0; i < 128; i++) v.Append<double>(static_cast<double>(rng() % 10000) / 100);
    EXPECT_EQ(WriteAndCheck(v, &decimal_memo), Encoding::kAlp);
  }
  EXPECT_EQ(decimal_memo.chooser_runs(), 10u);
}

ColumnVector GaugeChunk(std::mt19937_64* rng, double* x) {
  std::normal_distribution<double> step(0, 1);
  ColumnVector v(PhysicalType::kFloat64);
  for (int i = 0; i < 128; i++) {
    *x = std::min(100.0, std::max(0.0, *x + step(*rng)));
    v.Append<double>(*x);
  }
  return v;
}

TEST(EncodingMemoTest, FloatsBackOffAlpAcrossFullRunsWhileItLoses) {
  std::mt19937_64 rng(4);
  EncodingMemo memo;
  double x = 50;
  const uint64_t period = EncodingMemo::kReusedChunks + 1;  // chunks per full run
  // 40 full runs of a gauge: ALP is analysed in runs 1-4 (four losses), then skipped for 8
  // runs, analysed in run 13 (a loss: skip 16), in run 30 (skip 32), and not again by run 40.
  for (uint64_t c = 0; c < 40 * period; c++) {
    EXPECT_NE(WriteAndCheck(GaugeChunk(&rng, &x), &memo), Encoding::kAlp);
  }
  EXPECT_EQ(memo.chooser_runs(), 40u);
  EXPECT_EQ(memo.alp_analyses(), 6u);
  // Decimal values from then on: the next full run that analyses ALP (after the rest of the
  // skip of 32 runs: 22 more, the first in the first decimal chunk) finds it, and from then on
  // every chunk takes it, each through a full run.
  uint64_t first_alp = 0;
  for (uint64_t c = 0; c < 30 * period; c++) {
    ColumnVector v(PhysicalType::kFloat64);
    for (int i = 0; i < 128; i++) v.Append<double>(static_cast<double>(rng() % 10000) / 100);
    const Encoding chosen = WriteAndCheck(v, &memo);
    if (first_alp == 0 && chosen == Encoding::kAlp) first_alp = c + 1;
    if (first_alp != 0) {
      EXPECT_EQ(chosen, Encoding::kAlp) << c;
    }
  }
  EXPECT_EQ(first_alp, 22 * period + 1);
  EXPECT_EQ(memo.alp_analyses(), 6u + (30 * period - (first_alp - 1)));
}

TEST(EncodingMemoTest, TypeChangeAndNullsAreHandled) {
  EncodingMemo memo;
  ColumnVector ints(PhysicalType::kInt64);
  for (int i = 0; i < 128; i++) {
    if (i % 3 == 0) {
      ints.AppendNull();
    } else {
      ints.Append<int64_t>(i);
    }
  }
  WriteAndCheck(ints, &memo);
  ColumnVector strings(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) strings.AppendBytes("v" + std::to_string(i % 4));
  WriteAndCheck(strings, &memo);
  EXPECT_EQ(memo.chooser_runs(), 2u);
}

TEST(EncodingMemoTest, MemosAreKeptPerSlot) {
  EncodingMemos memos;
  EncodingMemo* a = memos.For(3);
  EXPECT_EQ(memos.For(0)->chooser_runs(), 0u);
  EXPECT_NE(memos.For(0), memos.For(1));
  memos.For(200);
  EXPECT_EQ(a, memos.For(3)) << "a slot's memo must stay where it is";
}

}  // namespace
}  // namespace columnar
