#include "filter/file_column_stats.h"

namespace columnar {

void FileColumnStatsBuilder::AddRowGroup(const ZoneMapSet& row_group) {
  if (!started_) {
    merged_ = row_group;
    started_ = true;
    return;
  }
  merged_.Merge(row_group, max_value_set_);
}

std::string FileColumnStatsBuilder::Serialize() const {
  std::string out;
  merged_.EncodeTo(&out);
  return out;
}

Status ParseFileColumnStats(const Slice& serialized, ZoneMapSet* stats) {
  return ZoneMapSet::Decode(serialized, stats);
}

}  // namespace columnar
