#include "table_format/partition_directory.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace columnar {
namespace {

// A directory over groups whose first keys lie in `partitions` (one per group, in order).
std::unique_ptr<PartitionDirectory> DirectoryOf(const std::vector<std::string>& partitions,
                                                std::vector<bool>* previous_given = nullptr) {
  return PartitionDirectory::Build(partitions.size(),
                                   [&](size_t group, const Slice* previous, Slice* partition) {
                                     if (previous_given != nullptr)
                                       previous_given->push_back(previous != nullptr);
                                     if (partitions[group].empty()) return false;
                                     *partition = Slice(partitions[group]);
                                     return true;
                                   });
}

TEST(PartitionDirectoryTest, FindsEachPartitionsRunOfGroups) {
  const std::vector<std::string> partitions = {"a", "a", "a", "b", "c", "c", "d"};
  std::vector<bool> previous_given;
  const auto directory = DirectoryOf(partitions, &previous_given);
  ASSERT_NE(directory, nullptr);
  EXPECT_EQ(directory->runs(), 4u);
  EXPECT_EQ(previous_given, (std::vector<bool>{false, true, true, true, true, true, true}));
  const struct {
    const char* partition;
    uint32_t first_group;
    uint32_t groups;
  } expected[] = {{"a", 0, 3}, {"b", 3, 1}, {"c", 4, 2}, {"d", 6, 1}};
  for (const auto& e : expected) {
    const PartitionDirectory::Run* run = directory->Find(e.partition);
    ASSERT_NE(run, nullptr) << e.partition;
    EXPECT_EQ(run->first_group, e.first_group) << e.partition;
    EXPECT_EQ(run->groups, e.groups) << e.partition;
  }
  // A partition no group begins in (it may lie inside a group) has no run.
  EXPECT_EQ(directory->Find("bb"), nullptr);
  EXPECT_EQ(directory->Find(""), nullptr);
  EXPECT_GT(directory->ApproximateMemoryUsage(), 0u);
}

TEST(PartitionDirectoryTest, ManyPartitionsEachFound) {
  std::vector<std::string> partitions;
  for (int p = 0; p < 5000; p++) {
    for (int g = 0; g < 1 + p % 3; g++) partitions.push_back("partition-" + std::to_string(p));
  }
  const auto directory = DirectoryOf(partitions);
  ASSERT_NE(directory, nullptr);
  EXPECT_EQ(directory->runs(), 5000u);
  size_t group = 0;
  for (int p = 0; p < 5000; p++) {
    const PartitionDirectory::Run* run = directory->Find("partition-" + std::to_string(p));
    ASSERT_NE(run, nullptr) << p;
    EXPECT_EQ(run->first_group, group) << p;
    EXPECT_EQ(run->groups, 1u + p % 3) << p;
    group += run->groups;
  }
}

// Out-of-order first keys (a partition's groups not consecutive) or a key without a partition:
// no directory, so that seeks fall back to the search over every first key.
TEST(PartitionDirectoryTest, NoDirectoryWhenThePartitionsAreNotRuns) {
  EXPECT_EQ(DirectoryOf({"a", "b", "a"}), nullptr);
  EXPECT_EQ(DirectoryOf({"a", "", "b"}), nullptr);
  EXPECT_EQ(DirectoryOf({}), nullptr);
  EXPECT_NE(DirectoryOf({"a"}), nullptr);
}

}  // namespace
}  // namespace columnar
