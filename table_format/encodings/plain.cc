// plain: values as they are. Takes every physical type.
//
// Byte layout (n values, n from the chunk header):
//
//   int32 / float32   n x 4 bytes, little-endian bit patterns
//   int64 / float64   n x 8 bytes, little-endian bit patterns
//   bytes             ByteStrings (byte_strings.h): PackedInts<uint32> lengths, then the
//                     strings concatenated
//
// Floats are copied as raw bits, so NaN payloads, -0.0 and subnormals survive.
#include <cstring>

#include "table_format/encodings/byte_strings.h"
#include "table_format/encodings/codec.h"

namespace columnar {

namespace {

constexpr const char* kName = "plain";

bool Supports(PhysicalType) { return true; }

Status Encode(const ColumnVector& values, std::string* out) {
  if (values.type() == PhysicalType::kBytes) {
    PutByteStrings(values, out);
  } else {
    out->append(values.fixed_bytes(), values.size() * FixedWidth(values.type()));
  }
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  if (type == PhysicalType::kBytes) {
    Slice in = body;
    Status s = GetByteStrings(&in, count, out, kName);
    if (s.ok() && !in.empty()) return EncodingCorruption(kName, "trailing bytes after the values");
    return s;
  }
  const size_t width = FixedWidth(type);
  if (body.size() / width != count || body.size() % width != 0) {
    return EncodingCorruption(kName, "body size does not match the value count");
  }
  VisitFixedType(type, [&](auto tag) {
    auto* dst = AppendFixedSlots<decltype(tag)>(out, count);
    if (count > 0) std::memcpy(dst, body.data(), count * width);
  });
  return Status::OK();
}

Status DecodeRange(PhysicalType type, const Slice& body, size_t count, size_t begin, size_t end,
                   ColumnVector* out) {
  if (type == PhysicalType::kBytes) {
    Slice in = body;
    return GetByteStringRange(&in, count, begin, end, out, kName);
  }
  const size_t width = FixedWidth(type);
  if (body.size() / width != count || body.size() % width != 0) {
    return EncodingCorruption(kName, "body size does not match the value count");
  }
  VisitFixedType(type, [&](auto tag) {
    auto* dst = AppendFixedSlots<decltype(tag)>(out, end - begin);
    if (end > begin) std::memcpy(dst, body.data() + begin * width, (end - begin) * width);
  });
  return Status::OK();
}

}  // namespace

const Codec& PlainCodec() {
  static const Codec codec{Encoding::kPlain, kName, &Supports, &Encode, &Decode, &DecodeRange};
  return codec;
}

}  // namespace columnar
