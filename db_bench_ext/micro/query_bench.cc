// One query kind of a db_bench_ext workload, executed a fixed number of times by one reader on a
// database loaded as db_bench_ext loads it (the same generated data and configuration, flushed
// and fully compacted). Where db_bench_ext times every query for a while, this runs a known
// number of executions, so that the instructions of one query kind can be counted without those
// of the load (the query loop is the function MeasureQueries):
//
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*MeasureQueries*'
//       build/db_bench_ext/micro/query_bench --workload=metrics --config=C --query=latest
//
// (one command line)
//
// and compared between configurations (the per-execution figure divides by --executions).
#include <gflags/gflags.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "db_bench_ext/bench_configs.h"
#include "db_bench_ext/load_phase.h"
#include "db_bench_ext/random_distributions.h"
#include "db_bench_ext/timeline.h"
#include "db_bench_ext/workload_driver.h"
#include "table_api/database.h"

DEFINE_string(workload, "metrics", "metrics, access4, access8, access16 or devops");
DEFINE_string(config, "C", "A, A-dict, B, C, C-dict, D or T (db_bench_ext's configurations)");
DEFINE_string(query, "latest", "The query kind (db_bench_ext's names: latest, lastpoint, ...)");
DEFINE_uint64(series, 50, "Metrics series");
DEFINE_uint64(instances, 5, "Access-log instances");
DEFINE_uint64(hosts, 5, "Devops hosts");
DEFINE_double(days, 0.25, "Days of data (whole minutes)");
DEFINE_uint64(executions, 20000, "Executions of the query, after as many unmeasured ones");
DEFINE_bool(columnar_scan, true, "false: every query through RocksDB iterators only");
DEFINE_uint64(cache_mb, 256, "Block / row-group cache, MiB");
DEFINE_uint64(seed, 1, "Seed of the data and of the query parameters");
DEFINE_string(db, "/tmp/query_bench", "Database directory (replaced)");

namespace columnar {
namespace bench {
namespace {

struct QueryCounts {
  uint64_t selects = 0;
  uint64_t rows = 0;
};

// Not inlined: callgrind's --toggle-collect names it.
__attribute__((noinline)) Status MeasureQueries(const Table& table, const WorkloadDriver& driver,
                                                const QuerySpec& spec, uint64_t executions,
                                                Random* rng, QueryCounts* counts) {
  ResultSet rows;
  for (uint64_t i = 0; i < executions; i++) {
    for (SelectQuery& query : driver.MakeQueries(spec, rng, driver.newest_time_s())) {
      query.allow_columnar_scan = FLAGS_columnar_scan;
      Status s = table.Select(query, &rows);
      if (!s.ok()) return s;
      counts->selects++;
      counts->rows += rows.rows.size();
    }
  }
  return Status::OK();
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
  const QuerySpec* spec = nullptr;
  const std::vector<QuerySpec> queries = driver->Queries();
  for (const QuerySpec& q : queries) {
    if (q.name == FLAGS_query) spec = &q;
  }
  if (spec == nullptr) {
    return Status::InvalidArgument(FLAGS_workload + " has no query " + FLAGS_query);
  }
  ConfigSettings settings;
  settings.cache_bytes = FLAGS_cache_mb << 20;
  TableStorage storage;
  Status s = StorageForConfig(FLAGS_config, settings, &storage);
  if (!s.ok()) return s;

  std::error_code ignored;
  std::filesystem::remove_all(FLAGS_db, ignored);
  DatabaseOptions options;
  options.db_options.enable_write_thread_adaptive_yield = false;
  std::unique_ptr<Database> database;
  s = Database::Open(options, FLAGS_db, &database);
  Table* table = nullptr;
  if (s.ok()) s = database->CreateTable(driver->CreateTableCql(), storage, &table);
  if (s.ok()) s = driver->Bind(*table->schema());
  LoadSettings load;
  load.writers = 1;
  load.background_reads_per_second = 0;
  load.seed = FLAGS_seed;
  LoadOutcome outcome;
  if (s.ok()) s = RunLoad(table, *driver, load, &outcome);
  if (!s.ok()) return s;

  Random rng(FLAGS_seed);
  QueryCounts warmup, counts;
  s = MeasureQueries(*table, *driver, *spec, FLAGS_executions, &rng, &warmup);
  const auto start = std::chrono::steady_clock::now();
  if (s.ok()) s = MeasureQueries(*table, *driver, *spec, FLAGS_executions, &rng, &counts);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!s.ok()) return s;
  std::printf(
      "%s/%s %s: %llu rows loaded; %llu executions (%llu selects, %llu rows): %.3f us each\n",
      FLAGS_workload.c_str(), FLAGS_config.c_str(), FLAGS_query.c_str(),
      static_cast<unsigned long long>(outcome.rows),
      static_cast<unsigned long long>(FLAGS_executions),
      static_cast<unsigned long long>(counts.selects), static_cast<unsigned long long>(counts.rows),
      seconds * 1e6 / static_cast<double>(std::max<uint64_t>(FLAGS_executions, 1)));
  return Status::OK();
}

}  // namespace
}  // namespace bench
}  // namespace columnar

int main(int argc, char** argv) {
  gflags::SetUsageMessage("one db_bench_ext query kind, a fixed number of executions");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  const columnar::Status s = columnar::bench::Run();
  if (!s.ok()) {
    std::fprintf(stderr, "query_bench: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
