// results.json: the whole results model plus the correctness gate's verdict, keys in a fixed
// order so runs diff cleanly.
#pragma once

#include <string>

#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {

std::string ResultsToJson(const BenchmarkResults& results);

}  // namespace bench
}  // namespace columnar
