#include "db_bench_ext/load_record.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace columnar {
namespace bench {
namespace {

class LoadRecordTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("load_record_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static LoadRecord Sample() {
    LoadRecord record;
    record.workload = "metrics";
    record.config = "C";
    record.series = 1000;
    record.instances = 100;
    record.hosts = 7;
    record.duration_s = 86400;
    record.seed = 3;
    record.end_time_s = 1796342400;
    record.rows = 17280000;
    return record;
  }
  void WriteFile(const std::string& text) const {
    std::ofstream(LoadRecordPath(dir_.string())) << text;
  }

  std::filesystem::path dir_;
};

TEST_F(LoadRecordTest, RoundTripsEveryField) {
  ASSERT_EQ(WriteLoadRecord(dir_.string(), Sample()), "");
  LoadRecord read;
  ASSERT_EQ(ReadLoadRecord(dir_.string(), &read), "");
  const LoadRecord expected = Sample();
  EXPECT_EQ(read.workload, expected.workload);
  EXPECT_EQ(read.config, expected.config);
  EXPECT_EQ(read.series, expected.series);
  EXPECT_EQ(read.instances, expected.instances);
  EXPECT_EQ(read.hosts, expected.hosts);
  EXPECT_EQ(read.duration_s, expected.duration_s);
  EXPECT_EQ(read.seed, expected.seed);
  EXPECT_EQ(read.end_time_s, expected.end_time_s);
  EXPECT_EQ(read.rows, expected.rows);
}

// The file's bytes are fixed: a later build must read what an earlier one kept.
TEST_F(LoadRecordTest, FileLayoutIsFixed) {
  ASSERT_EQ(WriteLoadRecord(dir_.string(), Sample()), "");
  std::ifstream in(LoadRecordPath(dir_.string()));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text,
            "db_bench_ext load 1\nworkload metrics\nconfig C\nseries 1000\ninstances 100\n"
            "hosts 7\nduration_s 86400\nseed 3\nend_time_s 1796342400\nrows 17280000\n");
}

TEST_F(LoadRecordTest, MissingOrMalformedFilesAreErrors) {
  LoadRecord read = Sample();
  EXPECT_NE(ReadLoadRecord(dir_.string(), &read).find("--keep_db"), std::string::npos);
  const std::string good =
      "db_bench_ext load 1\nworkload metrics\nconfig C\nseries 1000\ninstances 100\n"
      "hosts 7\nduration_s 86400\nseed 3\nend_time_s 1796342400\nrows 17280000\n";
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"", "not a db_bench_ext load record"},
      {"db_bench_ext load 2\n", "not a db_bench_ext load record"},
      {good.substr(0, good.find("rows")), "incomplete"},
      {good + "extra 1\n", "unexpected line 'extra 1'"},
      {"db_bench_ext load 1\nworkload metrics\nconfig C\nseries 1e3\n", "unexpected line"},
      {"db_bench_ext load 1\nworkload metrics\nconfig C\nseries -1\n", "unexpected line"},
      {"db_bench_ext load 1\nconfig C\nworkload metrics\n", "unexpected line 'config C'"},
      {"db_bench_ext load 1\nworkload \n", "unexpected line"},
  };
  for (const auto& [text, error] : bad) {
    WriteFile(text);
    LoadRecord untouched = Sample();
    untouched.rows = 5;
    const std::string message = ReadLoadRecord(dir_.string(), &untouched);
    EXPECT_NE(message.find(error), std::string::npos) << text << " -> " << message;
    EXPECT_EQ(untouched.rows, 5u) << "a failed read must leave the record alone";
  }
  WriteFile(good);
  EXPECT_EQ(ReadLoadRecord(dir_.string(), &read), "");
}

TEST_F(LoadRecordTest, MismatchNamesTheFirstDifferenceButNotTheLoadsOutcome) {
  const LoadRecord wanted = Sample();
  LoadRecord found = Sample();
  found.end_time_s = 1;  // another day
  found.rows = 2;        // what the load wrote
  EXPECT_EQ(LoadRecordMismatch(found, wanted), "");
  found.series = 50;
  EXPECT_EQ(LoadRecordMismatch(found, wanted), "loaded with series 50, this run asks for 1000");
  found = Sample();
  found.seed = 9;
  EXPECT_EQ(LoadRecordMismatch(found, wanted), "loaded with seed 9, this run asks for 3");
  found = Sample();
  found.config = "A";
  EXPECT_EQ(LoadRecordMismatch(found, wanted), "loaded with config A, this run asks for C");
}

}  // namespace
}  // namespace bench
}  // namespace columnar
