// Raw internal entries of a table file, with their sequence numbers and types.
//
// RocksDB 7.8's public SstFileReader wraps the table in a DB iterator, which shows only the
// latest visible value of each key and hides sequence numbers, types, deletions and merge
// operands. To print what the file stores, this opens the file's TableReader the way
// SstFileReader::Open does (table/sst_file_reader.cc) and walks its internal iterator and its
// range tombstones. It lives in plugin/ (the only layer with RocksDB internal headers) for
// tools/sst_dumper.
#pragma once

#include <rocksdb/options.h>
#include <rocksdb/slice.h>
#include <rocksdb/status.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace rocksdb {
class SliceTransform;
class TableReader;
}  // namespace rocksdb

namespace columnar {

// A table file's TableReader, opened the way SstFileReader::Open does, together with the
// options it keeps references to (they live as long as this object).
class TableFile {
 public:
  TableFile();
  ~TableFile();
  // `options` supplies the table factory, comparator and prefix extractor.
  rocksdb::Status Open(const rocksdb::Options& options, const std::string& path);
  // Null until Open succeeded.
  rocksdb::TableReader* reader() const;
  const rocksdb::SliceTransform* prefix_extractor() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

struct RawEntry {
  rocksdb::Slice user_key;
  uint64_t sequence = 0;
  // RocksDB's ValueType byte, and a readable name for it ("PUT", "DELETE", ...).
  uint8_t type = 0;
  const char* type_name = "";
  // The stored value; for range deletions, the end key (exclusive).
  rocksdb::Slice value;
  bool range_deletion = false;
};

// Name of a RocksDB ValueType byte as stored in table files.
const char* ValueTypeName(uint8_t type);

// Calls `visit` for the point entries of the table file at `path`, in file order, then for
// its range tombstones (as RocksDB fragments them). `options` supplies the table factory and
// comparator; `read_options` whether data block checksums are verified. Stops early, with
// OK, when `visit` returns false.
rocksdb::Status VisitRawEntries(const rocksdb::Options& options, const std::string& path,
                                const rocksdb::ReadOptions& read_options,
                                const std::function<bool(const RawEntry&)>& visit);

// Splits a serialized wide-column entity into "name=value" pairs via `column`; false when
// `value` is not a well-formed entity.
bool VisitEntityColumns(
    const rocksdb::Slice& value,
    const std::function<void(const rocksdb::Slice& name, const rocksdb::Slice& value)>& column);

}  // namespace columnar
