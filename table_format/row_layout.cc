#include "table_format/row_layout.h"

#include "table_format/varint.h"

namespace columnar {

uint64_t DecodedRowGroup::trailer(size_t row) const {
  return DecodeFixed64(keys_.data() + key_offsets_[row + 1] - 8);
}

void DecodedRowGroup::AssignSequence(uint64_t sequence) {
  for (size_t row = 0; row < row_count(); row++) {
    char* trailer_bytes = &keys_[key_offsets_[row + 1] - 8];
    const uint64_t type = DecodeFixed64(trailer_bytes) & 0xff;
    EncodeFixed64(trailer_bytes, (sequence << 8) | type);
  }
}

size_t DecodedRowGroup::MemoryUsage() const {
  return sizeof(*this) + keys_.capacity() + key_offsets_.capacity() * sizeof(uint32_t);
}

}  // namespace columnar
