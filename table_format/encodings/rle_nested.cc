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
// The run lengths must add up to n (runs.h reads and checks them).
#include <vector>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/runs.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr const char* kName = "rle_nested";

bool Supports(PhysicalType) { return true; }

Status Encode(const ColumnVector& values, std::string* out) {
  const Runs runs = SplitIntoRuns(values);
  // Fewer than two values a run: the run lengths would cost more than they save. (This also
  // ends the recursion below: consecutive run values differ, so they never qualify.)
  if (2 * runs.values.size() > values.size()) {
    return Status::InvalidArgument("rle_nested: fewer than two values a run");
  }
  std::string nested;
  Encoding nested_encoding = Encoding::kPlain;
  Status s = EncodeWithBestEncoding(Encoding::kAuto, runs.values, &nested, &nested_encoding);
  if (!s.ok()) return s;
  if (nested_encoding == Encoding::kRleNested) {
    nested.clear();
    s = EncodeValues(Encoding::kPlain, runs.values, &nested);
    nested_encoding = Encoding::kPlain;
    if (!s.ok()) return s;
  }
  PutRunLengths(runs.lengths_minus_one, out);
  out->push_back(static_cast<char>(nested_encoding));
  out->append(nested);
  return Status::OK();
}

Status Decode(PhysicalType type, const Slice& body, size_t count, ColumnVector* out) {
  Slice in = body;
  std::vector<uint32_t> lengths;
  Status s = GetRunLengths(&in, count, kName, &lengths);
  if (!s.ok()) return s;
  uint8_t nested_encoding;
  if (!GetFixed8(&in, &nested_encoding)) {
    return EncodingCorruption(kName, "truncated run value encoding");
  }
  const auto nested = static_cast<Encoding>(nested_encoding);
  if (nested == Encoding::kRleNested || nested == Encoding::kFileDictionary) {
    return EncodingCorruption(kName, "run values in a nested encoding it cannot hold");
  }
  ColumnVector run_values(type);
  s = DecodeValues(nested, type, in, lengths.size(), &run_values);
  if (!s.ok()) return EncodingCorruption(kName, ("run values: " + s.ToString()).c_str());
  return ExpandRuns(run_values, lengths, count, kName, out);
}

}  // namespace

const Codec& RleNestedCodec() {
  static const Codec codec{Encoding::kRleNested, kName, &Supports, &Encode, &Decode};
  return codec;
}

}  // namespace columnar
