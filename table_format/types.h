// Physical value types of the columnar format and the small vocabulary shared by every layer.
#pragma once

#include <rocksdb/slice.h>
#include <rocksdb/status.h>

#include <cstddef>
#include <cstdint>

namespace columnar {

using rocksdb::Slice;
using rocksdb::Status;

// How values are laid out in memory and handed to encodings. Logical (CQL) types map onto
// these in schema.h; the numbering is part of the file format.
enum class PhysicalType : uint8_t {
  kInt32 = 0,
  kInt64 = 1,
  kFloat32 = 2,
  kFloat64 = 3,
  kBytes = 4,
};

inline constexpr int kNumPhysicalTypes = 5;

const char* PhysicalTypeName(PhysicalType type);

// Width in bytes of one value, or 0 for variable-length byte strings.
inline constexpr size_t FixedWidth(PhysicalType type) {
  switch (type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat32:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kFloat64:
      return 8;
    case PhysicalType::kBytes:
      return 0;
  }
  return 0;
}

inline constexpr bool IsValidPhysicalType(uint8_t raw) { return raw < kNumPhysicalTypes; }

}  // namespace columnar
