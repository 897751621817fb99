// db_bench_ext: the source documents' workloads, loaded and queried through the Table API,
// with RocksDB's BlockBasedTable and ColumnarTable configurations side by side in one run
// (BENCHMARKS.md). Writes results.json, results.md and SVG charts to --report_dir, prints the
// Markdown tables, and exits non-zero when any query's rows or hash differ across
// configurations (the correctness gate).
//
// Example:
//   db_bench_ext --workloads=metrics,access16 --configs=A,C,C-dict --preset=quick
//                --report_dir=report
#include <gflags/gflags.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "db_bench_ext/bench_configs.h"
#include "db_bench_ext/correctness_gate.h"
#include "db_bench_ext/load_phase.h"
#include "db_bench_ext/machine_info.h"
#include "db_bench_ext/read_phase.h"
#include "db_bench_ext/report_charts.h"
#include "db_bench_ext/report_files.h"
#include "db_bench_ext/results_markdown.h"
#include "db_bench_ext/storage_report.h"
#include "db_bench_ext/timeline.h"
#include "db_bench_ext/workload_driver.h"

DEFINE_string(workloads, "metrics,access4,access8,access16,devops",
              "Comma-separated workloads: metrics, access4, access8, access16, devops");
DEFINE_string(configs, "A,A-dict,B,C,C-dict,D",
              "Comma-separated configurations: A, A-dict, B, C, C-dict, D, T");
DEFINE_string(preset, "quick",
              "smoke (tests: 100 series x 1 h, 10 instances x 1 day, 10 hosts x 1 day), quick "
              "(1,000 series x 1 day, 100 instances x 2 days, 100 hosts x 1 day), seed (the "
              "sources' size: 10,000 series x 7 days, 1,000 instances x 7 days; 1,000 hosts x "
              "3 days)");
DEFINE_uint64(series, 0, "Metrics series (0: the preset's)");
DEFINE_uint64(instances, 0, "Access-log instances (0: the preset's)");
DEFINE_uint64(hosts, 0, "Devops hosts (0: the preset's)");
DEFINE_double(days, 0, "Days of data loaded for every workload (0: the preset's)");
DEFINE_int32(writers, 4, "Writer threads with batches in flight during the load");
DEFINE_double(background_reads_per_second, 20, "Last-hour reads per second during the load");
DEFINE_string(queries, "",
              "Comma-separated query names to measure, e.g. latest,lastpoint (default: every "
              "query of each workload; the load and storage figures are measured either way)");
DEFINE_string(readers, "", "Comma-separated reader counts for throughput (default: the preset's)");
DEFINE_double(warmup_seconds, -1, "Warm-up before each measurement (negative: the preset's)");
DEFINE_double(measure_seconds, -1, "Length of each measurement (negative: the preset's)");
DEFINE_bool(full_compaction, true,
            "After the load's final flush, compact everything once, so every configuration is "
            "measured in the same, final LSM shape (false: wait for leveled compaction to stop, "
            "leaving the newest hours in L0 or not by timing)");
DEFINE_int32(verification_draws, 20, "Fixed queries per query kind hashed for the gate");
DEFINE_uint64(cache_mb, 256, "Block / row-group cache per configuration, MiB");
DEFINE_bool(columnar_scan, true,
            "Scans of ColumnarTable tables may read key spans one file alone holds as column "
            "vectors (false: RocksDB iterators only, for before/after comparisons)");
DEFINE_bool(compare_row_path, false,
            "For every ColumnarTable configuration X, also measure its queries through RocksDB "
            "iterators only, reported as configuration X-rows (same load, same files)");
DEFINE_uint64(seed, 1, "Seed of the generated data and of the query draws");
DEFINE_string(db, "/tmp/db_bench_ext", "Directory for the databases (one per workload+config)");
DEFINE_bool(keep_db, false, "Keep each database after its measurements");
DEFINE_string(report_dir, "db_bench_ext_report", "Where results.json, results.md and charts go");

namespace columnar {
namespace bench {
namespace {

struct Preset {
  uint64_t series;
  uint64_t instances;
  uint64_t hosts;
  int64_t metrics_duration_s;
  int64_t access_duration_s;
  int64_t devops_duration_s;
  std::vector<int> readers;
  double warmup_seconds;
  double measure_seconds;
};

bool FindPreset(const std::string& name, Preset* preset) {
  if (name == "smoke") {
    *preset = {100, 10, 10, 3600, kSecondsPerDay, kSecondsPerDay, {4}, 0.05, 0.2};
  } else if (name == "quick") {
    *preset = {1000, 100, 100, kSecondsPerDay, 2 * kSecondsPerDay, kSecondsPerDay, {16}, 0.05, 0.3};
  } else if (name == "seed") {
    *preset = {10000,    1000, 1000, 7 * kSecondsPerDay, 7 * kSecondsPerDay, 3 * kSecondsPerDay,
               {16, 32}, 10,   30};
  } else {
    return false;
  }
  return true;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

// Run-wide parameters derived from the flags.
struct RunPlan {
  Preset preset;
  int64_t end_time_s;
  LoadSettings load;
  ReadSettings read;
  ConfigSettings config;
};

WorkloadSize SizeOf(const std::string& workload_name, const RunPlan& plan) {
  WorkloadSize size;
  size.series = plan.preset.series;
  size.instances = plan.preset.instances;
  size.hosts = plan.preset.hosts;
  size.duration_s = workload_name == "metrics"  ? plan.preset.metrics_duration_s
                    : workload_name == "devops" ? plan.preset.devops_duration_s
                                                : plan.preset.access_duration_s;
  size.end_time_s = plan.end_time_s;
  size.seed = FLAGS_seed;
  return size;
}

// --queries names only queries some selected workload has (a misspelt name would otherwise
// measure nothing after a long load).
Status CheckQueryNames(const std::vector<std::string>& workloads, const RunPlan& plan) {
  std::vector<std::string> known;
  for (const std::string& workload : workloads) {
    std::unique_ptr<WorkloadDriver> driver = NewWorkloadDriver(workload, SizeOf(workload, plan));
    if (driver == nullptr) return Status::InvalidArgument("unknown workload " + workload);
    for (const QuerySpec& spec : driver->Queries()) known.push_back(spec.name);
  }
  for (const std::string& name : SplitList(FLAGS_queries)) {
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
    return Status::InvalidArgument("--queries: no selected workload has a query " + name +
                                   " (known: " + list + ")");
  }
  return Status::OK();
}

Status RunConfiguration(const std::string& workload_name, const std::string& config,
                        const RunPlan& plan, WorkloadResult* workload_result) {
  std::unique_ptr<WorkloadDriver> driver =
      NewWorkloadDriver(workload_name, SizeOf(workload_name, plan));
  if (driver == nullptr) return Status::InvalidArgument("unknown workload " + workload_name);
  const std::vector<QuerySpec> queries = SelectQueries(driver->Queries(), SplitList(FLAGS_queries));

  TableStorage storage;
  Status s = StorageForConfig(config, plan.config, &storage);
  if (!s.ok()) return s;
  const std::string path = FLAGS_db + "/" + workload_name + "-" + config;
  std::error_code ignored;
  std::filesystem::remove_all(path, ignored);
  std::filesystem::create_directories(FLAGS_db, ignored);

  DatabaseOptions options;
  // Writers that spin while waiting for the write leader only steal the CPU of a small
  // machine from the leader and from compactions.
  options.db_options.enable_write_thread_adaptive_yield = false;
  options.columnar_scan = FLAGS_columnar_scan;
  std::unique_ptr<Database> database;
  s = Database::Open(options, path, &database);
  Table* table = nullptr;
  if (s.ok()) s = database->CreateTable(driver->CreateTableCql(), storage, &table);
  if (s.ok()) s = driver->Bind(*table->schema());
  if (!s.ok()) return s;

  LoadSettings load = plan.load;
  load.progress_label = "load " + workload_name + "/" + config;
  LoadOutcome outcome;
  s = RunLoad(table, *driver, load, &outcome);
  if (!s.ok()) return s;

  ConfigResult result;
  result.config = config;
  result.rows = outcome.rows;
  result.ingest_rows_per_sec = outcome.rows / std::max(outcome.write_seconds, 1e-9);
  result.cpu_seconds_per_million_rows = outcome.cpu.CpuSecondsPerMillion(outcome.rows);
  result.busy_cores = outcome.cpu.BusyCores();
  result.write_latency = outcome.write_latency;
  result.peak_sst_bytes = outcome.peak_sst_bytes;
  MeasureCompactionBytes(*table, &result.compaction_bytes_read, &result.compaction_bytes_written);
  s = MeasureStorage(*table, &result);
  if (!s.ok()) return s;
  result.bytes_per_row = static_cast<double>(result.sst_bytes) / std::max<uint64_t>(1, result.rows);
  std::cerr << "  " << workload_name << "/" << config << ": " << result.rows << " "
            << driver->row_noun() << "s, " << result.sst_bytes << " SST bytes ("
            << result.bytes_per_row << " per " << driver->row_noun() << "), "
            << static_cast<uint64_t>(result.ingest_rows_per_sec) << " rows/s";
  std::cerr << ", CPU " << result.cpu_seconds_per_million_rows << " s/M rows, write p99.9 "
            << result.write_latency.p999_us << " us, final flush " << outcome.final_flush_seconds
            << " s";
  if (FLAGS_full_compaction) {
    std::cerr << ", full compaction " << outcome.final_compaction_seconds << " s";
  }
  std::cerr << "\n";

  for (const QuerySpec& spec : queries) {
    QueryResult query;
    s = RunQuery(*table, *driver, spec, driver->newest_time_s(), plan.read, &query);
    if (!s.ok()) return Status::Corruption("query " + spec.name + ": " + s.ToString());
    std::cerr << "    " << spec.name << ": p50 " << query.p50_us << " us, rows " << query.rows
              << ", hash " << query.result_hash << "\n";
    result.queries.push_back(std::move(query));
  }
  workload_result->row_noun = driver->row_noun();
  const bool row_path_too = FLAGS_compare_row_path && FLAGS_columnar_scan &&
                            storage.format != TableFormat::kBlockBasedTable;
  ConfigResult rows_result;
  if (row_path_too) {
    rows_result = result;
    rows_result.config = config + "-rows";
    rows_result.queries.clear();
  }
  workload_result->configs.push_back(std::move(result));
  if (row_path_too) {
    ReadSettings read = plan.read;
    read.columnar_scan = false;
    for (const QuerySpec& spec : queries) {
      QueryResult query;
      s = RunQuery(*table, *driver, spec, driver->newest_time_s(), read, &query);
      if (!s.ok()) return Status::Corruption("query " + spec.name + ": " + s.ToString());
      std::cerr << "    " << spec.name << " (row path): p50 " << query.p50_us << " us, rows "
                << query.rows << ", hash " << query.result_hash << "\n";
      rows_result.queries.push_back(std::move(query));
    }
    workload_result->configs.push_back(std::move(rows_result));
  }
  database.reset();
  if (!FLAGS_keep_db) std::filesystem::remove_all(path, ignored);
  return Status::OK();
}

RunMetadata Metadata(const RunPlan& plan) {
  RunMetadata metadata;
  metadata.preset = FLAGS_preset;
  metadata.date = FormatUtcTimestamp(std::time(nullptr));
  metadata.machine = DetectMachine();
  auto add = [&](const std::string& key, const std::string& value) {
    metadata.parameters.emplace_back(key, value);
  };
  add("series", std::to_string(plan.preset.series));
  add("instances", std::to_string(plan.preset.instances));
  add("hosts", std::to_string(plan.preset.hosts));
  add("metrics_hours", std::to_string(plan.preset.metrics_duration_s / 3600));
  add("access_hours", std::to_string(plan.preset.access_duration_s / 3600));
  add("devops_hours", std::to_string(plan.preset.devops_duration_s / 3600));
  add("writers", std::to_string(plan.load.writers));
  add("background_reads_per_second", std::to_string(plan.load.background_reads_per_second));
  std::string readers;
  for (int r : plan.read.readers) readers += (readers.empty() ? "" : ",") + std::to_string(r);
  add("readers", readers);
  add("warmup_seconds", std::to_string(plan.read.warmup_seconds));
  add("measure_seconds", std::to_string(plan.read.measure_seconds));
  add("cache_mb", std::to_string(FLAGS_cache_mb));
  add("full_compaction", FLAGS_full_compaction ? "true" : "false");
  add("seed", std::to_string(FLAGS_seed));
  if (!FLAGS_queries.empty()) add("queries", FLAGS_queries);
  return metadata;
}

int Main() {
  RunPlan plan;
  if (!FindPreset(FLAGS_preset, &plan.preset)) {
    std::cerr << "db_bench_ext: unknown --preset=" << FLAGS_preset << " (smoke, quick, seed)\n";
    return 2;
  }
  if (FLAGS_series > 0) plan.preset.series = FLAGS_series;
  if (FLAGS_instances > 0) plan.preset.instances = FLAGS_instances;
  if (FLAGS_hosts > 0) plan.preset.hosts = FLAGS_hosts;
  if (FLAGS_days > 0) {
    // Whole minutes, the generators' granularity.
    const int64_t duration = static_cast<int64_t>(std::llround(FLAGS_days * 1440)) * 60;
    plan.preset.metrics_duration_s = plan.preset.access_duration_s = plan.preset.devops_duration_s =
        duration;
  }
  if (!FLAGS_readers.empty()) {
    plan.preset.readers.clear();
    for (const std::string& r : SplitList(FLAGS_readers))
      plan.preset.readers.push_back(std::stoi(r));
  }
  if (FLAGS_warmup_seconds >= 0) plan.preset.warmup_seconds = FLAGS_warmup_seconds;
  if (FLAGS_measure_seconds > 0) plan.preset.measure_seconds = FLAGS_measure_seconds;
  plan.end_time_s = FloorToUtcDay(std::time(nullptr));
  plan.load.writers = FLAGS_writers;
  plan.load.background_reads_per_second = FLAGS_background_reads_per_second;
  plan.load.seed = FLAGS_seed;
  plan.load.full_compaction = FLAGS_full_compaction;
  plan.read.readers = plan.preset.readers;
  plan.read.warmup_seconds = plan.preset.warmup_seconds;
  plan.read.measure_seconds = plan.preset.measure_seconds;
  plan.read.verification_draws = FLAGS_verification_draws;
  plan.read.seed = FLAGS_seed;
  plan.config.cache_bytes = FLAGS_cache_mb << 20;

  const std::vector<std::string> workloads = SplitList(FLAGS_workloads);
  if (Status s = CheckQueryNames(workloads, plan); !s.ok()) {
    std::cerr << "db_bench_ext: " << s.ToString() << "\n";
    return 2;
  }
  BenchmarkResults results;
  results.metadata = Metadata(plan);
  for (const std::string& workload : workloads) {
    WorkloadResult workload_result;
    workload_result.workload = workload;
    for (const std::string& config : SplitList(FLAGS_configs)) {
      Status s = RunConfiguration(workload, config, plan, &workload_result);
      if (!s.ok()) {
        std::cerr << "db_bench_ext: " << workload << "/" << config << ": " << s.ToString() << "\n";
        return 1;
      }
    }
    results.workloads.push_back(std::move(workload_result));
  }

  WriteReport(results, FLAGS_report_dir);
  std::cout << RenderResultsMarkdown(results, BuildCharts(results));
  const std::vector<QueryMismatch> mismatches = FindResultMismatches(results);
  for (const QueryMismatch& mismatch : mismatches) {
    std::cerr << "db_bench_ext: MISMATCH " << DescribeMismatch(mismatch) << "\n";
  }
  std::cerr << "db_bench_ext: reports in " << FLAGS_report_dir << "\n";
  return mismatches.empty() ? 0 : 1;
}

}  // namespace
}  // namespace bench
}  // namespace columnar

int main(int argc, char** argv) {
  gflags::SetUsageMessage(
      "the source documents' workloads on BlockBasedTable and ColumnarTable, side by side");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  return columnar::bench::Main();
}
