#include "table_api/partition_deletions.h"

#include <memory>

#include "table_format/varint.h"

namespace columnar {
namespace {

constexpr size_t kEntryBytes = 16;

// Entries of a table span [prefix, prefix + 0xFF): the table's name ends at the '/'.
std::string PrefixLimit(const std::string& prefix) { return prefix + '\xff'; }

}  // namespace

PartitionDeletions::PartitionDeletions(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* metadata,
                                       const std::string& table)
    : db_(db), metadata_(metadata), prefix_("columnar.partition_deletion/" + table + "/") {}

std::string PartitionDeletions::KeyOf(const Slice& partition) const {
  std::string key = prefix_;
  key.append(partition.data(), partition.size());
  return key;
}

Status PartitionDeletions::AnyStored(bool* any) const {
  rocksdb::ReadOptions options;
  const std::string limit = PrefixLimit(prefix_);
  const Slice upper(limit);
  options.iterate_upper_bound = &upper;
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options, metadata_));
  it->Seek(prefix_);
  *any = it->Valid();
  return it->status();
}

Status PartitionDeletions::Load() {
  bool any = false;
  Status s = AnyStored(&any);
  any_.store(any);
  return s;
}

Status PartitionDeletions::Find(const Slice& partition, int64_t now_seconds,
                                int64_t gc_grace_seconds, bool* found,
                                int64_t* deletion_time_micros) const {
  *found = false;
  if (!any_.load()) return Status::OK();
  std::string value;
  Status s = db_->Get(rocksdb::ReadOptions(), metadata_, KeyOf(partition), &value);
  if (s.IsNotFound()) return Status::OK();
  if (!s.ok()) return s;
  if (value.size() != kEntryBytes) {
    return Status::Corruption("partition deletion entry of " + std::to_string(value.size()) +
                              " bytes (expected 16)");
  }
  const auto local_seconds = static_cast<int64_t>(DecodeFixed64(value.data() + 8));
  // Past gc_grace_seconds the deletion is purged, as Cassandra purges its tombstone.
  if (local_seconds > now_seconds - gc_grace_seconds) {
    *found = true;
    *deletion_time_micros = static_cast<int64_t>(DecodeFixed64(value.data()));
  }
  return Status::OK();
}

Status PartitionDeletions::Add(const Slice& partition, int64_t deletion_time_micros,
                               int64_t now_seconds, rocksdb::WriteBatch* batch) {
  std::string value;
  PutFixed64(&value, static_cast<uint64_t>(deletion_time_micros));
  PutFixed64(&value, static_cast<uint64_t>(now_seconds));
  Status s = batch->Put(metadata_, KeyOf(partition), value);
  // Set before the batch is written: a merge that sees the flag early only looks up in vain.
  if (s.ok()) any_.store(true);
  return s;
}

Status PartitionDeletions::DeleteAll(const rocksdb::WriteOptions& options) {
  // any_ stays as it is: a deletion racing with this one may have just added an entry.
  // Nothing is written when there is nothing to delete (every CREATE TABLE): a write would
  // sit in the default column family's memtable, which nothing else may flush for long, and
  // keep every write-ahead log from then on alive.
  bool any = false;
  Status s = AnyStored(&any);
  if (!s.ok() || !any) return s;
  return db_->DeleteRange(options, metadata_, prefix_, PrefixLimit(prefix_));
}

}  // namespace columnar
