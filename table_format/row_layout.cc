#include "table_format/row_layout.h"

#include <algorithm>
#include <cstring>

#include "table_format/encodings/byte_strings.h"
#include "table_format/varint.h"

namespace columnar {

uint64_t DecodedRowGroup::trailer(size_t row) const {
  return DecodeFixed64(keys_.data() + key_offsets_[row + 1] - 8);
}

void DecodedRowGroup::AssignSequence(uint64_t sequence) {
  for (size_t row = 0; row < row_count(); row++) {
    char* trailer_bytes = &keys_[key_offsets_[row + 1] - 8];
    const uint64_t type = DecodeFixed64(trailer_bytes) & 0xff;
    EncodeFixed64(trailer_bytes, (sequence << 8) | type);
  }
}

size_t DecodedRowGroup::MemoryUsage() const {
  return sizeof(*this) + keys_.capacity() + key_offsets_.capacity() * sizeof(uint32_t) +
         search_words_.capacity() * sizeof(uint64_t);
}

namespace {

// The (up to) 8 bytes of `key` from `from` on as a big-endian word, zero-padded: words
// compare as the keys' bytes do, so keys in bytewise order have non-decreasing words.
uint64_t SearchWord(const Slice& key, size_t from) {
  const size_t n = std::min<size_t>(8, key.size() - from);
  if (n == 8) {
    uint64_t word;
    std::memcpy(&word, key.data() + from, 8);
    return __builtin_bswap64(word);  // the bytes in order, as the loop below builds them
  }
  uint64_t word = 0;
  for (size_t i = 0; i < n; i++) {
    word |= uint64_t{static_cast<uint8_t>(key[from + i])} << (56 - 8 * i);
  }
  return word;
}

}  // namespace

void DecodedRowGroup::BuildSearchPrefixes() {
  const size_t rows = row_count();
  search_words_.clear();
  if (rows == 0) return;
  // The rows are in bytewise order: the prefix all of them share is the first and the last
  // row's.
  const size_t shared = SharedPrefixLength(user_key(0), user_key(rows - 1));
  shared_prefix_ = shared;
  search_words_.resize(rows);
  for (size_t row = 0; row < rows; row++) search_words_[row] = SearchWord(user_key(row), shared);
}

void DecodedRowGroup::NarrowBySearchPrefix(const Slice& user_key, size_t* begin,
                                           size_t* end) const {
  // Row 0's user key starts the keys; every row's starts with its first shared_prefix_ bytes.
  const size_t n = std::min(user_key.size(), shared_prefix_);
  const int order = n == 0 ? 0 : std::memcmp(user_key.data(), keys_.data(), n);
  if (order < 0 || (order == 0 && user_key.size() < shared_prefix_)) {
    *begin = *end = 0;  // below every row (a proper prefix of the shared bytes included)
    return;
  }
  if (order > 0) {
    *begin = *end = row_count();
    return;
  }
  const uint64_t word = SearchWord(user_key, shared_prefix_);
  const auto first = search_words_.begin();
  const auto low = std::lower_bound(first, search_words_.end(), word);
  *begin = static_cast<size_t>(low - first);
  *end = static_cast<size_t>(std::upper_bound(low, search_words_.end(), word) - first);
}

}  // namespace columnar
