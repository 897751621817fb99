#include "db_bench_ext/report_files.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "db_bench_ext/report_charts.h"
#include "db_bench_ext/results_json.h"
#include "db_bench_ext/results_markdown.h"

namespace columnar {
namespace bench {
namespace {

constexpr char kChartDir[] = "charts";

void WriteFile(const std::filesystem::path& path, const std::string& contents,
               std::vector<std::string>* written) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
  written->push_back(path.string());
}

}  // namespace

std::vector<std::string> WriteReport(const BenchmarkResults& results, const std::string& dir) {
  const std::filesystem::path root(dir);
  std::filesystem::create_directories(root / kChartDir);
  const std::vector<ChartFile> charts = BuildCharts(results);
  std::vector<std::string> written;
  WriteFile(root / "results.json", ResultsToJson(results), &written);
  WriteFile(root / "results.md", RenderResultsMarkdown(results, charts), &written);
  WriteFile(root / "index.html", RenderChartIndexHtml(results, charts, kChartDir), &written);
  for (const ChartFile& chart : charts) {
    WriteFile(root / kChartDir / chart.file_name, chart.svg, &written);
  }
  return written;
}

}  // namespace bench
}  // namespace columnar
