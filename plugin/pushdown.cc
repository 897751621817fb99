#include "plugin/pushdown.h"

#include "filter/file_column_stats.h"
#include "filter/prune.h"
#include "plugin/row_expiry_properties.h"

namespace columnar {

bool PushdownTableFilter::operator()(const rocksdb::TableProperties& properties) const {
  // Any table format: files whose every row has expired (row_expiry_properties.h).
  if (spec_->now_seconds != INT64_MIN && FileFullyExpired(properties, spec_->now_seconds)) {
    spec_->counters->files_skipped++;
    return false;
  }
  // Skips by predicate need the file's column statistics, which its ColumnarTable reader keeps
  // parsed (ColumnarTableReader::NewIterator).
  return true;
}

bool FileRuledOut(const ScanSpec& spec, const ZoneMapSet& file_stats) {
  return spec.predicate != nullptr &&
         Prune(*spec.predicate, file_stats) == PruneResult::kNoRowMatches;
}

}  // namespace columnar
