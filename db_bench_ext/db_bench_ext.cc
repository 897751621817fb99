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
#include <array>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "db_bench_ext/bench_configs.h"
#include "db_bench_ext/correctness_gate.h"
#include "db_bench_ext/load_phase.h"
#include "db_bench_ext/load_record.h"
#include "db_bench_ext/machine_info.h"
#include "db_bench_ext/query_rounds.h"
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
DEFINE_bool(copy_row_groups, true,
            "Columnar configurations: compactions copy unchanged row groups "
            "(ColumnarTableOptions::copy_row_groups)");
DEFINE_bool(columnar_scan, true,
            "Scans of ColumnarTable tables may read key spans one file alone holds as column "
            "vectors (false: RocksDB iterators only, for before/after comparisons)");
DEFINE_bool(compare_row_path, false,
            "For every ColumnarTable configuration X, also measure its queries through RocksDB "
            "iterators only, reported as configuration X-rows (same load, same files)");
DEFINE_uint64(seed, 1, "Seed of the generated data and of the query draws");
DEFINE_string(db, "/tmp/db_bench_ext", "Directory for the databases (one per workload+config)");
DEFINE_bool(keep_db, false,
            "Keep each database after its measurements (with a load record, for "
            "--use_existing_db)");
DEFINE_bool(use_existing_db, false,
            "Measure the queries of the databases an earlier run left in --db with --keep_db "
            "(same workloads, sizes and seed; any day: the queries end where its data ends) "
            "instead of loading them; no ingestion figures. The databases are kept");
DEFINE_int32(query_rounds, 1,
             "Measure every configuration's queries this many times, the configurations "
             "taking turns in each round; reported: the rounds' medians, and for throughput the "
             "median and range of the rounds' ratios against A");
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

// What --use_existing_db wants the database of `workload_name` / `config` to have been loaded
// with.
LoadRecord WantedLoad(const std::string& workload_name, const std::string& config,
                      const RunPlan& plan) {
  const WorkloadSize size = SizeOf(workload_name, plan);
  LoadRecord wanted;
  wanted.workload = workload_name;
  wanted.config = config;
  wanted.series = size.series;
  wanted.instances = size.instances;
  wanted.hosts = size.hosts;
  wanted.duration_s = size.duration_s;
  wanted.seed = size.seed;
  return wanted;
}

// A configuration's database, loaded (or opened, --use_existing_db), with its load and storage
// figures, ready for the query rounds.
struct PreparedConfig {
  std::string path;
  std::unique_ptr<WorkloadDriver> driver;
  std::unique_ptr<Database> database;
  Table* table = nullptr;
  ConfigResult result;  // load and storage figures; the queries come after the rounds
  // --compare_row_path: its queries are measured once more through RocksDB iterators only.
  bool row_path_too = false;
};

// Loads the configuration's database, measures the load and writes the load record.
Status LoadConfiguration(const std::string& workload_name, const std::string& config,
                         const RunPlan& plan, const TableStorage& storage,
                         const DatabaseOptions& options, PreparedConfig* prepared) {
  std::error_code ignored;
  std::filesystem::remove_all(prepared->path, ignored);
  std::filesystem::create_directories(FLAGS_db, ignored);
  prepared->driver = NewWorkloadDriver(workload_name, SizeOf(workload_name, plan));
  if (prepared->driver == nullptr) return Status::InvalidArgument("unknown workload");
  Status s = Database::Open(options, prepared->path, &prepared->database);
  if (s.ok()) {
    s = prepared->database->CreateTable(prepared->driver->CreateTableCql(), storage,
                                        &prepared->table);
  }
  if (s.ok()) s = prepared->driver->Bind(*prepared->table->schema());
  if (!s.ok()) return s;

  LoadSettings load = plan.load;
  load.progress_label = "load " + workload_name + "/" + config;
  LoadOutcome outcome;
  s = RunLoad(prepared->table, *prepared->driver, load, &outcome);
  if (!s.ok()) return s;
  ConfigResult& result = prepared->result;
  result.rows = outcome.rows;
  result.ingest_rows_per_sec = outcome.rows / std::max(outcome.write_seconds, 1e-9);
  result.cpu_seconds_per_million_rows = outcome.cpu.CpuSecondsPerMillion(outcome.rows);
  result.busy_cores = outcome.cpu.BusyCores();
  result.probe_before_ms = outcome.probe_before_ms;
  result.probe_after_ms = outcome.probe_after_ms;
  result.write_latency = outcome.write_latency;
  result.peak_sst_bytes = outcome.peak_sst_bytes;
  std::cerr << "  " << workload_name << "/" << config << ": "
            << static_cast<uint64_t>(result.ingest_rows_per_sec) << " rows/s, CPU "
            << result.cpu_seconds_per_million_rows << " s/M rows, write p99.9 "
            << result.write_latency.p999_us << " us, final flush " << outcome.final_flush_seconds
            << " s";
  if (FLAGS_full_compaction) {
    std::cerr << ", full compaction " << outcome.final_compaction_seconds << " s";
  }
  std::cerr << ", probe " << outcome.probe_before_ms << "/" << outcome.probe_after_ms << " ms\n";

  LoadRecord record = WantedLoad(workload_name, config, plan);
  record.end_time_s = plan.end_time_s;
  record.rows = outcome.rows;
  const std::string error = WriteLoadRecord(prepared->path, record);
  return error.empty() ? Status::OK() : Status::IOError(error);
}

// Opens the database an earlier run loaded (--use_existing_db) after checking its load record.
Status OpenConfiguration(const std::string& workload_name, const std::string& config,
                         const RunPlan& plan, DatabaseOptions options, const TableStorage& storage,
                         PreparedConfig* prepared) {
  LoadRecord record;
  std::string error = ReadLoadRecord(prepared->path, &record);
  if (error.empty()) error = LoadRecordMismatch(record, WantedLoad(workload_name, config, plan));
  if (!error.empty()) {
    return Status::InvalidArgument("--use_existing_db: " + prepared->path + ": " + error);
  }
  // The queries' "now" is the end of the data the database holds, whichever day it is today.
  WorkloadSize size = SizeOf(workload_name, plan);
  size.end_time_s = record.end_time_s;
  prepared->driver = NewWorkloadDriver(workload_name, size);
  if (prepared->driver == nullptr) return Status::InvalidArgument("unknown workload");
  RestoreBlockCache(storage, &options);
  Status s = Database::Open(options, prepared->path, &prepared->database);
  if (s.ok())
    s = OpenLoadedTable(prepared->database.get(), prepared->driver.get(), &prepared->table);
  if (!s.ok()) return s;
  ConfigResult& result = prepared->result;
  result.loaded = false;
  result.rows = record.rows;
  result.ingest_rows_per_sec = result.cpu_seconds_per_million_rows = result.busy_cores =
      result.probe_before_ms = result.probe_after_ms = std::nan("");
  result.write_latency = {std::nan(""), std::nan(""), std::nan(""), std::nan("")};
  return Status::OK();
}

Status PrepareConfiguration(const std::string& workload_name, const std::string& config,
                            const RunPlan& plan, PreparedConfig* prepared) {
  TableStorage storage;
  Status s = StorageForConfig(config, plan.config, &storage);
  if (!s.ok()) return s;
  prepared->path = FLAGS_db + "/" + workload_name + "-" + config;
  prepared->result.config = config;
  DatabaseOptions options;
  // Writers that spin while waiting for the write leader only steal the CPU of a small
  // machine from the leader and from compactions.
  options.db_options.enable_write_thread_adaptive_yield = false;
  options.columnar_scan = FLAGS_columnar_scan;
  s = FLAGS_use_existing_db
          ? OpenConfiguration(workload_name, config, plan, options, storage, prepared)
          : LoadConfiguration(workload_name, config, plan, storage, options, prepared);
  if (!s.ok()) return s;

  ConfigResult& result = prepared->result;
  // A reopened database's compaction statistics start at zero.
  if (result.loaded) {
    MeasureCompactionBytes(*prepared->table, &result.compaction_bytes_read,
                           &result.compaction_bytes_written);
  }
  s = MeasureStorage(*prepared->table, &result);
  if (!s.ok()) return s;
  result.bytes_per_row = static_cast<double>(result.sst_bytes) / std::max<uint64_t>(1, result.rows);
  std::cerr << "  " << workload_name << "/" << config << ": " << result.rows << " "
            << prepared->driver->row_noun() << "s, " << result.sst_bytes << " SST bytes ("
            << result.bytes_per_row << " per " << prepared->driver->row_noun() << ")\n";
  prepared->row_path_too = FLAGS_compare_row_path && FLAGS_columnar_scan &&
                           storage.format != TableFormat::kBlockBasedTable;
  return Status::OK();
}

// One round of one configuration's queries (its row-path measurement too, if asked for).
Status MeasureQueries(const PreparedConfig& prepared, const std::vector<QuerySpec>& specs,
                      const RunPlan& plan, bool row_path, std::vector<QueryResult>* results) {
  ReadSettings read = plan.read;
  if (row_path) read.columnar_scan = false;
  for (const QuerySpec& spec : specs) {
    QueryResult query;
    Status s = RunQuery(*prepared.table, *prepared.driver, spec, prepared.driver->newest_time_s(),
                        read, &query);
    if (!s.ok()) return Status::Corruption("query " + spec.name + ": " + s.ToString());
    std::cerr << "    " << prepared.result.config << " " << spec.name
              << (row_path ? " (row path)" : "") << ": p50 " << query.p50_us << " us, rows "
              << query.rows << ", hash " << query.result_hash << "\n";
    results->push_back(std::move(query));
  }
  return Status::OK();
}

// The configurations' queries measured in --query_rounds rounds, the configurations taking
// turns in each; their results (rounds combined) are appended to `workload_result`, a
// configuration's row-path measurement as configuration "X-rows".
Status MeasureQueryRounds(std::vector<PreparedConfig>* prepared,
                          const std::vector<QuerySpec>& specs, const RunPlan& plan,
                          WorkloadResult* workload_result) {
  // Per configuration and path (columnar, row path): per round, the queries in spec order.
  std::vector<std::array<std::vector<std::vector<QueryResult>>, 2>> measured(prepared->size());
  const int rounds = std::max(1, FLAGS_query_rounds);
  for (int round = 0; round < rounds; round++) {
    if (rounds > 1) std::cerr << "  query round " << round + 1 << " of " << rounds << "\n";
    for (size_t c = 0; c < prepared->size(); c++) {
      for (const bool row_path : {false, true}) {
        if (row_path && !(*prepared)[c].row_path_too) continue;
        std::vector<QueryResult>& results = measured[c][row_path].emplace_back();
        Status s = MeasureQueries((*prepared)[c], specs, plan, row_path, &results);
        if (!s.ok()) return s;
      }
    }
  }
  for (size_t c = 0; c < prepared->size(); c++) {
    for (const bool row_path : {false, true}) {
      if (row_path && !(*prepared)[c].row_path_too) continue;
      ConfigResult result = (*prepared)[c].result;
      if (row_path) result.config += "-rows";
      for (size_t q = 0; q < specs.size(); q++) {
        std::vector<QueryResult> query_rounds;
        for (const std::vector<QueryResult>& round : measured[c][row_path]) {
          query_rounds.push_back(round[q]);
        }
        QueryResult combined;
        const std::string error = CombineQueryRounds(query_rounds, &combined);
        if (!error.empty()) return Status::Corruption(result.config + ": " + error);
        result.queries.push_back(std::move(combined));
      }
      workload_result->configs.push_back(std::move(result));
    }
  }
  return Status::OK();
}

// The databases of one workload, compared with each other, must hold the same data: loaded in
// one run (the same end time), as the correctness gate would otherwise report every query.
Status CheckSameLoadTime(const std::vector<PreparedConfig>& prepared) {
  for (const PreparedConfig& config : prepared) {
    if (config.driver->newest_time_s() != prepared.front().driver->newest_time_s()) {
      return Status::InvalidArgument("--use_existing_db: " + prepared.front().path + " and " +
                                     config.path +
                                     " were loaded on different days (load them in one run)");
    }
  }
  return Status::OK();
}

// Every configuration of a workload prepared (loaded or opened), then their queries measured.
Status RunWorkload(const std::string& workload_name, const RunPlan& plan,
                   WorkloadResult* workload_result) {
  std::unique_ptr<WorkloadDriver> driver =
      NewWorkloadDriver(workload_name, SizeOf(workload_name, plan));
  if (driver == nullptr) return Status::InvalidArgument("unknown workload " + workload_name);
  const std::vector<QuerySpec> specs = SelectQueries(driver->Queries(), SplitList(FLAGS_queries));
  workload_result->row_noun = driver->row_noun();

  std::vector<PreparedConfig> prepared;
  for (const std::string& config : SplitList(FLAGS_configs)) {
    Status s = PrepareConfiguration(workload_name, config, plan, &prepared.emplace_back());
    if (!s.ok()) return Status::Aborted(config + ": " + s.ToString());
  }
  Status s = CheckSameLoadTime(prepared);
  if (s.ok()) s = MeasureQueryRounds(&prepared, specs, plan, workload_result);
  for (PreparedConfig& config : prepared) {
    config.database.reset();
    std::error_code ignored;
    if (!FLAGS_keep_db && !FLAGS_use_existing_db) std::filesystem::remove_all(config.path, ignored);
  }
  return s;
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
  if (!FLAGS_copy_row_groups) add("copy_row_groups", "false");
  add("full_compaction", FLAGS_full_compaction ? "true" : "false");
  add("seed", std::to_string(FLAGS_seed));
  if (!FLAGS_queries.empty()) add("queries", FLAGS_queries);
  if (FLAGS_query_rounds > 1) add("query_rounds", std::to_string(FLAGS_query_rounds));
  if (FLAGS_use_existing_db) add("use_existing_db", "true");
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
  plan.config.copy_row_groups = FLAGS_copy_row_groups;

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
    Status s = RunWorkload(workload, plan, &workload_result);
    if (!s.ok()) {
      std::cerr << "db_bench_ext: " << workload << ": " << s.ToString() << "\n";
      return 1;
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
