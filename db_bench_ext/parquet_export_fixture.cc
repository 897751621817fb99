// parquet_export_fixture: the C++ half of the Parquet export cross-check (tests/export/). It
// loads a small metrics and access16 load (the benchmark's generators) and a table with every
// CQL type, then updates, deletes (rows and a partition) and lets rows expire; writes NaN,
// -0.0, infinities, nulls, empty and binary strings; exports every table with
// Table::ExportParquet, and writes what the Table API returns for the same rows, so that
// DuckDB (duckdb_check.cjs) can compare. One export runs at a snapshot while writer threads
// change the table: the file must hold exactly the snapshot's rows.
//
//   parquet_export_fixture <work dir>    writes <work dir>/manifest.json, *.parquet, *.jsonl
//
// Expected rows are JSON arrays, one per line, of canonical values: null; booleans true /
// false; integers, dates (days) and timestamps (milliseconds) as decimal strings; float and
// double as the hex of their bits ("NaN" for every NaN); uuids as 8-4-4-4-12 lowercase hex;
// blobs as uppercase hex; text and ascii as strings.
#include <rocksdb/db.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "db_bench_ext/workload_driver.h"
#include "table_api/database.h"
#include "table_api/json_text.h"

namespace columnar {
namespace {

constexpr int64_t kEndTimeSeconds = 1717200000;  // 2024-06-01T00:00:00Z
std::atomic<int64_t> g_now_micros{kEndTimeSeconds * 1000000};

bool Fail(const std::string& what, const Status& s) {
  std::fprintf(stderr, "parquet_export_fixture: %s: %s\n", what.c_str(), s.ToString().c_str());
  return false;
}

std::string Hex(const std::string& bytes, bool upper) {
  static const char* kLower = "0123456789abcdef";
  static const char* kUpper = "0123456789ABCDEF";
  const char* digits = upper ? kUpper : kLower;
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

std::string Canonical(const Value& v) {
  if (v.is_null()) return "null";
  char buffer[32];
  switch (v.type()) {
    case LogicalType::kBoolean:
      return v.bool_value() ? "true" : "false";
    case LogicalType::kInt:
    case LogicalType::kDate:
      return "\"" + std::to_string(v.int32_value()) + "\"";
    case LogicalType::kBigInt:
    case LogicalType::kTimestamp:
      return "\"" + std::to_string(v.int64_value()) + "\"";
    case LogicalType::kFloat:
      if (std::isnan(v.float_value())) return "\"NaN\"";
      std::snprintf(buffer, sizeof(buffer), "\"%08" PRIx32 "\"",
                    static_cast<uint32_t>(v.FixedBits()));
      return buffer;
    case LogicalType::kDouble:
      if (std::isnan(v.double_value())) return "\"NaN\"";
      std::snprintf(buffer, sizeof(buffer), "\"%016" PRIx64 "\"", v.FixedBits());
      return buffer;
    case LogicalType::kUuid: {
      const std::string h = Hex(v.bytes(), false);
      return "\"" + h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" +
             h.substr(16, 4) + "-" + h.substr(20) + "\"";
    }
    case LogicalType::kBlob:
      return "\"" + Hex(v.bytes(), true) + "\"";
    case LogicalType::kText:
    case LogicalType::kAscii:
      return JsonQuoted(v.bytes());
  }
  return "null";
}

// The partitions a table holds (as written; deleted ones just read back empty).
using PartitionSet = std::set<std::vector<std::string>>;
std::vector<Value> PartitionValues(const TableSchema& schema, const Row& row) {
  std::vector<Value> values;
  for (uint32_t id : schema.partition_key()) values.push_back(row[id]);
  return values;
}

struct TableRun {
  std::string name;
  Table* table = nullptr;
  std::vector<std::vector<Value>> partitions;  // every partition ever written
  std::set<std::string> partition_keys;        // their encoded form, to dedupe
};

void TrackPartition(TableRun* run, const Row& row) {
  const TableSchema& schema = *run->table->schema();
  std::vector<Value> partition = PartitionValues(schema, row);
  std::string key;
  for (const Value& v : partition) key += Canonical(v) + "|";
  if (run->partition_keys.insert(key).second) run->partitions.push_back(partition);
}

// Every row of the table through Select (partition by partition, at `snapshot`), with the
// extra columns the export adds (writetime / expiry from writetime() and ttl() of
// `meta_column`, a regular column that is never null).
Status ExpectedRows(const TableRun& run, const rocksdb::Snapshot* snapshot,
                    const std::string& meta_column, std::vector<std::string>* lines,
                    std::vector<std::string>* names, std::vector<std::string>* types) {
  const TableSchema& schema = *run.table->schema();
  lines->clear();
  for (const std::vector<Value>& partition : run.partitions) {
    SelectQuery query = SelectQuery::ForPartition(partition);
    query.snapshot = snapshot;
    if (!meta_column.empty()) {
      for (uint32_t id : schema.partition_key()) query.columns.push_back(schema.columns()[id].name);
      for (uint32_t id : schema.clustering_key())
        query.columns.push_back(schema.columns()[id].name);
      for (uint32_t id : schema.LiveRegularColumns()) {
        query.columns.push_back(schema.columns()[id].name);
      }
      query.columns.push_back("writetime(" + meta_column + ")");
      query.columns.push_back("ttl(" + meta_column + ")");
    }
    ResultSet rows;
    Status s = run.table->Select(query, &rows);
    if (!s.ok()) return s;
    const size_t plain =
        meta_column.empty() ? rows.column_names.size() : rows.column_names.size() - 2;
    names->assign(rows.column_names.begin(), rows.column_names.begin() + plain);
    types->clear();
    for (size_t c = 0; c < plain; c++) types->push_back(LogicalTypeName(rows.column_types[c]));
    if (!meta_column.empty()) {
      names->push_back("writetime");
      names->push_back("expiry");
      types->push_back("timestamp_us");
      types->push_back("timestamp");
    }
    const int64_t now_seconds = g_now_micros.load() / 1000000;
    for (const Row& row : rows.rows) {
      std::string line = "[";
      for (size_t c = 0; c < plain; c++) line += (c ? "," : "") + Canonical(row[c]);
      if (!meta_column.empty()) {
        line += "," + Canonical(row[plain]);
        const Value& ttl = row[plain + 1];
        line += "," + (ttl.is_null()
                           ? std::string("null")
                           : Canonical(Value::Timestamp((now_seconds + ttl.int32_value()) * 1000)));
      }
      lines->push_back(line + "]");
    }
  }
  return Status::OK();
}

bool WriteLines(const std::string& path, const std::vector<std::string>& lines) {
  std::ofstream out(path);
  for (const std::string& line : lines) out << line << "\n";
  return static_cast<bool>(out);
}

std::string JsonList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); i++) out += (i ? "," : "") + JsonQuoted(items[i]);
  return out + "]";
}

struct ExportRecord {
  std::string label, table, parquet, expected, compression;
  std::string csv;  // the same rows as CSV (Table::ExportCsv), for DuckDB's own Parquet
  std::vector<std::string> names, types;
  uint64_t rows = 0, bytes = 0;
  double seconds = 0;
};

// Exports `run` and writes the expected rows at the same snapshot.
bool ExportAndExpect(const std::string& dir, const std::string& label, const TableRun& run,
                     ExportParquetOptions options, const std::string& meta_column,
                     std::vector<ExportRecord>* records) {
  ExportRecord record;
  record.label = label;
  record.table = run.name;
  record.parquet = dir + "/" + label + ".parquet";
  record.expected = dir + "/" + label + ".jsonl";
  record.compression = options.compression == parquet::Compression::kZstd     ? "zstd"
                       : options.compression == parquet::Compression::kSnappy ? "snappy"
                                                                              : "none";
  rocksdb::ManagedSnapshot snapshot(run.table->db());
  options.snapshot = snapshot.snapshot();
  options.include_writetime = options.include_expiry = !meta_column.empty();
  // The exports whose speed is reported run three times (the machine may be shared): the
  // fastest counts.
  const bool reported = options.compression == parquet::Compression::kZstd && meta_column.empty();
  ExportParquetResult result;
  Status s;
  for (int attempt = 0; attempt < (reported ? 3 : 1); attempt++) {
    const auto start = std::chrono::steady_clock::now();
    s = run.table->ExportParquet(record.parquet, options, &result);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!s.ok()) return Fail("export " + label, s);
    record.seconds = attempt == 0 ? seconds : std::min(record.seconds, seconds);
  }
  record.rows = result.rows;
  record.bytes = result.bytes;
  std::vector<std::string> lines;
  s = ExpectedRows(run, snapshot.snapshot(), meta_column, &lines, &record.names, &record.types);
  if (!s.ok()) return Fail("select " + label, s);
  if (lines.size() != result.rows) {
    std::fprintf(stderr, "%s: exported %llu rows, Select returns %zu\n", label.c_str(),
                 static_cast<unsigned long long>(result.rows), lines.size());
    return false;
  }
  std::printf("exported %s: %llu rows, %llu bytes (%.1f bytes/row), %.0f rows/s (%s)\n",
              label.c_str(), static_cast<unsigned long long>(result.rows),
              static_cast<unsigned long long>(result.bytes),
              result.rows ? static_cast<double>(result.bytes) / result.rows : 0.0,
              record.seconds > 0 ? result.rows / record.seconds : 0.0, record.compression.c_str());
  if (reported) {
    record.csv = dir + "/" + label + ".csv";
    ExportParquetResult csv;
    s = run.table->ExportCsv(record.csv, options, &csv);
    if (!s.ok()) return Fail("csv " + label, s);
    if (csv.rows != result.rows) return Fail("csv " + label, Status::Corruption("row count"));
  }
  records->push_back(record);
  return WriteLines(record.expected, lines);
}

// Loads a benchmark workload; every partition is tracked.
bool Load(Database* db, const std::string& workload, const bench::WorkloadSize& size,
          TableRun* run) {
  std::unique_ptr<bench::WorkloadDriver> driver = bench::NewWorkloadDriver(workload, size);
  Status s = db->CreateTable(driver->CreateTableCql(), TableStorage(), &run->table);
  if (s.ok()) s = driver->Bind(*run->table->schema());
  if (!s.ok()) return Fail("create " + workload, s);
  run->name = run->table->name();
  std::unique_ptr<bench::BatchProducer> producer = driver->NewProducer();
  bench::LoadBatch batch;
  uint64_t batches = 0;
  while (producer->Next(&batch)) {
    for (const RowWrite& row : batch.rows) TrackPartition(run, row.values);
    s = run->table->InsertBatch(batch.rows);
    if (!s.ok()) return Fail("load " + workload, s);
    // Half the load in files, the rest in the memtable.
    if (++batches % 200 == 0) {
      s = db->db()->Flush(rocksdb::FlushOptions(), run->table->column_family());
      if (!s.ok()) return Fail("flush", s);
    }
  }
  return true;
}

// Updates, row and partition deletes, expiring rows and special values on a loaded table.
// `time_column` is the clustering column, `float_column` a float or null regular column.
bool Mutate(TableRun* run, const std::string& float_column, uint64_t seed) {
  Table* table = run->table;
  const TableSchema& schema = *table->schema();
  std::vector<std::vector<Value>> partitions = run->partitions;
  const float specials[] = {std::nanf(""), -0.0f, 0.0f, INFINITY, -INFINITY, 1e-45f, -3.5f};
  uint64_t state = seed;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (size_t p = 0; p < partitions.size(); p++) {
    SelectQuery query = SelectQuery::ForPartition(partitions[p]);
    query.limit = 12;
    ResultSet rows;
    Status s = table->Select(query, &rows);
    if (!s.ok()) return Fail("select for mutation", s);
    for (size_t r = 0; r < rows.rows.size(); r++) {
      NamedRow named;
      for (size_t c = 0; c < rows.column_names.size(); c++) {
        named[rows.column_names[c]] = rows.rows[r][c];
      }
      std::vector<Value> clustering;
      for (uint32_t id : schema.clustering_key())
        clustering.push_back(named[schema.columns()[id].name]);
      switch (next() % 6) {
        case 0:  // an update with a special float value
          if (schema.FindColumn(float_column)->type == LogicalType::kFloat) {
            named[float_column] = Value::Float(specials[next() % 7]);
          } else {
            named[float_column] = Value();  // a null
          }
          s = table->Insert(named);
          break;
        case 1:
          s = table->DeleteRow(partitions[p], clustering);
          break;
        case 2: {  // expires once the clock moves on
          RowWriteOptions short_ttl;
          short_ttl.ttl_seconds = 60;
          s = table->Insert(named, short_ttl);
          break;
        }
        case 3: {  // lives on with a TTL
          RowWriteOptions ttl;
          ttl.ttl_seconds = 86400 * 7;
          s = table->Insert(named, ttl);
          break;
        }
        default:
          break;
      }
      if (!s.ok()) return Fail("mutate", s);
    }
  }
  // One whole partition deleted.
  if (!partitions.empty()) {
    Status s = table->DeletePartition(partitions[partitions.size() / 2]);
    if (!s.ok()) return Fail("delete partition", s);
  }
  return true;
}

// Every CQL type, with the edge values: nulls, NaN, -0.0, infinities, empty and binary
// strings, extreme integers, dates before 1970, a timestamp before 1970.
bool LoadAllTypes(Database* db, TableRun* run) {
  Status s = db->CreateTable(
      "CREATE TABLE types.all_types (id int, seq bigint, b boolean, i int, bi bigint, f float, "
      "d double, ts timestamp, dt date, t text, a ascii, bl blob, u uuid, note text, "
      "PRIMARY KEY ((id), seq))",
      TableStorage(), &run->table);
  if (!s.ok()) return Fail("create all_types", s);
  run->name = run->table->name();
  const float floats[] = {1.5f, std::nanf(""), -0.0f, 0.0f, INFINITY, -INFINITY, -2.25f, 3e38f};
  const double doubles[] = {2.5, std::nan(""), -0.0, 0.0, -INFINITY, INFINITY, -1e300, 4.9e-324};
  const std::string texts[] = {"",
                               "hello",
                               "h\xc3\xa9llo w\xc3\xb6rld",
                               "quote\"back\\slash",
                               "line\nbreak",
                               "zzz",
                               "tab\there",
                               "\xe2\x82\xac"};
  std::vector<NamedRow> rows;
  for (int id = 0; id < 6; id++) {
    for (int seq = 0; seq < 400; seq++) {
      const int k = id * 400 + seq;
      NamedRow row{{"id", Value::Int(id - 2)}, {"seq", Value::BigInt(seq * 1000003LL - 7)}};
      row["note"] = Value::Text("row " + std::to_string(k));
      if (k % 7 != 1) row["b"] = Value::Boolean(k % 3 == 0);
      if (k % 11 != 2) {
        row["i"] = Value::Int(k % 5 == 0 ? (k % 2 ? INT32_MIN : INT32_MAX) : k * 37 - 5000);
      }
      if (k % 13 != 3) row["bi"] = Value::BigInt(k % 17 == 0 ? INT64_MIN + k : k * 1000000007LL);
      if (k % 5 != 4) row["f"] = Value::Float(k % 4 == 0 ? floats[k / 4 % 8] : k * 0.25f - 100);
      if (k % 6 != 5) row["d"] = Value::Double(k % 3 == 0 ? doubles[k / 3 % 8] : k * 1.125 - 7);
      if (k % 9 != 6) row["ts"] = Value::Timestamp(1717200000000LL + (k - 1200) * 86400123LL);
      if (k % 10 != 7) row["dt"] = Value::Date(19000 + (k - 1200) * 17);
      if (k % 8 != 0)
        row["t"] = Value::Text(k % 4 == 1 ? texts[k / 4 % 8] : "t" + std::to_string(k % 50));
      if (k % 12 != 9) row["a"] = Value::Ascii(k % 3 == 0 ? "" : "ascii-" + std::to_string(k % 7));
      if (k % 7 != 3) {
        std::string blob;
        for (int j = 0; j < k % 9; j++) blob.push_back(static_cast<char>((k * 31 + j * 97) & 0xFF));
        row["bl"] = Value::Blob(blob);
      }
      if (k % 4 != 2) {
        std::string uuid(16, '\0');
        for (int j = 0; j < 16; j++)
          uuid[j] = static_cast<char>((k * 7 + j * 53 + (k >> 3)) & 0xFF);
        row["u"] = Value::Uuid(uuid);
      }
      rows.push_back(row);
    }
  }
  for (int id = 0; id < 6; id++) run->partitions.push_back({Value::Int(id - 2)});
  for (size_t i = 0; i < rows.size(); i += 97) {
    const size_t end = std::min(rows.size(), i + 97);
    s = run->table->InsertBatch(std::vector<NamedRow>(rows.begin() + i, rows.begin() + end));
    if (!s.ok()) return Fail("load all_types", s);
    if (i % (97 * 10) == 0) {
      s = db->db()->Flush(rocksdb::FlushOptions(), run->table->column_family());
      if (!s.ok()) return Fail("flush", s);
    }
  }
  // Overwrites, deletes and TTLs on top.
  for (int k = 0; k < 2400; k += 7) {
    const std::vector<Value> partition{Value::Int(k / 400 - 2)};
    const std::vector<Value> clustering{Value::BigInt((k % 400) * 1000003LL - 7)};
    if (k % 3 == 0) {
      s = run->table->DeleteRow(partition, clustering);
    } else {
      NamedRow row = rows[k];
      row["t"] = Value::Text("updated");
      row["f"] = Value();
      RowWriteOptions options;
      options.ttl_seconds = k % 2 ? 60 : 3600;
      s = run->table->Insert(row, options);
    }
    if (!s.ok()) return Fail("mutate all_types", s);
  }
  return true;
}

bool Run(const std::string& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  DatabaseOptions options;
  options.now_micros = [] { return g_now_micros.load(); };
  std::unique_ptr<Database> db;
  Status s = Database::Open(options, dir + "/db", &db);
  if (!s.ok()) return Fail("open", s);

  bench::WorkloadSize metrics_size;
  metrics_size.series = 60;
  metrics_size.duration_s = 3600;
  metrics_size.end_time_s = kEndTimeSeconds;
  bench::WorkloadSize access_size;
  access_size.instances = 3;
  access_size.duration_s = 6 * 3600;
  access_size.end_time_s = kEndTimeSeconds;
  TableRun metrics, access, all_types;
  if (!Load(db.get(), "metrics", metrics_size, &metrics) ||
      !Load(db.get(), "access16", access_size, &access) || !LoadAllTypes(db.get(), &all_types) ||
      !Mutate(&metrics, "value", 1) || !Mutate(&access, "referrer", 2)) {
    return false;
  }
  g_now_micros += 120 * 1000000LL;  // the 60-second TTLs have expired

  std::vector<ExportRecord> records;
  // metrics and access16: the default options (zstd), whose sizes are compared with DuckDB's.
  // The others cut small row groups and pages: several row groups, and page indexes with many
  // pages (metrics_snappy: pages of 1024 rows), which duckdb_check.cjs has hyparquet read.
  ExportParquetOptions defaults;
  ExportParquetOptions zstd;
  zstd.row_group_rows = 8192;
  ExportParquetOptions snappy = zstd;
  snappy.compression = parquet::Compression::kSnappy;
  snappy.page_rows = 1024;
  ExportParquetOptions plain = zstd;
  plain.compression = parquet::Compression::kNone;
  plain.dictionary = false;
  plain.page_bytes = 16384;
  if (!ExportAndExpect(dir, "metrics", metrics, defaults, "", &records) ||
      !ExportAndExpect(dir, "metrics_snappy", metrics, snappy, "", &records) ||
      !ExportAndExpect(dir, "access16", access, defaults, "", &records) ||
      !ExportAndExpect(dir, "access16_plain", access, plain, "", &records) ||
      !ExportAndExpect(dir, "all_types", all_types, zstd, "note", &records)) {
    return false;
  }

  // Under concurrent writes, at a snapshot taken before they start.
  {
    ExportRecord record;
    record.label = "metrics_concurrent";
    record.table = metrics.name;
    record.parquet = dir + "/metrics_concurrent.parquet";
    record.expected = dir + "/metrics_concurrent.jsonl";
    record.compression = "zstd";
    rocksdb::ManagedSnapshot snapshot(db->db());
    std::vector<std::string> lines;
    s = ExpectedRows(metrics, snapshot.snapshot(), "", &lines, &record.names, &record.types);
    if (!s.ok()) return Fail("select at snapshot", s);
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> writes{0};
    std::vector<std::thread> writers;
    std::vector<std::vector<Value>> partitions = metrics.partitions;
    for (int w = 0; w < 2; w++) {
      writers.emplace_back([&, w] {
        for (int i = 0; !stop.load() || i < 200; i++) {
          const std::vector<Value>& partition = partitions[(i * 7 + w) % partitions.size()];
          NamedRow row{{"orgid", partition[0]},
                       {"clusterhash", partition[1]},
                       {"metricid", partition[2]},
                       {"time", Value::Int(kEndTimeSeconds - 30 * i)},
                       {"value", Value::Float(static_cast<float>(i * (w + 1)))}};
          Status ws =
              i % 5 == 4 ? metrics.table->DeletePartition(partition) : metrics.table->Insert(row);
          if (!ws.ok()) break;
          writes++;
          if (i % 50 == 0)
            metrics.table->db()->Flush(rocksdb::FlushOptions(), metrics.table->column_family());
        }
      });
    }
    while (writes.load() < 100) std::this_thread::yield();
    ExportParquetOptions concurrent = zstd;
    concurrent.snapshot = snapshot.snapshot();
    ExportParquetResult result;
    s = metrics.table->ExportParquet(record.parquet, concurrent, &result);
    stop = true;
    for (std::thread& writer : writers) writer.join();
    if (!s.ok()) return Fail("export under writes", s);
    std::printf("exported metrics under %llu concurrent writes: %llu rows (snapshot has %zu)\n",
                static_cast<unsigned long long>(writes.load()),
                static_cast<unsigned long long>(result.rows), lines.size());
    record.rows = result.rows;
    record.bytes = result.bytes;
    if (!WriteLines(record.expected, lines)) return false;
    records.push_back(record);
  }

  std::ofstream manifest(dir + "/manifest.json");
  manifest << "[\n";
  for (size_t i = 0; i < records.size(); i++) {
    const ExportRecord& r = records[i];
    manifest << (i ? ",\n" : "") << "{\"label\":" << JsonQuoted(r.label)
             << ",\"table\":" << JsonQuoted(r.table) << ",\"parquet\":" << JsonQuoted(r.parquet)
             << ",\"expected\":" << JsonQuoted(r.expected)
             << ",\"compression\":" << JsonQuoted(r.compression) << ",\"csv\":" << JsonQuoted(r.csv)
             << ",\"columns\":" << JsonList(r.names) << ",\"types\":" << JsonList(r.types)
             << ",\"rows\":" << r.rows << ",\"bytes\":" << r.bytes << ",\"seconds\":" << r.seconds
             << "}";
  }
  manifest << "\n]\n";
  return static_cast<bool>(manifest);
}

}  // namespace
}  // namespace columnar

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <work dir>\n", argv[0]);
    return 2;
  }
  return columnar::Run(argv[1]) ? 0 : 1;
}
