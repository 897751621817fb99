#include "db_bench_ext/read_phase.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

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
  };
}

Status Verify(const Table& table, const WorkloadDriver& driver, const QuerySpec& spec,
              int64_t as_of_s, const ReadSettings& settings, QueryResult* result) {
  Random rng(SeedFor(settings.seed, spec.name));
  uint64_t hash = 0xcbf29ce484222325ull;
  ResultSet rows;
  SelectStats total;
  for (int i = 0; i < settings.verification_draws; i++) {
    SelectStats stats;
    Status s = table.Select(driver.MakeQuery(spec, &rng, as_of_s), &rows, &stats);
    if (!s.ok()) return s;
    result->rows += rows.rows.size();
    hash = Fnv1a(hash, SerializeRows(rows));
    AddStats(stats, &total);
  }
  result->result_hash = Hex64(hash);
  if (spec.filter) ReportPushdown(total, settings.verification_draws, result);
  return Status::OK();
}

// Runs queries from `threads` threads for warm-up + measure seconds; returns the number that
// completed inside the measured window, and their latencies when `latencies` is given.
uint64_t RunTimed(const Table& table, const WorkloadDriver& driver, const QuerySpec& spec,
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
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; t++) {
    workers.emplace_back([&, t] {
      Random rng(SeedFor(settings.seed + 1000 + t, spec.name));
      LatencyHistogram local;
      ResultSet rows;
      uint64_t count = 0;
      for (;;) {
        const auto begin = Clock::now();
        if (begin >= measure_end) break;
        Status s = table.Select(driver.MakeQuery(spec, &rng, as_of_s), &rows);
        const auto end = Clock::now();
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(mutex);
          *error = s;
          break;
        }
        if (begin >= measure_start && end <= measure_end) {
          count++;
          local.Record(std::chrono::duration_cast<std::chrono::microseconds>(end - begin).count());
        }
      }
      completed += count;
      if (latencies != nullptr) {
        std::lock_guard<std::mutex> lock(mutex);
        latencies->Merge(local);
      }
    });
  }
  for (std::thread& worker : workers) worker.join();
  return completed;
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
  const uint64_t single = RunTimed(table, driver, spec, as_of_s, settings, 1, &latencies, &s);
  if (!s.ok()) return s;
  result->p50_us = static_cast<double>(latencies.Percentile(50));
  result->p99_us = static_cast<double>(latencies.Percentile(99));
  result->qps_by_concurrency[1] = static_cast<double>(single) / settings.measure_seconds;
  for (int readers : settings.readers) {
    if (readers <= 1) continue;
    const uint64_t done = RunTimed(table, driver, spec, as_of_s, settings, readers, nullptr, &s);
    if (!s.ok()) return s;
    result->qps_by_concurrency[readers] = static_cast<double>(done) / settings.measure_seconds;
  }
  return Status::OK();
}

}  // namespace bench
}  // namespace columnar
