// One entry as an LSM table file stores it: a user key, RocksDB's sequence number and value
// type (the internal-key trailer), and the value bytes. The format layer treats the value type
// as an opaque byte; only RowLayout implementations look at it (to know which entries can be
// typed rows).
#pragma once

#include <cstdint>

#include "table_format/types.h"

namespace columnar {

struct Entry {
  Slice user_key;
  uint64_t sequence = 0;
  uint8_t value_type = 0;
  Slice value;
};

// RocksDB's value type of a plain Put (ValueType::kTypeValue in db/dbformat.h). The format
// layer only needs this one: a Put's value may be a typed row; any other type is kept opaque.
inline constexpr uint8_t kPutValueType = 0x1;

}  // namespace columnar
