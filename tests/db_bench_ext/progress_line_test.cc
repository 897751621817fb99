#include "db_bench_ext/progress_line.h"

#include <gtest/gtest.h>

#include <sstream>
#include <thread>
#include <vector>

namespace columnar {
namespace bench {
namespace {

struct FakeClock {
  double now = 1000;
  std::function<double()> Function() {
    return [this] { return now; };
  }
};

ProgressLine::Options TestOptions(std::ostream* out, FakeClock* clock, bool live) {
  ProgressLine::Options options;
  options.out = out;
  options.live = live;
  options.clock = clock->Function();
  return options;
}

int Count(const std::string& text, char c) { return std::count(text.begin(), text.end(), c); }

TEST(ProgressLineTest, StatusTextHasCountsRateElapsedAndEta) {
  EXPECT_EQ(ProgressLine::StatusText("load metrics/A", "rows", 1'000'000, 4'000'000, 10),
            "load metrics/A  1,000,000 / 4,000,000 rows (25.0%)  100k rows/s  elapsed 0:10  "
            "ETA 0:30");
  EXPECT_EQ(ProgressLine::StatusText("p", "rows", 0, 10, 0),
            "p  0 / 10 rows (0.0%)  0 rows/s  elapsed 0:00  ETA --:--");
  EXPECT_EQ(ProgressLine::SummaryText("load", "rows", 17'280'000, 3723),
            "load  17,280,000 rows in 1:02:03 (4.64k rows/s)");
}

TEST(ProgressLineTest, LiveLineRedrawsInPlaceAtMostFourTimesASecond) {
  std::ostringstream out;
  FakeClock clock;
  {
    ProgressLine progress("load", 1000, "rows", TestOptions(&out, &clock, true));
    for (int i = 0; i < 100; ++i) {
      clock.now += 0.01;  // 100 updates over one second
      progress.Add(10);
    }
    EXPECT_EQ(progress.done(), 1000u);
    const int redraws = Count(out.str(), '\r');
    EXPECT_GE(redraws, 3);
    EXPECT_LE(redraws, 5);
    EXPECT_EQ(Count(out.str(), '\n'), 0);
  }
  // Finishing (here by destruction) redraws the final state and ends the line once.
  EXPECT_EQ(out.str().back(), '\n');
  EXPECT_EQ(Count(out.str(), '\n'), 1);
  EXPECT_NE(out.str().rfind("1,000 / 1,000 rows (100.0%)"), std::string::npos);
}

TEST(ProgressLineTest, QuietWhenNotATerminalExceptForTheSummary) {
  std::ostringstream out;
  FakeClock clock;
  ProgressLine progress("load", 1000, "rows", TestOptions(&out, &clock, false));
  for (int i = 0; i < 10; ++i) {
    clock.now += 1;
    progress.Add(100);
  }
  EXPECT_EQ(out.str(), "");
  progress.Finish();
  progress.Finish();  // idempotent
  EXPECT_EQ(out.str(), "load  1,000 rows in 0:10 (100 rows/s)\n");
}

TEST(ProgressLineTest, CountsAddsFromManyThreads) {
  std::ostringstream out;
  ProgressLine::Options options;
  options.out = &out;
  options.live = true;
  ProgressLine progress("load", 40000, "rows", options);
  std::vector<std::thread> writers;
  for (int t = 0; t < 4; ++t) {
    writers.emplace_back([&progress] {
      for (int i = 0; i < 10000; ++i) progress.Add(1);
    });
  }
  for (std::thread& writer : writers) writer.join();
  progress.Finish();
  EXPECT_EQ(progress.done(), 40000u);
  EXPECT_NE(out.str().find("40,000 / 40,000"), std::string::npos);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
