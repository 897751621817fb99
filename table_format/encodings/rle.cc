// rle: runs of equal values. Takes every physical type; floats are compared by bit pattern,
// so -0.0 and +0.0, or NaNs with different payloads, are different values.
//
// Byte layout (n values, n from the chunk header):
//
//   runs         varint    R, the number of runs (0 only when n = 0)
//   run lengths  PackedInts<uint32> (int_packing.h) of R values: each run's length minus 1
//   run values   the plain body (plain.cc) of the R run values
//
// The run lengths must add up to n.
#include <cstring>
#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "rle";

bool Supports(PhysicalType) { return true; }

bool SameValue(const ColumnVector& values, size_t a, size_t b) {
  if (values.type() == PhysicalType::kBytes) return values.GetBytes(a) == values.GetBytes(b);
  const size_t width = FixedWidth(values.type());
  return std::memcmp(values.fixed_bytes() + a * width, values.fixed_bytes() + b * width, width) ==
         0;
}

Status Encode(const ColumnVector& values, std::string* out) {
  ColumnVector run_values(values.type());
  std::vector<uint32_t> run_lengths_minus_one;
  for (size_t i = 0; i < values.size();) {
    size_t end = i + 1;
    while (end < values.size() && SameValue(values, i, end)) end++;
    run_values.AppendFrom(values, i);
    run_lengths_minus_one.push_back(static_cast<uint32_t>(end - i - 1));
    i = end;
  }
  PutVarint64(out, run_lengths_minus_one.size());
  PackInts(run_lengths_minus_one.data(), run_lengths_minus_one.size(), out);
  return PlainCodec().encode(run_values, out);
}

template <typename T>
void ExpandFixed(const ColumnVector& run_values, const std::vector<uint32_t>& lengths, size_t count,
                 ColumnVector* out) {
  auto* dst = AppendFixedSlots<T>(out, count);
  const auto* src = BitsOf<T>(run_values);
  for (size_t r = 0; r < lengths.size(); r++) {
    const auto v = src[r];
    for (uint32_t k = 0; k < lengths[r]; k++) *dst++ = v;
  }
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  Slice in = body;
  uint64_t runs;
  if (!GetVarint64(&in, &runs)) return EncodingCorruption(kName, "truncated run count");
  if (runs > count || (runs == 0) != (count == 0)) {
    return EncodingCorruption(kName, "run count does not fit the value count");
  }
  std::vector<uint32_t> lengths(runs);
  Status s = UnpackInts(&in, runs, lengths.data(), kName);
  if (!s.ok()) return s;
  uint64_t total = 0;
  for (uint32_t& len : lengths) {
    if (len >= count) return EncodingCorruption(kName, "run longer than the value count");
    len += 1;
    total += len;
  }
  if (total != count) return EncodingCorruption(kName, "run lengths do not add up to the count");
  ColumnVector run_values(type);
  s = PlainCodec().decode(type, in, runs, &run_values);
  if (!s.ok()) return EncodingCorruption(kName, s.getState());

  if (type != PhysicalType::kBytes) {
    VisitFixedType(type,
                   [&](auto tag) { ExpandFixed<decltype(tag)>(run_values, lengths, count, out); });
    return Status::OK();
  }
  uint64_t bytes = 0;
  for (size_t r = 0; r < runs; r++) bytes += uint64_t{lengths[r]} * run_values.GetBytes(r).size();
  if (bytes > kMaxDecodedBytes) return EncodingCorruption(kName, "decoded strings too large");
  ByteStringWriter writer = out->AppendBytesWriter(count, bytes);
  // Locals only in the loop: bytes stored through char pointers could alias anything else.
  ByteStringCursor cursor = writer.cursor();
  const char* data = run_values.bytes_data().data();
  const size_t data_size = run_values.bytes_data().size();
  const uint32_t* offsets = run_values.offsets();
  for (size_t r = 0; r < runs; r++) {
    const uint32_t start = offsets[r];
    const uint32_t length = offsets[r + 1] - start;
    for (uint32_t k = 0; k < lengths[r]; k++)
      cursor.Append(data + start, length, data_size - start);
  }
  return Status::OK();
}

}  // namespace

const Codec& RleCodec() {
  static const Codec codec{Encoding::kRle, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
