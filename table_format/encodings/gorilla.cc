// gorilla: XOR of each float with the previous one, as a bit stream (Pelkonen et al., VLDB
// 2015; field widths as in ClickHouse's CompressionCodecGorilla). Bit exact. Takes float32 and
// float64. Serial by nature (each value depends on the last), so slow to decode: the auto
// chooser only takes it when it is clearly smaller than everything else.
//
// Byte layout (n values, n from the chunk header; nothing at all when n = 0):
//
//   first    4 or 8 bytes, the first value's little-endian bit pattern
//   stream   bits for values 1..n-1, LSB-first within each byte, the last byte padded with
//            zero bits. For each value, x = bits XOR previous bits:
//              '0'                    x = 0
//              '1' '0' <m bits>       x fits the previous window: its bits from the previous
//                                     trailing-zero count up, m = width - lead - trail of
//                                     the previous window
//              '1' '1' <lead> <len> <len bits>
//                                     a new window: `lead` leading zeros (5 bits for
//                                     float32, 6 for float64), `len` meaningful bits
//                                     (6 bits / 7 bits, 1..width), then the bits of
//                                     x >> (width - lead - len)
//            (bits are listed in stream order; multi-bit fields are written LSB first)
//   A '1' '0' value needs an earlier window. lead + len must not exceed the width.
#include <cstring>

#include "table_format/encodings/bit_stream.h"
#include "table_format/encodings/codec.h"

namespace columnar {

namespace {

constexpr const char* kName = "gorilla";

template <typename U>
struct Fields {
  static constexpr int kWidth = sizeof(U) * 8;
  static constexpr int kLeadBits = sizeof(U) == 4 ? 5 : 6;
  static constexpr int kLenBits = sizeof(U) == 4 ? 6 : 7;
};

template <typename U>
int LeadingZeros(U x) {
  return sizeof(U) == 4 ? __builtin_clz(static_cast<uint32_t>(x))
                        : __builtin_clzll(static_cast<uint64_t>(x));
}
template <typename U>
int TrailingZeros(U x) {
  return sizeof(U) == 4 ? __builtin_ctz(static_cast<uint32_t>(x))
                        : __builtin_ctzll(static_cast<uint64_t>(x));
}

template <typename T>
void EncodeTyped(const ColumnVector& values, std::string* out) {
  using U = UnsignedOf<T>;
  using F = Fields<U>;
  const size_t n = values.size();
  if (n == 0) return;
  const U* bits = BitsOf<T>(values);
  char first[sizeof(U)];
  std::memcpy(first, &bits[0], sizeof(U));
  out->append(first, sizeof(U));
  BitWriter writer(out);
  int lead = -1;  // no window yet
  int trail = 0;
  for (size_t i = 1; i < n; i++) {
    const U x = bits[i] ^ bits[i - 1];
    if (x == 0) {
      writer.Write(0, 1);
      continue;
    }
    const int new_lead = LeadingZeros(x);
    const int new_trail = TrailingZeros(x);
    if (lead >= 0 && new_lead >= lead && new_trail >= trail) {
      writer.Write(0b01, 2);  // '1' then '0'
      writer.Write(static_cast<uint64_t>(x >> trail), F::kWidth - lead - trail);
    } else {
      // The lead field holds at most 2^kLeadBits - 1 (31 for float32 covers every case).
      lead = new_lead;
      trail = new_trail;
      const int len = F::kWidth - lead - trail;
      writer.Write(0b11, 2);
      writer.Write(static_cast<uint64_t>(lead), F::kLeadBits);
      writer.Write(static_cast<uint64_t>(len), F::kLenBits);
      writer.Write(static_cast<uint64_t>(x >> trail), len);
    }
  }
  writer.Finish();
}

template <typename T>
Status DecodeTyped(const Slice& body, size_t count, ColumnVector* out) {
  using U = UnsignedOf<T>;
  using F = Fields<U>;
  if (count == 0) {
    return body.empty() ? Status::OK() : EncodingCorruption(kName, "trailing bytes");
  }
  if (body.size() < sizeof(U)) return EncodingCorruption(kName, "truncated first value");
  U* dst = AppendFixedSlots<T>(out, count);
  U prev;
  std::memcpy(&prev, body.data(), sizeof(U));
  dst[0] = prev;
  BitReader reader(Slice(body.data() + sizeof(U), body.size() - sizeof(U)));
  int lead = -1;
  int trail = 0;
  for (size_t i = 1; i < count; i++) {
    uint64_t control;
    if (!reader.Read(1, &control)) return EncodingCorruption(kName, "truncated bit stream");
    if (control != 0) {
      if (!reader.Read(1, &control)) return EncodingCorruption(kName, "truncated bit stream");
      if (control != 0) {
        uint64_t new_lead;
        uint64_t len;
        if (!reader.Read(F::kLeadBits, &new_lead) || !reader.Read(F::kLenBits, &len)) {
          return EncodingCorruption(kName, "truncated bit stream");
        }
        if (len == 0 || new_lead + len > static_cast<uint64_t>(F::kWidth)) {
          return EncodingCorruption(kName, "bad window");
        }
        lead = static_cast<int>(new_lead);
        trail = F::kWidth - lead - static_cast<int>(len);
      } else if (lead < 0) {
        return EncodingCorruption(kName, "window reused before one was set");
      }
      uint64_t meaningful;
      if (!reader.Read(F::kWidth - lead - trail, &meaningful)) {
        return EncodingCorruption(kName, "truncated bit stream");
      }
      prev ^= static_cast<U>(meaningful) << trail;
    }
    dst[i] = prev;
  }
  if (!reader.AtCleanEnd()) return EncodingCorruption(kName, "trailing bits after the values");
  return Status::OK();
}

Status Encode(const ColumnVector& values, std::string* out) {
  VisitFloatType(values.type(), [&](auto tag) { EncodeTyped<decltype(tag)>(values, out); });
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  return VisitFloatType(type,
                        [&](auto tag) { return DecodeTyped<decltype(tag)>(body, count, out); });
}

}  // namespace

const Codec& GorillaCodec() {
  static const Codec codec{Encoding::kGorilla, kName, &IsFloatType, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
