// The one checksum path of the format: every block, chunk and meta structure is protected by
// RocksDB's own XXH3-based block checksum (the BlockBasedTable default), computed by the
// librocksdb we link against rather than by a copy of our own.
#pragma once

#include <cstddef>
#include <cstdint>

#include "table_format/types.h"

namespace columnar {

uint32_t ComputeChecksum(const char* data, size_t size);

inline uint32_t ComputeChecksum(const Slice& data) {
  return ComputeChecksum(data.data(), data.size());
}

// Corruption status naming `what` when `expected` differs from the checksum of `data`.
Status VerifyChecksum(const Slice& data, uint32_t expected, const char* what);

}  // namespace columnar
