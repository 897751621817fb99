// Full rewrites of one db_bench_ext database: the cost of compaction into a configuration's
// files, without the load's writers competing for the cores. The database is loaded as
// db_bench_ext loads it (the same generated data and configuration, flushed and fully
// compacted), or reused from an earlier run with --reuse_db, then every file is rewritten
// --rewrites times by a manual compaction on one thread (no subcompactions). Each rewrite
// prints its wall time and the compaction's CPU time (RocksDB's own count of the compaction
// thread), per million rows:
//
//   compaction_bench --workload=access16 --config=C --instances=100 --days=2 --db=/tmp/cb
//
// To compare two builds on the same input, load once with --rewrites=0, copy the directory
// for each build and run both with --reuse_db. Under callgrind, --toggle-collect=
// 'rocksdb::CompactionJob::Run()' counts the rewrites' instructions alone. With
// --copy_row_groups=false every group is encoded again (the cost of a compaction's new rows,
// which no input group holds), whatever the table was created with. With --appended_minutes,
// each rewrite first gets that many minutes of newer rows in one flushed file, and is the one
// compaction of that file into the last level: a load's L0 -> L6 compaction, new rows in
// every partition among unchanged groups.
#include <gflags/gflags.h>
#include <rocksdb/convenience.h>
#include <rocksdb/listener.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "db_bench_ext/bench_configs.h"
#include "db_bench_ext/load_phase.h"
#include "db_bench_ext/timeline.h"
#include "db_bench_ext/workload_driver.h"
#include "plugin/columnar_table.h"
#include "table_api/database.h"

DEFINE_string(workload, "access16", "metrics, access4, access8, access16 or devops");
DEFINE_string(config, "C", "A, A-dict, B, C, C-dict, D or T (db_bench_ext's configurations)");
DEFINE_uint64(series, 1000, "Metrics series");
DEFINE_uint64(instances, 100, "Access-log instances");
DEFINE_uint64(hosts, 100, "Devops hosts");
DEFINE_double(days, 1,
              "Days of data (whole minutes; access16 loads at db_bench_ext quick size with 2)");
DEFINE_uint64(seed, 1, "Seed of the data");
DEFINE_uint64(rewrites, 3, "Full rewrites to measure");
DEFINE_bool(reuse_db, false, "Open the database at --db as it is instead of loading it");
DEFINE_string(db, "/tmp/compaction_bench", "Database directory (replaced unless --reuse_db)");
DEFINE_uint64(appended_minutes, 0,
              "Before each rewrite, write and flush this many minutes of data after the newest "
              "(0: none), so the rewrite is the shape of a load's compactions: new rows in "
              "every partition, the rest unchanged");
DEFINE_bool(copy_row_groups, true,
            "Rewrites copy unchanged row groups (ColumnarTableOptions::copy_row_groups); false "
            "encodes every group again");

namespace columnar {
namespace bench {
namespace {

// Sums what RocksDB counts of each finished compaction.
class CompactionTally : public rocksdb::EventListener {
 public:
  void OnCompactionCompleted(rocksdb::DB* /*db*/, const rocksdb::CompactionJobInfo& info) override {
    cpu_micros_ += info.stats.cpu_micros;
    input_records_ += info.stats.num_input_records;
    output_bytes_ += info.stats.total_output_bytes;
  }
  uint64_t cpu_micros() const { return cpu_micros_; }
  uint64_t input_records() const { return input_records_; }
  uint64_t output_bytes() const { return output_bytes_; }

 private:
  std::atomic<uint64_t> cpu_micros_{0};
  std::atomic<uint64_t> input_records_{0};
  std::atomic<uint64_t> output_bytes_{0};
};

Status LoadDatabase(Database* database, WorkloadDriver* driver) {
  ConfigSettings settings;
  TableStorage storage;
  Status s = StorageForConfig(FLAGS_config, settings, &storage);
  Table* table = nullptr;
  if (s.ok()) {
    s = CreateAndLoadTable(database, driver, storage, FLAGS_seed,
                           FLAGS_workload + "/" + FLAGS_config, &table);
  }
  return s;
}

// Writes the `round`th --appended_minutes of data after `size`'s window, and flushes them.
Status AppendRows(Table* table, const WorkloadSize& size, uint64_t round) {
  WorkloadSize appended = size;
  appended.duration_s = static_cast<int64_t>(FLAGS_appended_minutes) * 60;
  appended.end_time_s = size.end_time_s + static_cast<int64_t>(round + 1) * appended.duration_s;
  appended.seed = size.seed + round + 1;
  std::unique_ptr<WorkloadDriver> driver = NewWorkloadDriver(FLAGS_workload, appended);
  Status s = driver->Bind(*table->schema());
  LoadSettings load;
  load.writers = 1;
  load.background_reads_per_second = 0;
  load.seed = appended.seed;
  load.full_compaction = false;
  LoadOutcome outcome;
  if (s.ok()) s = RunLoad(table, *driver, load, &outcome);
  if (s.ok()) {
    std::printf("%s/%s appended %llu rows\n", FLAGS_workload.c_str(), FLAGS_config.c_str(),
                static_cast<unsigned long long>(outcome.rows));
  }
  return s;
}

// Not inlined, so that a profile can be limited to it.
__attribute__((noinline)) Status Rewrite(Database* database, Table* table) {
  rocksdb::CompactRangeOptions compact;
  // With appended rows, the one compaction of the new file into the last level (kSkip leaves
  // the last level's own rewrite out); without, a full rewrite.
  compact.bottommost_level_compaction = FLAGS_appended_minutes > 0
                                            ? rocksdb::BottommostLevelCompaction::kSkip
                                            : rocksdb::BottommostLevelCompaction::kForce;
  compact.max_subcompactions = 1;
  Status s = database->db()->CompactRange(compact, table->column_family(), nullptr, nullptr);
  if (s.ok()) s = WaitForCompactions(database->db(), table->column_family());
  return s;
}

Status Run() {
  WorkloadSize size;
  size.series = FLAGS_series;
  size.instances = FLAGS_instances;
  size.hosts = FLAGS_hosts;
  size.duration_s = static_cast<int64_t>(FLAGS_days * 1440) * 60;
  size.end_time_s = FloorToUtcDay(std::time(nullptr));
  size.seed = FLAGS_seed;
  std::unique_ptr<WorkloadDriver> driver = NewWorkloadDriver(FLAGS_workload, size);
  if (driver == nullptr) return Status::InvalidArgument("unknown workload " + FLAGS_workload);

  // devops' partitions are a host's day: its data starts and ends at midnights.
  if (FLAGS_workload == "devops" && FLAGS_appended_minutes % 1440 != 0) {
    return Status::InvalidArgument(
        "devops: --appended_minutes must be a multiple of 1440 (whole days)");
  }
  if (!FLAGS_reuse_db) {
    std::error_code ignored;
    std::filesystem::remove_all(FLAGS_db, ignored);
  } else if (!std::filesystem::exists(FLAGS_db)) {
    return Status::InvalidArgument("--reuse_db: no database at " + FLAGS_db);
  }
  auto tally = std::make_shared<CompactionTally>();
  DatabaseOptions options;
  options.db_options.listeners.push_back(tally);
  options.configure_column_family = [](const TableSchema&, rocksdb::ColumnFamilyOptions* cf) {
    // Configured through the options API, which rebuilds the factory's settings.
    if (cf->table_factory->GetOptions<ColumnarTableOptions>() != nullptr) {
      cf->table_factory
          ->ConfigureFromString(rocksdb::ConfigOptions(), FLAGS_copy_row_groups
                                                              ? "copy_row_groups=true"
                                                              : "copy_row_groups=false")
          .PermitUncheckedError();
    }
  };
  std::unique_ptr<Database> database;
  Status s = Database::Open(options, FLAGS_db, &database);
  if (s.ok() && !FLAGS_reuse_db) s = LoadDatabase(database.get(), driver.get());
  Table* table = nullptr;
  if (s.ok()) s = OpenLoadedTable(database.get(), driver.get(), &table);
  if (!s.ok()) return s;

  for (uint64_t r = 0; r < FLAGS_rewrites; r++) {
    if (FLAGS_appended_minutes > 0) {
      s = AppendRows(table, size, r);
      if (!s.ok()) return s;
    }
    const uint64_t cpu_before = tally->cpu_micros();
    const uint64_t records_before = tally->input_records();
    const uint64_t bytes_before = tally->output_bytes();
    const auto start = std::chrono::steady_clock::now();
    s = Rewrite(database.get(), table);
    if (!s.ok()) return s;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double cpu_seconds = static_cast<double>(tally->cpu_micros() - cpu_before) / 1e6;
    const double records = static_cast<double>(tally->input_records() - records_before);
    std::printf(
        "%s/%s rewrite %llu: %.0f rows, %llu bytes, wall %.3f s, CPU %.3f s (%.3f s per M "
        "rows)\n",
        FLAGS_workload.c_str(), FLAGS_config.c_str(), static_cast<unsigned long long>(r + 1),
        records, static_cast<unsigned long long>(tally->output_bytes() - bytes_before), seconds,
        cpu_seconds, records > 0 ? cpu_seconds * 1e6 / records : 0.0);
    std::fflush(stdout);
  }
  return Status::OK();
}

}  // namespace
}  // namespace bench
}  // namespace columnar

int main(int argc, char** argv) {
  gflags::SetUsageMessage("full rewrites of one db_bench_ext database");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  const columnar::Status s = columnar::bench::Run();
  if (!s.ok()) {
    std::fprintf(stderr, "compaction_bench: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
