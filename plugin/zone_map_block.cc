#include "plugin/zone_map_block.h"

#include <algorithm>
#include <map>
#include <optional>
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

// Version 2's bound coding (zone_map_block.h): walks the column entries in block order and,
// in each fixed-width entry with bounds, replaces the min by its difference from the previous
// min of the column (`encode`) or back (!encode), and the max by its difference from the
// entry's own min, in place. The lengths do not change.
class BoundDeltas {
 public:
  explicit BoundDeltas(bool encode) : encode_(encode) {}

  // `entry` starts a column entry (its header is parsed here, its length found afterwards by
  // SkipZoneMapSetColumn on the restored bytes).
  Status Apply(char* entry, size_t available) {
    Slice in(entry, available);
    uint32_t column_id;
    uint8_t type;
    uint8_t flags;
    uint64_t rows;
    uint64_t nulls;
    if (!GetVarint32(&in, &column_id) || !GetFixed8(&in, &type) || !GetFixed8(&in, &flags) ||
        !GetVarint64(&in, &rows) || !GetVarint64(&in, &nulls)) {
      return Corrupt("truncated column header");
    }
    const size_t width = type == static_cast<uint8_t>(PhysicalType::kInt32) ||
                                 type == static_cast<uint8_t>(PhysicalType::kFloat32)
                             ? 4
                         : type == static_cast<uint8_t>(PhysicalType::kInt64) ||
                                 type == static_cast<uint8_t>(PhysicalType::kFloat64)
                             ? 8
                             : 0;
    // Bit 0: a value set, bit 1: bounds, bit 3: a max (zone_map_set.h).
    if (width == 0 || (flags & 1) != 0 || (flags & 2) == 0 || nulls >= rows) return Status::OK();
    const size_t bytes = (flags & 8) != 0 ? 2 * width : width;
    if (in.size() < bytes) return Corrupt("truncated bounds");
    char* min_at = const_cast<char*>(in.data());
    Previous& previous = previous_[column_id];
    if (previous.width != width) previous = Previous{width, 0};
    const uint64_t min = Transform(min_at, width, previous.min);
    previous.min = min;
    if ((flags & 8) != 0) Transform(min_at + width, width, min);
    return Status::OK();
  }

 private:
  struct Previous {
    size_t width = 0;
    uint64_t min = 0;
  };

  // Replaces the little-endian value at `at` by it minus `base` (encoding) or plus `base`
  // (decoding), wrapping at `width` bytes; returns the original (decoded) value.
  uint64_t Transform(char* at, size_t width, uint64_t base) const {
    uint64_t stored = 0;
    for (size_t i = 0; i < width; i++) stored |= uint64_t{static_cast<uint8_t>(at[i])} << (8 * i);
    const uint64_t result = encode_ ? stored - base : stored + base;
    for (size_t i = 0; i < width; i++) at[i] = static_cast<char>(result >> (8 * i));
    return encode_ ? stored : result;
  }

  bool encode_;
  std::map<uint32_t, Previous> previous_;
};

}  // namespace

Status ZoneMapBlockToColumnMajor(const Slice& row_major, std::string* out, bool bound_deltas) {
  std::vector<SplitSet> groups;
  Status s = SplitRowMajor(row_major, &groups);
  if (!s.ok()) return s;
  out->push_back(static_cast<char>(kZoneMapBlockColumnMajorMarker));
  out->push_back(static_cast<char>(bound_deltas ? kZoneMapBlockColumnMajorVersionDeltas
                                                : kZoneMapBlockColumnMajorVersion));
  PutVarint32(out, static_cast<uint32_t>(groups.size()));
  uint32_t widest = 0;
  for (const SplitSet& group : groups) out->push_back(static_cast<char>(group.flags));
  for (const SplitSet& group : groups) {
    out->push_back(static_cast<char>(group.version));
    PutVarint32(out, group.column_count);
    widest = std::max(widest, group.column_count);
  }
  BoundDeltas deltas(/*encode=*/true);
  for (uint32_t j = 0; j < widest; j++) {
    for (const SplitSet& group : groups) {
      if (j >= group.column_count) continue;
      const size_t at = out->size();
      out->append(group.entries[j].data(), group.entries[j].size());
      if (bound_deltas) {
        s = deltas.Apply(&(*out)[at], group.entries[j].size());
        if (!s.ok()) return s;
      }
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
  if (!GetFixed8(&in, &version) || (version != kZoneMapBlockColumnMajorVersion &&
                                    version != kZoneMapBlockColumnMajorVersionDeltas)) {
    return Corrupt("unknown layout version");
  }
  // Version 2 restores the bounds in place, entry by entry, before checking each entry.
  std::optional<BoundDeltas> deltas;
  if (version == kZoneMapBlockColumnMajorVersionDeltas) deltas.emplace(/*encode=*/false);
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
      Status s = deltas ? deltas->Apply(const_cast<char*>(start), in.size()) : Status::OK();
      if (s.ok()) s = SkipZoneMapSetColumn(&in, group.version);
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
