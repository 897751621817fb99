#include "plugin/zone_map_block.h"

#include <algorithm>
#include <vector>

#include "filter/zone_map_set.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

Status Corrupt(const char* what) {
  return Status::Corruption(std::string("zone maps (column-major): ") + what);
}

// One group's set encoding, split into its header and its column entries.
struct SplitSet {
  uint8_t flags = 0;
  uint8_t version = 0;
  uint32_t column_count = 0;
  std::vector<Slice> entries;
};

Status SplitRowMajor(const Slice& raw, std::vector<SplitSet>* groups) {
  Slice in = raw;
  uint32_t count;
  if (!GetVarint32(&in, &count) || count == 0) return Status::Corruption("zone maps: bad count");
  if (count > in.size()) return Status::Corruption("zone maps: count exceeds the block");
  groups->resize(count);
  for (SplitSet& group : *groups) {
    Slice set;
    if (!GetFixed8(&in, &group.flags) || !GetLengthPrefixed(&in, &set) ||
        !GetFixed8(&set, &group.version) || !GetVarint32(&set, &group.column_count) ||
        group.column_count > set.size()) {
      return Status::Corruption("zone maps: malformed entry");
    }
    for (uint32_t k = 0; k < group.column_count; k++) {
      const char* start = set.data();
      Status s = SkipZoneMapSetColumn(&set, group.version);
      if (!s.ok()) return s;
      group.entries.emplace_back(start, static_cast<size_t>(set.data() - start));
    }
    if (!set.empty()) return Status::Corruption("zone maps: trailing bytes in a set");
  }
  if (!in.empty()) return Status::Corruption("zone maps: trailing bytes");
  return Status::OK();
}

}  // namespace

Status ZoneMapBlockToColumnMajor(const Slice& row_major, std::string* out) {
  std::vector<SplitSet> groups;
  Status s = SplitRowMajor(row_major, &groups);
  if (!s.ok()) return s;
  out->push_back(static_cast<char>(kZoneMapBlockColumnMajorMarker));
  out->push_back(static_cast<char>(kZoneMapBlockColumnMajorVersion));
  PutVarint32(out, static_cast<uint32_t>(groups.size()));
  uint32_t widest = 0;
  for (const SplitSet& group : groups) out->push_back(static_cast<char>(group.flags));
  for (const SplitSet& group : groups) {
    out->push_back(static_cast<char>(group.version));
    PutVarint32(out, group.column_count);
    widest = std::max(widest, group.column_count);
  }
  for (uint32_t j = 0; j < widest; j++) {
    for (const SplitSet& group : groups) {
      if (j < group.column_count) out->append(group.entries[j].data(), group.entries[j].size());
    }
  }
  return Status::OK();
}

Status ZoneMapBlockToRowMajor(std::string* block) {
  if (block->empty() || static_cast<uint8_t>((*block)[0]) != kZoneMapBlockColumnMajorMarker) {
    return Status::OK();
  }
  Slice in(*block);
  in.remove_prefix(1);
  uint8_t version;
  uint32_t count;
  if (!GetFixed8(&in, &version) || version != kZoneMapBlockColumnMajorVersion) {
    return Corrupt("unknown layout version");
  }
  // Every group takes at least three bytes (flags, set version, column count).
  if (!GetVarint32(&in, &count) || count == 0 || count > in.size() / 3) {
    return Corrupt("bad row group count");
  }
  std::vector<SplitSet> groups(count);
  for (SplitSet& group : groups) {
    if (!GetFixed8(&in, &group.flags)) return Corrupt("truncated flags");
  }
  uint32_t widest = 0;
  uint64_t total_columns = 0;
  for (SplitSet& group : groups) {
    if (!GetFixed8(&in, &group.version) || !GetVarint32(&in, &group.column_count)) {
      return Corrupt("truncated set headers");
    }
    widest = std::max(widest, group.column_count);
    total_columns += group.column_count;
  }
  // Every column entry takes at least five bytes.
  if (total_columns > in.size() / 5) return Corrupt("column counts exceed the block");
  for (uint32_t j = 0; j < widest; j++) {
    for (SplitSet& group : groups) {
      if (j >= group.column_count) continue;
      const char* start = in.data();
      Status s = SkipZoneMapSetColumn(&in, group.version);
      if (!s.ok()) return s;
      group.entries.emplace_back(start, static_cast<size_t>(in.data() - start));
    }
  }
  if (!in.empty()) return Corrupt("trailing bytes");
  std::string row_major;
  PutVarint32(&row_major, count);
  std::string set;
  for (const SplitSet& group : groups) {
    set.clear();
    set.push_back(static_cast<char>(group.version));
    PutVarint32(&set, group.column_count);
    for (const Slice& entry : group.entries) set.append(entry.data(), entry.size());
    row_major.push_back(static_cast<char>(group.flags));
    PutLengthPrefixed(&row_major, set);
  }
  *block = std::move(row_major);
  return Status::OK();
}

}  // namespace columnar
