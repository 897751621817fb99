#include "tools/shell_tracing.h"

#include <cstdio>
#include <utility>
#include <vector>

namespace columnar {

std::string FormatTracing(const std::string& table, const std::string& table_format,
                          const SelectStats& stats, int64_t elapsed_nanos) {
  const std::vector<std::pair<const char*, uint64_t>> counters = {
      {"files skipped", stats.files_skipped},
      {"row groups pruned", stats.row_groups_pruned},
      {"row groups without match", stats.row_groups_without_match},
      {"row groups with match", stats.row_groups_with_match},
      {"rows built", stats.rows_built},
      {"placeholders", stats.placeholders},
      {"rows dropped by readers", stats.rows_dropped},
      {"rows rejected after the merge", stats.rows_rejected_after_merge},
      {"rows read as column vectors", stats.rows_columnar},
      {"rows read through iterators", stats.rows_row_path},
      {"columns decoded", stats.columnar_columns_decoded},
      {"columns from the cache", stats.columnar_columns_cached},
  };
  std::string out = "Tracing: " + table + " (" + table_format + ")\n";
  char line[96];
  for (const auto& [label, count] : counters) {
    std::snprintf(line, sizeof(line), "  %-30s %12llu\n", label,
                  static_cast<unsigned long long>(count));
    out += line;
  }
  std::snprintf(line, sizeof(line), "  %-30s %12.3f ms\n", "elapsed",
                static_cast<double>(elapsed_nanos) / 1e6);
  return out + line;
}

}  // namespace columnar
