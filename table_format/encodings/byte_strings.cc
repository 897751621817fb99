#include "table_format/encodings/byte_strings.h"

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {

std::vector<uint32_t> StringLengths(const ColumnVector& values) {
  std::vector<uint32_t> lengths(values.size());
  const uint32_t* offsets = values.offsets();
  for (size_t i = 0; i < values.size(); i++) lengths[i] = offsets[i + 1] - offsets[i];
  return lengths;
}

void PutByteStrings(const ColumnVector& values, std::string* out) {
  const std::vector<uint32_t> lengths = StringLengths(values);
  PackInts(lengths.data(), lengths.size(), out);
  const uint32_t* offsets = values.offsets();
  out->append(values.bytes_data().data() + offsets[0], offsets[values.size()] - offsets[0]);
}

Status GetByteStrings(Slice* in, size_t n, ColumnVector* out, const char* encoding) {
  std::vector<uint32_t> lengths(n);
  Status s = UnpackInts(in, n, lengths.data(), encoding);
  if (!s.ok()) return s;
  uint64_t total = 0;
  for (uint32_t len : lengths) total += len;
  if (total > in->size()) return EncodingCorruption(encoding, "string data truncated");
  out->AppendConcatenatedBytes(lengths.data(), n, in->data());
  in->remove_prefix(total);
  return Status::OK();
}

}  // namespace columnar
