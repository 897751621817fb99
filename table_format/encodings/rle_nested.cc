// rle_nested: runs of equal values whose run values get an encoding of their own, for runs of
// values that are large and distinct from run to run: a trace id repeated over the 1-5 log
// lines of one trace costs its 16 hex-packed bytes once a run, where rle stores 32 plain bytes
// and a dictionary a code on every row. Takes every physical type (floats compared by bit
// pattern, as rle does).
//
// Byte layout (n values, n from the chunk header):
//
//   runs         varint    R, the number of runs (0 only when n = 0)
//   run lengths  PackedInts<uint32> (int_packing.h) of R values: each run's length minus 1
//   u8           the run values' encoding (encoding.h): any encoding but rle_nested and
//                file_dictionary
//   run values   that encoding's body of the R run values; runs to the end of the body
//
// The run lengths must add up to n.
#include <cstring>
#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "rle_nested";

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
  // Fewer than two values a run: the run lengths would cost more than they save. (This also
  // ends the recursion below: consecutive run values differ, so they never qualify.)
  if (2 * run_values.size() > values.size()) {
    return Status::InvalidArgument("rle_nested: fewer than two values a run");
  }
  std::string nested;
  Encoding nested_encoding = Encoding::kPlain;
  Status s = EncodeWithBestEncoding(Encoding::kAuto, run_values, &nested, &nested_encoding);
  if (!s.ok()) return s;
  if (nested_encoding == Encoding::kRleNested) {
    nested.clear();
    s = EncodeValues(Encoding::kPlain, run_values, &nested);
    nested_encoding = Encoding::kPlain;
    if (!s.ok()) return s;
  }
  PutVarint64(out, run_lengths_minus_one.size());
  PackInts(run_lengths_minus_one.data(), run_lengths_minus_one.size(), out);
  out->push_back(static_cast<char>(nested_encoding));
  out->append(nested);
  return Status::OK();
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
  uint8_t nested_encoding;
  if (!GetFixed8(&in, &nested_encoding)) {
    return EncodingCorruption(kName, "truncated run value encoding");
  }
  const auto nested = static_cast<Encoding>(nested_encoding);
  if (nested == Encoding::kRleNested || nested == Encoding::kFileDictionary) {
    return EncodingCorruption(kName, "run values in a nested encoding it cannot hold");
  }
  ColumnVector run_values(type);
  s = DecodeValues(nested, type, in, runs, &run_values);
  if (!s.ok()) return EncodingCorruption(kName, ("run values: " + s.ToString()).c_str());

  if (type != PhysicalType::kBytes) {
    VisitFixedType(type,
                   [&](auto tag) { ExpandFixed<decltype(tag)>(run_values, lengths, count, out); });
    return Status::OK();
  }
  uint64_t bytes = 0;
  for (size_t r = 0; r < runs; r++) bytes += uint64_t{lengths[r]} * run_values.GetBytes(r).size();
  if (bytes > kMaxDecodedBytes) return EncodingCorruption(kName, "decoded strings too large");
  ByteStringWriter writer = out->AppendBytesWriter(count, bytes);
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

const Codec& RleNestedCodec() {
  static const Codec codec{Encoding::kRleNested, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
