// ColumnVector: the in-memory values of one column for a run of rows (a row group's worth).
//
// Fixed-width values live in one contiguous, 64-byte aligned array (so SIMD kernels and
// decoders can write it directly); byte strings live in an offsets array (n + 1 entries)
// plus one contiguous data buffer. Null rows hold a zero value or an empty string and are
// cleared in the presence bitmap, which is only materialised once a null is appended.
// Floats are stored and copied as raw bits: NaN payloads, -0.0 and subnormals survive.
#pragma once

#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "table_format/byte_buffer.h"
#include "table_format/types.h"

namespace columnar {

template <typename T>
struct PhysicalTypeOf;
template <>
struct PhysicalTypeOf<int32_t> {
  static constexpr PhysicalType value = PhysicalType::kInt32;
};
template <>
struct PhysicalTypeOf<int64_t> {
  static constexpr PhysicalType value = PhysicalType::kInt64;
};
template <>
struct PhysicalTypeOf<float> {
  static constexpr PhysicalType value = PhysicalType::kFloat32;
};
template <>
struct PhysicalTypeOf<double> {
  static constexpr PhysicalType value = PhysicalType::kFloat64;
};

class ColumnVector;

// Where a decoder's strings go: the bytes of the next string, and the slot of its end offset.
// A plain struct, so that a decoder's loop keeps it in registers (bytes stored through a char
// pointer could otherwise alias it). Obtained from a ByteStringWriter; every string it hands
// out has kBlock writable bytes, so short strings are copied as one block of kBlock bytes
// whatever their length: the excess lands where the following strings go, or in the buffer's
// spare bytes, and is overwritten by them.
struct ByteStringCursor {
  static constexpr size_t kBlock = 32;

  char* dst;
  uint32_t* ends;
  uint32_t end;
  uint32_t limit;  // the announced end, for debug checks

  // The next string, of `len` bytes, which the caller writes at the returned address.
  char* Next(size_t len) {
    char* string = dst;
    dst += len;
    end += static_cast<uint32_t>(len);
    assert(end <= limit);
    *ends++ = end;
    return string;
  }
  // The next string: the `len` bytes at `src`, from which `readable` (>= len) bytes may be
  // read.
  void Append(const char* src, size_t len, size_t readable) {
    CopyBlock(Next(len), src, len, readable);
  }
  void Append(const char* src, size_t len) { Append(src, len, len); }

  // Copies `len` bytes from `src` to `dst`, where kBlock bytes may be written: as one block
  // of kBlock bytes (loaded before it is stored, so the two may overlap) when `len` is at
  // most that and as many are readable at `src`.
  static void CopyBlock(char* dst, const char* src, size_t len, size_t readable) {
    if (len <= kBlock && readable >= kBlock) {
      Block block;
      std::memcpy(&block, src, kBlock);
      std::memcpy(dst, &block, kBlock);
    } else {
      CopyBytes(dst, src, len);
    }
  }

  // memcpy for the short strings of typical columns: at most two overlapping loads and stores
  // up to 32 bytes, never touching a byte outside either range.
  static void CopyBytes(char* dst, const char* src, size_t len) {
    if (len > 32) {
      std::memcpy(dst, src, len);
    } else if (len >= 16) {
      Copy2<Block16>(dst, src, len);
    } else if (len >= 8) {
      Copy2<uint64_t>(dst, src, len);
    } else if (len >= 4) {
      Copy2<uint32_t>(dst, src, len);
    } else if (len > 0) {
      dst[0] = src[0];
      dst[len / 2] = src[len / 2];
      dst[len - 1] = src[len - 1];
    }
  }

 private:
  struct Block16 {
    char bytes[16];
  };
  struct Block {
    char bytes[kBlock];
  };

  // The first and the last sizeof(W) bytes (sizeof(W) <= len <= 2 * sizeof(W)).
  template <typename W>
  static void Copy2(char* dst, const char* src, size_t len) {
    W head;
    W tail;
    std::memcpy(&head, src, sizeof(W));
    std::memcpy(&tail, src + len - sizeof(W), sizeof(W));
    std::memcpy(dst, &head, sizeof(W));
    std::memcpy(dst + len - sizeof(W), &tail, sizeof(W));
  }
};

// Reserve-and-fill output of byte strings, for decoders (ColumnVector::AppendBytesWriter).
// The strings are supplied in order through its cursor; while the writer lives, the column's
// data buffer carries ByteStringCursor::kBlock spare bytes, which its destructor drops. The
// caller must supply exactly the announced strings and bytes (they start unwritten, not
// zeroed), and let the writer go before touching the column again.
class ByteStringWriter {
 public:
  ByteStringWriter(ByteStringWriter&& other) noexcept
      : column_(other.column_), cursor_(other.cursor_) {
    other.column_ = nullptr;
  }
  ByteStringWriter(const ByteStringWriter&) = delete;
  ByteStringWriter& operator=(const ByteStringWriter&) = delete;
  ByteStringWriter& operator=(ByteStringWriter&&) = delete;
  ~ByteStringWriter();

  // Where the strings go, for the caller's loop to copy into a local variable.
  ByteStringCursor cursor() const { return cursor_; }
  // The end of the spare bytes: a string already written may be read up to there.
  const char* readable_end() const {
    return cursor_.dst + (cursor_.limit - cursor_.end) + ByteStringCursor::kBlock;
  }

 private:
  friend class ColumnVector;
  ByteStringWriter(ColumnVector* column, const ByteStringCursor& cursor)
      : column_(column), cursor_(cursor) {}

  ColumnVector* column_;
  ByteStringCursor cursor_;  // at the first string
};

class ColumnVector {
 public:
  explicit ColumnVector(PhysicalType type = PhysicalType::kInt64);
  ~ColumnVector();
  ColumnVector(const ColumnVector& other);
  ColumnVector& operator=(const ColumnVector& other);
  ColumnVector(ColumnVector&& other) noexcept;
  ColumnVector& operator=(ColumnVector&& other) noexcept;

  PhysicalType type() const { return type_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Drops all values (keeping capacity) and sets the type.
  void Reset(PhysicalType type);
  void Clear() { Reset(type_); }
  void Reserve(size_t rows);

  // ---- fixed-width columns (T must match type()) ----
  template <typename T>
  void Append(T v) {
    AssertType<T>();
    EnsureFixedCapacity(size_ + 1);
    std::memcpy(fixed_ + size_ * sizeof(T), &v, sizeof(T));
    ++size_;
    if (!presence_.empty()) GrowPresence(true);
  }
  // Appends the low FixedWidth(type()) bytes of `bits` (a fixed-width column; the value of
  // AppendFixedBits in column_values.h, without its switch over the types).
  void AppendLowBytes(uint64_t bits) {
    assert(type_ != PhysicalType::kBytes);
    EnsureFixedCapacity(size_ + 1);
    if (FixedWidth(type_) == 8) {
      std::memcpy(fixed_ + size_ * 8, &bits, 8);
    } else {
      const auto narrow = static_cast<uint32_t>(bits);
      std::memcpy(fixed_ + size_ * 4, &narrow, 4);
    }
    ++size_;
    if (!presence_.empty()) GrowPresence(true);
  }
  template <typename T>
  const T* data() const {
    AssertType<T>();
    return reinterpret_cast<const T*>(fixed_);
  }
  template <typename T>
  T* mutable_data() {
    AssertType<T>();
    return reinterpret_cast<T*>(fixed_);
  }
  template <typename T>
  T Get(size_t i) const {
    assert(i < size_);
    T v;
    std::memcpy(&v, fixed_ + i * sizeof(T), sizeof(T));
    return v;
  }
  // Raw bytes of value i of a fixed-width column (its little-endian bit pattern).
  const char* fixed_bytes() const { return fixed_; }

  // Grows or shrinks a fixed-width column to n values; new values are zero and present.
  // Decoders call this, then write through mutable_data<T>().
  void ResizeFixed(size_t n);

  // ---- byte-string columns ----
  // Inline: the string columns of every row group are built by it, a value at a time.
  void AppendBytes(const Slice& v) {
    assert(type_ == PhysicalType::kBytes);
    bytes_.append(v.data(), v.size());
    if (offsets_.empty()) StartOffsets();
    offsets_.push_back(static_cast<uint32_t>(bytes_.size()));
    ++size_;
    if (!presence_.empty()) GrowPresence(true);
  }
  Slice GetBytes(size_t i) const {
    assert(i < size_);
    return Slice(bytes_.data() + offsets_[i], offsets_[i + 1] - offsets_[i]);
  }
  // size() + 1 offsets, the first 0 (an empty column's is kNoOffsets).
  const uint32_t* offsets() const { return offsets_.empty() ? kNoOffsets : offsets_.data(); }
  // The strings' bytes, concatenated.
  Slice bytes_data() const { return Slice(bytes_.data(), bytes_.size()); }
  // Pre-sizes the data buffer when the total length is known (decoders).
  void ReserveBytes(size_t total_bytes) { bytes_.reserve(total_bytes); }
  // Bulk appends for decoders, which know their strings' count and total size up front.
  // Appends n present strings of `total_bytes` bytes in all (the total must keep the data
  // buffer within 32-bit offsets) and returns the writer through which the caller supplies
  // them, in order (see ByteStringWriter).
  ByteStringWriter AppendBytesWriter(size_t n, size_t total_bytes);
  // Appends n strings whose bytes are concatenated at `data`, string i being lengths[i] bytes.
  void AppendConcatenatedBytes(const uint32_t* lengths, size_t n, const char* data);

  // ---- nulls ----
  // Appends a zero value (or empty string) and marks it absent.
  void AppendNull();
  // n x AppendNull(), at once.
  void AppendNulls(size_t n);
  bool IsNull(size_t i) const {
    return !presence_.empty() && ((presence_[i >> 6] >> (i & 63)) & 1) == 0;
  }
  size_t null_count() const { return null_count_; }
  bool has_nulls() const { return null_count_ > 0; }
  // Bit i set = row i present. Empty when the column has never held a null.
  const std::vector<uint64_t>& presence() const { return presence_; }
  // Marks row i (already appended) absent; its value is left as is.
  void SetNull(size_t i);
  // Drops the last row (null or not), as if it had never been appended (the capacity stays).
  void PopBack();

  // Appends value `row` of `other` (same type), null or not.
  void AppendFrom(const ColumnVector& other, size_t row);
  // AppendFrom for each of the n rows listed (each below other.size()), in that order: a
  // group's selected rows gathered into a batch, the strings' bytes sized once.
  void AppendRows(const ColumnVector& other, const uint32_t* rows, size_t n);
  // True when both hold the same type, nulls and bit-identical values.
  bool Equals(const ColumnVector& other) const;

  // Bytes of heap memory held (for cache charging).
  size_t MemoryUsage() const;

 private:
  friend class ByteStringWriter;  // drops its spare bytes

  template <typename T>
  void AssertType() const {
    static_assert(std::is_arithmetic<T>::value, "fixed-width accessors take a numeric type");
    assert(PhysicalTypeOf<T>::value == type_);
  }
  // Room for `rows` fixed-width values: inline, as every Append checks it.
  void EnsureFixedCapacity(size_t rows) {
    if (rows > fixed_capacity_) GrowFixed(rows);
  }
  void GrowFixed(size_t rows);
  // AppendBytesWriter over bytes already in place: n strings of `total_bytes` bytes from
  // bytes_[start], followed by the spare block.
  ByteStringWriter WriterOver(size_t start, size_t n, size_t total_bytes);
  void GrowPresence(bool present);
  // Rows [first, size()) were just appended, all present: their bits, where a bitmap is kept.
  void MarkAppendedPresent(size_t first);
  // offsets_ of an empty column (none: see offsets_).
  void ResetOffsets();
  // The first offset, 0, of a column getting its first string, with room for a few more (one
  // allocation where growing one at a time would make three).
  void StartOffsets();
  static constexpr uint32_t kNoOffsets[1] = {0};
  void FreeFixed();

  PhysicalType type_;
  size_t size_ = 0;
  // Fixed-width storage: malloc'd, 64-byte aligned, capacity in rows.
  char* fixed_ = nullptr;
  size_t fixed_capacity_ = 0;
  // Byte strings: offsets_[0] == 0 and offsets_.size() == size_ + 1, or empty while the column
  // is (then offsets() is kNoOffsets: an empty column, new, reset or moved from, allocates
  // nothing). Empty for fixed-width columns.
  std::vector<uint32_t> offsets_;
  ByteBuffer bytes_;
  std::vector<uint64_t> presence_;
  size_t null_count_ = 0;
};

}  // namespace columnar
