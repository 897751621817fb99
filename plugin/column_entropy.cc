#include "plugin/column_entropy.h"

#include <rocksdb/sst_file_reader.h>
#include <rocksdb/table_properties.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "plugin/raw_table_entries.h"
#include "plugin/table_file.h"
#include "table_format/column_stats.h"
#include "table_format/generic_layout.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"

namespace columnar {

namespace {

using rocksdb::Status;

// Every column written plain: the replay only needs the columns' values, not their bytes.
class PlainColumns : public ColumnWriteSettings {
 public:
  ChunkWriteOptions For(const std::string&, PhysicalType) const override {
    ChunkWriteOptions options;
    options.encoding = Encoding::kPlain;
    options.checksum = false;
    return options;
  }
};

// The layout `properties` say the file was written with.
Status LayoutOf(const rocksdb::Options& options, const rocksdb::UserCollectedProperties& properties,
                std::unique_ptr<RowLayout>* layout) {
  const auto name = properties.find(kLayoutProperty);
  if (name == properties.end()) {
    return Status::InvalidArgument("column entropy: not a ColumnarTable file");
  }
  if (name->second == "generic") {
    *layout = std::make_unique<GenericLayout>(options.prefix_extractor);
    return Status::OK();
  }
  if (name->second != "typed") {
    return Status::Corruption("column entropy: unknown row layout " + name->second);
  }
  const auto schema_text = properties.find(kSchemaProperty);
  if (schema_text == properties.end()) return Status::Corruption("column entropy: schema missing");
  TableSchema schema;
  Status s = TableSchema::Deserialize(schema_text->second, &schema);
  if (!s.ok()) return s;
  *layout = std::make_unique<TypedLayout>(std::move(schema));
  return Status::OK();
}

uint32_t RowsPerGroupOf(const rocksdb::UserCollectedProperties& properties) {
  const auto rows = properties.find(kRowsPerGroupProperty);
  const unsigned long parsed =
      rows == properties.end() ? 0 : std::strtoul(rows->second.c_str(), nullptr, 10);
  return parsed == 0 || parsed > kMaxRowGroupRows ? 128 : static_cast<uint32_t>(parsed);
}

// Buffers a row group's entries and splits them into columns through the layout.
class GroupReplay {
 public:
  GroupReplay(const RowLayout& layout, uint32_t rows_per_group)
      : layout_(layout), rows_per_group_(rows_per_group) {
    stats_.set_estimate_entropy(true);
    context_.settings = &plain_;
    context_.stats = &stats_;
  }

  Status Add(const RawEntry& entry) {
    keys_.emplace_back(entry.user_key.data(), entry.user_key.size());
    values_.emplace_back(entry.value.data(), entry.value.size());
    Entry row;
    row.sequence = entry.sequence;
    row.value_type = entry.type;
    rows_.push_back(row);
    return rows_.size() >= rows_per_group_ ? Flush() : Status::OK();
  }

  Status Flush() {
    if (rows_.empty()) return Status::OK();
    // The slices point into the strings only now that no more are appended.
    for (size_t i = 0; i < rows_.size(); i++) {
      rows_[i].user_key = keys_[i];
      rows_[i].value = values_[i];
    }
    std::string discarded;
    Status s = layout_.WriteRowGroup(rows_.data(), rows_.size(), context_, &discarded);
    rows_.clear();
    keys_.clear();
    values_.clear();
    return s;
  }

  std::map<std::string, double> Estimates() const { return stats_.EntropyEstimates(); }

 private:
  const RowLayout& layout_;
  const uint32_t rows_per_group_;
  PlainColumns plain_;
  ColumnStats stats_;
  RowGroupWriteContext context_;
  std::vector<Entry> rows_;
  std::vector<std::string> keys_, values_;
};

}  // namespace

Status EstimateColumnEntropy(const rocksdb::Options& options, const std::string& path,
                             std::map<std::string, double>* bits_by_column) {
  bits_by_column->clear();
  rocksdb::SstFileReader reader(options);
  Status s = reader.Open(path);
  if (!s.ok()) return s;
  const std::shared_ptr<const rocksdb::TableProperties> properties = reader.GetTableProperties();
  if (properties == nullptr) return Status::Corruption("column entropy: no table properties");
  std::unique_ptr<RowLayout> layout;
  s = LayoutOf(options, properties->user_collected_properties, &layout);
  if (!s.ok()) return s;
  GroupReplay replay(*layout, RowsPerGroupOf(properties->user_collected_properties));
  Status replayed;
  // Every group of the file, once: kept out of the cache, whose working set a report run
  // between a load and its queries would otherwise replace (db_bench_ext's storage report).
  rocksdb::ReadOptions read_options;
  read_options.fill_cache = false;
  s = VisitRawEntries(options, path, read_options, [&](const RawEntry& entry) {
    if (entry.range_deletion) return true;  // not rows: the writer keeps them apart
    replayed = replay.Add(entry);
    return replayed.ok();
  });
  if (s.ok()) s = replayed;
  if (s.ok()) s = replay.Flush();
  if (!s.ok()) return s;
  *bits_by_column = replay.Estimates();
  return Status::OK();
}

}  // namespace columnar
