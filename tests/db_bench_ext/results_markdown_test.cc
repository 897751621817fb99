#include "db_bench_ext/results_markdown.h"

#include <gtest/gtest.h>

#include "db_bench_ext/report_charts.h"
#include "tests/db_bench_ext/sample_results.h"

namespace columnar {
namespace bench {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ResultsMarkdownTest, RatioFormatting) {
  EXPECT_EQ(FigureWithRatio(5.12, 12.8), "5.12 (0.40x)");
  EXPECT_EQ(FigureWithRatio(39871, 5598), "39,871 (7.12x)");
  EXPECT_EQ(FigureWithRatio(5.12, std::nullopt), "5.12");
  EXPECT_EQ(FigureWithRatio(5.12, 0), "5.12");
  EXPECT_EQ(StorageComparison(8.29, 15.03), "1.81x smaller");
  EXPECT_EQ(StorageComparison(5.94, 15.03), "2.53x smaller");
  EXPECT_EQ(StorageComparison(16.5, 15), "1.10x larger");
  EXPECT_EQ(StorageComparison(15.001, 15), "same size");
  EXPECT_EQ(StorageComparison(15, std::nullopt), "");
}

// With entropy estimates, the per-column table gets one more column: the estimate of the last
// configuration that has them, in bytes per row.
TEST(ResultsMarkdownTest, ColumnTableShowsTheEntropyEstimate) {
  BenchmarkResults results = testing::SampleResults();
  for (ConfigResult& config : results.workloads[0].configs) {
    if (config.config == "C") config.column_entropy_bits = {{"time", 8 * 172800 * 0.25}};
  }
  const std::string md = RenderResultsMarkdown(results, BuildCharts(results));
  EXPECT_TRUE(Contains(md, "| column | A | C | entropy est. (C) |")) << md;
  EXPECT_TRUE(Contains(md, "| 0.25 |")) << md;
  EXPECT_TRUE(Contains(md, "| n/a |")) << md;  // value: no estimate
}

TEST(ResultsMarkdownTest, TablesCarryRatiosAgainstA) {
  const BenchmarkResults results = testing::SampleResults();
  const std::string md = RenderResultsMarkdown(results, BuildCharts(results));
  EXPECT_TRUE(Contains(md, "## metrics (172,800 points)"));
  EXPECT_TRUE(Contains(md, "## access16 (172,800 rows)"));
  // Storage: bytes per row with ratio, and the "smaller" reading.
  EXPECT_TRUE(Contains(md, "| C | 4 MB | 23.1 (0.40x) | 2.50x smaller |"));
  EXPECT_TRUE(Contains(md, "| A | 10 MB | 57.9 | baseline |"));
  // Per-column bytes per point.
  EXPECT_TRUE(Contains(md, "### Storage by column (bytes/point)"));
  EXPECT_TRUE(Contains(md, "| time | 0.521 | 0.00579 (0.01x) |"));
  // Ingestion.
  EXPECT_TRUE(Contains(md, "| C | 400,000 (0.80x) | 40 (1.25x) |"));
  // Query: p50/p99 in ms and qps per reader count, each with its ratio.
  EXPECT_TRUE(Contains(md, "| config | p50 ms | p99 ms | qps, 16 readers | qps, 32 readers |"));
  EXPECT_TRUE(Contains(md, "| C | 1.32 (0.78x) | 3.11 (0.76x) | 9,010 (1.25x) | 9,500 (1.28x) |"));
  EXPECT_TRUE(
      Contains(md, "Correctness: 14,400 rows, hash `00ff17a2` — identical across configs."));
  EXPECT_TRUE(Contains(md, "Counters: C: groups_skipped=1,234"));
  EXPECT_TRUE(Contains(md, "every query returned identical rows and hashes"));
  EXPECT_TRUE(Contains(md, "- [last_1h latency](charts/access16-last_1h-latency.svg)"));
  EXPECT_FALSE(Contains(md, "MISMATCH"));
}

// Measured in rounds, a throughput's ratio is the median of the rounds' ratios (each round
// measures the configurations in turn) with their range; a configuration whose database an
// earlier run loaded shows no load figures.
TEST(ResultsMarkdownTest, RoundsShowTheMedianRatioAndItsRange) {
  BenchmarkResults results = testing::SampleResults();
  results.metadata.parameters.emplace_back("query_rounds", "3");
  WorkloadResult& metrics = results.workloads[0];
  // A and C at 16 readers: per-round ratios 1.10, 1.80, 1.30 -> median 1.30, range 1.10-1.80
  // (the ratio of the medians, 1,100 / 1,000, is another figure).
  metrics.configs[0].queries[0].qps_rounds_by_concurrency = {{16, {1000, 500, 1000}}};
  metrics.configs[1].queries[0].qps_rounds_by_concurrency = {{16, {1100, 900, 1300}}};
  metrics.configs[1].queries[0].qps_by_concurrency[16] = 1100;
  metrics.configs[0].queries[0].qps_by_concurrency[16] = 1000;
  for (ConfigResult& config : metrics.configs) {
    config.loaded = false;
    config.ingest_rows_per_sec = std::nan("");
  }
  const std::string md = RenderResultsMarkdown(results, BuildCharts(results));
  EXPECT_TRUE(Contains(md, "| 1,100 (1.30x, 1.10x-1.80x) |")) << md;
  EXPECT_TRUE(Contains(md, "| A | 1.69 | 4.1 | 1,000 | 7,400 |")) << md;
  EXPECT_TRUE(Contains(md, "the median of the rounds' ratios against A")) << md;
  EXPECT_TRUE(Contains(md, "n/a (existing database)")) << md;
  EXPECT_TRUE(Contains(md, "| A | n/a | 32 | 1.8 | 0.44 | 7.98 | 69.5 | 181 | n/a | n/a |")) << md;
  // Without rounds in A the ratio is the plain one.
  metrics.configs[0].queries[0].qps_rounds_by_concurrency.clear();
  const std::string plain = RenderResultsMarkdown(results, BuildCharts(results));
  EXPECT_TRUE(Contains(plain, "| 1,100 (1.10x) |")) << plain;
  EXPECT_FALSE(Contains(RenderResultsMarkdown(testing::SampleResults(), {}), "rounds"));
}

TEST(ResultsMarkdownTest, MismatchIsFlaggedOnTheQueryAndAtTheTop) {
  BenchmarkResults results = testing::SampleResults();
  results.workloads[1].configs[1].queries[0].rows = 14399;
  const std::string md = RenderResultsMarkdown(results, {});
  EXPECT_TRUE(Contains(md, "**Correctness: MISMATCH**"));
  EXPECT_TRUE(Contains(md, "- access8/last_1h: A: 14,400 rows, hash 00ff17a2; C: 14,399 rows"));
  EXPECT_TRUE(Contains(md, "Correctness: **MISMATCH** — A: 14,400 rows"));
  // The same query of the other workloads still agrees.
  EXPECT_TRUE(
      Contains(md, "Correctness: 14,400 rows, hash `00ff17a2` — identical across configs."));
}

TEST(ResultsMarkdownTest, WithoutConfigANoRatiosAreShown) {
  BenchmarkResults results;
  results.workloads = {testing::SampleWorkload("metrics", 1)};
  results.workloads[0].configs.erase(results.workloads[0].configs.begin());
  const std::string md = RenderResultsMarkdown(results, {});
  EXPECT_TRUE(Contains(md, "| C | 1.32 | 3.11 | 9,010 | 9,500 |"));
  EXPECT_FALSE(Contains(md, "x)"));
}

}  // namespace
}  // namespace bench
}  // namespace columnar
