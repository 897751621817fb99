#include "db_bench_ext/load_phase.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "db_bench_ext/latency_histogram.h"
#include "db_bench_ext/machine_probe.h"
#include "db_bench_ext/progress_line.h"
#include "plugin/tiered_table_factory.h"

namespace columnar {
namespace bench {

namespace {

using Clock = std::chrono::steady_clock;

// A bounded queue between the single producer and the writers.
class BatchQueue {
 public:
  explicit BatchQueue(size_t capacity) : capacity_(capacity) {}

  void Push(LoadBatch batch) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_full_.wait(lock, [this] { return batches_.size() < capacity_; });
    batches_.push_back(std::move(batch));
    not_empty_.notify_one();
  }
  // False once the producer is done and the queue drained.
  bool Pop(LoadBatch* batch) {
    std::unique_lock<std::mutex> lock(mutex_);
    not_empty_.wait(lock, [this] { return !batches_.empty() || done_; });
    if (batches_.empty()) return false;
    *batch = std::move(batches_.front());
    batches_.pop_front();
    not_full_.notify_one();
    return true;
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
    not_empty_.notify_all();
  }

 private:
  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable not_full_;
  std::condition_variable not_empty_;
  std::deque<LoadBatch> batches_;
  bool done_ = false;
};

uint64_t SstBytes(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family) {
  uint64_t bytes = 0;
  db->GetIntProperty(column_family, "rocksdb.total-sst-files-size", &bytes);
  return bytes;
}

// Samples the column family's SST bytes until stopped; keeps the peak.
class PeakSampler {
 public:
  PeakSampler(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family)
      : thread_([this, db, column_family] {
          while (!stop_.load()) {
            peak_ = std::max(peak_.load(), SstBytes(db, column_family));
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
          }
          peak_ = std::max(peak_.load(), SstBytes(db, column_family));
        }) {}
  uint64_t Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return peak_;
  }
  ~PeakSampler() { Stop(); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> peak_{0};
  std::thread thread_;
};

// "Last hour" reads of random partitions at a fixed rate while loading, looking back from the
// newest time written so far.
class BackgroundReader {
 public:
  BackgroundReader(const Table* table, const WorkloadDriver& driver, double per_second,
                   uint64_t seed, const std::atomic<int64_t>* newest_time_s)
      : thread_([=, &driver] { Run(table, driver, per_second, seed, newest_time_s); }) {}
  uint64_t Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    return reads_;
  }
  ~BackgroundReader() { Stop(); }

 private:
  void Run(const Table* table, const WorkloadDriver& driver, double per_second, uint64_t seed,
           const std::atomic<int64_t>* newest_time_s) {
    if (per_second <= 0) return;
    const std::vector<QuerySpec> queries = driver.Queries();
    const QuerySpec* last_hour = nullptr;
    for (const QuerySpec& q : queries) {
      if (q.range == RangeQuery::kLastHour && !q.filter) last_hour = &q;
    }
    if (last_hour == nullptr) return;
    Random rng(seed);
    const auto interval = std::chrono::duration<double>(1.0 / per_second);
    auto next = Clock::now();
    ResultSet rows;
    while (!stop_.load()) {
      next += std::chrono::duration_cast<Clock::duration>(interval);
      std::this_thread::sleep_until(next);
      const int64_t as_of = newest_time_s->load();
      if (as_of == 0) continue;
      table->Select(driver.MakeQuery(*last_hour, &rng, as_of), &rows);
      reads_++;
    }
  }

  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> reads_{0};
  std::thread thread_;
};

}  // namespace

Status CreateAndLoadTable(Database* database, WorkloadDriver* driver, const TableStorage& storage,
                          uint64_t seed, const std::string& label, Table** table) {
  Status s = database->CreateTable(driver->CreateTableCql(), storage, table);
  if (s.ok()) s = driver->Bind(*(*table)->schema());
  LoadSettings load;
  load.writers = 1;
  load.background_reads_per_second = 0;
  load.seed = seed;
  LoadOutcome outcome;
  if (s.ok()) s = RunLoad(*table, *driver, load, &outcome);
  if (s.ok()) {
    std::printf("%s: %llu rows loaded\n", label.c_str(),
                static_cast<unsigned long long>(outcome.rows));
  }
  return s;
}

void RestoreBlockCache(const TableStorage& storage, DatabaseOptions* options) {
  const std::shared_ptr<rocksdb::Cache> block_cache = storage.block_based.block_cache;
  options->configure_column_family = [block_cache](const TableSchema&,
                                                   rocksdb::ColumnFamilyOptions* cf) {
    rocksdb::TableFactory* factory = cf->table_factory.get();
    if (auto* tiered = factory->GetOptions<TieredTableOptions>(); tiered != nullptr) {
      factory = tiered->row_table.get();
    }
    if (factory == nullptr) return;
    if (auto* block_based = factory->GetOptions<rocksdb::BlockBasedTableOptions>()) {
      block_based->block_cache = block_cache;
    }
  };
}

Status OpenLoadedTable(Database* database, WorkloadDriver* driver, Table** table) {
  const std::vector<std::string> tables = database->ListTables();
  if (tables.size() != 1) return Status::InvalidArgument("the database must hold one table");
  Status s = database->GetTable(tables[0], table);
  if (s.ok()) s = driver->Bind(*(*table)->schema());
  return s;
}

Status WaitForCompactions(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family) {
  for (;;) {
    uint64_t pending = 0;
    uint64_t running = 0;
    uint64_t flushes = 0;
    if (!db->GetIntProperty(column_family, "rocksdb.compaction-pending", &pending) ||
        !db->GetIntProperty("rocksdb.num-running-compactions", &running) ||
        !db->GetIntProperty("rocksdb.num-running-flushes", &flushes)) {
      return Status::Corruption("cannot read compaction state properties");
    }
    if (pending == 0 && running == 0 && flushes == 0) return Status::OK();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

uint32_t FullCompactionSubcompactions() {
  return std::max(3u, std::thread::hardware_concurrency());
}

EveryCoreForCompactions::EveryCoreForCompactions(rocksdb::DB* db)
    : db_(db), before_(db->GetDBOptions().max_subcompactions) {
  const uint32_t wanted = FullCompactionSubcompactions();
  changed_ =
      wanted > before_ && db_->SetDBOptions({{"max_subcompactions", std::to_string(wanted)}}).ok();
}

EveryCoreForCompactions::~EveryCoreForCompactions() {
  if (changed_) {
    db_->SetDBOptions({{"max_subcompactions", std::to_string(before_)}}).PermitUncheckedError();
  }
}

Status RunLoad(Table* table, const WorkloadDriver& driver, const LoadSettings& settings,
               LoadOutcome* outcome) {
  rocksdb::DB* db = table->db();
  rocksdb::ColumnFamilyHandle* column_family = table->column_family();
  *outcome = LoadOutcome();
  outcome->probe_before_ms = ProbeMachineMilliseconds();
  PeakSampler peak(db, column_family);
  CpuStopwatch cpu;
  const auto start = Clock::now();

  BatchQueue queue(static_cast<size_t>(settings.writers) * 64);
  std::thread producer([&] {
    std::unique_ptr<BatchProducer> batches = driver.NewProducer();
    LoadBatch batch;
    while (batches->Next(&batch)) queue.Push(std::move(batch));
    queue.Close();
  });

  std::atomic<int64_t> newest_time_s{0};
  BackgroundReader reader(table, driver, settings.background_reads_per_second, settings.seed,
                          &newest_time_s);
  ProgressLine progress(settings.progress_label, driver.total_rows());
  std::mutex mutex;
  Status first_error;
  LatencyHistogram latencies;
  std::vector<std::thread> writers;
  for (int w = 0; w < settings.writers; w++) {
    writers.emplace_back([&] {
      LatencyHistogram local;
      LoadBatch batch;
      while (queue.Pop(&batch)) {
        const auto begin = Clock::now();
        Status s = table->InsertBatch(batch.rows);
        local.Record(
            std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - begin).count());
        if (!s.ok()) {
          std::lock_guard<std::mutex> lock(mutex);
          if (first_error.ok()) first_error = s;
          continue;
        }
        int64_t seen = newest_time_s.load();
        while (batch.newest_time_s > seen &&
               !newest_time_s.compare_exchange_weak(seen, batch.newest_time_s)) {
        }
        progress.Add(batch.rows.size());
      }
      std::lock_guard<std::mutex> lock(mutex);
      latencies.Merge(local);
    });
  }
  for (std::thread& writer : writers) writer.join();
  producer.join();
  outcome->write_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  outcome->background_reads = reader.Stop();
  progress.Finish();
  if (!first_error.ok()) return first_error;

  const EveryCoreForCompactions every_core(db);
  const auto flush_start = Clock::now();
  Status s = db->Flush(rocksdb::FlushOptions(), column_family);
  outcome->final_flush_seconds = std::chrono::duration<double>(Clock::now() - flush_start).count();
  outcome->cpu = cpu.Elapsed();
  // Settle: the pending compactions, unless the full compaction below takes them over.
  if (s.ok() && !settings.full_compaction) s = WaitForCompactions(db, column_family);
  if (!s.ok()) return s;
  outcome->rows = progress.done();
  outcome->write_latency.p50_us = static_cast<double>(latencies.Percentile(50));
  outcome->write_latency.p99_us = static_cast<double>(latencies.Percentile(99));
  outcome->write_latency.p999_us = static_cast<double>(latencies.Percentile(99.9));
  outcome->write_latency.max_us = static_cast<double>(latencies.max());

  if (settings.full_compaction) {
    // Every level compacted into the next down to the last one, so storage is compared in its
    // final form and all data has sequence number 0 (no snapshots here). The last level itself
    // is not rewritten again: it already is compaction output.
    const auto compaction_start = Clock::now();
    rocksdb::CompactRangeOptions compact;
    compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kSkip;
    compact.max_subcompactions = FullCompactionSubcompactions();
    s = db->CompactRange(compact, column_family, nullptr, nullptr);
    if (s.ok()) s = WaitForCompactions(db, column_family);
    outcome->final_compaction_seconds =
        std::chrono::duration<double>(Clock::now() - compaction_start).count();
  }
  outcome->peak_sst_bytes = peak.Stop();
  outcome->probe_after_ms = ProbeMachineMilliseconds();
  return s;
}

}  // namespace bench
}  // namespace columnar
