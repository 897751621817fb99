// delta_of_delta: differences of consecutive differences, for regular series such as
// timestamps at a fixed interval, where every delta-of-delta is 0 and packs at width 0 (a
// block of 1024 such values costs two bytes). Takes int32 and int64.
//
// Byte layout (n values, n from the chunk header; nothing at all when n = 0):
//
//   first         zigzag varint   value 0 (signed, of the type's width)
//   first delta   zigzag varint   value 1 - value 0 (wrapping, read as signed; only if n >= 2)
//   dods          PackedInts (int_packing.h) of the n - 2 values
//                 (value[i] - value[i-1]) - (value[i-1] - value[i-2]), wrapping arithmetic
#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {

namespace {

constexpr const char* kName = "delta_of_delta";

template <typename U>
void PutDeltaOfDeltas(const U* v, size_t n, std::string* out) {
  if (n == 0) return;
  PutSignedVarint(out, v[0]);
  if (n == 1) return;
  PutSignedVarint<U>(out, v[1] - v[0]);
  std::vector<U> dods(n - 2);
  for (size_t i = 2; i < n; i++) dods[i - 2] = (v[i] - v[i - 1]) - (v[i - 1] - v[i - 2]);
  PackInts(dods.data(), dods.size(), out);
}

template <typename U>
Status GetDeltaOfDeltas(const Slice& body, size_t n, U* out) {
  Slice in = body;
  if (n > 0 && !GetSignedVarint(&in, &out[0])) {
    return EncodingCorruption(kName, "bad first value");
  }
  if (n > 1) {
    U delta;
    if (!GetSignedVarint(&in, &delta)) return EncodingCorruption(kName, "bad first delta");
    out[1] = out[0] + delta;
    Status s = UnpackInts(&in, n - 2, out + 2, kName);
    if (!s.ok()) return s;
    U prev = out[1];
    for (size_t i = 2; i < n; i++) {
      delta += out[i];
      prev += delta;
      out[i] = prev;
    }
  }
  if (!in.empty()) return EncodingCorruption(kName, "trailing bytes after the values");
  return Status::OK();
}

Status Encode(const ColumnVector& values, std::string* out) {
  VisitIntegerType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    PutDeltaOfDeltas(BitsOf<T>(values), values.size(), out);
  });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitIntegerType(type, [&](auto tag) {
    using T = decltype(tag);
    return GetDeltaOfDeltas(body, count, AppendFixedSlots<T>(out, count));
  });
}

}  // namespace

const Codec& DeltaOfDeltaCodec() {
  static const Codec codec{Encoding::kDeltaOfDelta, kName, &IsIntegerType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
