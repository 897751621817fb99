#include "plugin/pushdown.h"

#include "filter/file_column_stats.h"
#include "filter/prune.h"
#include "plugin/row_expiry_properties.h"

namespace columnar {

namespace {

// True when every row's expiry is known and <= now.
bool AllExpired(const ZoneMapSet& stats, int64_t now_seconds) {
  if (now_seconds == INT64_MIN) return false;
  const ZoneMap* expiry = stats.Find(kExpiryZoneMapColumn);
  return expiry != nullptr && expiry->row_count > 0 && expiry->null_count == 0 && expiry->has_max &&
         static_cast<int64_t>(expiry->max.bits) <= now_seconds;
}

}  // namespace

bool PushdownTableFilter::operator()(const rocksdb::TableProperties& properties) const {
  // Any table format: files whose every row has expired (row_expiry_properties.h).
  if (spec_->now_seconds != INT64_MIN && FileFullyExpired(properties, spec_->now_seconds)) {
    spec_->counters->files_skipped++;
    return false;
  }
  const auto& user = properties.user_collected_properties;
  // Ingested files take a global sequence number at ingestion: their own zeros say nothing.
  if (user.count("rocksdb.external_sst_file.version") != 0) return true;
  const auto max_sequence = user.find(kMaxSequenceProperty);
  const auto only_rows = user.find(kOnlyRowsProperty);
  const auto stats_text = user.find(kFileColumnStatsProperty);
  if (max_sequence == user.end() || max_sequence->second != "0" || only_rows == user.end() ||
      only_rows->second != "1" || stats_text == user.end()) {
    return true;
  }
  ZoneMapSet stats;
  if (!ParseFileColumnStats(stats_text->second, &stats).ok()) return true;
  const bool skip = AllExpired(stats, spec_->now_seconds) ||
                    (spec_->predicate != nullptr &&
                     Prune(*spec_->predicate, stats) == PruneResult::kNoRowMatches);
  if (skip) spec_->counters->files_skipped++;
  return !skip;
}

}  // namespace columnar
