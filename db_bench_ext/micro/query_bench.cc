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
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "db_bench_ext/bench_configs.h"
#include "db_bench_ext/load_phase.h"
#include "db_bench_ext/random_distributions.h"
#include "db_bench_ext/timeline.h"
#include "db_bench_ext/workload_driver.h"
#include "table_api/database.h"

DEFINE_string(workload, "metrics", "metrics, access4, access8, access16 or devops");
DEFINE_string(config, "C", "A, A-dict, B, C, C-dict, D or T (db_bench_ext's configurations)");
DEFINE_string(query, "latest",
              "Comma-separated query kinds (db_bench_ext's names: latest, lastpoint, ...), or "
              "all: each measured in turn on the same loaded database");
DEFINE_uint64(series, 50, "Metrics series");
DEFINE_uint64(instances, 5, "Access-log instances");
DEFINE_uint64(hosts, 5, "Devops hosts");
DEFINE_double(days, 0.25, "Days of data (whole minutes)");
DEFINE_uint64(executions, 20000, "Executions of the query, after as many unmeasured ones");
DEFINE_bool(columnar_scan, true, "false: every query through RocksDB iterators only");
DEFINE_uint64(cache_mb, 256, "Block / row-group cache, MiB");
DEFINE_uint64(seed, 1, "Seed of the data and of the query parameters");
DEFINE_bool(reuse_db, false,
            "Open the database at --db as an earlier run (same flags, same UTC day: the data "
            "and the queries' times end at the day's start) left it instead of loading it (the "
            "table's storage is the one it was created with)");
DEFINE_string(db, "/tmp/query_bench", "Database directory (replaced unless --reuse_db)");

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

// The named query kinds in the workload's order; "all" is every one. A name the workload does
// not have is an error, so a typo does not silently measure nothing.
Status SelectQuerySpecs(const std::vector<QuerySpec>& queries, const std::string& names,
                        std::vector<QuerySpec>* selected) {
  std::set<std::string> wanted;
  std::stringstream stream(names);
  for (std::string name; std::getline(stream, name, ',');) {
    if (!name.empty()) wanted.insert(name);
  }
  const bool all = wanted.erase("all") > 0;
  for (const QuerySpec& q : queries) {
    if (all || wanted.erase(q.name) > 0) selected->push_back(q);
  }
  if (!wanted.empty())
    return Status::InvalidArgument(FLAGS_workload + " has no query " + *wanted.begin());
  if (selected->empty()) return Status::InvalidArgument("no query named");
  return Status::OK();
}

// --executions unmeasured executions (they fill the caches), then as many timed ones. Not inlined:
// callgrind --dump-after=MeasureQueryKind writes one profile per query kind.
__attribute__((noinline)) Status MeasureQueryKind(const Table& table, const WorkloadDriver& driver,
                                                  const QuerySpec& spec) {
  Random rng(FLAGS_seed);
  QueryCounts warmup, counts;
  const auto first = std::chrono::steady_clock::now();
  Status s = MeasureQueries(table, driver, spec, FLAGS_executions, &rng, &warmup);
  const auto start = std::chrono::steady_clock::now();
  if (s.ok()) s = MeasureQueries(table, driver, spec, FLAGS_executions, &rng, &counts);
  const auto end = std::chrono::steady_clock::now();
  if (!s.ok()) return s;
  const auto micros_each = [](std::chrono::steady_clock::duration elapsed) {
    return std::chrono::duration<double, std::micro>(elapsed).count() /
           static_cast<double>(std::max<uint64_t>(FLAGS_executions, 1));
  };
  // The first pass starts from the caches the load (or the reopen) left: its figure is the one
  // a short measurement window sees.
  std::printf(
      "%s/%s %s: %llu executions (%llu selects, %llu rows): %.3f us each (first pass %.3f us)\n",
      FLAGS_workload.c_str(), FLAGS_config.c_str(), spec.name.c_str(),
      static_cast<unsigned long long>(FLAGS_executions),
      static_cast<unsigned long long>(counts.selects), static_cast<unsigned long long>(counts.rows),
      micros_each(end - start), micros_each(start - first));
  std::fflush(stdout);
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
  std::vector<QuerySpec> specs;
  Status s = SelectQuerySpecs(driver->Queries(), FLAGS_query, &specs);
  if (!s.ok()) return s;
  ConfigSettings settings;
  settings.cache_bytes = FLAGS_cache_mb << 20;
  TableStorage storage;
  s = StorageForConfig(FLAGS_config, settings, &storage);
  if (!s.ok()) return s;

  if (!FLAGS_reuse_db) {
    std::error_code ignored;
    std::filesystem::remove_all(FLAGS_db, ignored);
  } else if (!std::filesystem::exists(FLAGS_db)) {
    return Status::InvalidArgument("--reuse_db: no database at " + FLAGS_db);
  }
  DatabaseOptions options;
  options.db_options.enable_write_thread_adaptive_yield = false;
  if (FLAGS_reuse_db) RestoreBlockCache(storage, &options);
  std::unique_ptr<Database> database;
  s = Database::Open(options, FLAGS_db, &database);
  if (!s.ok()) return s;
  Table* table = nullptr;
  s = FLAGS_reuse_db ? OpenLoadedTable(database.get(), driver.get(), &table)
                     : CreateAndLoadTable(database.get(), driver.get(), storage, FLAGS_seed,
                                          FLAGS_workload + "/" + FLAGS_config, &table);
  if (!s.ok()) return s;
  for (const QuerySpec& spec : specs) {
    s = MeasureQueryKind(*table, *driver, spec);
    if (!s.ok()) return s;
  }
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
