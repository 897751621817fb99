#include "db_bench_ext/cpu_usage.h"

#include <gtest/gtest.h>

namespace columnar {
namespace bench {
namespace {

TEST(CpuUsageTest, DerivedFiguresFollowFromSamples) {
  CpuSample start{1.0, 0.5, 100.0};
  CpuSample end{4.0, 1.5, 102.0};
  const CpuUsage usage = CpuUsageBetween(start, end);
  EXPECT_DOUBLE_EQ(usage.user_seconds, 3.0);
  EXPECT_DOUBLE_EQ(usage.system_seconds, 1.0);
  EXPECT_DOUBLE_EQ(usage.cpu_seconds, 4.0);
  EXPECT_DOUBLE_EQ(usage.wall_seconds, 2.0);
  EXPECT_DOUBLE_EQ(usage.BusyCores(), 2.0);
  EXPECT_DOUBLE_EQ(usage.CpuSecondsPerMillion(2'000'000), 2.0);
  EXPECT_EQ(CpuUsage{}.BusyCores(), 0);
  EXPECT_EQ(usage.CpuSecondsPerMillion(0), 0);
}

TEST(CpuUsageTest, SpinningKeepsAboutOneCoreBusy) {
  CpuStopwatch stopwatch;
  volatile uint64_t sink = 0;
  while (stopwatch.Elapsed().wall_seconds < 0.1) {
    for (int i = 0; i < 10000; ++i) sink = sink + i;
  }
  const CpuUsage usage = stopwatch.Elapsed();
  EXPECT_GT(usage.cpu_seconds, 0.02);  // the machine is shared: at least a fifth of a core
  EXPECT_LT(usage.BusyCores(), 1.5);   // one thread cannot keep more than one core busy
}

}  // namespace
}  // namespace bench
}  // namespace columnar
