#include "plugin/row_compaction_filter.h"

#include "table_format/row_codec.h"

namespace columnar {

namespace {

int64_t FloorSeconds(int64_t micros) {
  return micros >= 0 ? micros / 1000000 : -((-micros + 999999) / 1000000);
}

class RowCompactionFilter : public rocksdb::CompactionFilter {
 public:
  RowCompactionFilter(const TableSchema& schema, int64_t now_seconds,
                      std::shared_ptr<RowCompactionFilterFactory::Stats> stats)
      : codec_(schema), now_seconds_(now_seconds), stats_(std::move(stats)) {
    for (const ColumnDef& column : schema.columns()) {
      if (!column.is_key() && !column.is_live()) has_dropped_columns_ = true;
    }
  }

  Decision FilterV2(int /*level*/, const rocksdb::Slice& /*key*/, ValueType value_type,
                    const rocksdb::Slice& existing_value, std::string* new_value,
                    std::string* /*skip_until*/) const override {
    RowMetadata meta;
    if (value_type != ValueType::kValue ||
        !codec_.DecodeCells(existing_value, &meta, &cells_).ok()) {
      stats_->other_entries++;
      return Decision::kKeep;
    }
    if (meta.has_expiry && static_cast<int64_t>(meta.expiry_seconds) <= now_seconds_) {
      stats_->rows_expired++;
      return Decision::kRemove;
    }
    if (has_dropped_columns_ && HoldsDroppedValues(meta) && Rewrite(meta, new_value)) {
      stats_->rows_rewritten++;
      return Decision::kChangeValue;
    }
    stats_->rows_kept++;
    return Decision::kKeep;
  }

  const char* Name() const override { return "columnar.RowCompactionFilter"; }

 private:
  bool HoldsDroppedValues(const RowMetadata& meta) const {
    if (meta.schema_version == codec_.schema().version()) return false;
    for (const RowCell& cell : cells_) {
      if (cell.present && !codec_.schema().columns()[cell.column_id].is_live()) return true;
    }
    return false;
  }

  // The row at the current schema version: live columns keep their values.
  bool Rewrite(const RowMetadata& meta, std::string* out) const {
    RowMetadata current = meta;
    current.schema_version = codec_.schema().version();
    const std::vector<uint32_t>& ids = *codec_.ColumnsAt(current.schema_version);
    std::vector<RowCell> rewritten(ids.size());
    size_t from = 0;
    for (size_t i = 0; i < ids.size(); i++) {
      rewritten[i].column_id = ids[i];
      rewritten[i].type = codec_.schema().columns()[ids[i]].type;
      // Both lists are in column-id order.
      while (from < cells_.size() && cells_[from].column_id < ids[i]) from++;
      if (from < cells_.size() && cells_[from].column_id == ids[i]) rewritten[i] = cells_[from];
    }
    out->clear();
    return codec_.EncodeCells(current, rewritten, out).ok();
  }

  RowCodec codec_;
  const int64_t now_seconds_;
  bool has_dropped_columns_ = false;
  std::shared_ptr<RowCompactionFilterFactory::Stats> stats_;
  mutable std::vector<RowCell> cells_;  // a filter runs on one compaction thread
};

}  // namespace

RowCompactionFilterFactory::RowCompactionFilterFactory(std::shared_ptr<const TableSchema> schema,
                                                       std::function<int64_t()> now_micros)
    : schema_(std::move(schema)), now_micros_(std::move(now_micros)) {}

void RowCompactionFilterFactory::SetSchema(std::shared_ptr<const TableSchema> schema) {
  std::lock_guard<std::mutex> lock(mutex_);
  schema_ = std::move(schema);
}

std::unique_ptr<rocksdb::CompactionFilter> RowCompactionFilterFactory::CreateCompactionFilter(
    const rocksdb::CompactionFilter::Context& /*context*/) {
  std::shared_ptr<const TableSchema> schema;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    schema = schema_;
  }
  return std::make_unique<RowCompactionFilter>(*schema, FloorSeconds(now_micros_()), stats_);
}

}  // namespace columnar
