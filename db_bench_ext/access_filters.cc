#include "db_bench_ext/access_filters.h"

#include <algorithm>

namespace columnar {
namespace bench {
namespace {

// Position (1-based) of a column among the regular columns: the width that first includes it.
int ColumnWidth(const std::string& column) {
  const std::vector<std::string>& columns = AccessRegularColumns();
  const auto position = std::find(columns.begin(), columns.end(), column) - columns.begin() + 1;
  return position <= 4 ? 4 : position <= 8 ? 8 : 16;
}

AccessFilter Filter(std::string name) {
  AccessFilter filter;
  filter.name = std::move(name);
  return filter;
}

}  // namespace

int AccessFilter::MinWidth() const {
  int width = 4;
  auto need = [&](bool used, const char* column) {
    if (used) width = std::max(width, ColumnWidth(column));
  };
  need(min_status.has_value(), "status");
  need(method.has_value(), "method");
  need(country.has_value(), "country");
  need(latency_above_ms.has_value(), "latency_ms");
  need(protocol.has_value(), "protocol");
  need(user_id_equals_parameter, "user_id");
  return width;
}

std::string AccessFilter::ToCql() const {
  std::vector<std::string> conditions;
  if (protocol) conditions.push_back("protocol = '" + *protocol + "'");
  if (country) conditions.push_back("country = '" + *country + "'");
  if (min_status) conditions.push_back("status >= " + std::to_string(*min_status));
  if (method) conditions.push_back("method = '" + *method + "'");
  if (latency_above_ms) conditions.push_back("latency_ms > " + std::to_string(*latency_above_ms));
  if (user_id_equals_parameter) conditions.push_back("user_id = ?");
  std::string cql;
  for (const std::string& condition : conditions) {
    if (!cql.empty()) cql += " AND ";
    cql += condition;
  }
  return cql;
}

bool AccessFilter::Matches(const AccessRow& row, const std::string& user_id) const {
  if (min_status && row.status < *min_status) return false;
  if (method && row.method != *method) return false;
  if (country && row.country != *country) return false;
  if (latency_above_ms && row.latency_ms <= *latency_above_ms) return false;
  if (protocol && row.protocol != *protocol) return false;
  if (user_id_equals_parameter && row.user_id != user_id) return false;
  return true;
}

const std::vector<AccessFilter>& AccessFilters() {
  static const std::vector<AccessFilter> kFilters = [] {
    std::vector<AccessFilter> filters;
    AccessFilter f = Filter("5xx");
    f.min_status = 500;
    filters.push_back(f);
    f = Filter("post");
    f.method = "POST";
    filters.push_back(f);
    f = Filter("jp");
    f.country = "JP";
    filters.push_back(f);
    f = Filter("slow");
    f.latency_above_ms = 1000;
    filters.push_back(f);
    f = Filter("user");
    f.user_id_equals_parameter = true;
    filters.push_back(f);
    f = Filter("jp_post");
    f.country = "JP";
    f.method = "POST";
    filters.push_back(f);
    f = Filter("5xx_post");
    f.min_status = 500;
    f.method = "POST";
    filters.push_back(f);
    f = Filter("5xx_slow");
    f.min_status = 500;
    f.latency_above_ms = 1000;
    filters.push_back(f);
    f = Filter("http11_5xx_slow");
    f.protocol = "HTTP/1.1";
    f.min_status = 500;
    f.latency_above_ms = 1000;
    filters.push_back(f);
    return filters;
  }();
  return kFilters;
}

}  // namespace bench
}  // namespace columnar
