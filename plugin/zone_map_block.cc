#include "plugin/zone_map_block.h"

#include <algorithm>
#include <cstring>
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

// Every group's set encoding split into its header and its column entries, in flat arrays.
// Group g's entries are entries[first_entry[g]] up to entries[first_entry[g + 1]]. (A vector of
// entries per group, and a string per entry whose bounds were restored, made opening a metrics
// database of 135,000 groups in 8 files take 0.25 s and 23.8 k page faults; 0.18 s and 17.2 k
// flat.)
struct SplitSets {
  std::vector<uint8_t> flags;
  std::vector<uint8_t> versions;
  std::vector<uint32_t> first_entry{0};
  std::vector<Slice> entries;

  size_t groups() const { return flags.size(); }
  uint32_t column_count(size_t g) const { return first_entry[g + 1] - first_entry[g]; }
  const Slice& entry(size_t g, uint32_t j) const { return entries[first_entry[g] + j]; }
  uint32_t widest() const {
    uint32_t widest = 0;
    for (size_t g = 0; g < groups(); g++) widest = std::max(widest, column_count(g));
    return widest;
  }
};

Status SplitRowMajor(const Slice& raw, SplitSets* groups) {
  Slice in = raw;
  uint32_t count;
  if (!columnar::GetVarint32(&in, &count) || count == 0)
    return Status::Corruption("zone maps: bad count");
  if (count > in.size()) return Status::Corruption("zone maps: count exceeds the block");
  groups->flags.resize(count);
  groups->versions.resize(count);
  groups->first_entry.reserve(count + 1);
  for (uint32_t g = 0; g < count; g++) {
    Slice set;
    uint32_t column_count;
    if (!GetFixed8(&in, &groups->flags[g]) || !GetLengthPrefixed(&in, &set) ||
        !GetFixed8(&set, &groups->versions[g]) || !columnar::GetVarint32(&set, &column_count) ||
        column_count > set.size()) {
      return Status::Corruption("zone maps: malformed entry");
    }
    for (uint32_t k = 0; k < column_count; k++) {
      const char* start = set.data();
      Status s = SkipZoneMapSetColumn(&set, groups->versions[g]);
      if (!s.ok()) return s;
      groups->entries.emplace_back(start, static_cast<size_t>(set.data() - start));
    }
    groups->first_entry.push_back(static_cast<uint32_t>(groups->entries.size()));
    if (!set.empty()) return Status::Corruption("zone maps: trailing bytes in a set");
  }
  if (!in.empty()) return Status::Corruption("zone maps: trailing bytes");
  return Status::OK();
}

// A column entry's header (zone_map_set.h), and where its fixed-width bounds are, if any.
struct EntryHeader {
  uint32_t column_id = 0;
  uint8_t flags = 0;
  size_t header_size = 0;  // bytes before the bounds
  size_t width = 0;        // 4 or 8 when the entry has fixed-width bounds and no value set
  size_t bounds = 0;       // 1 (min) or 2 (min, max) such bounds; 0 when none
};

Status ParseEntryHeader(const Slice& entry, EntryHeader* header) {
  Slice in = entry;
  uint8_t type;
  uint64_t rows;
  uint64_t nulls;
  if (!columnar::GetVarint32(&in, &header->column_id) || !GetFixed8(&in, &type) ||
      !GetFixed8(&in, &header->flags) || !columnar::GetVarint64(&in, &rows) ||
      !columnar::GetVarint64(&in, &nulls)) {
    return Corrupt("truncated column header");
  }
  header->header_size = entry.size() - in.size();
  header->width = type == static_cast<uint8_t>(PhysicalType::kInt32) ||
                          type == static_cast<uint8_t>(PhysicalType::kFloat32)
                      ? 4
                  : type == static_cast<uint8_t>(PhysicalType::kInt64) ||
                          type == static_cast<uint8_t>(PhysicalType::kFloat64)
                      ? 8
                      : 0;
  // Bit 0: a value set, bit 1: bounds, bit 3: a max (zone_map_set.h).
  const bool coded =
      header->width != 0 && (header->flags & 1) == 0 && (header->flags & 2) != 0 && nulls < rows;
  header->bounds = !coded ? 0 : (header->flags & 8) != 0 ? 2 : 1;
  return Status::OK();
}

uint64_t LoadLittleEndian(const char* at, size_t width) {
  uint64_t value = 0;
  for (size_t i = 0; i < width; i++) value |= uint64_t{static_cast<uint8_t>(at[i])} << (8 * i);
  return value;
}

void StoreLittleEndian(uint64_t value, size_t width, char* at) {
  for (size_t i = 0; i < width; i++) at[i] = static_cast<char>(value >> (8 * i));
}

uint64_t WidthMask(size_t width) {
  return width == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
}

// Zigzag at `width` bytes: the value read as a signed integer of that width.
uint64_t ZigzagAt(uint64_t value, size_t width) {
  const int shift = 64 - 8 * static_cast<int>(width);
  const int64_t s = static_cast<int64_t>(value << shift) >> shift;
  return ((static_cast<uint64_t>(s) << 1) ^ static_cast<uint64_t>(s >> 63)) & WidthMask(width);
}

uint64_t UnzigzagAt(uint64_t z, size_t width) {
  return ((z >> 1) ^ (~(z & 1) + 1)) & WidthMask(width);
}

// Version 2's bound coding (zone_map_block.h): walks the column entries in block order and,
// in each fixed-width entry with bounds, replaces the min by its difference from the previous
// min of the column (`encode`) or back (!encode), and the max by its difference from the
// entry's own min, in place. The lengths do not change.
class BoundDeltas {
 public:
  explicit BoundDeltas(bool encode) : encode_(encode) {}

  // `entry` starts a column entry (its header is parsed here, its length found afterwards by
  // SkipZoneMapSetColumn on the restored bytes). *header tells where the coded bounds are.
  Status Apply(char* entry, size_t available, EntryHeader* header) {
    Status s = ParseEntryHeader(Slice(entry, available), header);
    if (!s.ok() || header->bounds == 0) return s;
    const size_t width = header->width;
    if (available - header->header_size < header->bounds * width) {
      return Corrupt("truncated bounds");
    }
    char* min_at = entry + header->header_size;
    Previous& previous = previous_[header->column_id];
    if (previous.width != width) previous = Previous{width, 0};
    const uint64_t min = Transform(min_at, width, previous.min);
    previous.min = min;
    if (header->bounds == 2) Transform(min_at + width, width, min);
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
    const uint64_t stored = LoadLittleEndian(at, width);
    const uint64_t result = encode_ ? stored - base : stored + base;
    StoreLittleEndian(result, width, at);
    return encode_ ? stored : result & WidthMask(width);
  }

  bool encode_;
  std::map<uint32_t, Previous> previous_;
};

// Version 3's planes: the zigzagged differences of one width, in block order, stored byte
// plane by byte plane (every value's byte 0, then every value's byte 1, ...).
struct BoundPlanes {
  size_t width;
  std::vector<uint64_t> values;

  void AppendTo(std::string* out) const {
    for (size_t k = 0; k < width; k++) {
      for (uint64_t value : values) out->push_back(static_cast<char>(value >> (8 * k)));
    }
  }
};

// Version 3's planes of `count` values of `width` bytes, read where they lie in the block.
class PlaneReader {
 public:
  explicit PlaneReader(size_t width) : width_(width) {}

  // Takes the planes from the front of *in.
  Status Read(Slice* in, uint32_t count) {
    if (count > in->size() / width_) return Corrupt("truncated bound planes");
    bytes_ = reinterpret_cast<const uint8_t*>(in->data());
    count_ = count;
    in->remove_prefix(count * width_);
    return Status::OK();
  }
  size_t size() const { return count_; }
  uint64_t value(size_t i) const {
    uint64_t value = 0;
    for (size_t k = 0; k < width_; k++) value |= uint64_t{bytes_[k * count_ + i]} << (8 * k);
    return value;
  }

 private:
  size_t width_;
  const uint8_t* bytes_ = nullptr;
  size_t count_ = 0;
};

bool KnownColumnMajorVersion(uint8_t version) {
  return version == kZoneMapBlockColumnMajorVersion ||
         version == kZoneMapBlockColumnMajorVersionDeltas ||
         version == kZoneMapBlockColumnMajorVersionPlanes;
}

// The column-major block of the split groups, in layout `version`, appended to *out.
Status ToColumnMajor(const SplitSets& groups, std::string* out, uint8_t version) {
  Status s;
  out->push_back(static_cast<char>(kZoneMapBlockColumnMajorMarker));
  out->push_back(static_cast<char>(version));
  PutVarint32(out, static_cast<uint32_t>(groups.groups()));
  for (const uint8_t flags : groups.flags) out->push_back(static_cast<char>(flags));
  for (size_t g = 0; g < groups.groups(); g++) {
    out->push_back(static_cast<char>(groups.versions[g]));
    PutVarint32(out, groups.column_count(g));
  }
  const uint32_t widest = groups.widest();
  const bool planes = version == kZoneMapBlockColumnMajorVersionPlanes;
  // Version 3 writes the entries without their coded bounds after the planes.
  std::string stripped;
  std::string* entries = planes ? &stripped : out;
  BoundPlanes narrow{4, {}};
  BoundPlanes wide{8, {}};
  BoundDeltas deltas(/*encode=*/true);
  for (uint32_t j = 0; j < widest; j++) {
    for (size_t g = 0; g < groups.groups(); g++) {
      if (j >= groups.column_count(g)) continue;
      const Slice& entry = groups.entry(g, j);
      const size_t at = entries->size();
      entries->append(entry.data(), entry.size());
      if (version == kZoneMapBlockColumnMajorVersion) continue;
      EntryHeader header;
      s = deltas.Apply(&(*entries)[at], entry.size(), &header);
      if (!s.ok()) return s;
      if (!planes || header.bounds == 0) continue;
      BoundPlanes& target = header.width == 4 ? narrow : wide;
      const size_t bounds_at = at + header.header_size;
      for (size_t b = 0; b < header.bounds; b++) {
        const uint64_t value =
            LoadLittleEndian(&(*entries)[bounds_at + b * header.width], header.width);
        target.values.push_back(ZigzagAt(value, header.width));
      }
      entries->erase(bounds_at, header.bounds * header.width);
    }
  }
  if (planes) {
    PutVarint32(out, static_cast<uint32_t>(narrow.values.size()));
    PutVarint32(out, static_cast<uint32_t>(wide.values.size()));
    narrow.AppendTo(out);
    wide.AppendTo(out);
    out->append(stripped);
  }
  return Status::OK();
}

}  // namespace

Status ZoneMapBlockToColumnMajor(const Slice& row_major, std::string* out, uint8_t version) {
  if (!KnownColumnMajorVersion(version)) {
    return Status::InvalidArgument("zone maps: unknown column-major version");
  }
  SplitSets groups;
  Status s = SplitRowMajor(row_major, &groups);
  if (!s.ok()) return s;
  return ToColumnMajor(groups, out, version);
}

Status ZoneMapBlockToColumnMajorLayouts(const Slice& row_major, uint8_t first_version,
                                        std::string* first, uint8_t second_version,
                                        std::string* second) {
  if (!KnownColumnMajorVersion(first_version) || !KnownColumnMajorVersion(second_version)) {
    return Status::InvalidArgument("zone maps: unknown column-major version");
  }
  SplitSets groups;
  Status s = SplitRowMajor(row_major, &groups);
  if (s.ok()) s = ToColumnMajor(groups, first, first_version);
  if (s.ok()) s = ToColumnMajor(groups, second, second_version);
  return s;
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
                                    version != kZoneMapBlockColumnMajorVersionDeltas &&
                                    version != kZoneMapBlockColumnMajorVersionPlanes)) {
    return Corrupt("unknown layout version");
  }
  // Versions 2 and 3 restore the bounds entry by entry, before checking each entry.
  std::optional<BoundDeltas> deltas;
  if (version != kZoneMapBlockColumnMajorVersion) deltas.emplace(/*encode=*/false);
  const bool planes = version == kZoneMapBlockColumnMajorVersionPlanes;
  // Every group takes at least three bytes (flags, set version, column count).
  if (!columnar::GetVarint32(&in, &count) || count == 0 || count > in.size() / 3) {
    return Corrupt("bad row group count");
  }
  SplitSets groups;
  groups.flags.resize(count);
  groups.versions.resize(count);
  if (in.size() < count) return Corrupt("truncated flags");
  std::memcpy(groups.flags.data(), in.data(), count);
  in.remove_prefix(count);
  groups.first_entry.resize(count + 1);
  uint64_t total_columns = 0;
  for (uint32_t g = 0; g < count; g++) {
    uint32_t column_count;
    if (!GetFixed8(&in, &groups.versions[g]) || !columnar::GetVarint32(&in, &column_count)) {
      return Corrupt("truncated set headers");
    }
    total_columns += column_count;
    // Every column entry takes at least five bytes (its header), with or without its bounds.
    if (total_columns > in.size() / 5) return Corrupt("column counts exceed the block");
    groups.first_entry[g + 1] = static_cast<uint32_t>(total_columns);
  }
  PlaneReader narrow(4);
  PlaneReader wide(8);
  if (planes) {
    uint32_t narrow_count;
    uint32_t wide_count;
    if (!columnar::GetVarint32(&in, &narrow_count) || !columnar::GetVarint32(&in, &wide_count)) {
      return Corrupt("truncated bound counts");
    }
    Status s = narrow.Read(&in, narrow_count);
    if (s.ok()) s = wide.Read(&in, wide_count);
    if (!s.ok()) return s;
  }
  if (total_columns > in.size() / 5) return Corrupt("column counts exceed the block");
  groups.entries.resize(total_columns);
  // Version 3's entries, their bounds put back, one after the other in `restored`: reserved for
  // the most they can take (every entry's bytes plus every bound), so that the slices into it
  // stay valid.
  std::string restored;
  if (planes) restored.reserve(in.size() + 4 * narrow.size() + 8 * wide.size());
  const char* const restored_base = restored.data();
  size_t next_narrow = 0;
  size_t next_wide = 0;
  const uint32_t widest = groups.widest();
  for (uint32_t j = 0; j < widest; j++) {
    for (uint32_t g = 0; g < count; g++) {
      if (j >= groups.column_count(g)) continue;
      Slice& placed = groups.entries[groups.first_entry[g] + j];
      const char* start = in.data();
      EntryHeader header;
      Status s = ParseEntryHeader(in, &header);
      if (!s.ok()) return s;
      if (planes && header.bounds != 0) {
        // The header, the bounds from the planes, then the sum (bit 5) if any.
        const size_t at = restored.size();
        restored.append(start, header.header_size);
        in.remove_prefix(header.header_size);
        const PlaneReader& source = header.width == 4 ? narrow : wide;
        size_t& next = header.width == 4 ? next_narrow : next_wide;
        if (next + header.bounds > source.size()) return Corrupt("too few bounds");
        for (size_t b = 0; b < header.bounds; b++) {
          char bytes[8];
          StoreLittleEndian(UnzigzagAt(source.value(next++), header.width), header.width, bytes);
          restored.append(bytes, header.width);
        }
        const char* sum_at = in.data();
        uint64_t sum;
        if ((header.flags & 0x20) != 0 && !columnar::GetVarint64(&in, &sum)) {
          return Corrupt("truncated sum");
        }
        restored.append(sum_at, static_cast<size_t>(in.data() - sum_at));
        const size_t size = restored.size() - at;
        s = deltas->Apply(&restored[at], size, &header);
        Slice check(restored.data() + at, size);
        if (s.ok()) s = SkipZoneMapSetColumn(&check, groups.versions[g]);
        if (s.ok() && !check.empty()) s = Corrupt("entry longer than its parts");
        if (!s.ok()) return s;
        placed = Slice(restored.data() + at, size);
        continue;
      }
      s = deltas ? deltas->Apply(const_cast<char*>(start), in.size(), &header) : Status::OK();
      if (s.ok()) s = SkipZoneMapSetColumn(&in, groups.versions[g]);
      if (!s.ok()) return s;
      placed = Slice(start, static_cast<size_t>(in.data() - start));
    }
  }
  if (next_narrow != narrow.size() || next_wide != wide.size()) {
    return Corrupt("bounds left over");
  }
  if (!in.empty()) return Corrupt("trailing bytes");
  // (Cannot happen: every restored byte is an entry's byte or a bound, each taken once.)
  if (restored.data() != restored_base) return Corrupt("restored entries moved");
  // Each group's set encoding (its header and entries) is written straight after its length.
  // The block is reserved at its exact size: the reader keeps it for the file's life.
  std::vector<uint32_t> set_sizes(count);
  size_t total = VarintLength(count);
  for (uint32_t g = 0; g < count; g++) {
    const uint32_t column_count = groups.column_count(g);
    size_t set_size = 1 + VarintLength(column_count);
    for (uint32_t j = 0; j < column_count; j++) set_size += groups.entry(g, j).size();
    set_sizes[g] = static_cast<uint32_t>(set_size);
    total += 1 + VarintLength(set_size) + set_size;
  }
  std::string row_major;
  row_major.reserve(total);
  PutVarint32(&row_major, count);
  for (uint32_t g = 0; g < count; g++) {
    const uint32_t column_count = groups.column_count(g);
    row_major.push_back(static_cast<char>(groups.flags[g]));
    PutVarint32(&row_major, set_sizes[g]);
    row_major.push_back(static_cast<char>(groups.versions[g]));
    PutVarint32(&row_major, column_count);
    for (uint32_t j = 0; j < column_count; j++) {
      const Slice& entry = groups.entry(g, j);
      row_major.append(entry.data(), entry.size());
    }
  }
  *block = std::move(row_major);
  return Status::OK();
}

}  // namespace columnar
