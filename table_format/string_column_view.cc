#include "table_format/string_column_view.h"

#include <algorithm>
#include <cstring>

#include "table_format/chunk.h"
#include "table_format/encodings/byte_strings.h"
#include "table_format/encodings/codec.h"
#include "table_format/encodings/front_coding.h"

namespace columnar {

uint32_t* StringColumnView::Storage(size_t size) {
  if (size > storage_size_) {
    storage_.reset(new uint32_t[size]);
    storage_size_ = size;
  }
  return storage_.get();
}

Status StringColumnView::Open(const Slice& chunk, uint32_t rows, bool in_place) {
  ChunkHeader header;
  Status s = ParseChunkHeader(chunk, &header, rows);
  if (!s.ok()) return s;
  rows_ = header.value_count;
  const bool readable_in_place =
      in_place && !header.has_nulls && !header.compressed && !header.has_checksum &&
      (header.encoding == Encoding::kPlain || header.encoding == Encoding::kFrontCoding);
  if (!readable_in_place) {
    // Chunks of a row group are covered by their block's checksum.
    mode_ = Mode::kDecoded;
    ChunkReadOptions options;
    options.verify_checksum = false;
    options.expected_values = rows;
    Slice input = chunk;
    return ReadChunk(&input, PhysicalType::kBytes, &decoded_, options);
  }
  Slice body(chunk.data() + header.header_size, header.stored_length);
  const size_t n = rows_;
  if (header.encoding == Encoding::kPlain) {
    mode_ = Mode::kPlain;
    uint32_t* offsets = Storage(n + 1);
    uint64_t total = 0;
    // Lengths into offsets[1..n], then summed in place.
    s = GetByteStringLengths(&body, n, offsets + 1, &total, "plain");
    if (!s.ok()) return s;
    if (total != body.size()) {
      return EncodingCorruption("plain", "trailing bytes after the values");
    }
    offsets[0] = 0;
    for (size_t i = 0; i < n; i++) offsets[i + 1] += offsets[i];
    offsets_ = offsets;
    prefixes_ = nullptr;
    data_ = body.data();
    return Status::OK();
  }
  mode_ = Mode::kFrontCoding;
  uint32_t* offsets = Storage(2 * n + 1);
  uint32_t* prefixes = offsets + n + 1;
  uint64_t total = 0;
  // Suffix ends into offsets[1..n]: offsets[i] is where suffix i starts.
  s = UnpackFrontCodingLengths(&body, n, prefixes, offsets + 1, &total);
  if (!s.ok()) return s;
  offsets[0] = 0;
  offsets_ = offsets;
  prefixes_ = prefixes;
  data_ = body.data();
  return Status::OK();
}

Slice StringColumnView::Get(size_t row, std::string* buffer) const {
  switch (mode_) {
    case Mode::kPlain:
      return Stored(row);
    case Mode::kFrontCoding:
      if (prefixes_[row] == 0) return Stored(row);
      buffer->resize(Length(row));
      CopyTo(row, &(*buffer)[0]);
      return Slice(*buffer);
    case Mode::kDecoded:
      break;
  }
  return decoded_.GetBytes(row);
}

void StringColumnView::CopyTo(size_t row, char* dst) const {
  if (mode_ != Mode::kFrontCoding) {
    const Slice value = mode_ == Mode::kPlain ? Stored(row) : decoded_.GetBytes(row);
    if (!value.empty()) std::memcpy(dst, value.data(), value.size());
    return;
  }
  // Filled from its end back: its suffix, then the bytes before `needed` from the nearest
  // earlier row whose suffix starts before them, until a row stored whole. (Walking forward
  // instead rewrote the value once per row in between.)
  size_t needed = prefixes_[row];
  const Slice suffix = Stored(row);
  if (!suffix.empty()) std::memcpy(dst + needed, suffix.data(), suffix.size());
  for (size_t r = row; needed > 0;) {
    const size_t prefix = prefixes_[--r];
    if (prefix >= needed) continue;
    std::memcpy(dst + prefix, data_ + offsets_[r], needed - prefix);
    needed = prefix;
  }
}

size_t StringColumnView::LowerBound(const Slice& target) const {
  if (mode_ == Mode::kFrontCoding) return FrontCodingLowerBound(target);
  size_t lo = 0;
  size_t hi = rows_;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const Slice value = mode_ == Mode::kPlain ? Stored(mid) : decoded_.GetBytes(mid);
    if (value.compare(target) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

size_t StringColumnView::FrontCodingLowerBound(const Slice& target) const {
  // Each row against target without assembling it, in order. Invariant: the previous row is
  // below target and shares `matched` bytes with it (before row 0: an empty row, 0 bytes).
  // A row sharing more than `matched` bytes with the previous one then has the previous
  // row's smaller byte at `matched` (the previous row is no proper prefix of target: a row
  // shares at most the previous row's length), so it is below target too: most rows cost a
  // comparison of two lengths. A row sharing p <= matched bytes equals target in its first
  // p bytes, and its suffix decides, mostly by its first byte.
  // (A binary search would need rows assembled: every row stored whole is rare in keys
  // that share leading bytes, as most keys do.)
  const char* t = target.data();
  const size_t t_size = target.size();
  size_t matched = 0;
  for (size_t row = 0; row < rows_; row++) {
    const size_t p = prefixes_[row];
    if (p > matched) continue;
    const char* suffix = data_ + offsets_[row];
    const size_t suffix_size = offsets_[row + 1] - offsets_[row];
    if (p == t_size) return row;  // target is a prefix of the row: not below it
    if (suffix_size > 0 && suffix[0] != t[p]) {
      if (static_cast<uint8_t>(suffix[0]) > static_cast<uint8_t>(t[p])) return row;
      matched = p;
      continue;
    }
    const size_t common = SharedPrefixLength(Slice(suffix, suffix_size), Slice(t + p, t_size - p));
    if (p + common == t_size) return row;
    const bool row_above = common != suffix_size && static_cast<uint8_t>(suffix[common]) >
                                                        static_cast<uint8_t>(t[p + common]);
    if (row_above) return row;
    matched = p + common;
  }
  return rows_;
}

}  // namespace columnar
