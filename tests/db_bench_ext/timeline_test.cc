#include "db_bench_ext/timeline.h"

#include <gtest/gtest.h>

#include "db_bench_ext/query_ranges.h"

namespace columnar {
namespace bench {
namespace {

constexpr int64_t kDay = kSecondsPerDay;
constexpr int64_t kTimelineEnd = 19676 * kDay;  // a UTC midnight (2023-11-15)

TEST(TimelineTest, DaysAndRounding) {
  EXPECT_EQ(FloorToUtcDay(kTimelineEnd + 5000), kTimelineEnd);
  EXPECT_EQ(FloorToUtcDay(kTimelineEnd), kTimelineEnd);
  EXPECT_EQ(UtcDayOf(kTimelineEnd - 1), 19675);
  EXPECT_EQ(UtcDayOf(-1), -1);
}

TEST(TimelineTest, CoversEndMinusDurationUpToEnd) {
  const Timeline timeline(kTimelineEnd, 3600);
  EXPECT_EQ(timeline.start_s(), kTimelineEnd - 3600);
  EXPECT_EQ(timeline.steps(), 720);
  EXPECT_EQ(timeline.TimeAtStep(0), kTimelineEnd - 3600);
  EXPECT_EQ(timeline.latest_s(), kTimelineEnd - 5);
  EXPECT_THROW(Timeline(kTimelineEnd, 3605), std::invalid_argument);
  EXPECT_THROW(Timeline(kTimelineEnd + 30, 3600), std::invalid_argument);
  EXPECT_THROW(Timeline(kTimelineEnd, 0), std::invalid_argument);
}

TEST(BatchScheduleTest, BlocksOfTwelveStepsEveryPartitionInTurn) {
  BatchSchedule schedule(3, 36);
  EXPECT_EQ(schedule.batch_count(), 9u);
  uint64_t partition;
  int64_t first_step;
  const std::pair<uint64_t, int64_t> expected[] = {{0, 0},  {1, 0},  {2, 0},  {0, 12}, {1, 12},
                                                   {2, 12}, {0, 24}, {1, 24}, {2, 24}};
  for (const auto& [want_partition, want_step] : expected) {
    ASSERT_TRUE(schedule.Next(&partition, &first_step));
    EXPECT_EQ(partition, want_partition);
    EXPECT_EQ(first_step, want_step);
  }
  EXPECT_FALSE(schedule.Next(&partition, &first_step));
  EXPECT_EQ(schedule.batches_done(), 9u);
}

TEST(QueryRangesTest, WindowsHoldTheSourceRowCounts) {
  const Timeline week(kTimelineEnd, 7 * kDay);
  const int64_t expected_rows[] = {1, 60, 720, 17280, 120960};
  for (size_t i = 0; i < AllRangeQueries().size(); ++i) {
    const TimeWindow window = WindowInSeconds(AllRangeQueries()[i], week, week.latest_s());
    EXPECT_EQ(window.expected_rows, expected_rows[i]) << RangeQueryName(AllRangeQueries()[i]);
    EXPECT_EQ(window.upper_inclusive, kTimelineEnd - 5);
  }
  const TimeWindow hour = WindowInSeconds(RangeQuery::kLastHour, week, week.latest_s());
  EXPECT_EQ(hour.lower_exclusive, kTimelineEnd - 5 - 3600);
  EXPECT_EQ(hour.days, std::vector<int32_t>{19675});
  EXPECT_EQ(hour.limit, 0);
  const TimeWindow seven = WindowInSeconds(RangeQuery::kLast7Days, week, week.latest_s());
  EXPECT_EQ(seven.days.size(), 7u);
  EXPECT_EQ(seven.days.front(), 19669);
  EXPECT_EQ(seven.days.back(), 19675);
  const TimeWindow latest = WindowInSeconds(RangeQuery::kLatest, week, week.latest_s());
  EXPECT_EQ(latest.limit, 1);
  EXPECT_EQ(latest.days, std::vector<int32_t>{19675});
}

TEST(QueryRangesTest, ClipsToTheLoadedSpan) {
  const Timeline two_days(kTimelineEnd, 2 * kDay);
  const TimeWindow seven = WindowInSeconds(RangeQuery::kLast7Days, two_days, two_days.latest_s());
  EXPECT_EQ(seven.expected_rows, 2 * 17280);
  EXPECT_EQ(seven.lower_exclusive, two_days.start_s() - 5);
  EXPECT_EQ(seven.days, (std::vector<int32_t>{19674, 19675}));

  // Background reads during the load look back from the newest loaded row.
  const int64_t as_of = two_days.start_s() + 600;
  const TimeWindow hour = WindowInSeconds(RangeQuery::kLastHour, two_days, as_of);
  EXPECT_EQ(hour.expected_rows, 121);
  EXPECT_EQ(hour.days, std::vector<int32_t>{19674});
  EXPECT_THROW(WindowInSeconds(RangeQuery::kLastHour, two_days, as_of + 1), std::invalid_argument);
  EXPECT_THROW(WindowInSeconds(RangeQuery::kLastHour, two_days, kTimelineEnd),
               std::invalid_argument);

  const TimeWindow hour_ms = WindowInMilliseconds(RangeQuery::kLastHour, two_days, as_of);
  EXPECT_EQ(hour_ms.upper_inclusive, as_of * 1000);
  EXPECT_EQ(hour_ms.lower_exclusive, hour.lower_exclusive * 1000);
}

TEST(QueryRangesTest, DayListSpansMidnight) {
  const Timeline two_days(kTimelineEnd, 2 * kDay);
  const int64_t just_after_midnight = kTimelineEnd - kDay + 600;
  const TimeWindow hour = WindowInSeconds(RangeQuery::kLastHour, two_days, just_after_midnight);
  EXPECT_EQ(hour.days, (std::vector<int32_t>{19674, 19675}));
  EXPECT_EQ(hour.expected_rows, 720);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
