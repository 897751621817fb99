#include "table_format/row_layout.h"

#include "table_format/varint.h"

namespace columnar {

uint64_t DecodedRowGroup::trailer(size_t row) const {
  return DecodeFixed64(keys_.data() + key_offsets_[row + 1] - 8);
}

size_t DecodedRowGroup::MemoryUsage() const {
  return sizeof(*this) + keys_.capacity() + key_offsets_.capacity() * sizeof(uint32_t);
}

}  // namespace columnar
