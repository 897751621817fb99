#include "table_format/file_root.h"

#include <cstring>

#include "table_format/varint.h"

namespace columnar {

void FileRoot::EncodeTo(std::string* out) const {
  PutVarint32(out, kFormatVersion);
  out->append(file_id.data(), file_id.size());
  PutVarint32(out, layout_id);
  PutVarint32(out, static_cast<uint32_t>(blocks.size()));
  for (const BlockLocation& location : blocks) {
    PutVarint64(out, location.offset);
    PutVarint64(out, location.size);
  }
  PutFixed32(out, properties_checksum);
  PutFixed32(out, metaindex_checksum);
  PutVarint32(out, footer_format_version);
  PutVarint32(out, properties_patch_offset);
}

Status FileRoot::DecodeFrom(const Slice& raw, uint64_t data_end) {
  Slice in = raw;
  uint32_t version;
  uint32_t count;
  if (!GetVarint32(&in, &version) || version != kFormatVersion) {
    return Status::Corruption("root block: unknown format version");
  }
  if (in.size() < file_id.size()) return Status::Corruption("root block: truncated");
  std::memcpy(file_id.data(), in.data(), file_id.size());
  in.remove_prefix(file_id.size());
  if (!GetVarint32(&in, &layout_id) || !GetVarint32(&in, &count) || count != blocks.size()) {
    return Status::Corruption("root block: bad header");
  }
  for (BlockLocation& location : blocks) {
    if (!GetVarint64(&in, &location.offset) || !GetVarint64(&in, &location.size)) {
      return Status::Corruption("root block: truncated handles");
    }
    if (location.size != 0 &&
        (location.offset > data_end || location.size > data_end - location.offset)) {
      return Status::Corruption("root block: block outside the file");
    }
  }
  if (!GetFixed32(&in, &properties_checksum) || !GetFixed32(&in, &metaindex_checksum) ||
      !GetVarint32(&in, &footer_format_version) || !GetVarint32(&in, &properties_patch_offset) ||
      !in.empty()) {
    return Status::Corruption("root block: truncated trailer");
  }
  return Status::OK();
}

}  // namespace columnar
