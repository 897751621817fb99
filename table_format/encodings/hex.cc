// hex: strings made only of lower-case hex digits [0-9a-f], of even length (request ids,
// trace ids, hashes), stored two digits per byte: a 32-digit id costs 16 bytes. Takes bytes;
// any other string makes EncodeValues fail with InvalidArgument (the auto chooser skips hex
// for such columns).
//
// Byte layout (n values, n from the chunk header):
//
//   half lengths   PackedInts<uint32> (int_packing.h) of the n string lengths divided by 2
//   digits         for each string, its digits in pairs, one byte per pair, the first
//                  digit in the high nibble
#include <cstring>
#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/hex_digits.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {

namespace {

constexpr const char* kName = "hex";

bool Supports(PhysicalType type) { return type == PhysicalType::kBytes; }

Status Encode(const ColumnVector& values, std::string* out) {
  const size_t n = values.size();
  std::vector<uint32_t> half_lengths(n);
  const uint32_t* offsets = values.offsets();
  uint32_t odd = 0;
  for (size_t i = 0; i < n; i++) {
    const uint32_t length = offsets[i + 1] - offsets[i];
    odd |= length;
    half_lengths[i] = length / 2;
  }
  // The strings are concatenated: with every length even, checking all their bytes at once
  // checks each string.
  const Slice digits = values.bytes_data();
  if ((odd & 1) != 0 || !AllLowerHexDigits(digits.data(), digits.size())) {
    return Status::InvalidArgument("hex: values are not even-length lower-case hex strings");
  }
  PackInts(half_lengths.data(), n, out);
  const size_t data_bytes = digits.size() / 2;
  const size_t at = out->size();
  out->resize(at + data_bytes);
  char* dst = &(*out)[at];
  size_t i = 0;
  for (; 2 * i + 8 <= digits.size(); i += 4) {
    uint64_t word;
    std::memcpy(&word, digits.data() + 2 * i, 8);
    const uint32_t packed = PackHexDigits(word);
    std::memcpy(dst + i, &packed, 4);
  }
  for (; i < data_bytes; i++) {
    dst[i] = static_cast<char>(HexDigitValue(static_cast<uint8_t>(digits[2 * i])) << 4 |
                               HexDigitValue(static_cast<uint8_t>(digits[2 * i + 1])));
  }
  return Status::OK();
}

Status Decode(PhysicalType, const Slice& body, size_t count, ColumnVector* out) {
  Slice in = body;
  std::vector<uint32_t> half_lengths(count);
  Status s = UnpackInts(&in, count, half_lengths.data(), kName);
  if (!s.ok()) return s;
  uint64_t total = 0;
  for (uint32_t h : half_lengths) total += h;
  if (total != in.size()) return EncodingCorruption(kName, "lengths do not match the body");
  if (2 * total > kMaxDecodedBytes) return EncodingCorruption(kName, "strings too large");
  // The strings are the body's bytes as digit pairs, so all of them are written in one pass.
  ByteStringWriter writer = out->AppendBytesWriter(count, 2 * total);
  ByteStringCursor cursor = writer.cursor();
  char* digits = cursor.dst;
  for (size_t i = 0; i < count; i++) cursor.Next(2 * size_t{half_lengths[i]});
  const uint16_t* pairs = kHexDigitPairs.data();
  const auto* packed = reinterpret_cast<const uint8_t*>(in.data());
  for (uint64_t k = 0; k < total; k++) std::memcpy(digits + 2 * k, &pairs[packed[k]], 2);
  return Status::OK();
}

}  // namespace

const Codec& HexCodec() {
  static const Codec codec{Encoding::kHex, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
