// IntegerIds: dense ids (0, 1, 2, ... in first-seen order) of distinct int64 values, for the
// file Huffman tables' symbol lookups and counts (file_huffman.h). Their values are mostly
// small and non-negative (file-dictionary codes, HTTP statuses): those are looked up in a
// direct array, without hashing or probing; the rest in a KeyIndex. Holds at most kMaxIds
// values (the tables count at most 4,096), so that the direct array takes two bytes a value.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "table_format/encodings/key_index.h"

namespace columnar {

class IntegerIds {
 public:
  static constexpr uint32_t kNone = KeyIndex::kEmpty;
  // Values below this are in the direct array (at most 128 KiB).
  static constexpr uint64_t kDirectLimit = uint64_t{1} << 16;
  static constexpr size_t kMaxIds = UINT16_MAX - 1;

  // The id of `value`, or kNone.
  uint32_t Find(int64_t value) const {
    const auto v = static_cast<uint64_t>(value);
    if (v < direct_.size()) return direct_[v] == 0 ? kNone : direct_[v] - 1u;
    if (v < kDirectLimit) return kNone;
    const uint32_t other = others_.Find(v, SameKey);
    return other == KeyIndex::kEmpty ? kNone : other_ids_[other];
  }

  // The id of `value`; a new one (== size() before the call, *added = true) if it has none;
  // kNone (*added false) when it has none and kMaxIds values are held.
  uint32_t FindOrAdd(int64_t value, bool* added) {
    const auto v = static_cast<uint64_t>(value);
    if (v < direct_.size() && direct_[v] != 0) {  // the common case, inline
      *added = false;
      return direct_[v] - 1u;
    }
    return Add(value, added);
  }

  size_t size() const { return size_; }

 private:
  // FindOrAdd of a value not in the direct array.
  uint32_t Add(int64_t value, bool* added) {
    if (size_ >= kMaxIds) {
      *added = false;
      return Find(value);
    }
    const auto v = static_cast<uint64_t>(value);
    if (v >= kDirectLimit) {
      const uint32_t other = others_.FindOrAdd(v, SameKey, added);
      if (*added) other_ids_.push_back(static_cast<uint32_t>(size_++));
      return other_ids_[other];
    }
    if (v >= direct_.size()) {
      size_t grown = std::max<size_t>(64, direct_.size());
      while (grown <= v) grown *= 2;
      direct_.resize(grown, 0);
    }
    *added = true;
    direct_[v] = static_cast<uint16_t>(++size_);
    return direct_[v] - 1u;
  }

  // The KeyIndex key of a value is the value itself: equal hashes are equal values.
  static bool SameKey(uint32_t /*id*/) { return true; }

  std::vector<uint16_t> direct_;  // id + 1 by value; 0 = absent
  KeyIndex others_;  // the values at kDirectLimit or above (or negative), in their own order
  std::vector<uint32_t> other_ids_;  // id by others_'s order
  size_t size_ = 0;
};

}  // namespace columnar
