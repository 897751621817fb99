#include "filter/selection_bitmap.h"

namespace columnar {

void SelectionBitmap::Reset(size_t rows, bool selected) {
  rows_ = rows;
  words_.assign(WordsForRows(rows), selected ? ~uint64_t{0} : 0);
  ClearTail();
}

void SelectionBitmap::ClearTail() {
  if (rows_ % 64 != 0) words_.back() &= (uint64_t{1} << (rows_ % 64)) - 1;
}

void SelectionBitmap::Set(size_t row, bool selected) {
  const uint64_t bit = uint64_t{1} << (row & 63);
  if (selected) {
    words_[row >> 6] |= bit;
  } else {
    words_[row >> 6] &= ~bit;
  }
}

void SelectionBitmap::And(const SelectionBitmap& other) {
  for (size_t w = 0; w < words_.size(); w++) words_[w] &= other.words_[w];
}

void SelectionBitmap::Or(const SelectionBitmap& other) {
  for (size_t w = 0; w < words_.size(); w++) words_[w] |= other.words_[w];
}

void SelectionBitmap::AndNot(const SelectionBitmap& other) {
  for (size_t w = 0; w < words_.size(); w++) words_[w] &= ~other.words_[w];
}

bool SelectionBitmap::None() const {
  for (uint64_t word : words_) {
    if (word != 0) return false;
  }
  return true;
}

bool SelectionBitmap::All() const { return Count() == rows_; }

size_t SelectionBitmap::Count() const {
  size_t count = 0;
  for (uint64_t word : words_) count += static_cast<size_t>(__builtin_popcountll(word));
  return count;
}

std::vector<uint32_t> SelectionBitmap::SelectedRows() const {
  std::vector<uint32_t> rows;
  rows.reserve(Count());
  for (size_t w = 0; w < words_.size(); w++) {
    for (uint64_t word = words_[w]; word != 0; word &= word - 1) {
      rows.push_back(static_cast<uint32_t>(w * 64 + __builtin_ctzll(word)));
    }
  }
  return rows;
}

}  // namespace columnar
