#include "plugin/zone_map_collector.h"

#include "filter/zone_map.h"
#include "plugin/pushdown.h"
#include "table_format/varint.h"

namespace columnar {

void ZoneMapCollector::BeginRowGroup(size_t rows) {
  current_ = ZoneMapSet();
  current_rows_ = rows;
  current_typed_rows_ = 0;
}

void ZoneMapCollector::OnColumn(uint32_t column_id, const ColumnVector& values) {
  current_.Set(column_id, BuildZoneMap(values));
}

void ZoneMapCollector::OnExpiry(const ColumnVector& expiry_seconds) {
  current_.Set(kExpiryZoneMapColumn, BuildZoneMap(expiry_seconds));
}

void ZoneMapCollector::OnTypedRows(size_t typed_rows) { current_typed_rows_ = typed_rows; }

void ZoneMapCollector::EndRowGroup(bool all_sequence_zero_puts) {
  const bool all_typed = current_typed_rows_ == current_rows_;
  only_rows_ = only_rows_ && all_typed;
  std::string set;
  current_.EncodeTo(&set);
  encoded_.push_back(
      static_cast<char>(all_typed && all_sequence_zero_puts ? kZoneMapGroupSkippable : 0));
  columnar::PutLengthPrefixed(&encoded_, set);
  file_stats_.AddRowGroup(current_);
  groups_++;
}

void ZoneMapCollector::Finish(std::string* out) const {
  columnar::PutVarint32(out, static_cast<uint32_t>(groups_));
  out->append(encoded_);
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
