// The load phase of a workload (BENCHMARKS.md): batches of one partition's rows written by
// several writers in flight, with background "last hour" reads at a fixed rate, then a flush,
// the compactions it triggers, and a final full compaction so every configuration's storage is
// measured in its settled form.
#pragma once

#include <cstdint>
#include <string>

#include "db_bench_ext/cpu_usage.h"
#include "db_bench_ext/results.h"
#include "db_bench_ext/workload_driver.h"

namespace columnar {
namespace bench {

struct LoadSettings {
  int writers = 4;
  double background_reads_per_second = 20;
  uint64_t seed = 1;
  // After the load settles, force one full compaction so every configuration is measured in
  // its final, fully compacted form (rather than wherever leveled compaction stopped).
  bool full_compaction = true;
  std::string progress_label;
};

struct LoadOutcome {
  uint64_t rows = 0;
  // The writes alone (ingestion rate), and the process CPU from the first write to the end of
  // the final flush: writers, flushes and the compactions that ran meanwhile (CPU cost).
  double write_seconds = 0;
  CpuUsage cpu;
  LatencySummary write_latency;
  uint64_t peak_sst_bytes = 0;
  uint64_t background_reads = 0;
  // The final flush (after the writers stopped) and the full compaction after it.
  double final_flush_seconds = 0;
  double final_compaction_seconds = 0;
  // ProbeMachineMilliseconds (machine_probe.h) just before the first write and after the load
  // settled: how fast the machine ran around this load.
  double probe_before_ms = 0;
  double probe_after_ms = 0;
};

Status RunLoad(Table* table, const WorkloadDriver& driver, const LoadSettings& settings,
               LoadOutcome* outcome);

// The micro benchmarks' database (compaction_bench, query_bench): the workload's table created
// in `database` with `storage` and loaded as db_bench_ext loads it, but with one writer and no
// background reads (the same data, flushed and fully compacted); prints the rows loaded under
// `label`.
Status CreateAndLoadTable(Database* database, WorkloadDriver* driver, const TableStorage& storage,
                          uint64_t seed, const std::string& label, Table** table);

// Database options that reopen a database whose table was created with `storage`. A reopened
// table's factory is rebuilt from its stored options, which hold ColumnarTable's cache size but
// not BlockBasedTable's cache object: this gives back the one `storage` holds, to A's factory
// and to the row tier of T's.
void RestoreBlockCache(const TableStorage& storage, DatabaseOptions* options);

// The one table of a database loaded earlier (CreateAndLoadTable), bound to `driver`.
Status OpenLoadedTable(Database* database, WorkloadDriver* driver, Table** table);

// How many subcompactions the phase after the writers lets a compaction split into: every core,
// since nothing else runs then (RocksDB splits by key range, in ranges of at least a target
// file's bytes). At least 3: RocksDB 7.8 forms subcompactions only from two split keys up
// (CompactionJob::Prepare tests boundaries_.size() > 1), so a limit of 2 never splits anything;
// on two cores, three ranges share the two.
uint32_t FullCompactionSubcompactions();

// While it lives, every compaction RocksDB starts may split into FullCompactionSubcompactions()
// (DBOptions::max_subcompactions, restored when it goes away). RunLoad holds one from the final
// flush on: most compactions of that phase are not CompactRange's own (RocksDB picks the
// backlog's L0 compactions by itself, and those take the DB option, not CompactRangeOptions').
class EveryCoreForCompactions {
 public:
  explicit EveryCoreForCompactions(rocksdb::DB* db);
  ~EveryCoreForCompactions();
  EveryCoreForCompactions(const EveryCoreForCompactions&) = delete;
  EveryCoreForCompactions& operator=(const EveryCoreForCompactions&) = delete;

 private:
  rocksdb::DB* db_;
  uint32_t before_;
  bool changed_ = false;
};

// Waits until the column family has no pending or running compaction.
Status WaitForCompactions(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family);

}  // namespace bench
}  // namespace columnar
