#include "table_format/checksum.h"

#include <rocksdb/table.h>

#include <string>

namespace rocksdb {
// Exported by librocksdb.so (declared in RocksDB's internal table/format.h). Declared here so
// the pure format layer reuses RocksDB's checksum without including internal headers.
uint32_t ComputeBuiltinChecksum(ChecksumType type, const char* data, size_t size);
}  // namespace rocksdb

namespace columnar {

uint32_t ComputeChecksum(const char* data, size_t size) {
  return rocksdb::ComputeBuiltinChecksum(rocksdb::kXXH3, data, size);
}

Status VerifyChecksum(const Slice& data, uint32_t expected, const char* what) {
  const uint32_t actual = ComputeChecksum(data);
  if (actual == expected) return Status::OK();
  return Status::Corruption(std::string(what) + ": checksum mismatch");
}

}  // namespace columnar
