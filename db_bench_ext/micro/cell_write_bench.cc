// Write throughput of the Table API's write paths (docs/cell_semantics.md), one thread:
//   whole rows at the server clock (blind Puts, time-series ingestion), batches of 100;
//   partial UPDATEs of existing rows (read-modify-write), one per call and batches of 100;
//   whole rows with an older client timestamp (merged with the stored row).
// Build: cmake --build build --target cell_write_bench
// Run: build/db_bench_ext/micro/cell_write_bench <empty directory> [columnar|block_based]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "table_api/database.h"

using namespace columnar;

namespace {

double Seconds(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Row MetricRow(const TableSchema& schema, int series, int time, float value) {
  Row row(schema.columns().size());
  row[schema.FindColumn("orgid")->id] = Value::Text("org");
  row[schema.FindColumn("clusterhash")->id] = Value::BigInt(7);
  row[schema.FindColumn("metricid")->id] = Value::BigInt(series);
  row[schema.FindColumn("time")->id] = Value::Int(time);
  row[schema.FindColumn("value")->id] = Value::Float(value);
  return row;
}

int Fail(const Status& s) {
  std::fprintf(stderr, "%s\n", s.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string format = argc > 2 ? argv[2] : "columnar";
  std::unique_ptr<Database> db;
  Status s = Database::Open(DatabaseOptions(), argv[1], &db);
  if (s.ok()) {
    s = db->Execute(
        "CREATE TABLE m.t (orgid text, clusterhash bigint, metricid bigint, time int, value "
        "float, note text, PRIMARY KEY ((orgid, clusterhash, metricid), time)) WITH "
        "sstable_format = '" +
            format + "'",
        nullptr);
  }
  Table* table = nullptr;
  if (s.ok()) s = db->GetTable("m.t", &table);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 1;
  }
  const TableSchema schema = *table->schema();
  constexpr int kSeries = 100, kTimes = 2000, kBatch = 100;
  // Whole rows, server clock: blind Puts.
  auto start = std::chrono::steady_clock::now();
  std::vector<RowWrite> batch;
  for (int t = 0; t < kTimes; t++) {
    for (int series = 0; series < kSeries; series++) {
      batch.emplace_back(MetricRow(schema, series, t, 0.5f * t));
      if (batch.size() == kBatch) {
        s = table->InsertBatch(batch);
        batch.clear();
        if (!s.ok()) return Fail(s);
      }
    }
  }
  const double whole = kSeries * kTimes / Seconds(start);
  // Partial UPDATEs of existing rows, one per call.
  constexpr int kUpdates = 50000;
  start = std::chrono::steady_clock::now();
  for (int i = 0; i < kUpdates; i++) {
    s = table->Update(NamedRow{{"orgid", Value::Text("org")},
                               {"clusterhash", Value::BigInt(7)},
                               {"metricid", Value::BigInt(i % kSeries)},
                               {"time", Value::Int((i * 7) % kTimes)},
                               {"note", Value::Text("checked")}});
    if (!s.ok()) return Fail(s);
  }
  const double updates = kUpdates / Seconds(start);
  // Partial UPDATEs in batches of 100.
  start = std::chrono::steady_clock::now();
  for (int i = 0; i < kUpdates; i++) {
    RowWrite write(MetricRow(schema, i % kSeries, (i * 13) % kTimes, 0));
    write.values[schema.FindColumn("value")->id] = Value();
    write.values[schema.FindColumn("note")->id] = Value::Text("again");
    write.kind = WriteKind::kUpdate;
    write.named.assign(schema.columns().size(), false);
    write.named[schema.FindColumn("note")->id] = true;
    batch.push_back(std::move(write));
    if (batch.size() == kBatch) {
      s = table->ApplyBatch(batch);
      batch.clear();
      if (!s.ok()) return Fail(s);
    }
  }
  const double batched_updates = kUpdates / Seconds(start);
  // Whole rows with an older client timestamp: merged with the stored rows.
  start = std::chrono::steady_clock::now();
  RowWriteOptions old;
  old.write_time_micros = 1000;
  for (int i = 0; i < kUpdates; i++) {
    batch.emplace_back(MetricRow(schema, i % kSeries, (i * 11) % kTimes, 1), old);
    if (batch.size() == kBatch) {
      s = table->InsertBatch(batch);
      batch.clear();
      if (!s.ok()) return Fail(s);
    }
  }
  const double merged = kUpdates / Seconds(start);
  std::printf(
      "%s: whole rows (blind) %.0f rows/s; UPDATE one per call %.0f/s; UPDATE batches "
      "of 100 %.0f/s; whole rows at an older timestamp (merged) %.0f rows/s\n",
      format.c_str(), whole, updates, batched_updates, merged);
  return 0;
}
