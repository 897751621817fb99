// RowExpiryPropertiesCollector: records in every SST file of a Table API table (any table
// format) whether the file holds nothing but rows that expire, the latest expiry among them,
// and its largest sequence number. With these, a file whose every row has expired can be
// recognised without reading it: reads skip it and the expired-file sweeper removes it
// (expired_files.h).
//
// Properties: columnar.expiry.max        latest expiry (seconds since the epoch), decimal, when
//                                        every row expires; 0 otherwise (files written before
//                                        held the latest expiry among the rows that had one)
//             columnar.expiry.all_rows   "1" when every entry is a Put of a row with an expiry
//             columnar.expiry.max_seqno  largest sequence number in the file, decimal
#pragma once

#include <rocksdb/table_properties.h>

#include <memory>
#include <mutex>

#include "table_format/schema.h"

namespace columnar {

inline constexpr char kExpiryMaxProperty[] = "columnar.expiry.max";
inline constexpr char kExpiryAllRowsProperty[] = "columnar.expiry.all_rows";
inline constexpr char kExpiryMaxSeqnoProperty[] = "columnar.expiry.max_seqno";

class RowExpiryCollectorFactory : public rocksdb::TablePropertiesCollectorFactory {
 public:
  explicit RowExpiryCollectorFactory(std::shared_ptr<const TableSchema> schema);
  // Files written from now on are judged with `schema` (ALTER TABLE).
  void SetSchema(std::shared_ptr<const TableSchema> schema);

  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context context) override;
  const char* Name() const override { return "columnar.RowExpiryCollectorFactory"; }

 private:
  std::mutex mutex_;
  std::shared_ptr<const TableSchema> schema_;
};

// What a file's properties say about its rows' expiry.
struct FileExpiry {
  bool all_rows_expire = false;
  int64_t max_expiry_seconds = 0;
  uint64_t max_sequence = UINT64_MAX;
};
// False when the properties carry no expiry information (files written without the
// collector, or damaged values).
bool ReadFileExpiry(const rocksdb::TableProperties& properties, FileExpiry* expiry);

// True when every row of the file has expired at `now_seconds` and nothing older than them can
// exist below them (largest sequence number 0, not an ingested file): the file may then be
// skipped by reads and removed whole.
bool FileFullyExpired(const rocksdb::TableProperties& properties, int64_t now_seconds);

}  // namespace columnar
