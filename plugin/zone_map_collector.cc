#include "plugin/zone_map_collector.h"

#include <map>
#include <utility>

#include "filter/zone_map.h"
#include "filter/zone_map_usefulness.h"
#include "plugin/pushdown.h"
#include "plugin/zone_map_block.h"
#include "table_format/varint.h"
#include "table_format/zstd_codec.h"

namespace columnar {

void ZoneMapCollector::BeginRowGroup(size_t rows) {
  current_ = ZoneMapSet();
  current_rows_ = rows;
  current_typed_rows_ = 0;
}

void ZoneMapCollector::OfferStoredZoneMaps(ZoneMapSet stored) { stored_ = std::move(stored); }

bool ZoneMapCollector::TakeStored(uint32_t column_id, const ColumnVector& values,
                                  const ZoneMapOptions& options) {
  const ZoneMap* found = stored_.Find(column_id);
  if (found == nullptr || found->type != values.type() || found->row_count != values.size() ||
      found->null_count != values.null_count() || (options.integer_sum && !found->has_sum)) {
    return false;
  }
  ZoneMap taken;
  stored_.Take(column_id, &taken);
  current_.Set(column_id, std::move(taken));
  return true;
}

void ZoneMapCollector::OnColumn(uint32_t column_id, const ColumnVector& values) {
  ZoneMapOptions options;
  options.integer_sum = sum_columns_.count(column_id) != 0;
  if (TakeStored(column_id, values, options)) return;
  current_.Set(column_id, BuildZoneMap(values, options));
}

void ZoneMapCollector::OnExpiry(const ColumnVector& expiry_seconds) {
  if (TakeStored(kExpiryZoneMapColumn, expiry_seconds, ZoneMapOptions())) return;
  current_.Set(kExpiryZoneMapColumn, BuildZoneMap(expiry_seconds));
}

void ZoneMapCollector::OnTypedRows(size_t typed_rows) { current_typed_rows_ = typed_rows; }

bool ZoneMapCollector::Anchor(uint32_t column_id, uint64_t* anchor) const {
  if (!decided_ || omitted_.count(column_id) != 0) return false;
  const ZoneMap* zone_map = current_.Find(column_id);
  if (zone_map == nullptr || zone_map->type == PhysicalType::kBytes ||
      zone_map->non_null_count() == 0 || zone_map->has_value_set || !zone_map->min_exact) {
    return false;
  }
  *anchor = zone_map->min.bits;
  return true;
}

void ZoneMapCollector::EndRowGroup(bool all_sequence_zero_puts) {
  stored_ = ZoneMapSet();
  const bool all_typed = current_typed_rows_ == current_rows_;
  only_rows_ = only_rows_ && all_typed;
  const uint8_t flags = all_typed && all_sequence_zero_puts ? kZoneMapGroupSkippable : 0;
  file_stats_.AddRowGroup(current_);
  groups_++;
  if (decided_) {
    Encode(flags, current_);
    return;
  }
  held_.push_back(HeldGroup{flags, std::move(current_)});
  if (held_.size() == kZoneMapSampleGroups) Decide();
}

void ZoneMapCollector::Decide() {
  std::map<uint32_t, std::vector<const ZoneMap*>> by_column;
  for (const HeldGroup& group : held_) {
    for (const auto& [column_id, zone_map] : group.zone_maps.columns()) {
      by_column[column_id].push_back(&zone_map);
    }
  }
  for (const auto& [column_id, maps] : by_column) {
    if (column_id != kExpiryZoneMapColumn && !ZoneMapsCanPrune(maps)) omitted_.insert(column_id);
  }
  decided_ = true;
  for (const HeldGroup& group : held_) Encode(group.flags, group.zone_maps);
  held_.clear();
  held_.shrink_to_fit();
}

void ZoneMapCollector::Encode(uint8_t flags, const ZoneMapSet& zone_maps) {
  std::string set;
  if (omitted_.empty()) {
    zone_maps.EncodeTo(&set);
  } else {
    ZoneMapSet kept;
    for (const auto& [column_id, zone_map] : zone_maps.columns()) {
      if (omitted_.count(column_id) == 0) kept.Set(column_id, zone_map);
    }
    kept.EncodeTo(&set);
  }
  encoded_.push_back(static_cast<char>(flags));
  columnar::PutLengthPrefixed(&encoded_, set);
}

void ZoneMapCollector::FinishRowMajor(std::string* out) {
  if (!decided_) Decide();
  columnar::PutVarint32(out, static_cast<uint32_t>(groups_));
  out->append(encoded_);
}

void ZoneMapCollector::Finish(std::string* out, int compare_level) {
  std::string row_major;
  FinishRowMajor(&row_major);
  // Readers take every layout; the row-major one stays should the regrouping ever refuse.
  // Bounds coded as differences (version 3, in byte planes) compress smaller for series whose
  // groups move by a steady step or a random walk, larger for bounds that vary at random: the
  // smaller one after zstd is kept.
  std::string plain;
  std::string deltas;
  if (!ZoneMapBlockToColumnMajorLayouts(row_major, kZoneMapBlockColumnMajorVersion, &plain,
                                        kZoneMapBlockColumnMajorVersionPlanes, &deltas)
           .ok()) {
    out->append(row_major);
    return;
  }
  std::string plain_zstd;
  std::string deltas_zstd;
  const bool smaller = ZstdCompress(plain, compare_level, nullptr, &plain_zstd).ok() &&
                       ZstdCompress(deltas, compare_level, nullptr, &deltas_zstd).ok() &&
                       deltas_zstd.size() < plain_zstd.size();
  out->append(smaller ? deltas : plain);
}

Status ParseZoneMapBlock(const Slice& raw, size_t row_groups, std::vector<ZoneMapEntry>* entries) {
  Slice in = raw;
  uint32_t count;
  if (!columnar::GetVarint32(&in, &count) || count != row_groups) {
    return Status::Corruption("zone maps: wrong row group count");
  }
  entries->assign(count, ZoneMapEntry());
  for (ZoneMapEntry& entry : *entries) {
    uint8_t flags;
    if (!columnar::GetFixed8(&in, &flags) || (flags & ~kZoneMapGroupSkippable) != 0 ||
        !columnar::GetLengthPrefixed(&in, &entry.encoded)) {
      return Status::Corruption("zone maps: malformed entry");
    }
    entry.flags = flags;
  }
  if (!in.empty()) return Status::Corruption("zone maps: trailing bytes");
  return Status::OK();
}

}  // namespace columnar
