// BufferedEntries: the entries a ColumnarTableBuilder holds until they are written as row
// groups.

#pragma once

#include <rocksdb/slice.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace columnar {

// Entries in the order they were added, their keys and values in one string. Written rows are
// dropped from the front; the bytes and entries that stay are moved down only once the dropped
// ones outweigh them and `min_moved_bytes`. (Moving what stayed at every drop was 96 M of the
// 12.6 G instructions of an access16 load's flushes and compactions: a compaction holding rows
// for copies writes half of them at a time, and the other half, about 1 MiB, moved each time.)
class BufferedEntries {
 public:
  static constexpr size_t kMinMovedBytes = size_t{4} << 20;

  explicit BufferedEntries(size_t min_moved_bytes = kMinMovedBytes)
      : min_moved_bytes_(min_moved_bytes) {}

  struct Entry {
    uint32_t key_offset;  // in the buffer's bytes (read them through Key, Value, BytesBetween)
    uint32_t key_size;
    uint32_t value_offset;
    uint32_t value_size;
    uint64_t sequence;
    uint8_t value_type;
  };

  size_t size() const { return entries_.size() - first_; }
  bool empty() const { return size() == 0; }
  const Entry& operator[](size_t i) const { return entries_[first_ + i]; }
  const Entry& back() const { return entries_.back(); }
  // Bytes of the keys and values held.
  size_t bytes() const { return bytes_.size() - dropped_bytes_; }
  // Bytes of the keys and values of entries [first, end).
  size_t BytesBetween(size_t first, size_t end) const {
    const size_t end_offset = end < size() ? (*this)[end].key_offset : bytes_.size();
    return end_offset - (*this)[first].key_offset;
  }

  rocksdb::Slice Key(const Entry& entry) const {
    return rocksdb::Slice(bytes_.data() + entry.key_offset, entry.key_size);
  }
  rocksdb::Slice Value(const Entry& entry) const {
    return rocksdb::Slice(bytes_.data() + entry.value_offset, entry.value_size);
  }

  // False, adding nothing, when the held bytes would pass 4 GiB.
  bool Append(const rocksdb::Slice& key, const rocksdb::Slice& value, uint64_t sequence,
              uint8_t value_type) {
    if (bytes() + key.size() + value.size() > UINT32_MAX) return false;
    if (bytes_.size() + key.size() + value.size() > UINT32_MAX) MoveDown();
    Entry entry;
    entry.key_offset = static_cast<uint32_t>(bytes_.size());
    entry.key_size = static_cast<uint32_t>(key.size());
    bytes_.append(key.data(), key.size());
    entry.value_offset = static_cast<uint32_t>(bytes_.size());
    entry.value_size = static_cast<uint32_t>(value.size());
    bytes_.append(value.data(), value.size());
    entry.sequence = sequence;
    entry.value_type = value_type;
    entries_.push_back(entry);
    return true;
  }

  // Drops the first `count` entries (all of them when count >= size()).
  void DropFront(size_t count) {
    if (count >= size()) {
      Clear();
      return;
    }
    first_ += count;
    dropped_bytes_ = (*this)[0].key_offset;
    if (dropped_bytes_ >= std::max(bytes(), min_moved_bytes_)) MoveDown();
  }

  void Clear() {
    entries_.clear();
    bytes_.clear();
    first_ = 0;
    dropped_bytes_ = 0;
  }

 private:
  void MoveDown() {
    bytes_.erase(0, dropped_bytes_);
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(first_));
    for (Entry& entry : entries_) {
      entry.key_offset -= static_cast<uint32_t>(dropped_bytes_);
      entry.value_offset -= static_cast<uint32_t>(dropped_bytes_);
    }
    first_ = 0;
    dropped_bytes_ = 0;
  }

  size_t min_moved_bytes_;
  std::string bytes_;
  std::vector<Entry> entries_;
  size_t first_ = 0;          // entries_[0, first_) are dropped
  size_t dropped_bytes_ = 0;  // bytes_[0, dropped_bytes_) are theirs
};

}  // namespace columnar
