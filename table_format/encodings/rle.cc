// rle: runs of equal values. Takes every physical type; floats are compared by bit pattern,
// so -0.0 and +0.0, or NaNs with different payloads, are different values.
//
// Byte layout (n values, n from the chunk header):
//
//   runs         varint    R, the number of runs (0 only when n = 0)
//   run lengths  PackedInts<uint32> (int_packing.h) of R values: each run's length minus 1
//   run values   the plain body (plain.cc) of the R run values
//
// The run lengths must add up to n (runs.h reads and checks them).
#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/runs.h"

namespace columnar {

namespace {

constexpr const char* kName = "rle";

bool Supports(PhysicalType) { return true; }

Status Encode(const ColumnVector& values, std::string* out) {
  const Runs runs = SplitIntoRuns(values);
  PutRunLengths(runs.lengths_minus_one, out);
  return PlainCodec().encode(runs.values, out);
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  Slice in = body;
  std::vector<uint32_t> lengths;
  Status s = GetRunLengths(&in, count, kName, &lengths);
  if (!s.ok()) return s;
  ColumnVector run_values(type);
  s = PlainCodec().decode(type, in, lengths.size(), &run_values);
  if (!s.ok()) return EncodingCorruption(kName, s.getState());
  return ExpandRuns(run_values, lengths, count, kName, out);
}

}  // namespace

const Codec& RleCodec() {
  static const Codec codec{Encoding::kRle, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
