#include "table_format/column_vector.h"

#include <algorithm>
#include <cstdlib>
#include <new>

namespace columnar {

const char* PhysicalTypeName(PhysicalType type) {
  switch (type) {
    case PhysicalType::kInt32:
      return "int32";
    case PhysicalType::kInt64:
      return "int64";
    case PhysicalType::kFloat32:
      return "float32";
    case PhysicalType::kFloat64:
      return "float64";
    case PhysicalType::kBytes:
      return "bytes";
  }
  return "unknown";
}

namespace {
constexpr size_t kAlignment = 64;
}  // namespace

// No column allocates until it holds values (columns are built, moved and dropped for every
// chunk and row group; byte strings get their first offset with their first string).
ColumnVector::ColumnVector(PhysicalType type) : type_(type) {}

ColumnVector::~ColumnVector() { FreeFixed(); }

ColumnVector::ColumnVector(const ColumnVector& other) : type_(other.type_) { *this = other; }

ColumnVector& ColumnVector::operator=(const ColumnVector& other) {
  if (this == &other) return *this;
  Reset(other.type_);
  const size_t width = FixedWidth(type_);
  if (width > 0) {
    EnsureFixedCapacity(other.size_);
    if (other.size_ > 0) std::memcpy(fixed_, other.fixed_, other.size_ * width);
  }
  size_ = other.size_;
  offsets_ = other.offsets_;
  bytes_ = other.bytes_;
  presence_ = other.presence_;
  null_count_ = other.null_count_;
  return *this;
}

ColumnVector::ColumnVector(ColumnVector&& other) noexcept
    : type_(other.type_),
      size_(other.size_),
      fixed_(other.fixed_),
      fixed_capacity_(other.fixed_capacity_),
      offsets_(std::move(other.offsets_)),
      bytes_(std::move(other.bytes_)),
      presence_(std::move(other.presence_)),
      null_count_(other.null_count_) {
  other.fixed_ = nullptr;
  other.fixed_capacity_ = 0;
  other.size_ = 0;
  other.null_count_ = 0;
  other.ResetOffsets();
}

ColumnVector& ColumnVector::operator=(ColumnVector&& other) noexcept {
  if (this == &other) return *this;
  FreeFixed();
  type_ = other.type_;
  size_ = other.size_;
  fixed_ = other.fixed_;
  fixed_capacity_ = other.fixed_capacity_;
  offsets_ = std::move(other.offsets_);
  bytes_ = std::move(other.bytes_);
  presence_ = std::move(other.presence_);
  null_count_ = other.null_count_;
  other.fixed_ = nullptr;
  other.fixed_capacity_ = 0;
  other.size_ = 0;
  other.null_count_ = 0;
  other.ResetOffsets();
  return *this;
}

void ColumnVector::ResetOffsets() { offsets_.clear(); }

void ColumnVector::StartOffsets() {
  constexpr size_t kFirstOffsets = 8;
  if (offsets_.capacity() == 0) offsets_.reserve(kFirstOffsets);  // (Reserve's room is kept)
  offsets_.push_back(0);
}

void ColumnVector::FreeFixed() {
  std::free(fixed_);
  fixed_ = nullptr;
  fixed_capacity_ = 0;
}

void ColumnVector::Reset(PhysicalType type) {
  if (type != type_ && FixedWidth(type) != FixedWidth(type_)) {
    // Capacity is counted in rows of the old width; start over.
    FreeFixed();
  }
  type_ = type;
  size_ = 0;
  ResetOffsets();
  bytes_.clear();
  presence_.clear();
  null_count_ = 0;
}

void ColumnVector::Reserve(size_t rows) {
  if (FixedWidth(type_) > 0) {
    EnsureFixedCapacity(rows);
  } else {
    offsets_.reserve(rows + 1);
  }
}

void ColumnVector::GrowFixed(size_t rows) {
  const size_t width = FixedWidth(type_);
  assert(width > 0);
  size_t capacity = std::max<size_t>({rows, fixed_capacity_ * 2, 16});
  // Round the allocation up so SIMD kernels may touch a whole last vector.
  size_t bytes = (capacity * width + kAlignment - 1) / kAlignment * kAlignment;
  void* p = std::aligned_alloc(kAlignment, bytes);
  if (p == nullptr) throw std::bad_alloc();
  if (size_ > 0) std::memcpy(p, fixed_, size_ * width);
  std::free(fixed_);
  fixed_ = static_cast<char*>(p);
  fixed_capacity_ = bytes / width;
}

void ColumnVector::ResizeFixed(size_t n) {
  const size_t width = FixedWidth(type_);
  assert(width > 0);
  EnsureFixedCapacity(n);
  if (n > size_) std::memset(fixed_ + size_ * width, 0, (n - size_) * width);
  if (!presence_.empty()) {
    presence_.resize((n + 63) / 64, 0);
    for (size_t i = size_; i < n; i++) presence_[i >> 6] |= uint64_t{1} << (i & 63);
    // Recount nulls when shrinking.
    if (n < size_) {
      if (n % 64 != 0) presence_.back() &= (uint64_t{1} << (n % 64)) - 1;
      null_count_ = 0;
      for (size_t i = 0; i < n; i++) null_count_ += IsNull(i) ? 1 : 0;
    }
  }
  size_ = n;
}

ByteStringWriter::~ByteStringWriter() {
  if (column_ != nullptr) column_->bytes_.resize(cursor_.limit);
}

ByteStringWriter ColumnVector::AppendBytesWriter(size_t n, size_t total_bytes) {
  assert(type_ == PhysicalType::kBytes);
  const size_t start = bytes_.size();
  bytes_.GrowUninitialized(start + total_bytes + ByteStringCursor::kBlock);
  return WriterOver(start, n, total_bytes);
}

ByteStringWriter ColumnVector::WriterOver(size_t start, size_t n, size_t total_bytes) {
  assert(start + total_bytes <= UINT32_MAX);
  offsets_.resize(size_ + 1 + n);  // (an empty column's first offset, 0, comes with it)
  uint32_t* offsets = offsets_.data() + size_ + 1;
  const size_t first_new = size_;
  size_ += n;
  MarkAppendedPresent(first_new);
  const ByteStringCursor cursor{&bytes_[start], offsets, static_cast<uint32_t>(start),
                                static_cast<uint32_t>(start + total_bytes)};
  return ByteStringWriter(this, cursor);
}

void ColumnVector::AppendConcatenatedBytes(const uint32_t* lengths, size_t n, const char* data) {
  uint64_t total = 0;
  for (size_t i = 0; i < n; i++) total += lengths[i];
  // One append of the bytes: AppendBytesWriter's resize would zero-fill them before the copy
  // (a tenth of decoding a group of 100-byte values).
  const size_t start = bytes_.size();
  const size_t needed = start + total + ByteStringCursor::kBlock;
  // Room for the spare block too (its own append would reallocate and copy the bytes again),
  // growing geometrically as appends do.
  if (bytes_.capacity() < needed) bytes_.reserve(std::max(needed, 2 * bytes_.capacity()));
  bytes_.append(data, total);
  bytes_.append(ByteStringCursor::kBlock, '\0');
  ByteStringWriter writer = WriterOver(start, n, total);
  ByteStringCursor cursor = writer.cursor();
  for (size_t i = 0; i < n; i++) cursor.Next(lengths[i]);
}

void ColumnVector::MarkAppendedPresent(size_t first) {
  if (presence_.empty()) return;  // no bitmap: every row is present
  presence_.resize((size_ + 63) / 64, 0);
  for (size_t i = first; i < size_; i++) presence_[i >> 6] |= uint64_t{1} << (i & 63);
}

void ColumnVector::GrowPresence(bool present) {
  // Called after size_ was incremented: the new row is size_ - 1.
  const size_t row = size_ - 1;
  if (presence_.size() * 64 < size_) presence_.push_back(0);
  if (present) presence_[row >> 6] |= uint64_t{1} << (row & 63);
}

void ColumnVector::AppendNull() {
  if (presence_.empty()) {
    // First null: materialise the bitmap with every earlier row present.
    presence_.assign((size_ + 1 + 63) / 64, 0);
    for (size_t i = 0; i < size_; i++) presence_[i >> 6] |= uint64_t{1} << (i & 63);
  }
  if (type_ == PhysicalType::kBytes) {
    if (offsets_.empty()) StartOffsets();
    offsets_.push_back(static_cast<uint32_t>(bytes_.size()));
  } else {
    EnsureFixedCapacity(size_ + 1);
    std::memset(fixed_ + size_ * FixedWidth(type_), 0, FixedWidth(type_));
  }
  ++size_;
  GrowPresence(false);
  ++null_count_;
}

void ColumnVector::PopBack() {
  assert(size_ > 0);
  --size_;
  if (!presence_.empty()) {
    // The bitmap holds a word per 64 rows and no bit past the last row.
    uint64_t& word = presence_[size_ >> 6];
    const uint64_t bit = uint64_t{1} << (size_ & 63);
    if ((word & bit) == 0) {
      --null_count_;
    } else {
      word &= ~bit;
    }
    if (presence_.size() * 64 >= size_ + 64) presence_.pop_back();
  }
  if (type_ == PhysicalType::kBytes) {
    offsets_.pop_back();
    bytes_.resize(offsets_.back());
  }
}

void ColumnVector::AppendNulls(size_t n) {
  if (n == 0) return;
  const size_t end = size_ + n;
  if (presence_.empty()) {
    // First null: materialise the bitmap with every earlier row present.
    presence_.assign((end + 63) / 64, 0);
    for (size_t i = 0; i < size_; i++) presence_[i >> 6] |= uint64_t{1} << (i & 63);
  } else {
    presence_.resize((end + 63) / 64, 0);
    for (size_t i = size_; i < end; i++) presence_[i >> 6] &= ~(uint64_t{1} << (i & 63));
  }
  if (type_ == PhysicalType::kBytes) {
    if (offsets_.empty()) StartOffsets();
    offsets_.insert(offsets_.end(), n, static_cast<uint32_t>(bytes_.size()));
  } else {
    EnsureFixedCapacity(end);
    std::memset(fixed_ + size_ * FixedWidth(type_), 0, n * FixedWidth(type_));
  }
  size_ = end;
  null_count_ += n;
}

void ColumnVector::SetNull(size_t i) {
  assert(i < size_);
  if (IsNull(i)) return;
  if (presence_.empty()) {
    presence_.assign((size_ + 63) / 64, 0);
    for (size_t r = 0; r < size_; r++) presence_[r >> 6] |= uint64_t{1} << (r & 63);
  }
  presence_[i >> 6] &= ~(uint64_t{1} << (i & 63));
  ++null_count_;
}

void ColumnVector::AppendFrom(const ColumnVector& other, size_t row) {
  assert(other.type_ == type_);
  if (other.IsNull(row)) {
    AppendNull();
  } else if (type_ == PhysicalType::kBytes) {
    AppendBytes(other.GetBytes(row));
  } else {
    const size_t width = FixedWidth(type_);
    EnsureFixedCapacity(size_ + 1);
    std::memcpy(fixed_ + size_ * width, other.fixed_ + row * width, width);
    ++size_;
    if (!presence_.empty()) GrowPresence(true);
  }
}

namespace {

template <size_t kWidth>
void GatherFixed(const char* from, const uint32_t* rows, size_t n, char* to) {
  for (size_t i = 0; i < n; i++) std::memcpy(to + i * kWidth, from + rows[i] * kWidth, kWidth);
}

}  // namespace

void ColumnVector::AppendRows(const ColumnVector& other, const uint32_t* rows, size_t n) {
  assert(other.type_ == type_ && &other != this);
  const size_t first = size_;
  if (type_ == PhysicalType::kBytes) {
    const uint32_t* from = other.offsets();
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++) total += from[rows[i] + 1] - from[rows[i]];
    const char* data = other.bytes_.data();
    // Readable past a string: up to the end of `other`'s bytes (its spare block is not kept).
    const size_t readable_end = other.bytes_.size();
    ByteStringWriter writer = AppendBytesWriter(n, total);
    ByteStringCursor cursor = writer.cursor();
    for (size_t i = 0; i < n; i++) {
      const uint32_t begin = from[rows[i]];
      cursor.Append(data + begin, from[rows[i] + 1] - begin, readable_end - begin);
    }
  } else {
    const size_t width = FixedWidth(type_);
    EnsureFixedCapacity(size_ + n);
    char* to = fixed_ + size_ * width;
    if (width == 8) {
      GatherFixed<8>(other.fixed_, rows, n, to);
    } else {
      assert(width == 4);
      GatherFixed<4>(other.fixed_, rows, n, to);
    }
    size_ += n;
    MarkAppendedPresent(first);
  }
  if (!other.has_nulls()) return;
  for (size_t i = 0; i < n; i++) {
    if (other.IsNull(rows[i])) SetNull(first + i);
  }
}

bool ColumnVector::Equals(const ColumnVector& other) const {
  if (type_ != other.type_ || size_ != other.size_ || null_count_ != other.null_count_) {
    return false;
  }
  for (size_t i = 0; i < size_; i++) {
    if (IsNull(i) != other.IsNull(i)) return false;
  }
  if (type_ == PhysicalType::kBytes) {
    for (size_t i = 0; i < size_; i++) {
      if (GetBytes(i) != other.GetBytes(i)) return false;
    }
    return true;
  }
  return size_ == 0 || std::memcmp(fixed_, other.fixed_, size_ * FixedWidth(type_)) == 0;
}

size_t ColumnVector::MemoryUsage() const {
  return fixed_capacity_ * FixedWidth(type_) + offsets_.capacity() * sizeof(uint32_t) +
         bytes_.capacity() + presence_.capacity() * sizeof(uint64_t) + sizeof(*this);
}

}  // namespace columnar
