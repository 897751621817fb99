// float_delta: delta coding of floats through an order-preserving integer image of their bit
// patterns, for smooth full-precision series (a float32 random walk) where decimal ALP finds
// no exponent and ALP-RD's split leaves too many right bits. Bit exact for every pattern,
// NaN payloads and -0.0 included. Takes float32 and float64.
//
// The image keeps the sign bit and flips the other bits of negative values:
//   image(b) = b ^ (sign(b) ? 0x7fff...ff : 0)
// Read as a signed integer it orders like the float value (-0.0 just below +0.0, NaNs at
// the ends); it is its own inverse.
//
// Byte layout: the delta layout (delta.h) of the images: the first image as a zigzag varint,
// then PackedInts of the n - 1 wrapping differences.
#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/delta.h"
#include "table_format/encodings/float_order.h"

namespace columnar {

namespace {

constexpr const char* kName = "float_delta";

Status Encode(const ColumnVector& values, std::string* out) {
  VisitFloatType(values.type(), [&](auto tag) {
    using T = decltype(tag);
    using U = UnsignedOf<T>;
    const U* bits = BitsOf<T>(values);
    std::vector<U> images(values.size());
    for (size_t i = 0; i < images.size(); i++) images[i] = OrderedImage(bits[i]);
    PutDeltas(images.data(), images.size(), out);
  });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitFloatType(type, [&](auto tag) {
    using T = decltype(tag);
    auto* dst = AppendFixedSlots<T>(out, count);
    Status s = GetDeltas(body, count, dst, kName);
    if (s.ok()) {
      for (size_t i = 0; i < count; i++) dst[i] = OrderedImage(dst[i]);
    }
    return s;
  });
}

}  // namespace

const Codec& FloatDeltaCodec() {
  static const Codec codec{Encoding::kFloatDelta, kName, &IsFloatType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
