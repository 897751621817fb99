// Queries measured in several rounds (db_bench_ext --query_rounds): every configuration's
// queries are measured once a round, the configurations taking turns, so that a ratio against
// A is taken between measurements made minutes apart at most, and the spread of the rounds
// shows how far a figure can be trusted on a noisy machine.
#pragma once

#include <string>
#include <vector>

#include "db_bench_ext/results.h"

namespace columnar {
namespace bench {

// The median of `values` (the mean of the middle two for an even count); NaN when empty.
double Median(std::vector<double> values);

// One query's rounds as one result: the median of every figure (latencies, throughputs,
// counters), and each round's throughput kept in qps_rounds_by_concurrency. Returns an empty
// string, or an error when the rounds disagree on what the query returned (its verification
// draws are the same in every round) or on what was measured.
std::string CombineQueryRounds(const std::vector<QueryResult>& rounds, QueryResult* combined);

}  // namespace bench
}  // namespace columnar
