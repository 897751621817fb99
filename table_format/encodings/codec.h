// The per-encoding interface behind encoding.h, and the small helpers every encoding file
// shares: typed dispatch over physical types, unsigned twins of the value types, error
// construction and the decoded-size guard.
//
// Each encoding file under encodings/ defines one `const Codec& <Name>Codec()` accessor; the
// dispatch table in encoding.cc lists them. Encoders receive dense values (no nulls) whose
// type the codec supports; decoders receive a body and the value count from the chunk header,
// append exactly `count` values to *out and must consume the body exactly.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/types.h"

namespace columnar {

struct Codec {
  Encoding id;
  const char* name;
  bool (*supports)(PhysicalType type);
  Status (*encode)(const ColumnVector& values, std::string* out);
  Status (*decode)(PhysicalType type, const Slice& body, size_t count, ColumnVector* out);
  // Optional: appends values [begin, end) of the `count` in `body` (begin <= end <= count)
  // without decoding the others, for point reads. Checks what it reads, not the whole body.
  Status (*decode_range)(PhysicalType type, const Slice& body, size_t count, size_t begin,
                         size_t end, ColumnVector* out) = nullptr;
};

const Codec& PlainCodec();
const Codec& RleCodec();
const Codec& DictionaryCodec();
const Codec& DeltaCodec();
const Codec& DeltaOfDeltaCodec();
const Codec& ForCodec();
const Codec& GorillaCodec();
const Codec& AlpCodec();
const Codec& AlpRdCodec();
const Codec& FloatDeltaCodec();
const Codec& FrontCodingCodec();
const Codec& HexCodec();
const Codec& RiceDeltaCodec();
const Codec& ConstantCodec();
const Codec& FileDictionaryCodec();
const Codec& TemplateCodec();
const Codec& MixedRadixCodec();
const Codec& RleNestedCodec();
const Codec& HuffmanCodec();
const Codec& RiceCodec();
const Codec& FileHuffmanCodec();
const Codec& RiceDeltaAnchoredCodec();
const Codec& MixedRadixTightCodec();

// Byte-string decoders can expand a small body into a large column (a dictionary entry or a
// run repeated `count` times). They refuse to produce more than this many bytes, which also
// keeps ColumnVector's 32-bit offsets valid.
inline constexpr uint64_t kMaxDecodedBytes = uint64_t{1} << 30;

inline Status EncodingCorruption(const char* encoding, const char* what) {
  return Status::Corruption(encoding, what);
}

inline bool IsIntegerType(PhysicalType type) {
  return type == PhysicalType::kInt32 || type == PhysicalType::kInt64;
}
inline bool IsFloatType(PhysicalType type) {
  return type == PhysicalType::kFloat32 || type == PhysicalType::kFloat64;
}

// The unsigned integer with the same width as T: bit patterns and wrapping arithmetic.
template <typename T>
using UnsignedOf = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

// Zigzag mapping at U's width: 0, -1, 1, -2, ... (bit patterns read as signed) to 0, 1, 2, 3, ...
template <typename U>
inline U ZigZag(U bits) {
  using S = std::make_signed_t<U>;
  return static_cast<U>(bits << 1) ^ static_cast<U>(static_cast<S>(bits) >> (sizeof(U) * 8 - 1));
}
template <typename U>
inline U UnZigZag(U z) {
  return static_cast<U>(z >> 1) ^ static_cast<U>(U{0} - (z & 1));
}

// Calls f(T{}) with T the C++ type of a fixed-width physical type. `type` must be fixed.
template <typename F>
auto VisitFixedType(PhysicalType type, F&& f) {
  switch (type) {
    case PhysicalType::kInt32:
      return f(int32_t{});
    case PhysicalType::kFloat32:
      return f(float{});
    case PhysicalType::kFloat64:
      return f(double{});
    case PhysicalType::kInt64:
    case PhysicalType::kBytes:
      break;
  }
  return f(int64_t{});
}

// Calls f(T{}) for an integer physical type (int32 or int64).
template <typename F>
auto VisitIntegerType(PhysicalType type, F&& f) {
  return type == PhysicalType::kInt32 ? f(int32_t{}) : f(int64_t{});
}

// Calls f(T{}) for a float physical type (float or double).
template <typename F>
auto VisitFloatType(PhysicalType type, F&& f) {
  return type == PhysicalType::kFloat32 ? f(float{}) : f(double{});
}

// The values of a fixed-width column as their unsigned bit patterns.
template <typename T>
const UnsignedOf<T>* BitsOf(const ColumnVector& values) {
  return reinterpret_cast<const UnsignedOf<T>*>(values.data<T>());
}

// Grows a fixed-width column by `count` zero values and returns where the new ones start, as
// unsigned bit patterns (decoders fill them in).
template <typename T>
UnsignedOf<T>* AppendFixedSlots(ColumnVector* out, size_t count) {
  const size_t start = out->size();
  out->ResizeFixed(start + count);
  return reinterpret_cast<UnsignedOf<T>*>(out->mutable_data<T>()) + start;
}

}  // namespace columnar
