// A small time-series service on the ColumnarTable Table API, meant to be copied: it opens a
// database, creates its table from CQL (with a TTL and the time-window partitioner), ingests
// points with several writer threads, answers a range query, a latest-point query and
// aggregates (over a range, per minute, per series; computed by the Table API's SelectQuery
// aggregates), then shuts down cleanly and reopens the database to show the data (and the
// table's ColumnarTable factory) come back.
//
//   timeseries_service <db directory> [series] [points per series] [writer threads]
//
// Point i of series k is at time kBaseMillis + i seconds with value k * 1000 + i * 0.5, so
// every answer below is known in advance; the program checks each one and exits 1 on a
// mismatch.
#include <rocksdb/options.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "plugin/time_window_partitioner.h"
#include "table_api/database.h"

namespace {

using columnar::Aggregate;
using columnar::Database;
using columnar::DatabaseOptions;
using columnar::ResultSet;
using columnar::SelectQuery;
using columnar::Status;
using columnar::Table;
using columnar::Value;

constexpr int64_t kBaseMillis = 1700000000000;  // 2023-11-14T22:13:20Z
constexpr const char* kTableName = "metrics.points";
// One row per point; a series' points are clustered newest first, so "the latest point" is
// the first row of its partition. Points expire after 30 days.
constexpr const char* kCreateTable =
    "CREATE TABLE IF NOT EXISTS metrics.points (series text, time timestamp, value double, "
    "PRIMARY KEY ((series), time)) WITH CLUSTERING ORDER BY (time DESC) "
    "AND default_time_to_live = 2592000";

std::string SeriesName(int k) { return "host" + std::to_string(k) + ".cpu"; }
double PointValue(int series, int i) { return series * 1000.0 + i * 0.5; }

bool Check(const Status& s, const char* what) {
  if (s.ok()) return true;
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  return false;
}

DatabaseOptions ServiceOptions() {
  DatabaseOptions options;
  // Compaction output files cut at time-window (here: partition) boundaries, so files whose
  // rows have all expired are dropped whole (Table::DropExpiredFiles).
  options.configure_column_family = [](const columnar::TableSchema& schema,
                                       rocksdb::ColumnFamilyOptions* cf) {
    cf->sst_partitioner_factory =
        std::make_shared<columnar::TimeWindowSstPartitionerFactory>(schema);
  };
  options.column_family_options.compression = rocksdb::kZSTD;
  return options;
}

// Writer `w` of `writers` ingests the series k with k % writers == w, 500 points per batch.
Status Ingest(Table* table, int writer, int writers, int series, int points) {
  std::vector<columnar::NamedRow> batch;
  for (int k = writer; k < series; k += writers) {
    for (int i = 0; i < points; i++) {
      batch.push_back({{"series", Value::Text(SeriesName(k))},
                       {"time", Value::Timestamp(kBaseMillis + i * 1000LL)},
                       {"value", Value::Double(PointValue(k, i))}});
      if (batch.size() == 500 || i == points - 1) {
        Status s = table->InsertBatch(batch);
        if (!s.ok()) return s;
        batch.clear();
      }
    }
  }
  return Status::OK();
}

// Points of one series with time in [from_millis, to_millis), oldest first.
Status RangeQuery(const Table& table, const std::string& series, int64_t from_millis,
                  int64_t to_millis, ResultSet* rows) {
  SelectQuery query = SelectQuery::ForPartition({Value::Text(series)});
  query.columns = {"time", "value"};
  query.lower_bound = columnar::ClusteringBound{Value::Timestamp(from_millis), true};
  query.upper_bound = columnar::ClusteringBound{Value::Timestamp(to_millis), false};
  query.reversed = true;  // the table is newest first
  return table.Select(query, rows);
}

// Aggregates of one series' points with time in [from_millis, to_millis), computed by the
// Table API while it scans (no rows come back to the service): one row for the whole range,
// or with `bucket_millis` one row per time bucket (GROUP BY series, floor(time / bucket)),
// oldest first. Columns: [series, time bucket,] count(*), min(value), max(value), avg(value).
Status RangeAggregates(const Table& table, const std::string& series, int64_t from_millis,
                       int64_t to_millis, std::optional<int64_t> bucket_millis, ResultSet* result) {
  SelectQuery query = SelectQuery::ForPartition({Value::Text(series)});
  query.lower_bound = columnar::ClusteringBound{Value::Timestamp(from_millis), true};
  query.upper_bound = columnar::ClusteringBound{Value::Timestamp(to_millis), false};
  query.reversed = true;  // oldest first
  query.aggregates = {{Aggregate::Function::kCount, ""},
                      {Aggregate::Function::kMin, "value"},
                      {Aggregate::Function::kMax, "value"},
                      {Aggregate::Function::kAvg, "value"}};
  if (bucket_millis) {
    query.group_by = 2;  // series, time
    query.time_bucket = bucket_millis;
  }
  return table.Select(query, result);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <db directory> [series] [points] [writer threads]\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const int series = argc > 2 ? std::atoi(argv[2]) : 8;
  const int points = argc > 3 ? std::atoi(argv[3]) : 5000;
  const int writers = argc > 4 ? std::atoi(argv[4]) : 4;
  if (series < 1 || points < 300 || writers < 1) {
    std::fprintf(stderr, "need series >= 1, points >= 300, writer threads >= 1\n");
    return 2;
  }

  std::unique_ptr<Database> db;
  if (!Check(Database::Open(ServiceOptions(), path, &db), "open")) return 1;
  Table* table = nullptr;
  if (!Check(db->CreateTable(kCreateTable, columnar::TableStorage(), &table), "create table")) {
    return 1;
  }
  std::printf("table %s: %s\n", kTableName, table->table_factory()->Name());

  // Ingest with several writer threads (Table is thread-safe).
  std::vector<Status> results(writers);
  std::vector<std::thread> threads;
  for (int w = 0; w < writers; w++) {
    threads.emplace_back([&, w] { results[w] = Ingest(table, w, writers, series, points); });
  }
  for (std::thread& thread : threads) thread.join();
  for (const Status& s : results) {
    if (!Check(s, "ingest")) return 1;
  }
  std::printf("ingested %d points (%d series, %d writer threads)\n", series * points, series,
              writers);
  if (!Check(db->db()->Flush(rocksdb::FlushOptions(), table->column_family()), "flush")) return 1;

  bool ok = true;
  const std::string target = SeriesName(series - 1);

  // Range: points 100..299 of the last series.
  ResultSet rows;
  if (!Check(RangeQuery(*table, target, kBaseMillis + 100000, kBaseMillis + 300000, &rows),
             "range query")) {
    return 1;
  }
  ok = ok && rows.rows.size() == 200 && rows.rows.front()[0].int64_value() == kBaseMillis + 100000;
  std::printf("range %s [100 s, 300 s): %zu points\n", target.c_str(), rows.rows.size());

  // Aggregates over that range, computed by the Table API.
  const int k = series - 1;
  ResultSet aggregate;
  if (!Check(RangeAggregates(*table, target, kBaseMillis + 100000, kBaseMillis + 300000,
                             std::nullopt, &aggregate),
             "aggregate query")) {
    return 1;
  }
  if (aggregate.rows.size() != 1) return 1;
  const std::vector<Value>& totals = aggregate.rows[0];  // count(*), min, max, avg
  ok = ok && totals[0].int64_value() == 200 && totals[1].double_value() == PointValue(k, 100) &&
       totals[2].double_value() == PointValue(k, 299) &&
       totals[3].double_value() == (PointValue(k, 100) + PointValue(k, 299)) / 2;
  std::printf("aggregate %s [100 s, 300 s): count=%lld min=%.1f max=%.1f avg=%.2f\n",
              target.c_str(), static_cast<long long>(totals[0].int64_value()),
              totals[1].double_value(), totals[2].double_value(), totals[3].double_value());

  // The same range per minute: buckets start on whole minutes (kBaseMillis is 20 s past one),
  // so points 100..159 s, 160..219 s, 220..279 s and 280..299 s.
  if (!Check(RangeAggregates(*table, target, kBaseMillis + 100000, kBaseMillis + 300000, 60000,
                             &aggregate),
             "per-minute query")) {
    return 1;
  }
  std::string counts;
  for (const std::vector<Value>& bucket : aggregate.rows) {  // series, bucket, count, ...
    counts += (counts.empty() ? "" : "+") + std::to_string(bucket[2].int64_value());
  }
  ok = ok && aggregate.rows.size() == 4 && counts == "60+60+60+20" &&
       aggregate.rows[0][1].int64_value() == kBaseMillis + 100000 &&
       aggregate.rows[0][5].double_value() == (PointValue(k, 100) + PointValue(k, 159)) / 2;
  if (!aggregate.rows.empty()) {
    std::printf("per minute %s [100 s, 300 s): %zu buckets of %s points, first %s avg=%.2f\n",
                target.c_str(), aggregate.rows.size(), counts.c_str(),
                aggregate.rows[0][1].ToCqlLiteral().c_str(), aggregate.rows[0][5].double_value());
  }

  // Latest point: the first row of the (newest first) partition, in CQL this time.
  if (!Check(db->Execute("SELECT time, value, ttl(value) FROM metrics.points WHERE series = '" +
                             target + "' LIMIT 1",
                         &rows),
             "latest query")) {
    return 1;
  }
  ok = ok && rows.rows.size() == 1 &&
       rows.rows[0][0].int64_value() == kBaseMillis + (points - 1) * 1000LL &&
       rows.rows[0][1].double_value() == PointValue(k, points - 1) &&
       rows.rows[0][2].int32_value() > 2592000 - 3600;
  if (rows.rows.size() == 1) {
    std::printf("latest %s: time=%s value=%.1f ttl<=30d:%s\n", target.c_str(),
                rows.rows[0][0].ToCqlLiteral().c_str(), rows.rows[0][1].double_value(),
                rows.rows[0][2].int32_value() <= 2592000 ? "yes" : "no");
  }

  // Clean shutdown: every writer has joined; closing the database flushes nothing it would
  // lose (the WAL holds unflushed writes) and releases its files.
  db.reset();

  // Reopen: the table comes back from the catalog with its ColumnarTable factory.
  if (!Check(Database::Open(ServiceOptions(), path, &db), "reopen")) return 1;
  if (!Check(db->GetTable(kTableName, &table), "get table")) return 1;
  // Points per series, in one query: GROUP BY series over the whole table.
  SelectQuery per_series;
  per_series.aggregates = {{Aggregate::Function::kCount, ""}};
  per_series.group_by = 1;
  if (!Check(table->Select(per_series, &rows), "count per series")) return 1;
  uint64_t total = 0;
  for (const std::vector<Value>& row : rows.rows) {  // series, count(*)
    ok = ok && row[1].int64_value() == points;
    total += static_cast<uint64_t>(row[1].int64_value());
  }
  ok = ok && rows.rows.size() == static_cast<size_t>(series) &&
       total == static_cast<uint64_t>(series) * points;
  std::printf("after reopen: %llu points in %zu series in %s\n",
              static_cast<unsigned long long>(total), rows.rows.size(),
              table->table_factory()->Name());
  db.reset();
  std::printf("%s\n", ok ? "timeseries_service: OK" : "timeseries_service: WRONG ANSWER");
  return ok ? 0 : 1;
}
