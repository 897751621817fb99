// delta: consecutive differences, frame-of-reference bit-packed in miniblocks (Parquet
// DELTA_BINARY_PACKED style). Takes int32 and int64.
//
// Byte layout: see delta.h (first value as a zigzag varint, then PackedInts of the n - 1
// wrapping differences).
#include "table_format/encodings/delta.h"

#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {

template <typename U>
void PutDeltas(const U* values, size_t n, std::string* out) {
  if (n == 0) return;
  PutSignedVarint(out, values[0]);
  std::vector<U> deltas(n - 1);
  for (size_t i = 1; i < n; i++) deltas[i - 1] = values[i] - values[i - 1];
  PackInts(deltas.data(), deltas.size(), out);
}

template <typename U>
Status GetDeltas(const Slice& body, size_t n, U* out, const char* encoding) {
  Slice in = body;
  if (n > 0) {
    if (!GetSignedVarint(&in, &out[0])) return EncodingCorruption(encoding, "bad first value");
    Status s = UnpackInts(&in, n - 1, out + 1, encoding);
    if (!s.ok()) return s;
    U acc = out[0];
    for (size_t i = 1; i < n; i++) {
      acc += out[i];
      out[i] = acc;
    }
  }
  if (!in.empty()) return EncodingCorruption(encoding, "trailing bytes after the values");
  return Status::OK();
}

template void PutDeltas<uint32_t>(const uint32_t*, size_t, std::string*);
template void PutDeltas<uint64_t>(const uint64_t*, size_t, std::string*);
template Status GetDeltas<uint32_t>(const Slice&, size_t, uint32_t*, const char*);
template Status GetDeltas<uint64_t>(const Slice&, size_t, uint64_t*, const char*);

namespace {

constexpr const char* kName = "delta";

Status Encode(const ColumnVector& values, std::string* out) {
  VisitIntegerType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    PutDeltas(BitsOf<T>(values), values.size(), out);
  });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitIntegerType(type, [&](auto tag) {
    using T = decltype(tag);
    return GetDeltas(body, count, AppendFixedSlots<T>(out, count), kName);
  });
}

}  // namespace

const Codec& DeltaCodec() {
  static const Codec codec{Encoding::kDelta, kName, &IsIntegerType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
