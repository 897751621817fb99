// for: frame of reference without delta, for values that jitter around a level (latencies,
// sizes, gauges stored as integers). Takes int32 and int64.
//
// Byte layout (n values, n from the chunk header):
//
//   values   PackedInts (int_packing.h) of the n values: per block of 1024 the minimum as
//            the reference, then value - minimum bit-packed per miniblock of 32
#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {

namespace {

constexpr const char* kName = "for";

Status Encode(const ColumnVector& values, std::string* out) {
  VisitIntegerType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    PackInts(BitsOf<T>(values), values.size(), out);
  });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitIntegerType(type, [&](auto tag) {
    using T = decltype(tag);
    Slice in = body;
    Status s = UnpackInts(&in, count, AppendFixedSlots<T>(out, count), kName);
    if (s.ok() && !in.empty()) return EncodingCorruption(kName, "trailing bytes after the values");
    return s;
  });
}

Status DecodeRange(PhysicalType type, const Slice& body, size_t count, size_t begin, size_t end,
                   ColumnVector* out) {
  return VisitIntegerType(type, [&](auto tag) {
    using T = decltype(tag);
    Slice in = body;
    Status s =
        UnpackIntsRange(&in, count, begin, end, AppendFixedSlots<T>(out, end - begin), kName);
    if (s.ok() && !in.empty()) return EncodingCorruption(kName, "trailing bytes after the values");
    return s;
  });
}

}  // namespace

const Codec& ForCodec() {
  static const Codec codec{Encoding::kFor, kName, &IsIntegerType, &Encode, &Decode, &DecodeRange};
  return codec;
}

}  // namespace columnar
