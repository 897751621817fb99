#include "db_bench_ext/report_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "db_bench_ext/machine_info.h"
#include "tests/db_bench_ext/sample_results.h"

namespace columnar {
namespace bench {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ReportFilesTest, WritesJsonMarkdownIndexAndCharts) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("db_bench_ext_report_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const std::vector<std::string> written = WriteReport(testing::SampleResults(), dir.string());
  EXPECT_EQ(written.size(), 3u + 24u);
  for (const std::string& path : written) {
    EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path;
    EXPECT_GT(std::filesystem::file_size(path), 100u) << path;
  }
  EXPECT_EQ(ReadFile(dir / "results.json").front(), '{');
  EXPECT_EQ(ReadFile(dir / "results.md").rfind("# db_bench_ext results", 0), 0u);
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "charts" / "access16-storage.svg"));
  EXPECT_NE(ReadFile(dir / "index.html").find("charts/metrics-ingest.svg"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(ReportFilesTest, UnwritableDirectoryThrows) {
  EXPECT_ANY_THROW(WriteReport(testing::SampleResults(), "/proc/db_bench_ext_cannot_write"));
}

TEST(MachineInfoTest, DetectsCoresAndFormatsDates) {
  const MachineInfo machine = DetectMachine();
  EXPECT_GE(machine.cores, 1);
  EXPECT_FALSE(machine.cpu_model.empty());
  EXPECT_GT(machine.memory_bytes, 0u);
  EXPECT_EQ(FormatUtcTimestamp(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatUtcTimestamp(19676LL * 86400 + 3723), "2023-11-15T01:02:03Z");
}

}  // namespace
}  // namespace bench
}  // namespace columnar
