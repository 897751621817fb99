#include "table_format/encodings/byte_strings.h"

#include <algorithm>

#include "table_format/encodings/codec.h"
#include "table_format/encodings/int_packing.h"

namespace columnar {

bool StringSlots::Build(const ColumnVector& strings) {
  const size_t n = strings.size();
  if (n > kMaxStrings) return false;
  const uint32_t* offsets = strings.offsets();
  uint32_t longest = 0;
  for (size_t k = 0; k < n; k++) longest = std::max(longest, offsets[k + 1] - offsets[k]);
  if (longest > kSlot) return false;
  count_ = n;
  storage_.assign(n + n * kSlot, 0);
  char* slots = storage_.data() + n;
  for (size_t k = 0; k < n; k++) {
    const uint32_t length = offsets[k + 1] - offsets[k];
    storage_[k] = static_cast<char>(length);
    ByteStringCursor::CopyBytes(slots + k * kSlot, strings.bytes_data().data() + offsets[k],
                                length);
  }
  return true;
}

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

Status GetByteStringLengths(Slice* in, size_t n, uint32_t* lengths, uint64_t* total,
                            const char* encoding) {
  Status s = UnpackInts(in, n, lengths, encoding);
  if (!s.ok()) return s;
  uint64_t sum = 0;
  for (size_t i = 0; i < n; i++) sum += lengths[i];
  if (sum > in->size()) return EncodingCorruption(encoding, "string data truncated");
  *total = sum;
  return Status::OK();
}

Status GetByteStrings(Slice* in, size_t n, ColumnVector* out, const char* encoding) {
  std::vector<uint32_t> lengths(n);
  uint64_t total = 0;
  Status s = GetByteStringLengths(in, n, lengths.data(), &total, encoding);
  if (!s.ok()) return s;
  out->AppendConcatenatedBytes(lengths.data(), n, in->data());
  in->remove_prefix(total);
  return Status::OK();
}

Status GetByteStringRange(Slice* in, size_t n, size_t begin, size_t end, ColumnVector* out,
                          const char* encoding) {
  std::vector<uint32_t> lengths(n);
  uint64_t total = 0;
  Status s = GetByteStringLengths(in, n, lengths.data(), &total, encoding);
  if (!s.ok()) return s;
  if (total != in->size()) return EncodingCorruption(encoding, "trailing bytes after the values");
  uint64_t range_start = 0;
  for (size_t i = 0; i < begin; i++) range_start += lengths[i];
  const char* data = in->data() + range_start;
  for (size_t i = begin; i < end; i++) {
    out->AppendBytes(Slice(data, lengths[i]));
    data += lengths[i];
  }
  in->remove_prefix(total);
  return Status::OK();
}

}  // namespace columnar
