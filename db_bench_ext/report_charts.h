// The report's charts: per workload, storage (bytes per row), ingestion (rows/s), write latency
// (p99 / p99.9), CPU per million rows, and for each query its p50/p99 latency and its
// throughput per reader count, one bar group per configuration.
//
// Shared scales, as in the source documents ("All three plots use the same 0 to 16 GB scale"):
// a figure's charts use the same axis maximum across the workloads of one family (access4,
// access8 and access16 form the "access" family; metrics is its own), axes start at zero, and
// p50 and p99 share one axis.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {

struct ChartFile {
  std::string workload;
  std::string file_name;  // e.g. "access16-last_1h_5xx-latency.svg"
  std::string title;
  std::string svg;
};

// Workload name without its trailing width digits: "access16" -> "access".
std::string ScaleFamily(std::string_view workload);
std::vector<ChartFile> BuildCharts(const BenchmarkResults& results);
// A page showing every chart (in `chart_dir`, relative to the page), grouped by workload.
std::string RenderChartIndexHtml(const BenchmarkResults& results,
                                 const std::vector<ChartFile>& charts,
                                 const std::string& chart_dir);

}  // namespace bench
}  // namespace columnar
