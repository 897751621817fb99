// EncodingMemo (table_format/encoding_memo.h): chunks written with a remembered encoding read
// back exactly, the chooser runs again when the remembered encoding no longer fits, and most
// chunks of steady data skip it.
#include "table_format/encoding_memo.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "table_format/chunk.h"
#include "table_format/encodings/chooser.h"

namespace columnar {
namespace {

// Writes `values` as a chunk through `memo` (as a flush's short-lived file's chunk when
// `short_lived`), reads it back and checks every value.
Encoding WriteAndCheck(const ColumnVector& values, EncodingMemo* memo, bool short_lived = false) {
  ChunkWriteOptions options;
  options.memo = memo;
  options.short_lived = short_lived;
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

ColumnVector Walk(std::mt19937_64* rng, int64_t* x, int64_t step, int n = 128) {
  ColumnVector v(PhysicalType::kInt64);
  for (int i = 0; i < n; i++) {
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

// A short chunk's fixed bytes weigh on each of its few values: its choice would pass the drift
// test on a long chunk that another encoding makes smaller. Write times of a metrics series
// (a second apart, a little jitter), as copying compactions encode them: a few new points of a
// series, then whole groups.
TEST(EncodingMemoTest, ChoicesForShortChunksAreNotReusedForLongOnes) {
  std::mt19937_64 rng(11);
  int64_t x = 1700000000000000;
  const ColumnVector few = Walk(&rng, &x, 1000, 8);
  const ColumnVector whole = Walk(&rng, &x, 1000);
  EncodingMemo fresh;
  const Encoding alone = WriteAndCheck(whole, &fresh);

  EncodingMemo memo;
  WriteAndCheck(few, &memo);
  EXPECT_EQ(WriteAndCheck(whole, &memo), alone);
  EXPECT_EQ(memo.chooser_runs(), 2u);
  EXPECT_EQ(memo.reused_chunks(), 0u);

  // A short chunk between long ones: the chooser runs for it, and the long chunks' choice
  // stays remembered for the next long chunk.
  EncodingMemo between;
  WriteAndCheck(whole, &between);
  WriteAndCheck(few, &between);
  EXPECT_EQ(between.remembered_encoding(), alone);
  EXPECT_EQ(WriteAndCheck(whole, &between), alone);
  EXPECT_EQ(between.chooser_runs(), 2u);
  EXPECT_EQ(between.reused_chunks(), 1u);
}

// `n` values drawn uniformly from [0, 2^bits): about `bits` bits a value in any encoding.
ColumnVector UniformBits(std::mt19937_64* rng, int bits) {
  ColumnVector v(PhysicalType::kInt64);
  for (int i = 0; i < 128; i++) v.Append<int64_t>(static_cast<int64_t>((*rng)() >> (64 - bits)));
  return v;
}

// The tolerance decides: a body a twentieth larger than the chooser's keeps the remembered
// encoding (a chunk of noisy data is as often a little larger as a little smaller than the one
// the chooser saw; re-running the chooser for those cost 8% of access16's flush and
// compaction), one that grew by half runs the chooser.
TEST(EncodingMemoTest, ModestGrowthKeepsTheEncodingLargeGrowthRunsTheChooser) {
  static_assert(EncodingMemo::kDriftTolerance > 1.08 && EncodingMemo::kDriftTolerance < 1.45,
                "the chunks below grow by a twentieth and by half");
  std::mt19937_64 rng(5);
  EncodingMemo modest;
  WriteAndCheck(UniformBits(&rng, 20), &modest);
  WriteAndCheck(UniformBits(&rng, 21), &modest);
  EXPECT_EQ(modest.chooser_runs(), 1u);
  EXPECT_EQ(modest.reused_chunks(), 1u);

  EncodingMemo large;
  WriteAndCheck(UniformBits(&rng, 20), &large);
  WriteAndCheck(UniformBits(&rng, 30), &large);
  EXPECT_EQ(large.chooser_runs(), 2u);
  EXPECT_EQ(large.reused_chunks(), 0u);
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
  // A full run every kReusedChunks + 1 chunks, the chunks between reuse it.
  const uint64_t period = EncodingMemo::kReusedChunks + 1;
  EXPECT_EQ(memo.chooser_runs(), (45 + period - 1) / period);
  EXPECT_EQ(memo.reused_chunks(), 45 - (45 + period - 1) / period);
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

// Doubles whose magnitude jumps between 1 and 1e12 at random: their differences are as wide as
// the values, so ALP_RD (a dictionary of the few front bit patterns) beats rice_delta.
ColumnVector TwoMagnitudes(std::mt19937_64* rng) {
  std::uniform_real_distribution<double> unit(0, 1);
  ColumnVector v(PhysicalType::kFloat64);
  for (int i = 0; i < 128; i++) v.Append<double>(((*rng)() % 2 ? 1.0 : 1e12) * (1 + unit(*rng)));
  return v;
}

TEST(EncodingMemoTest, ReusedFloatChunksWeighAlpRdOnlyWhenItWonTheFullRun) {
  std::mt19937_64 rng(6);
  // ALP_RD lost the full run (a gauge, rice_delta's, float_delta second): the reused chunks
  // leave its analysis out, even for values it would win, until the next full run.
  EncodingMemo lost;
  double x = 50;
  EXPECT_NE(WriteAndCheck(GaugeChunk(&rng, &x), &lost), Encoding::kAlpRd);
  for (uint32_t c = 0; c < EncodingMemo::kReusedChunks; c++) {
    EXPECT_NE(WriteAndCheck(TwoMagnitudes(&rng), &lost), Encoding::kAlpRd) << c;
  }
  EXPECT_EQ(WriteAndCheck(TwoMagnitudes(&rng), &lost), Encoding::kAlpRd);
  EXPECT_EQ(lost.chooser_runs(), 2u);

  // ALP_RD won the full run: the reused chunks weigh it.
  EncodingMemo won;
  EXPECT_EQ(WriteAndCheck(TwoMagnitudes(&rng), &won), Encoding::kAlpRd);
  EXPECT_EQ(WriteAndCheck(TwoMagnitudes(&rng), &won), Encoding::kAlpRd);
  EXPECT_EQ(won.reused_chunks(), 1u);
}

TEST(EncodingMemoTest, ReusedFloatChunksWeighOnlyTheLastWinnerAndItsRunnerUp) {
  std::mt19937_64 rng(7);
  EncodingMemo memo;
  double x = 50;
  // A gauge's full run: rice_delta wins, float_delta (exact estimate) comes second.
  EXPECT_EQ(WriteAndCheck(GaugeChunk(&rng, &x), &memo), Encoding::kRiceDelta);
  EXPECT_EQ(memo.runner_up(), Encoding::kFloatDelta);
  // A constant chunk in the reuse window: constant is neither, so it is not weighed; the
  // smaller of the two is written.
  ColumnVector constant(PhysicalType::kFloat64);
  for (int i = 0; i < 128; i++) constant.Append<double>(42.5);
  const Encoding reused = WriteAndCheck(constant, &memo);
  EXPECT_TRUE(reused == Encoding::kRiceDelta || reused == Encoding::kFloatDelta) << int(reused);
  EXPECT_EQ(memo.chooser_runs(), 1u);
  // Reused chunks write the smaller body of the pair: the same bytes as the chooser given
  // only those two.
  for (int c = 0; c < 5; c++) {
    const ColumnVector v = GaugeChunk(&rng, &x);
    std::string pair_body;
    Encoding pair_choice;
    ASSERT_TRUE(
        ChooseAndEncode({memo.remembered_encoding(), memo.runner_up()}, v, &pair_body, &pair_choice)
            .ok());
    std::string body;
    Encoding choice;
    ASSERT_TRUE(memo.Encode(v, &body, &choice).ok());
    EXPECT_EQ(choice, pair_choice) << c;
    EXPECT_EQ(body, pair_body) << c;
  }
  // The next full run weighs every encoding again.
  while (memo.chooser_runs() == 1) WriteAndCheck(constant, &memo);
  EXPECT_EQ(memo.remembered_encoding(), Encoding::kConstant);
}

TEST(EncodingMemoTest, AFloatRunnerUpThatWinsTakesTheWinnersPlace) {
  std::mt19937_64 rng(8);
  EncodingMemo memo;
  double x = 50;
  // ALP_RD wins the full run on two magnitudes, rice_delta comes second.
  EXPECT_EQ(WriteAndCheck(TwoMagnitudes(&rng), &memo), Encoding::kAlpRd);
  EXPECT_EQ(memo.runner_up(), Encoding::kRiceDelta);
  // A gauge: rice_delta wins the reused chunk and becomes the winner, encoded first from then
  // on; the two magnitudes switch them back.
  EXPECT_EQ(WriteAndCheck(GaugeChunk(&rng, &x), &memo), Encoding::kRiceDelta);
  EXPECT_EQ(memo.remembered_encoding(), Encoding::kRiceDelta);
  EXPECT_EQ(memo.runner_up(), Encoding::kAlpRd);
  EXPECT_EQ(WriteAndCheck(GaugeChunk(&rng, &x), &memo), Encoding::kRiceDelta);
  EXPECT_EQ(WriteAndCheck(TwoMagnitudes(&rng), &memo), Encoding::kAlpRd);
  EXPECT_EQ(memo.remembered_encoding(), Encoding::kAlpRd);
  EXPECT_EQ(memo.runner_up(), Encoding::kRiceDelta);
  EXPECT_EQ(memo.chooser_runs(), 1u);
  EXPECT_EQ(memo.reused_chunks(), 3u);
}

// A short-lived file's float chunks reuse the remembered encoding as any other column's do: the
// runner-up is not weighed against it, so it never takes the winner's place without a chooser
// run (the gauge after the two magnitudes above is rice_delta's only through the chooser).
TEST(EncodingMemoTest, ShortLivedFloatChunksDoNotWeighTheRunnerUp) {
  std::mt19937_64 rng(8);
  EncodingMemo memo;
  double x = 50;
  EXPECT_EQ(WriteAndCheck(TwoMagnitudes(&rng), &memo, true), Encoding::kAlpRd);
  EXPECT_EQ(memo.runner_up(), Encoding::kRiceDelta);
  for (int i = 0; i < 40; i++) {
    const uint64_t runs_before = memo.chooser_runs();
    const Encoding remembered = memo.remembered_encoding();
    const Encoding chosen = WriteAndCheck(GaugeChunk(&rng, &x), &memo, true);
    if (memo.chooser_runs() == runs_before) {
      ASSERT_EQ(chosen, remembered) << i;
    }
  }
  // Steady gauges: the chooser ran about once per kReusedChunks + 1 chunks.
  EXPECT_LE(memo.chooser_runs(), 5u);
  EXPECT_GE(memo.reused_chunks(), 36u);
}

TEST(EncodingMemoTest, FloatsBackOffAlpAcrossFullRunsWhileItLoses) {
  std::mt19937_64 rng(4);
  EncodingMemo memo;
  double x = 50;
  const uint64_t period = EncodingMemo::kReusedChunks + 1;  // chunks per full run
  // 40 full runs of a gauge: ALP is analysed in runs 1-2 (kAlpLossesBeforeSkipping losses),
  // then skipped for 8 runs, analysed in run 11 (a loss: skip 16), in run 28 (skip 32), and not
  // again by run 40.
  for (uint64_t c = 0; c < 40 * period; c++) {
    EXPECT_NE(WriteAndCheck(GaugeChunk(&rng, &x), &memo), Encoding::kAlp);
  }
  static_assert(EncodingMemo::kAlpLossesBeforeSkipping == 2);
  EXPECT_EQ(memo.chooser_runs(), 40u);
  EXPECT_EQ(memo.alp_analyses(), 4u);
  // Decimal values from then on: the next full run that analyses ALP (after the rest of the
  // skip of 32 runs: 20 more, the first in the first decimal chunk) finds it, and from then on
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
  EXPECT_EQ(first_alp, 20 * period + 1);
  EXPECT_EQ(memo.alp_analyses(), 4u + (30 * period - (first_alp - 1)));
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
