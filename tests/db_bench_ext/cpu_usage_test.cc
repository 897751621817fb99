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
  // Spins until the process has used 0.05 CPU seconds, however long a shared machine takes to
  // give them (a fixed wall time could see almost none), with a bound for a clock that never
  // counts.
  CpuStopwatch stopwatch;
  volatile uint64_t sink = 0;
  CpuUsage usage = stopwatch.Elapsed();
  while (usage.cpu_seconds < 0.05 && usage.wall_seconds < 20) {
    for (int i = 0; i < 10000; ++i) sink = sink + i;
    usage = stopwatch.Elapsed();
  }
  EXPECT_GE(usage.cpu_seconds, 0.05);
  EXPECT_LT(usage.BusyCores(), 1.5);  // one thread cannot keep more than one core busy
}

}  // namespace
}  // namespace bench
}  // namespace columnar
