#include "table_format/byte_buffer.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace columnar {

char ByteBuffer::kNoBytes[1] = {0};

ByteBuffer& ByteBuffer::operator=(const ByteBuffer& other) {
  if (this == &other) return *this;
  size_ = 0;
  reserve(other.size_);
  if (other.size_ > 0) std::memcpy(data_, other.data_, other.size_);
  size_ = other.size_;
  return *this;
}

ByteBuffer& ByteBuffer::operator=(ByteBuffer&& other) noexcept {
  if (this == &other) return *this;
  Free();
  Take(&other);
  return *this;
}

void ByteBuffer::resize(size_t bytes) {
  if (bytes > size_) {
    if (bytes > capacity_) Grow(bytes);
    std::memset(data_ + size_, 0, bytes - size_);
  }
  size_ = bytes;
}

void ByteBuffer::append(size_t n, char c) {
  if (capacity_ - size_ < n) Grow(size_ + n);
  std::memset(data_ + size_, c, n);
  size_ += n;
}

void ByteBuffer::Grow(size_t bytes) {
  constexpr size_t kMinCapacity = 64;
  Reallocate(std::max({bytes, 2 * capacity_, kMinCapacity}));
}

void ByteBuffer::Reallocate(size_t bytes) {
  auto* grown = static_cast<char*>(std::malloc(bytes));
  if (grown == nullptr) throw std::bad_alloc();
  if (size_ > 0) std::memcpy(grown, data_, size_);
  Free();
  data_ = grown;
  capacity_ = bytes;
}

void ByteBuffer::Take(ByteBuffer* other) {
  data_ = other->data_;
  size_ = other->size_;
  capacity_ = other->capacity_;
  other->data_ = kNoBytes;
  other->size_ = 0;
  other->capacity_ = 0;
}

void ByteBuffer::Free() {
  if (capacity_ > 0) std::free(data_);
  data_ = kNoBytes;
  capacity_ = 0;
}

}  // namespace columnar
