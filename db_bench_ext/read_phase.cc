#include "db_bench_ext/read_phase.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

#include "db_bench_ext/latency_histogram.h"

namespace columnar {
namespace bench {

namespace {

using Clock = std::chrono::steady_clock;

uint64_t Fnv1a(uint64_t hash, const std::string& bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::string Hex64(uint64_t v) {
  char buf[17];
  snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

uint64_t SeedFor(uint64_t seed, const std::string& name) { return Fnv1a(seed, name); }

void AddStats(const SelectStats& add, SelectStats* total) {
  total->files_skipped += add.files_skipped;
  total->row_groups_pruned += add.row_groups_pruned;
  total->row_groups_without_match += add.row_groups_without_match;
  total->row_groups_with_match += add.row_groups_with_match;
  total->rows_built += add.rows_built;
  total->placeholders += add.placeholders;
  total->rows_dropped += add.rows_dropped;
  total->rows_rejected_after_merge += add.rows_rejected_after_merge;
  total->rows_columnar += add.rows_columnar;
  total->rows_row_path += add.rows_row_path;
  total->rows_from_stats += add.rows_from_stats;
}

// Pushdown counters per query (averaged over the verification draws).
void ReportPushdown(const SelectStats& total, int draws, QueryResult* result) {
  const double n = std::max(draws, 1);
  result->counters = {
      {"files_skipped", total.files_skipped / n},
      {"row_groups_pruned", total.row_groups_pruned / n},
      {"row_groups_without_match", total.row_groups_without_match / n},
      {"row_groups_with_match", total.row_groups_with_match / n},
      {"rows_built", total.rows_built / n},
      {"placeholders", total.placeholders / n},
      {"rows_rejected_after_merge", total.rows_rejected_after_merge / n},
      {"rows_columnar", total.rows_columnar / n},
      {"rows_row_path", total.rows_row_path / n},
      {"rows_from_stats", total.rows_from_stats / n},
  };
}

Status Verify(const Table& table, const WorkloadDriver& driver, const QuerySpec& spec,
              int64_t as_of_s, const ReadSettings& settings, QueryResult* result) {
  Random rng(SeedFor(settings.seed, spec.name));
  uint64_t hash = 0xcbf29ce484222325ull;
  ResultSet rows;
  SelectStats total;
  for (int i = 0; i < settings.verification_draws; i++) {
    for (SelectQuery& query : driver.MakeQueries(spec, &rng, as_of_s)) {
      SelectStats stats;
      query.allow_columnar_scan = settings.columnar_scan;
      Status s = table.Select(query, &rows, &stats);
      if (!s.ok()) return s;
      result->rows += rows.rows.size();
      hash = Fnv1a(hash, SerializeRows(rows));
      AddStats(stats, &total);
    }
  }
  result->result_hash = Hex64(hash);
  // Pushdown counters for filtered queries; which read path served the rows for every query.
  ReportPushdown(total, settings.verification_draws, result);
  if (!spec.filter) {
    auto& counters = result->counters;
    counters.erase(std::remove_if(counters.begin(), counters.end(),
                                  [](const auto& counter) {
                                    return counter.first.rfind("rows_columnar", 0) != 0 &&
                                           counter.first.rfind("rows_row_path", 0) != 0 &&
                                           counter.first.rfind("rows_from_stats", 0) != 0;
                                  }),
                   counters.end());
  }
  return Status::OK();
}

// Runs queries from `threads` threads: a warm-up, then queries started during the measured
// window count, each allowed to finish, and every reader counts at least one (so queries
// longer than the window, at high reader counts, still count). Returns queries per second: the
// counted queries over the time from the window's start to the end of the last of them; their
// latencies go to `latencies` when it is given.
double RunTimed(const Table& table, const WorkloadDriver& driver, const QuerySpec& spec,
                int64_t as_of_s, const ReadSettings& settings, int threads,
                LatencyHistogram* latencies, Status* error) {
  const auto measure_start =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(settings.warmup_seconds));
  const auto measure_end =
      measure_start + std::chrono::duration_cast<Clock::duration>(
                          std::chrono::duration<double>(settings.measure_seconds));
  std::atomic<uint64_t> completed{0};
  std::mutex mutex;
  Clock::time_point last_end = measure_end;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; t++) {
    workers.emplace_back([&, t] {
      Random rng(SeedFor(settings.seed + 1000 + t, spec.name));
      LatencyHistogram local;
      ResultSet rows;
      uint64_t count = 0;
      Clock::time_point local_last_end = measure_end;
      for (;;) {
        const auto begin = Clock::now();
        // Every reader counts at least one query, however long the queries are.
        if (begin >= measure_end && count > 0) break;
        Status s;
        for (SelectQuery& query : driver.MakeQueries(spec, &rng, as_of_s)) {
          query.allow_columnar_scan = settings.columnar_scan;
          s = table.Select(query, &rows);
          if (!s.ok()) break;
        }
        const auto end = Clock::now();
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(mutex);
          *error = s;
          break;
        }
        if (begin >= measure_start) {
          count++;
          local_last_end = std::max(local_last_end, end);
          local.Record(std::chrono::duration_cast<std::chrono::microseconds>(end - begin).count());
        }
      }
      completed += count;
      std::lock_guard<std::mutex> lock(mutex);
      last_end = std::max(last_end, local_last_end);
      if (latencies != nullptr) latencies->Merge(local);
    });
  }
  for (std::thread& worker : workers) worker.join();
  const double seconds = std::chrono::duration<double>(last_end - measure_start).count();
  return seconds > 0 ? static_cast<double>(completed.load()) / seconds : 0;
}

}  // namespace

Status RunQuery(const Table& table, const WorkloadDriver& driver, const QuerySpec& spec,
                int64_t as_of_s, const ReadSettings& settings, QueryResult* result) {
  *result = QueryResult();
  result->name = spec.name;
  result->description = spec.description;
  Status s = Verify(table, driver, spec, as_of_s, settings, result);
  if (!s.ok()) return s;

  LatencyHistogram latencies;
  const double single = RunTimed(table, driver, spec, as_of_s, settings, 1, &latencies, &s);
  if (!s.ok()) return s;
  result->p50_us = static_cast<double>(latencies.Percentile(50));
  result->p99_us = static_cast<double>(latencies.Percentile(99));
  result->qps_by_concurrency[1] = single;
  for (int readers : settings.readers) {
    if (readers <= 1) continue;
    const double qps = RunTimed(table, driver, spec, as_of_s, settings, readers, nullptr, &s);
    if (!s.ok()) return s;
    result->qps_by_concurrency[readers] = qps;
  }
  return Status::OK();
}

}  // namespace bench
}  // namespace columnar
