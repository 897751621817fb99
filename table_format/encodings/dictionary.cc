// dictionary: the distinct values once, sorted, then one bit-packed code per value. Takes
// every physical type. The sort order and the pushdown-friendly decoder are in dictionary.h.
//
// Byte layout (n values, n from the chunk header):
//
//   entries         varint   D, the number of distinct values (0 only when n = 0; D <= n)
//   entry encoding  u8       the encoding of the entries: plain, delta (integers),
//                            float_delta (floats), front_coding or hex (bytes), whichever is
//                            smallest
//   entry length    varint   bytes of the entries' body
//   entries body    the D sorted distinct values in that encoding
//   codes           PackedSize(n, w) bytes: the n codes bit-packed LSB-first (bit_packing.h)
//                   at w = BitWidth(D - 1) bits (0 bits when D = 1)
#include "table_format/encodings/dictionary.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "table_format/bit_packing.h"
#include "table_format/encoding.h"
#include "table_format/encodings/byte_strings.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/float_order.h"
#include "table_format/encodings/key_index.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "dictionary";

bool Supports(PhysicalType) { return true; }

// The encodings the sorted entries may use, by type.
std::vector<Encoding> EntryEncodings(PhysicalType type) {
  if (IsIntegerType(type)) return {Encoding::kPlain, Encoding::kDelta};
  if (IsFloatType(type)) return {Encoding::kPlain, Encoding::kFloatDelta};
  return {Encoding::kPlain, Encoding::kFrontCoding, Encoding::kHex};
}

bool IsEntryEncoding(Encoding e, PhysicalType type) {
  const std::vector<Encoding> allowed = EntryEncodings(type);
  return std::find(allowed.begin(), allowed.end(), e) != allowed.end();
}

// Sort key of a fixed-width value: its signed reading, through OrderedImage for floats.
template <typename T>
std::make_signed_t<UnsignedOf<T>> SortKey(UnsignedOf<T> bits) {
  using S = std::make_signed_t<UnsignedOf<T>>;
  if constexpr (std::is_floating_point_v<T>) return static_cast<S>(OrderedImage(bits));
  return static_cast<S>(bits);
}

// The hash table starts small (dictionaries are worth it with few distinct values) and grows
// as needed.
constexpr size_t kInitialKeys = 64;

// Distinct values get provisional ids in first-seen order through a hash table; only the
// distinct values are then sorted, and the provisional ids remapped to sorted codes.
void RemapToSortedCodes(const std::vector<uint32_t>& sorted_ids, std::vector<uint32_t>* codes) {
  std::vector<uint32_t> rank(sorted_ids.size());
  for (size_t k = 0; k < sorted_ids.size(); k++) rank[sorted_ids[k]] = static_cast<uint32_t>(k);
  for (uint32_t& code : *codes) code = rank[code];
}

template <typename T>
void BuildFixed(const ColumnVector& values, ColumnVector* entries, std::vector<uint32_t>* codes) {
  using U = UnsignedOf<T>;
  const U* bits = BitsOf<T>(values);
  const size_t n = values.size();
  KeyIndex index(std::min<size_t>(n, kInitialKeys));
  std::vector<U> distinct;
  codes->resize(n);
  for (size_t i = 0; i < n; i++) {
    const U v = bits[i];
    bool added;
    (*codes)[i] = index.FindOrAdd(
        v, [&](uint32_t id) { return distinct[id] == v; }, &added);
    if (added) distinct.push_back(v);
  }
  std::vector<uint32_t> sorted_ids(distinct.size());
  std::iota(sorted_ids.begin(), sorted_ids.end(), 0);
  std::sort(sorted_ids.begin(), sorted_ids.end(), [&](uint32_t a, uint32_t b) {
    return SortKey<T>(distinct[a]) < SortKey<T>(distinct[b]);
  });
  U* dst = AppendFixedSlots<T>(entries, distinct.size());
  for (size_t k = 0; k < sorted_ids.size(); k++) dst[k] = distinct[sorted_ids[k]];
  RemapToSortedCodes(sorted_ids, codes);
}

void BuildBytes(const ColumnVector& values, ColumnVector* entries, std::vector<uint32_t>* codes) {
  const size_t n = values.size();
  KeyIndex index(std::min<size_t>(n, kInitialKeys));
  std::vector<Slice> distinct;
  codes->resize(n);
  for (size_t i = 0; i < n; i++) {
    const Slice v = values.GetBytes(i);
    bool added;
    (*codes)[i] = index.FindOrAdd(
        HashBytes(v.data(), v.size()), [&](uint32_t id) { return SameBytes(distinct[id], v); },
        &added);
    if (added) distinct.push_back(v);
  }
  std::vector<uint32_t> sorted_ids(distinct.size());
  std::iota(sorted_ids.begin(), sorted_ids.end(), 0);
  std::sort(sorted_ids.begin(), sorted_ids.end(),
            [&](uint32_t a, uint32_t b) { return distinct[a].compare(distinct[b]) < 0; });
  for (uint32_t id : sorted_ids) entries->AppendBytes(distinct[id]);
  RemapToSortedCodes(sorted_ids, codes);
}

Status Encode(const ColumnVector& values, std::string* out) {
  const PhysicalType type = values.type();
  ColumnVector entries(type);
  std::vector<uint32_t> codes;
  if (type == PhysicalType::kBytes) {
    BuildBytes(values, &entries, &codes);
  } else {
    VisitFixedType(type, [&](auto tag) { BuildFixed<decltype(tag)>(values, &entries, &codes); });
  }
  std::string best_body;
  Encoding best = Encoding::kPlain;
  for (Encoding e : EntryEncodings(type)) {
    std::string body;
    Status s = EncodeValues(e, entries, &body);
    if (!s.ok() && e == Encoding::kHex) continue;  // hex refuses entries that are not hex
    if (!s.ok()) return s;
    if (e == Encoding::kPlain || body.size() < best_body.size()) {
      best_body.swap(body);
      best = e;
    }
  }
  PutVarint64(out, entries.size());
  out->push_back(static_cast<char>(best));
  PutVarint64(out, best_body.size());
  out->append(best_body);
  const int width = entries.size() > 1 ? BitWidth(entries.size() - 1) : 0;
  const size_t at = out->size();
  out->resize(at + PackedSize(codes.size(), width));
  PackBits32(codes.data(), codes.size(), width, &(*out)[at]);
  return Status::OK();
}

template <typename T>
bool StrictlyAscending(const ColumnVector& entries) {
  const auto* bits = BitsOf<T>(entries);
  for (size_t k = 1; k < entries.size(); k++) {
    if (!(SortKey<T>(bits[k - 1]) < SortKey<T>(bits[k]))) return false;
  }
  return true;
}

bool EntriesStrictlyAscending(const ColumnVector& entries) {
  if (entries.type() != PhysicalType::kBytes) {
    return VisitFixedType(entries.type(),
                          [&](auto tag) { return StrictlyAscending<decltype(tag)>(entries); });
  }
  for (size_t k = 1; k < entries.size(); k++) {
    if (entries.GetBytes(k - 1).compare(entries.GetBytes(k)) >= 0) return false;
  }
  return true;
}

template <typename T>
void GatherFixed(const ColumnVector& entries, const std::vector<uint32_t>& codes,
                 ColumnVector* out) {
  const auto* src = BitsOf<T>(entries);
  auto* dst = AppendFixedSlots<T>(out, codes.size());
  for (size_t i = 0; i < codes.size(); i++) dst[i] = src[codes[i]];
}

// The largest code, in four independent lanes.
uint32_t MaxCode(const std::vector<uint32_t>& codes) {
  uint32_t lanes[4] = {0, 0, 0, 0};
  const size_t n = codes.size();
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    for (int k = 0; k < 4; k++) lanes[k] = std::max(lanes[k], codes[i + k]);
  }
  for (; i < n; i++) lanes[0] = std::max(lanes[0], codes[i]);
  return std::max(std::max(lanes[0], lanes[1]), std::max(lanes[2], lanes[3]));
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  ColumnVector entries(type);
  std::vector<uint32_t> codes;
  Status s = DecodeDictionary(type, body, count, &entries, &codes);
  if (!s.ok()) return s;
  if (type != PhysicalType::kBytes) {
    VisitFixedType(type, [&](auto tag) { GatherFixed<decltype(tag)>(entries, codes, out); });
    return Status::OK();
  }
  const uint32_t* offsets = entries.offsets();
  uint64_t total = 0;
  for (uint32_t code : codes) total += offsets[code + 1] - offsets[code];
  if (total > kMaxDecodedBytes) return EncodingCorruption(kName, "decoded strings too large");
  ByteStringWriter writer = out->AppendBytesWriter(count, total);
  ByteStringCursor cursor = writer.cursor();
  // Entries are usually short (methods, statuses, hosts): copied from fixed slots.
  StringSlots slots;
  if (slots.Build(entries)) {
    slots.Append(codes.data(), codes.size(), &cursor);
  } else {
    const char* data = entries.bytes_data().data();
    for (uint32_t code : codes) {
      cursor.Append(data + offsets[code], offsets[code + 1] - offsets[code]);
    }
  }
  return Status::OK();
}

}  // namespace

Status DecodeDictionary(PhysicalType type, const Slice& body, size_t count,
                        ColumnVector* dictionary, std::vector<uint32_t>* codes) {
  dictionary->Reset(type);
  Slice in = body;
  uint64_t entries;
  uint8_t entry_encoding;
  uint64_t entries_length;
  if (!GetVarint64(&in, &entries) || !GetFixed8(&in, &entry_encoding) ||
      !GetVarint64(&in, &entries_length)) {
    return EncodingCorruption(kName, "truncated header");
  }
  if (entries > count || (entries == 0) != (count == 0)) {
    return EncodingCorruption(kName, "entry count does not fit the value count");
  }
  const auto encoding = static_cast<Encoding>(entry_encoding);
  if (!IsEntryEncoding(encoding, type)) return EncodingCorruption(kName, "bad entry encoding");
  if (entries_length > in.size()) return EncodingCorruption(kName, "truncated entries");
  Status s = DecodeValues(encoding, type, Slice(in.data(), entries_length), entries, dictionary);
  if (!s.ok()) return EncodingCorruption(kName, s.getState());
  in.remove_prefix(entries_length);
  if (!EntriesStrictlyAscending(*dictionary)) {
    return EncodingCorruption(kName, "entries are not sorted and distinct");
  }
  const int width = entries > 1 ? BitWidth(entries - 1) : 0;
  if (in.size() != PackedSize(count, width)) {
    return EncodingCorruption(kName, "code bytes do not match the value count");
  }
  codes->resize(count);
  UnpackBits32(in.data(), count, width, codes->data());
  // Codes below 2^width are all in range when the entry count is a power of two.
  if ((entries & (entries - 1)) != 0 && MaxCode(*codes) >= entries) {
    return EncodingCorruption(kName, "code out of range");
  }
  return Status::OK();
}

const Codec& DictionaryCodec() {
  static const Codec codec{Encoding::kDictionary, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
