// StringColumnView: a byte-string chunk of a row group read where it lies, for point reads
// that look up one value of a sorted column (a group's key suffixes) and return a row or two.
//
// Chunks encoded plain or front_coding, without nulls and without zstd, are not decoded: their
// lengths are unpacked and checked when the view opens, a lower bound is found by comparing
// the stored bytes in place, and a value is read (plain) or assembled from the rows before it
// (front_coding) only when asked for. Decoding such a chunk
// whole cost about 13k instructions of a 128-row group's point read, more than all of the
// read's work outside the block's zstd. Other chunks (other encodings, nulls, zstd) are
// decoded whole when the view opens and served from the decoded column; so is every chunk
// opened with in_place = false (a whole group's decode, which reads every value anyway).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "table_format/column_vector.h"
#include "table_format/types.h"

namespace columnar {

class StringColumnView {
 public:
  // Opens `chunk`, a bytes chunk of a row group of `rows` rows (its value count when the
  // header is compact). The chunk's bytes must outlive the view. Corruption when the chunk
  // is malformed: every length is checked here, so the accessors below never read outside it.
  Status Open(const Slice& chunk, uint32_t rows, bool in_place = true);

  size_t size() const { return rows_; }
  // Whether some row is null (only a decoded chunk can have nulls; their values read empty).
  bool has_nulls() const { return mode_ == Mode::kDecoded && decoded_.has_nulls(); }
  // The decoded column when the chunk was decoded whole, else null.
  const ColumnVector* decoded_values() const {
    return mode_ == Mode::kDecoded ? &decoded_ : nullptr;
  }

  // The length of value `row` (< size()).
  size_t Length(size_t row) const {
    switch (mode_) {
      case Mode::kPlain:
        return offsets_[row + 1] - offsets_[row];
      case Mode::kFrontCoding:
        return prefixes_[row] + (offsets_[row + 1] - offsets_[row]);
      case Mode::kDecoded:
        break;
    }
    return decoded_.offsets()[row + 1] - decoded_.offsets()[row];
  }
  // Value `row` (< size()). Assembled in *buffer when it is not stored whole (a front-coded
  // value: from its suffix back through the rows before it), and then valid until *buffer
  // changes.
  Slice Get(size_t row, std::string* buffer) const;
  // Writes value `row` (< size()) to dst[0, Length(row)): a key assembled around it (a
  // partition before it, a trailer after) needs no buffer of its own.
  void CopyTo(size_t row, char* dst) const;
  // The first row whose value is >= `target` in bytewise order (size() when none is), for
  // values in non-decreasing bytewise order. (Values in another order give some row.)
  size_t LowerBound(const Slice& target) const;

 private:
  enum class Mode { kPlain, kFrontCoding, kDecoded };

  // The stored bytes of `row`: the whole value (plain), or its suffix (front_coding).
  Slice Stored(size_t row) const {
    return Slice(data_ + offsets_[row], offsets_[row + 1] - offsets_[row]);
  }
  size_t FrontCodingLowerBound(const Slice& target) const;

  Mode mode_ = Mode::kDecoded;
  size_t rows_ = 0;
  const char* data_ = nullptr;  // plain: the strings; front_coding: the suffixes
  // One allocation for the arrays below: offsets (rows + 1: where each row's stored bytes
  // start in data_), then for front_coding the shared-prefix lengths (rows).
  // (Not a std::vector: it would zero the arrays before they are filled.)
  uint32_t* Storage(size_t size);
  std::unique_ptr<uint32_t[]> storage_;
  size_t storage_size_ = 0;
  const uint32_t* offsets_ = nullptr;
  const uint32_t* prefixes_ = nullptr;
  ColumnVector decoded_{PhysicalType::kBytes};
};

}  // namespace columnar
