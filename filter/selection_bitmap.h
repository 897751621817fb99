// SelectionBitmap: one bit per row of a row group, bit i set = row i selected. Stored as
// 64-bit words, LSB first (the layout of ColumnVector::presence()); bits at or beyond size()
// are always zero, so whole-word operations need no tail handling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace columnar {

inline size_t WordsForRows(size_t rows) { return (rows + 63) / 64; }

class SelectionBitmap {
 public:
  explicit SelectionBitmap(size_t rows = 0, bool selected = false) { Reset(rows, selected); }

  // Resizes to `rows` rows, every one set to `selected`.
  void Reset(size_t rows, bool selected);

  size_t size() const { return rows_; }
  size_t word_count() const { return words_.size(); }
  const uint64_t* words() const { return words_.data(); }
  // Writers must leave bits beyond size() zero (or call ClearTail()).
  uint64_t* mutable_words() { return words_.data(); }
  void ClearTail();

  bool Get(size_t row) const { return (words_[row >> 6] >> (row & 63)) & 1; }
  void Set(size_t row, bool selected);

  // Word-wise combination with a bitmap of the same size.
  void And(const SelectionBitmap& other);
  void Or(const SelectionBitmap& other);
  void AndNot(const SelectionBitmap& other);

  bool None() const;
  bool All() const;
  size_t Count() const;
  // The selected rows, ascending.
  std::vector<uint32_t> SelectedRows() const;

  friend bool operator==(const SelectionBitmap& a, const SelectionBitmap& b) {
    return a.rows_ == b.rows_ && a.words_ == b.words_;
  }

 private:
  size_t rows_ = 0;
  std::vector<uint64_t> words_;
};

}  // namespace columnar
