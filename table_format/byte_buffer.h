// ByteBuffer: the growable byte array behind a byte-string column's data (ColumnVector).
//
// A column's strings are appended one value at a time while rows are split into columns (a
// flush or a compaction parses every cell of every row so): std::string's append is an
// out-of-line call that copies through memcpy, a fifth of splitting a devops row. Here an
// append that fits copies a short value inline. Growth copies only the bytes held; resize
// zero-fills what it adds, as std::string's does, and GrowUninitialized does not (for
// decoders that write every byte they add). Holds no terminating NUL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace columnar {

class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer& other) { *this = other; }
  ByteBuffer& operator=(const ByteBuffer& other);
  ByteBuffer(ByteBuffer&& other) noexcept { Take(&other); }
  ByteBuffer& operator=(ByteBuffer&& other) noexcept;
  ~ByteBuffer() { Free(); }

  // Never null: an empty buffer points at a shared empty array.
  const char* data() const { return data_; }
  char* data() { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  char& operator[](size_t i) { return data_[i]; }
  const char& operator[](size_t i) const { return data_[i]; }

  void clear() { size_ = 0; }
  void reserve(size_t bytes) {
    if (bytes > capacity_) Reallocate(bytes);
  }
  // Grows (new bytes zero) or shrinks to `bytes`. Growth past the capacity is geometric, as
  // appends' (decoders resize a column once per chunk they append).
  void resize(size_t bytes);
  // Grows to `bytes` (>= size()) leaving the new bytes unwritten: the caller writes all of them
  // (zero-filling a decoded chunk's strings just before they are written over was a fortieth
  // of a copying compaction).
  void GrowUninitialized(size_t bytes) {
    if (bytes > capacity_) Grow(bytes);
    size_ = bytes;
  }
  void append(const char* bytes, size_t n) {
    if (capacity_ - size_ < n) Grow(size_ + n);
    CopyShortOrLong(data_ + size_, bytes, n);
    size_ += n;
  }
  void append(size_t n, char c);

 private:
  // Copies n bytes, those of a short value as its first and last words (overlapping, never
  // outside [src, src + n)), longer ones through memcpy.
  static void CopyShortOrLong(char* dst, const char* src, size_t n) {
    const auto copy_ends = [&](auto word) {
      constexpr size_t kWord = sizeof(word);
      decltype(word) head;
      decltype(word) tail;
      std::memcpy(&head, src, kWord);
      std::memcpy(&tail, src + n - kWord, kWord);
      std::memcpy(dst, &head, kWord);
      std::memcpy(dst + n - kWord, &tail, kWord);
    };
    if (n > 16) {
      std::memcpy(dst, src, n);
    } else if (n >= 8) {
      copy_ends(uint64_t{0});
    } else if (n >= 4) {
      copy_ends(uint32_t{0});
    } else if (n > 0) {
      dst[0] = src[0];
      dst[n / 2] = src[n / 2];
      dst[n - 1] = src[n - 1];
    }
  }
  // Room for at least `bytes`, growing geometrically (appends one value at a time).
  void Grow(size_t bytes);
  // Exactly `bytes` of capacity (>= size_), the contents kept.
  void Reallocate(size_t bytes);
  void Take(ByteBuffer* other);
  void Free();

  static char kNoBytes[1];
  char* data_ = kNoBytes;
  size_t size_ = 0;
  size_t capacity_ = 0;  // 0: data_ is kNoBytes, owned by no one
};

}  // namespace columnar
