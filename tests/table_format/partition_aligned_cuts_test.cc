// PartitionAlignedCuts: groups cut where long partitions end, as a file's writer cuts them
// (the builder's loop, simulated here), against the rule written out row by row.
#include "table_format/partition_aligned_cuts.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace columnar {
namespace {

// The groups a writer cuts from partitions of the given row counts (in file order): at
// rows_per_group rows or where PartitionAlignedCuts says, whichever comes first, re-asked
// after every row, as ColumnarTableBuilder::CutBufferedGroups does.
std::vector<size_t> WriterGroups(const std::vector<size_t>& partitions, size_t rows_per_group) {
  PartitionAlignedCuts cuts(rows_per_group);
  std::vector<size_t> groups;
  uint64_t rows = 0;
  uint64_t open_first = 0;
  for (size_t p = 0; p < partitions.size(); p++) {
    for (size_t i = 0; i < partitions[p]; i++) {
      if (p > 0 && i == 0) cuts.AddPartitionStart(rows);
      rows++;
      for (;;) {
        const size_t previous = groups.empty() ? 0 : groups.back();
        size_t cut = cuts.Cut(open_first > 0, open_first - previous, open_first);
        if (rows - open_first >= rows_per_group && (cut == 0 || cut > rows_per_group)) {
          cut = rows_per_group;
        }
        if (cut == 0) break;
        groups.push_back(cut);
        cuts.ForgetThrough(open_first);
        open_first += cut;
      }
    }
  }
  if (rows > open_first) groups.push_back(static_cast<size_t>(rows - open_first));
  return groups;
}

// The rule of partition_aligned_cuts.h applied from its definition, with every row's
// partition at hand.
std::vector<size_t> RuleGroups(const std::vector<size_t>& partitions, size_t rows_per_group) {
  std::vector<size_t> partition_of;
  for (size_t p = 0; p < partitions.size(); p++) {
    partition_of.insert(partition_of.end(), partitions[p], p);
  }
  const size_t min_tail = std::max<size_t>(1, rows_per_group / 16);
  std::vector<size_t> groups;
  size_t open_first = 0;
  size_t previous_first = 0;
  while (open_first < partition_of.size()) {
    size_t end = std::min(partition_of.size(), open_first + rows_per_group);
    // The first partition start inside the group; the rows before it are of one partition,
    // which ends the group when it also held the previous group's first row (or the group is
    // the file's first) and leaves at least min_tail rows.
    size_t start = open_first + 1;
    while (start < end && partition_of[start] == partition_of[start - 1]) start++;
    const bool continues =
        groups.empty() || partition_of[previous_first] == partition_of[open_first];
    if (start < end && continues && start - open_first >= min_tail) end = start;
    groups.push_back(end - open_first);
    previous_first = open_first;
    open_first = end;
  }
  return groups;
}

TEST(PartitionAlignedCutsTest, AFileBeginningInsideASeriesKeepsItsGroupsInStep) {
  // A compaction output beginning 40 rows before a series' end, then series of 3 groups each.
  const std::vector<size_t> groups = WriterGroups({40, 384, 384, 384}, 128);
  const std::vector<size_t> expected = {40, 128, 128, 128, 128, 128, 128, 128, 128, 128};
  EXPECT_EQ(groups, expected);
}

TEST(PartitionAlignedCutsTest, LongPartitionsEndTheirLastGroup) {
  const std::vector<size_t> groups = WriterGroups({300, 300, 300}, 128);
  const std::vector<size_t> expected = {128, 128, 44, 128, 128, 44, 128, 128, 44};
  EXPECT_EQ(groups, expected);
}

TEST(PartitionAlignedCutsTest, ShortPartitionsShareFullGroups) {
  // Partitions that begin inside a group are never cut at. Only the file's first group ends
  // with its partition (it may be the end of a long one; see below).
  EXPECT_EQ(WriterGroups(std::vector<size_t>(40, 10), 128),
            (std::vector<size_t>{10, 128, 128, 128, 6}));
  EXPECT_EQ(WriterGroups(std::vector<size_t>(10, 100), 128),
            (std::vector<size_t>{100, 128, 128, 128, 128, 128, 128, 128, 4}));
}

TEST(PartitionAlignedCutsTest, TailsUnderAGroupSixteenthStraddle) {
  // 130-row partitions: a 2-row tail is not worth a group of its own; the tails grow by 2 rows
  // a partition until one reaches 8 rows.
  const std::vector<size_t> partitions(16, 130);
  const std::vector<size_t> groups = WriterGroups(partitions, 128);
  size_t rows = 0;
  for (size_t i = 0; i < groups.size(); i++) {
    EXPECT_LE(groups[i], 128u);
    if (i + 1 < groups.size()) {
      EXPECT_GE(groups[i], 8u) << "group " << i;
    }
    rows += groups[i];
  }
  EXPECT_EQ(rows, 16u * 130);
  EXPECT_LE(groups.size(), 18u) << "17 groups hold the rows; a cut at every 2-row tail makes 32";
}

TEST(PartitionAlignedCutsTest, TheFirstGroupOfAFileEndsWithItsPartition) {
  // The file's first group counts as continuing a partition (a file usually begins inside one).
  EXPECT_EQ(WriterGroups({50, 200}, 128), (std::vector<size_t>{50, 128, 72}));
  // Under the shortest tail it straddles, and the rest stays out of step.
  EXPECT_EQ(WriterGroups({5, 256, 256}, 128), (std::vector<size_t>{128, 128, 128, 128, 5}));
}

TEST(PartitionAlignedCutsTest, RandomPartitionsCutAsTheRuleSays) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 400; round++) {
    const size_t rows_per_group = std::uniform_int_distribution<size_t>(1, 200)(rng);
    const size_t max_partition = std::uniform_int_distribution<size_t>(1, 3 * rows_per_group)(rng);
    std::vector<size_t> partitions(std::uniform_int_distribution<size_t>(1, 60)(rng));
    for (size_t& rows : partitions) {
      rows = std::uniform_int_distribution<size_t>(1, max_partition)(rng);
    }
    ASSERT_EQ(WriterGroups(partitions, rows_per_group), RuleGroups(partitions, rows_per_group))
        << "round " << round << ", rows_per_group " << rows_per_group;
  }
}

TEST(PartitionAlignedCutsTest, TheShortestTailIsASixteenthOfAGroup) {
  EXPECT_EQ(PartitionAlignedCuts(128).min_tail_rows(), 8u);
  EXPECT_EQ(PartitionAlignedCuts(1024).min_tail_rows(), 64u);
  EXPECT_EQ(PartitionAlignedCuts(10).min_tail_rows(), 1u);
  EXPECT_EQ(PartitionAlignedCuts(0).min_tail_rows(), 1u);
}

}  // namespace
}  // namespace columnar
