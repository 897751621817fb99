#include "table_format/encodings/runs.h"

#include <cstring>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

bool SameValue(const ColumnVector& values, size_t a, size_t b) {
  if (values.type() == PhysicalType::kBytes) return values.GetBytes(a) == values.GetBytes(b);
  const size_t width = FixedWidth(values.type());
  return std::memcmp(values.fixed_bytes() + a * width, values.fixed_bytes() + b * width, width) ==
         0;
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

Status ExpandBytes(const ColumnVector& run_values, const std::vector<uint32_t>& lengths,
                   size_t count, const char* encoding, ColumnVector* out) {
  const size_t runs = lengths.size();
  uint64_t bytes = 0;
  for (size_t r = 0; r < runs; r++) bytes += uint64_t{lengths[r]} * run_values.GetBytes(r).size();
  if (bytes > kMaxDecodedBytes) return EncodingCorruption(encoding, "decoded strings too large");
  ByteStringWriter writer = out->AppendBytesWriter(count, bytes);
  // Locals only in the loop: bytes stored through char pointers could alias anything else.
  ByteStringCursor cursor = writer.cursor();
  const char* data = run_values.bytes_data().data();
  const size_t data_size = run_values.bytes_data().size();
  const uint32_t* offsets = run_values.offsets();
  for (size_t r = 0; r < runs; r++) {
    const uint32_t start = offsets[r];
    const uint32_t length = offsets[r + 1] - start;
    for (uint32_t k = 0; k < lengths[r]; k++) {
      cursor.Append(data + start, length, data_size - start);
    }
  }
  return Status::OK();
}

}  // namespace

Runs SplitIntoRuns(const ColumnVector& values) {
  Runs runs(values.type());
  for (size_t i = 0; i < values.size();) {
    size_t end = i + 1;
    while (end < values.size() && SameValue(values, i, end)) end++;
    runs.values.AppendFrom(values, i);
    runs.lengths_minus_one.push_back(static_cast<uint32_t>(end - i - 1));
    i = end;
  }
  return runs;
}

void PutRunLengths(const std::vector<uint32_t>& lengths_minus_one, std::string* out) {
  PutVarint64(out, lengths_minus_one.size());
  PackInts(lengths_minus_one.data(), lengths_minus_one.size(), out);
}

Status GetRunLengths(Slice* in, size_t count, const char* encoding,
                     std::vector<uint32_t>* lengths) {
  uint64_t runs;
  if (!GetVarint64(in, &runs)) return EncodingCorruption(encoding, "truncated run count");
  if (runs > count || (runs == 0) != (count == 0)) {
    return EncodingCorruption(encoding, "run count does not fit the value count");
  }
  lengths->resize(runs);
  Status s = UnpackInts(in, runs, lengths->data(), encoding);
  if (!s.ok()) return s;
  uint64_t total = 0;
  for (uint32_t& length : *lengths) {
    if (length >= count) return EncodingCorruption(encoding, "run longer than the value count");
    length += 1;
    total += length;
  }
  if (total != count) {
    return EncodingCorruption(encoding, "run lengths do not add up to the count");
  }
  return Status::OK();
}

Status ExpandRuns(const ColumnVector& run_values, const std::vector<uint32_t>& lengths,
                  size_t count, const char* encoding, ColumnVector* out) {
  if (run_values.type() == PhysicalType::kBytes) {
    return ExpandBytes(run_values, lengths, count, encoding, out);
  }
  VisitFixedType(run_values.type(),
                 [&](auto tag) { ExpandFixed<decltype(tag)>(run_values, lengths, count, out); });
  return Status::OK();
}

}  // namespace columnar
