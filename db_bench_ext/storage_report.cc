#include "db_bench_ext/storage_report.h"

#include <cstdlib>
#include <map>

#include "plugin/column_entropy.h"
#include "table_format/column_stats.h"

namespace columnar {
namespace bench {

Status MeasureStorage(const Table& table, ConfigResult* result) {
  rocksdb::DB* db = table.db();
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  uint64_t total = 0;
  for (const rocksdb::LiveFileMetaData& file : files) {
    if (file.column_family_name == table.column_family()->GetName()) total += file.size;
  }
  rocksdb::TablePropertiesCollection properties;
  Status s = db->GetPropertiesOfAllTables(table.column_family(), &properties);
  if (!s.ok()) return s;
  rocksdb::Options options = db->GetOptions(table.column_family());
  StorageBreakdown breakdown;
  std::map<std::string, uint64_t> columns;
  std::map<std::string, double> entropy;
  for (const auto& [path, props] : properties) {
    breakdown.data_bytes += props->data_size;
    breakdown.index_bytes += props->index_size;
    breakdown.filter_bytes += props->filter_size;
    auto stats_text = props->user_collected_properties.find("columnar.column_stats");
    if (stats_text == props->user_collected_properties.end()) continue;
    ColumnStats stats;
    if (!ColumnStats::Parse(stats_text->second, &stats).ok()) continue;
    for (const auto& [name, stat] : stats.columns()) columns[name] += stat.bytes;
    // The yardstick of each column, from the file read back (files are written without it).
    std::map<std::string, double> file_entropy;
    s = EstimateColumnEntropy(options, path, &file_entropy);
    if (!s.ok()) return s;
    for (const auto& [name, bits] : file_entropy) entropy[name] += bits;
  }
  const uint64_t components = breakdown.data_bytes + breakdown.index_bytes + breakdown.filter_bytes;
  breakdown.properties_bytes = total > components ? total - components : 0;
  result->sst_bytes = total;
  result->storage = breakdown;
  result->column_bytes.clear();
  result->column_entropy_bits = entropy;
  // Schema order: key columns first, then the rest as the table lists them.
  const std::shared_ptr<const TableSchema> schema = table.schema();
  for (const ColumnDef& column : schema->columns()) {
    auto it = columns.find(column.name);
    if (it == columns.end()) continue;
    result->column_bytes.emplace_back(it->first, it->second);
    columns.erase(it);
  }
  for (const auto& entry : columns) result->column_bytes.push_back(entry);
  return Status::OK();
}

void MeasureCompactionBytes(const Table& table, uint64_t* read_bytes, uint64_t* written_bytes) {
  std::map<std::string, std::string> stats;
  *read_bytes = 0;
  *written_bytes = 0;
  if (!table.db()->GetMapProperty(table.column_family(), "rocksdb.cfstats", &stats)) return;
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  auto gib = [&](const char* key) {
    auto it = stats.find(key);
    return it == stats.end()
               ? 0
               : static_cast<uint64_t>(std::strtod(it->second.c_str(), nullptr) * kGiB);
  };
  *read_bytes = gib("compaction.Sum.ReadGB");
  *written_bytes = gib("compaction.Sum.WriteGB");
}

}  // namespace bench
}  // namespace columnar
