// Table::ExportParquet and Table::ExportCsv (parquet_export.h): the table's rows at one
// snapshot, through the row path Select uses (RowScanner over key ranges, latest versions,
// deletes applied, expired rows skipped), written by parquet::ParquetWriter or CsvWriter. The
// scan loop in Table::Export is the only place that reads: when a columnar scan path
// (Table::Scan) exists, it is the one loop to switch.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>

#include "table_api/csv_writer.h"
#include "table_api/parquet/parquet_writer.h"
#include "table_api/row_scanner.h"
#include "table_api/status_context.h"
#include "table_api/table.h"
#include "table_format/key_codec.h"

namespace columnar {
namespace {

// Where an exported column's value comes from.
struct ExportColumn {
  enum class Source : uint8_t { kPartitionKey, kClustering, kRegular, kWriteTime, kExpiry };
  Source source = Source::kRegular;
  size_t index = 0;  // position in the partition key / clustering key, or the column id
};

Status PlanColumns(const TableSchema& schema, const ExportParquetOptions& options,
                   std::vector<parquet::ColumnSpec>* specs, std::vector<ExportColumn>* sources) {
  std::vector<std::string> names = options.columns;
  if (names.empty()) names = schema.LiveColumnNamesInKeyOrder();
  for (const std::string& name : names) {
    const ColumnDef* column = schema.FindColumn(name);
    if (column == nullptr) return Status::InvalidArgument("unknown column " + name);
    ExportColumn source;
    if (column->role == ColumnRole::kRegular) {
      source.index = column->id;
    } else {
      const bool partition = column->role == ColumnRole::kPartitionKey;
      const std::vector<uint32_t>& key =
          partition ? schema.partition_key() : schema.clustering_key();
      source.source =
          partition ? ExportColumn::Source::kPartitionKey : ExportColumn::Source::kClustering;
      source.index =
          static_cast<size_t>(std::find(key.begin(), key.end(), column->id) - key.begin());
    }
    sources->push_back(source);
    specs->push_back(parquet::ColumnSpec{name, column->type, column->is_key(), false});
  }
  const std::pair<bool, const char*> extras[] = {{options.include_writetime, "writetime"},
                                                 {options.include_expiry, "expiry"}};
  for (const auto& [wanted, name] : extras) {
    if (!wanted) continue;
    const bool writetime = std::string(name) == "writetime";
    sources->push_back(ExportColumn{
        writetime ? ExportColumn::Source::kWriteTime : ExportColumn::Source::kExpiry, 0});
    specs->push_back(parquet::ColumnSpec{name, LogicalType::kTimestamp, false, writetime});
  }
  for (size_t i = 0; i < specs->size(); i++) {
    for (size_t j = 0; j < i; j++) {
      if ((*specs)[i].name == (*specs)[j].name) {
        return Status::InvalidArgument("column " + (*specs)[i].name +
                                       " selected twice (or the table has a column named "
                                       "writetime or expiry)");
      }
    }
  }
  return Status::OK();
}

// The key ranges the options select, in key order.
Status PlanRanges(const TableSchema& schema, const ExportParquetOptions& options,
                  std::vector<KeyRange>* ranges) {
  const bool has_range = options.from_partition || options.to_partition;
  if (!options.partitions.empty() && has_range) {
    return Status::InvalidArgument("partitions and a partition range are exclusive");
  }
  if (!options.partitions.empty()) {
    std::vector<std::pair<std::string, KeyRange>> sorted;
    for (const std::vector<Value>& partition : options.partitions) {
      KeyRange range;
      Status s = EncodeClusteringRange(schema, partition, {}, nullptr, nullptr, &range);
      if (!s.ok()) return s;
      sorted.emplace_back(range.start, range);
    }
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 0; i < sorted.size(); i++) {
      if (i == 0 || sorted[i].first != sorted[i - 1].first) ranges->push_back(sorted[i].second);
    }
    return Status::OK();
  }
  KeyRange range;
  range.limit_unbounded = true;
  if (options.from_partition) {
    Status s = EncodePartitionKey(schema, *options.from_partition, &range.start);
    if (!s.ok()) return s;
  }
  if (options.to_partition) {
    Status s = EncodePartitionKey(schema, *options.to_partition, &range.limit);
    if (!s.ok()) return s;
    range.limit_unbounded = false;
    if (range.limit <= range.start) return Status::OK();  // empty
  }
  ranges->push_back(range);
  return Status::OK();
}

Status DecodePartition(const TableSchema& schema, Slice encoded, std::vector<Value>* partition) {
  partition->resize(schema.partition_key().size());
  for (size_t i = 0; i < partition->size(); i++) {
    Status s = DecodeKeyComponent(&encoded, schema.partition_column(i).type, ClusteringOrder::kAsc,
                                  &(*partition)[i]);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

}  // namespace

Status ParseParquetCompression(const std::string& name, parquet::Compression* compression) {
  std::string lower;
  for (char c : name)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "none" || lower == "uncompressed") {
    *compression = parquet::Compression::kNone;
  } else if (lower == "snappy") {
    *compression = parquet::Compression::kSnappy;
  } else if (lower == "zstd") {
    *compression = parquet::Compression::kZstd;
  } else {
    return Status::InvalidArgument("unknown Parquet compression '" + name +
                                   "' (none, snappy, zstd)");
  }
  return Status::OK();
}

Status Table::ExportParquet(const std::string& path, const ExportParquetOptions& options,
                            ExportParquetResult* result) const {
  return Export(path, options, /*csv=*/false, result);
}

Status Table::ExportCsv(const std::string& path, const ExportParquetOptions& options,
                        ExportParquetResult* result) const {
  return Export(path, options, /*csv=*/true, result);
}

Status Table::Export(const std::string& path, const ExportParquetOptions& options, bool csv,
                     ExportParquetResult* result) const {
  const std::shared_ptr<const RowCodec> current = codec();
  const TableSchema& schema = current->schema();
  std::vector<parquet::ColumnSpec> specs;
  std::vector<ExportColumn> sources;
  std::vector<KeyRange> ranges;
  Status s = PlanColumns(schema, options, &specs, &sources);
  if (s.ok()) s = PlanRanges(schema, options, &ranges);
  if (s.ok() &&
      (options.row_group_rows == 0 || options.page_rows == 0 || options.page_bytes == 0)) {
    s = Status::InvalidArgument("row_group_rows, page_rows and page_bytes must be positive");
  }
  if (!s.ok()) return WithName(s);

  std::optional<rocksdb::ManagedSnapshot> implicit_snapshot;
  if (options.snapshot == nullptr) implicit_snapshot.emplace(context_.db);
  const rocksdb::Snapshot* snapshot =
      options.snapshot != nullptr ? options.snapshot : implicit_snapshot->snapshot();

  // The file: Parquet or CSV, behind the same two calls.
  std::unique_ptr<parquet::ParquetWriter> parquet_writer;
  std::unique_ptr<CsvWriter> csv_writer;
  if (csv) {
    std::vector<std::string> names;
    for (const parquet::ColumnSpec& spec : specs) names.push_back(spec.name);
    s = CsvWriter::Open(path, names, &csv_writer, options.csv_header);
  } else {
    parquet::ParquetWriterOptions writer_options;
    writer_options.row_group_rows = options.row_group_rows;
    writer_options.chunk.page_rows = options.page_rows;
    writer_options.chunk.page_bytes = options.page_bytes;
    writer_options.chunk.compression = options.compression;
    writer_options.chunk.zstd_level = options.zstd_level;
    writer_options.chunk.dictionary = options.dictionary;
    writer_options.chunk.delta = options.delta;
    writer_options.key_value_metadata = {
        {"columnar.cql_schema", schema.ToCql()},
        {"columnar.table", name_},
        {"columnar.snapshot_sequence", std::to_string(snapshot->GetSequenceNumber())}};
    s = parquet::ParquetWriter::Open(path, specs, writer_options, &parquet_writer);
  }
  if (!s.ok()) return WithName(s);
  auto add_row = [&](const Row& row) {
    return csv ? csv_writer->AddRow(row) : parquet_writer->AddRow(row);
  };

  // The rows: Select's row path at the snapshot.
  const int64_t now_seconds = MicrosToSeconds(context_.now_micros());
  auto spec = std::make_shared<ScanSpec>();
  spec->now_seconds = now_seconds;
  rocksdb::ReadOptions read_options = SelectReadOptions(snapshot, spec);
  read_options.fill_cache = false;  // a full export would evict the working set
  RowScanner scanner(
      context_.db, context_.column_family, current, [this] { return codec(); }, now_seconds);
  std::string partition_bytes;
  std::vector<Value> partition;
  Row out(specs.size());
  Status row_status;
  uint64_t rows = 0;
  for (const KeyRange& range : ranges) {
    s = scanner.Scan(read_options, range, /*reversed=*/false, [&](const ScannedRow& row) {
      if (scanner.current_partition() != partition_bytes) {
        partition_bytes = scanner.current_partition();
        row_status = DecodePartition(scanner.schema(), partition_bytes, &partition);
        if (!row_status.ok()) return false;
      }
      for (size_t c = 0; c < sources.size(); c++) {
        const ExportColumn& source = sources[c];
        switch (source.source) {
          case ExportColumn::Source::kPartitionKey:
            out[c] = partition[source.index];
            break;
          case ExportColumn::Source::kClustering:
            out[c] = row.clustering[source.index];
            break;
          case ExportColumn::Source::kRegular:
            row.AssignValueOf(static_cast<uint32_t>(source.index), &out[c]);
            break;
          case ExportColumn::Source::kWriteTime:
            out[c] =
                row.meta.has_write_time ? Value::Timestamp(row.meta.write_time_micros) : Value();
            break;
          case ExportColumn::Source::kExpiry:
            out[c] = row.meta.has_expiry
                         ? Value::Timestamp(static_cast<int64_t>(row.meta.expiry_seconds) * 1000)
                         : Value();
            break;
        }
      }
      row_status = add_row(out);
      rows++;
      return row_status.ok();
    });
    if (s.ok()) s = row_status;
    if (!s.ok()) break;
  }
  if (s.ok()) s = csv ? csv_writer->Close() : parquet_writer->Close();
  if (!s.ok()) {
    parquet_writer.reset();
    csv_writer.reset();
    std::remove(path.c_str());
    return WithName(s);
  }
  if (result != nullptr) {
    result->rows = rows;
    result->bytes = csv ? csv_writer->bytes_written() : parquet_writer->bytes_written();
    result->row_groups = csv ? 0 : parquet_writer->row_groups_written();
    result->sequence = snapshot->GetSequenceNumber();
  }
  return Status::OK();
}

}  // namespace columnar
