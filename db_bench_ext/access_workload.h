// Workload 2 (source 000, Part 3): HTTP access logs, tables logs.access4 / access8 / access16.
//
//   PRIMARY KEY ((orgid, service, instance, day), time) WITH CLUSTERING ORDER BY (time DESC)
//
// One partition per instance per UTC day, one request every 5 s. Column distributions follow
// BENCHMARKS.md's table. AccessWorkload is the immutable description (instances, vocabularies,
// query parameters) and is safe to share between threads; AccessGenerator is the single producer
// of the load batches.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db_bench_ext/access_vocabulary.h"
#include "db_bench_ext/query_ranges.h"
#include "db_bench_ext/random_distributions.h"
#include "db_bench_ext/timeline.h"

namespace columnar {
namespace bench {

// The 16 regular columns of access16 in table order; access4 and access8 hold the first 4 and 8
// (with the same values).
const std::vector<std::string>& AccessRegularColumns();

struct AccessWorkloadOptions {
  uint64_t seed = 1;
  uint64_t instances = 100;
  // Exclusive end of the data (the benchmark passes "now" rounded down to a UTC day) and the
  // span loaded before it; both multiples of 60 s.
  int64_t end_time_s = 0;
  int64_t duration_s = 2 * kSecondsPerDay;
};

struct AccessInstance {
  int org = 0;
  int service = 0;
  std::string orgid;
  std::string service_name;
  std::string name;  // pod-like, e.g. "checkout-7d9f8b6c5x-x2k4p"
};

struct AccessRow {
  std::string orgid, service, instance;
  int32_t day = 0;
  int64_t time_ms = 0;
  std::string method, path;
  int32_t status = 0;
  std::string user_agent, client_ip, country, referrer;
  int32_t latency_ms = 0;
  std::string request_id, trace_id;
  std::optional<std::string> user_id;
  std::string host, protocol, content_type;
  int64_t bytes_sent = 0;
  std::optional<std::string> error_message;
  int64_t write_time_us = 0;
  // Absolute expiry (event time + 30 days); the TTL at the simulated now is expiry_s - now.
  int64_t expiry_s = 0;
};

// 12 consecutive requests of one instance within one UTC day, oldest first.
struct AccessBatch {
  uint64_t instance_index = 0;
  int32_t day = 0;
  std::vector<AccessRow> rows;
};

class AccessWorkload {
 public:
  explicit AccessWorkload(const AccessWorkloadOptions& options);

  const AccessWorkloadOptions& options() const { return options_; }
  const Timeline& timeline() const { return timeline_; }
  const AccessVocabulary& vocabulary() const { return vocabulary_; }
  const std::vector<AccessInstance>& instances() const { return instances_; }
  uint64_t total_rows() const;
  uint64_t batch_count() const;
  // Daily partitions written (instances x UTC days covered).
  uint64_t partition_count() const;

  // Method mix of API routes, chosen so that with non-API routes always GET the overall mix is
  // GET 70 / POST 20 / PUT 5 / DELETE 3 / PATCH 2. Index into AccessMethods().
  const WeightedChoice& api_method_choice() const { return api_method_choice_; }

  // Query parameters: a uniformly random instance, the window of `range` as of `as_of_s`
  // (defaults to the newest loaded request; bounds in milliseconds, with the days to read), and
  // a user id of the instance's org drawn from the data's own user distribution, so a filter on
  // it has the data's typical selectivity.
  uint64_t RandomInstance(Random* rng) const { return rng->Uniform(options_.instances); }
  TimeWindow Window(RangeQuery range) const;
  TimeWindow Window(RangeQuery range, int64_t as_of_s) const;
  std::string RandomUserId(Random* rng, uint64_t instance) const;

 private:
  AccessWorkloadOptions options_;
  Timeline timeline_;
  AccessVocabulary vocabulary_;
  std::vector<AccessInstance> instances_;
  WeightedChoice api_method_choice_;
};

// "GET", "POST", "PUT", "DELETE", "PATCH" (in that order) and their overall shares.
const std::vector<std::string>& AccessMethods();
const std::vector<double>& AccessMethodShares();

class AccessGenerator {
 public:
  // `workload` must outlive the generator.
  explicit AccessGenerator(const AccessWorkload& workload);

  // Fills the next batch in load order (reusing its storage); false when all were produced.
  bool NextBatch(AccessBatch* batch);
  uint64_t batches_done() const { return schedule_.batches_done(); }

 private:
  // Each instance draws from its own stream, so its rows depend only on the seed and its index;
  // a trace id spans a run of 1-5 consecutive requests of the instance.
  struct InstanceState {
    Random rng;
    std::string trace_id;
    int trace_rows_left = 0;
  };

  void FillRow(const AccessInstance& instance, int64_t time_s, InstanceState* state,
               AccessRow* row) const;
  // The parts of FillRow, each drawing its columns from the instance's stream.
  const Route& FillRequest(Random* rng, AccessRow* row) const;
  void FillClient(Random* rng, AccessRow* row) const;
  void FillLatency(Random* rng, AccessRow* row) const;
  void FillIdentifiers(const AccessInstance& instance, InstanceState* state, AccessRow* row) const;
  void FillResponseBody(const Route& route, Random* rng, AccessRow* row) const;

  const AccessWorkload& workload_;
  const AccessVocabulary& vocabulary_;
  BatchSchedule schedule_;
  std::vector<InstanceState> states_;
  WeightedChoice status_choice_;
  WeightedChoice protocol_choice_;
};

}  // namespace bench
}  // namespace columnar
