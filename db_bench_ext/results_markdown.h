// results.md: per workload, tables for storage, ingestion and each query, every figure with its
// ratio against configuration A of the same run, a correctness line per query, and links to the
// charts.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db_bench_ext/report_charts.h"
#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {

// "5.12 (0.40x)": the figure and value / baseline; just the figure without a usable baseline.
std::string FigureWithRatio(double value, std::optional<double> baseline);
// Storage against the baseline, in the reading direction: "2.53x smaller", "1.10x larger",
// "same size"; empty without a usable baseline.
std::string StorageComparison(double value, std::optional<double> baseline);

std::string RenderResultsMarkdown(const BenchmarkResults& results,
                                  const std::vector<ChartFile>& charts);

}  // namespace bench
}  // namespace columnar
