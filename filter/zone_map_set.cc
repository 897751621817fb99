#include "filter/zone_map_set.h"

#include <algorithm>
#include <utility>

#include "table_format/varint.h"

namespace columnar {

namespace {

enum ZoneMapFlags : uint8_t {
  kHasValueSet = 1 << 0,
  kHasBounds = 1 << 1,
  kMinExact = 1 << 2,
  kHasMax = 1 << 3,
  kMaxExact = 1 << 4,
  kHasSum = 1 << 5,
  kKnownFlags = kHasValueSet | kHasBounds | kMinExact | kHasMax | kMaxExact | kHasSum,
};

uint64_t ZigZag(uint64_t v) { return (v << 1) ^ (0 - (v >> 63)); }
uint64_t UnZigZag(uint64_t v) { return (v >> 1) ^ (0 - (v & 1)); }

bool IsIntegerType(PhysicalType type) {
  return type == PhysicalType::kInt32 || type == PhysicalType::kInt64;
}

void PutDatum(const Datum& d, std::string* out) {
  switch (FixedWidth(d.type)) {
    case 4:
      return PutFixed32(out, static_cast<uint32_t>(d.bits));
    case 8:
      return PutFixed64(out, d.bits);
    default:
      return PutLengthPrefixed(out, d.bytes);
  }
}

bool GetDatum(PhysicalType type, Slice* in, Datum* d) {
  switch (FixedWidth(type)) {
    case 4: {
      uint32_t bits;
      if (!GetFixed32(in, &bits)) return false;
      *d = Datum::Fixed(type, bits);
      return true;
    }
    case 8: {
      uint64_t bits;
      if (!GetFixed64(in, &bits)) return false;
      *d = Datum::Fixed(type, bits);
      return true;
    }
    default: {
      Slice bytes;
      if (!GetLengthPrefixed(in, &bytes)) return false;
      *d = Datum::Bytes(bytes.ToString());
      return true;
    }
  }
}

bool CarriesSum(const ZoneMap& zm) { return zm.has_sum && IsIntegerType(zm.type); }

uint8_t FlagsOf(const ZoneMap& zm) {
  const uint8_t sum = CarriesSum(zm) ? kHasSum : 0;
  if (zm.non_null_count() == 0) return sum;
  if (zm.has_value_set) return kHasValueSet | sum;
  return kHasBounds | (zm.min_exact ? kMinExact : 0) | (zm.has_max ? kHasMax : 0) |
         (zm.has_max && zm.max_exact ? kMaxExact : 0) | sum;
}

void EncodeZoneMap(uint32_t column_id, const ZoneMap& zm, std::string* out) {
  const uint8_t flags = FlagsOf(zm);
  PutVarint32(out, column_id);
  out->push_back(static_cast<char>(zm.type));
  out->push_back(static_cast<char>(flags));
  PutVarint64(out, zm.row_count);
  PutVarint64(out, zm.null_count);
  if (flags & kHasValueSet) {
    PutVarint32(out, static_cast<uint32_t>(zm.value_set.size()));
    for (const Datum& d : zm.value_set) PutDatum(d, out);
  }
  if (flags & kHasBounds) {
    PutDatum(zm.min, out);
    if (flags & kHasMax) PutDatum(zm.max, out);
  }
  if (flags & kHasSum) PutVarint64(out, ZigZag(zm.sum));
}

Status Corrupt(const std::string& what) { return Status::Corruption("zone maps: " + what); }

Status CheckFlags(const ZoneMap& zm, uint8_t flags, uint8_t version) {
  if (flags & ~kKnownFlags) return Corrupt("unknown flag bits");
  if ((flags & kHasSum) && (version < kZoneMapSetVersionWithSums || !IsIntegerType(zm.type))) {
    return Corrupt("sum on a version 1 set or a column that is not int32 / int64");
  }
  const bool has_set = flags & kHasValueSet;
  const bool has_bounds = flags & kHasBounds;
  if (zm.non_null_count() == 0 ? (has_set || has_bounds) : (has_set == has_bounds)) {
    return Corrupt("value set / bounds flags disagree with the null count");
  }
  if (!has_bounds && (flags & (kMinExact | kHasMax | kMaxExact))) {
    return Corrupt("bound flags without bounds");
  }
  if ((flags & kMaxExact) && !(flags & kHasMax)) return Corrupt("exact max without a max");
  const uint8_t exact_fixed = kMinExact | kHasMax | kMaxExact;
  if (has_bounds && zm.type != PhysicalType::kBytes && (flags & exact_fixed) != exact_fixed) {
    return Corrupt("inexact bounds on a fixed-width column");
  }
  return Status::OK();
}

Status DecodeValueSet(Slice* in, ZoneMap* zm) {
  uint32_t count;
  if (!GetVarint32(in, &count)) return Corrupt("truncated value set");
  if (count == 0 || count > kMaxEncodedValueSet || count > zm->non_null_count()) {
    return Corrupt("value set size " + std::to_string(count) + " out of range");
  }
  zm->has_value_set = true;
  zm->value_set.resize(count);
  for (uint32_t k = 0; k < count; k++) {
    if (!GetDatum(zm->type, in, &zm->value_set[k])) return Corrupt("truncated value set");
    if (k > 0 && !(zm->value_set[k - 1] < zm->value_set[k])) {
      return Corrupt("value set not strictly ascending");
    }
  }
  zm->min = zm->value_set.front();
  zm->max = zm->value_set.back();
  return Status::OK();
}

Status DecodeBounds(uint8_t flags, Slice* in, ZoneMap* zm) {
  zm->min_exact = flags & kMinExact;
  zm->has_max = flags & kHasMax;
  zm->max_exact = flags & kMaxExact;
  if (!GetDatum(zm->type, in, &zm->min)) return Corrupt("truncated min");
  if (!zm->has_max) {
    zm->max = Datum::Bytes(std::string());
    return Status::OK();
  }
  if (!GetDatum(zm->type, in, &zm->max)) return Corrupt("truncated max");
  if (CompareDatums(zm->min, zm->max) > 0) return Corrupt("min above max");
  return Status::OK();
}

Status DecodeSum(uint8_t flags, Slice* in, ZoneMap* zm) {
  if (!(flags & kHasSum)) return Status::OK();
  uint64_t zigzag;
  if (!GetVarint64(in, &zigzag)) return Corrupt("truncated sum");
  zm->has_sum = true;
  zm->sum = UnZigZag(zigzag);
  return Status::OK();
}

Status DecodeZoneMap(Slice* in, uint8_t version, uint32_t* column_id, ZoneMap* zm) {
  uint8_t type;
  uint8_t flags;
  if (!GetVarint32(in, column_id) || !GetFixed8(in, &type) || !GetFixed8(in, &flags) ||
      !GetVarint64(in, &zm->row_count) || !GetVarint64(in, &zm->null_count)) {
    return Corrupt("truncated column header");
  }
  if (!IsValidPhysicalType(type)) return Corrupt("bad type " + std::to_string(type));
  zm->type = static_cast<PhysicalType>(type);
  if (zm->null_count > zm->row_count) return Corrupt("more nulls than rows");
  Status s = CheckFlags(*zm, flags, version);
  if (!s.ok()) return s;
  if (zm->non_null_count() == 0) {
    zm->has_value_set = true;
  } else {
    s = (flags & kHasValueSet) ? DecodeValueSet(in, zm) : DecodeBounds(flags, in, zm);
    if (!s.ok()) return s;
  }
  return DecodeSum(flags, in, zm);
}

}  // namespace

void ZoneMapSet::Set(uint32_t column_id, ZoneMap zone_map) {
  auto it = std::lower_bound(
      columns_.begin(), columns_.end(), column_id,
      [](const std::pair<uint32_t, ZoneMap>& e, uint32_t id) { return e.first < id; });
  if (it != columns_.end() && it->first == column_id) {
    it->second = std::move(zone_map);
  } else {
    columns_.insert(it, {column_id, std::move(zone_map)});
  }
}

const ZoneMap* ZoneMapSet::Find(uint32_t column_id) const {
  auto it = std::lower_bound(
      columns_.begin(), columns_.end(), column_id,
      [](const std::pair<uint32_t, ZoneMap>& e, uint32_t id) { return e.first < id; });
  return it != columns_.end() && it->first == column_id ? &it->second : nullptr;
}

bool ZoneMapSet::Take(uint32_t column_id, ZoneMap* out) {
  auto it = std::lower_bound(
      columns_.begin(), columns_.end(), column_id,
      [](const std::pair<uint32_t, ZoneMap>& e, uint32_t id) { return e.first < id; });
  if (it == columns_.end() || it->first != column_id) return false;
  *out = std::move(it->second);
  return true;
}

void ZoneMapSet::Merge(const ZoneMapSet& other, size_t max_value_set) {
  // In place: a file's writer merges every group's set into its statistics, whose columns
  // the groups nearly always share (a column missing from either is dropped).
  auto kept = columns_.begin();
  for (auto& column : columns_) {
    const ZoneMap* theirs = other.Find(column.first);
    if (theirs == nullptr || theirs->type != column.second.type) continue;
    MergeZoneMap(*theirs, max_value_set, &column.second);
    if (&*kept != &column) *kept = std::move(column);
    ++kept;
  }
  columns_.erase(kept, columns_.end());
}

void ZoneMapSet::EncodeTo(std::string* out) const {
  // Sets without sums keep version 1, byte for byte what older writers produced.
  const bool sums = std::any_of(columns_.begin(), columns_.end(),
                                [](const auto& column) { return CarriesSum(column.second); });
  out->push_back(static_cast<char>(sums ? kZoneMapSetVersionWithSums : kZoneMapSetVersion));
  PutVarint32(out, static_cast<uint32_t>(columns_.size()));
  for (const auto& [id, zm] : columns_) EncodeZoneMap(id, zm, out);
}

Status ZoneMapSet::Decode(const Slice& input, ZoneMapSet* out) {
  Slice in = input;
  uint8_t version;
  uint32_t count;
  if (!GetFixed8(&in, &version) || !GetVarint32(&in, &count)) return Corrupt("truncated header");
  if (version != kZoneMapSetVersion && version != kZoneMapSetVersionWithSums) {
    return Corrupt("unknown version " + std::to_string(version));
  }
  // Every column takes at least five bytes: a forged count cannot force a huge allocation.
  if (count > in.size() / 5) return Corrupt("column count exceeds the input");
  ZoneMapSet result;
  result.columns_.reserve(count);
  for (uint32_t k = 0; k < count; k++) {
    uint32_t id;
    ZoneMap zm;
    Status s = DecodeZoneMap(&in, version, &id, &zm);
    if (!s.ok()) return s;
    if (k > 0 && id <= result.columns_.back().first) {
      return Corrupt("column ids not strictly ascending");
    }
    result.columns_.emplace_back(id, std::move(zm));
  }
  if (!in.empty()) return Corrupt("trailing bytes");
  *out = std::move(result);
  return Status::OK();
}

Status SkipZoneMapSetColumn(Slice* in, uint8_t version) {
  if (version != kZoneMapSetVersion && version != kZoneMapSetVersionWithSums) {
    return Corrupt("unknown version " + std::to_string(version));
  }
  uint32_t id;
  ZoneMap zm;
  return DecodeZoneMap(in, version, &id, &zm);
}

}  // namespace columnar
