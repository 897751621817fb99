// The regular-column filters of the access-log queries (source 000, "Filtered Requests"):
// conjunctions of comparisons evaluated with ALLOW FILTERING over a one-hour range. Described as
// data so the benchmark can translate them to pushdown predicates, print them as CQL, and check
// returned rows against a reference evaluation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db_bench_ext/access_workload.h"

namespace columnar {
namespace bench {

struct AccessFilter {
  std::string name;                         // short identifier used in query names, e.g. "5xx_slow"
  std::optional<int32_t> min_status;        // status >= x
  std::optional<std::string> method;        // method = 'x'
  std::optional<std::string> country;       // country = 'x'
  std::optional<int32_t> latency_above_ms;  // latency_ms > x
  std::optional<std::string> protocol;      // protocol = 'x'
  bool user_id_equals_parameter = false;    // user_id = ? (bound per query)

  // The narrowest table width (4, 8 or 16) holding every filtered column.
  int MinWidth() const;
  // The conditions in CQL, e.g. "status >= 500 AND latency_ms > 1000".
  std::string ToCql() const;
  // Reference evaluation on a generated row; `user_id` binds the user_id parameter.
  bool Matches(const AccessRow& row, const std::string& user_id) const;
};

// The nine filters of the source documents, in their order: 5xx, POST, JP, slow, user, JP POST,
// 5xx POST, 5xx slow, HTTP/1.1 5xx slow.
const std::vector<AccessFilter>& AccessFilters();

}  // namespace bench
}  // namespace columnar
