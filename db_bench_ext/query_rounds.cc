#include "db_bench_ext/query_rounds.h"

#include <algorithm>
#include <cmath>

namespace columnar {
namespace bench {

double Median(std::vector<double> values) {
  if (values.empty()) {
    return std::nan("");
  }
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

namespace {

// A round measured the same as the first: same rows, hash, reader counts and counters.
std::string Disagreement(const QueryResult& first, const QueryResult& round, size_t index) {
  const std::string which = "query " + first.name + ", round " + std::to_string(index + 1) + ": ";
  if (round.name != first.name) {
    return which + "measured query " + round.name;
  }
  if (round.rows != first.rows || round.result_hash != first.result_hash) {
    return which + "returned " + std::to_string(round.rows) + " rows, hash " + round.result_hash +
           "; round 1 " + std::to_string(first.rows) + " rows, hash " + first.result_hash;
  }
  if (round.qps_by_concurrency.size() != first.qps_by_concurrency.size()) {
    return which + "measured other reader counts";
  }
  for (const auto& [readers, qps] : first.qps_by_concurrency) {
    if (round.qps_by_concurrency.count(readers) == 0) {
      return which + "measured other reader counts";
    }
  }
  if (round.counters.size() != first.counters.size()) {
    return which + "has other counters";
  }
  for (size_t k = 0; k < first.counters.size(); k++) {
    if (round.counters[k].first != first.counters[k].first) {
      return which + "has other counters";
    }
  }
  return "";
}

}  // namespace

std::string CombineQueryRounds(const std::vector<QueryResult>& rounds, QueryResult* combined) {
  if (rounds.empty()) {
    return "no rounds to combine";
  }
  const QueryResult& first = rounds.front();
  for (size_t i = 1; i < rounds.size(); i++) {
    std::string error = Disagreement(first, rounds[i], i);
    if (!error.empty()) {
      return error;
    }
  }
  auto each_round = [&rounds](auto figure) {
    std::vector<double> values;
    values.reserve(rounds.size());
    for (const QueryResult& round : rounds) {
      values.push_back(figure(round));
    }
    return values;
  };
  QueryResult result = first;
  result.p50_us = Median(each_round([](const QueryResult& q) { return q.p50_us; }));
  result.p99_us = Median(each_round([](const QueryResult& q) { return q.p99_us; }));
  result.qps_rounds_by_concurrency.clear();
  for (auto& [readers, qps] : result.qps_by_concurrency) {
    const int r = readers;
    std::vector<double> per_round =
        each_round([r](const QueryResult& q) { return q.qps_by_concurrency.at(r); });
    qps = Median(per_round);
    if (rounds.size() > 1) {
      result.qps_rounds_by_concurrency[r] = std::move(per_round);
    }
  }
  for (size_t k = 0; k < result.counters.size(); k++) {
    result.counters[k].second =
        Median(each_round([k](const QueryResult& q) { return q.counters[k].second; }));
  }
  *combined = std::move(result);
  return "";
}

}  // namespace bench
}  // namespace columnar
