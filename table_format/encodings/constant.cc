// constant: a chunk whose values are all equal (bit-identical), stored once. Columns that do
// not change within a row group (a TTL, a flag, a tag, a partition's day) then cost their
// value alone. Takes every physical type; values that are not all equal make EncodeValues
// fail with InvalidArgument (the auto chooser proposes constant only for constant chunks).
//
// Byte layout (n values, n from the chunk header; nothing at all when n = 0):
//
//   int32 / int64       the value as a zigzag varint (signed, of the type's width)
//   float32 / float64   the value's bit pattern, 4 / 8 bytes little-endian
//   bytes               the value's length as a varint, then its bytes
#include <algorithm>
#include <cstring>
#include <type_traits>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "constant";

bool Supports(PhysicalType) { return true; }

bool AllEqual(const ColumnVector& values) {
  const size_t n = values.size();
  if (values.type() == PhysicalType::kBytes) {
    for (size_t i = 1; i < n; i++) {
      if (values.GetBytes(i) != values.GetBytes(0)) return false;
    }
    return true;
  }
  return VisitFixedType(values.type(), [&](auto tag) {
    const auto* bits = BitsOf<decltype(tag)>(values);
    return std::all_of(bits, bits + n, [&](auto v) { return v == bits[0]; });
  });
}

template <typename T>
void PutFixed(const ColumnVector& values, std::string* out) {
  const UnsignedOf<T> bits = BitsOf<T>(values)[0];
  if constexpr (std::is_floating_point_v<T>) {
    out->append(values.fixed_bytes(), sizeof(T));
  } else {
    PutSignedVarint(out, bits);
  }
}

Status Encode(const ColumnVector& values, std::string* out) {
  if (!AllEqual(values)) return Status::InvalidArgument("constant: values are not all equal");
  if (values.empty()) return Status::OK();
  if (values.type() == PhysicalType::kBytes) {
    const Slice v = values.GetBytes(0);
    PutVarint64(out, v.size());
    out->append(v.data(), v.size());
  } else {
    VisitFixedType(values.type(), [&](auto tag) { PutFixed<decltype(tag)>(values, out); });
  }
  return Status::OK();
}

template <typename T>
Status DecodeFixed(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  Slice in = body;
  U bits;
  if constexpr (std::is_floating_point_v<T>) {
    if (in.size() != sizeof(T)) return EncodingCorruption(kName, "body is not one value");
    std::memcpy(&bits, in.data(), sizeof(T));
  } else if (!GetSignedVarint(&in, &bits) || !in.empty()) {
    return EncodingCorruption(kName, "body is not one value");
  }
  U* dst = AppendFixedSlots<T>(out, count);
  std::fill(dst, dst + count, bits);
  return Status::OK();
}

Status DecodeBytes(const Slice& body, size_t count, ColumnVector* out) {
  Slice in = body;
  uint64_t length;
  if (!GetVarint64(&in, &length) || length != in.size()) {
    return EncodingCorruption(kName, "body is not one length-prefixed string");
  }
  if (uint64_t{count} * length > kMaxDecodedBytes) {
    return EncodingCorruption(kName, "decoded strings too large");
  }
  ByteStringWriter writer = out->AppendBytesWriter(count, count * length);
  // A short value is copied from a padded block: one block copy a row.
  char block[ByteStringCursor::kBlock] = {};
  const bool short_value = length <= sizeof(block);
  if (short_value) ByteStringCursor::CopyBytes(block, in.data(), length);
  const char* src = short_value ? block : in.data();
  const size_t readable = short_value ? sizeof(block) : length;
  ByteStringCursor cursor = writer.cursor();
  for (size_t i = 0; i < count; i++) cursor.Append(src, length, readable);
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  if (count == 0) {
    return body.empty() ? Status::OK() : EncodingCorruption(kName, "trailing bytes");
  }
  if (type == PhysicalType::kBytes) return DecodeBytes(body, count, out);
  return VisitFixedType(type,
                        [&](auto tag) { return DecodeFixed<decltype(tag)>(body, count, out); });
}

}  // namespace

const Codec& ConstantCodec() {
  static const Codec codec{Encoding::kConstant, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
