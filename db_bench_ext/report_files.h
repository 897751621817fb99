// Writes a run's report directory: results.json, results.md, index.html and charts/*.svg.
#pragma once

#include <string>
#include <vector>

#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {

// Creates `dir` (and charts/ inside it) when missing and returns the paths written; throws
// std::runtime_error when a file cannot be written.
std::vector<std::string> WriteReport(const BenchmarkResults& results, const std::string& dir);

}  // namespace bench
}  // namespace columnar
