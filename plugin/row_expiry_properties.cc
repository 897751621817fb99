#include "plugin/row_expiry_properties.h"

#include <cstdlib>
#include <string>

#include "table_format/row_codec.h"

namespace columnar {

namespace {

class RowExpiryCollector : public rocksdb::TablePropertiesCollector {
 public:
  explicit RowExpiryCollector(const TableSchema& schema) : codec_(schema) {}

  rocksdb::Status AddUserKey(const rocksdb::Slice& /*key*/, const rocksdb::Slice& value,
                             rocksdb::EntryType type, rocksdb::SequenceNumber seq,
                             uint64_t /*file_size*/) override {
    max_sequence_ = std::max<uint64_t>(max_sequence_, seq);
    // Once an entry that does not expire is seen, the file can never expire whole and the
    // latest expiry says nothing: the rest of the file's values are not decoded (about 100
    // instructions a row in a compaction of a table without TTL: devops, docs/results/filecost18).
    if (!all_rows_expire_) return rocksdb::Status::OK();
    RowMetadata meta;
    if (type != rocksdb::kEntryPut || !codec_.DecodeMetadata(value, &meta).ok() ||
        !meta.has_expiry) {
      all_rows_expire_ = false;
      return rocksdb::Status::OK();
    }
    max_expiry_ = std::max<int64_t>(max_expiry_, static_cast<int64_t>(meta.expiry_seconds));
    return rocksdb::Status::OK();
  }

  rocksdb::Status Finish(rocksdb::UserCollectedProperties* properties) override {
    (*properties)[kExpiryMaxProperty] = std::to_string(max_expiry());
    (*properties)[kExpiryAllRowsProperty] = all_rows_expire_ ? "1" : "0";
    (*properties)[kExpiryMaxSeqnoProperty] = std::to_string(max_sequence_);
    return rocksdb::Status::OK();
  }

  rocksdb::UserCollectedProperties GetReadableProperties() const override {
    return {{kExpiryMaxProperty, std::to_string(max_expiry())},
            {kExpiryAllRowsProperty, all_rows_expire_ ? "1" : "0"}};
  }

  const char* Name() const override { return "columnar.RowExpiryCollector"; }

 private:
  int64_t max_expiry() const { return all_rows_expire_ ? max_expiry_ : 0; }

  RowCodec codec_;
  bool all_rows_expire_ = true;
  int64_t max_expiry_ = 0;
  uint64_t max_sequence_ = 0;
};

bool ParseInt64(const std::string& text, int64_t* value) {
  char* end = nullptr;
  *value = std::strtoll(text.c_str(), &end, 10);
  return !text.empty() && end == text.c_str() + text.size();
}

}  // namespace

RowExpiryCollectorFactory::RowExpiryCollectorFactory(std::shared_ptr<const TableSchema> schema)
    : schema_(std::move(schema)) {}

void RowExpiryCollectorFactory::SetSchema(std::shared_ptr<const TableSchema> schema) {
  std::lock_guard<std::mutex> lock(mutex_);
  schema_ = std::move(schema);
}

rocksdb::TablePropertiesCollector* RowExpiryCollectorFactory::CreateTablePropertiesCollector(
    rocksdb::TablePropertiesCollectorFactory::Context /*context*/) {
  std::lock_guard<std::mutex> lock(mutex_);
  return new RowExpiryCollector(*schema_);
}

bool ReadFileExpiry(const rocksdb::TableProperties& properties, FileExpiry* expiry) {
  const auto& user = properties.user_collected_properties;
  const auto max = user.find(kExpiryMaxProperty);
  const auto all_rows = user.find(kExpiryAllRowsProperty);
  const auto seqno = user.find(kExpiryMaxSeqnoProperty);
  int64_t sequence;
  if (max == user.end() || all_rows == user.end() || seqno == user.end() ||
      !ParseInt64(max->second, &expiry->max_expiry_seconds) ||
      !ParseInt64(seqno->second, &sequence) || sequence < 0) {
    return false;
  }
  expiry->all_rows_expire = all_rows->second == "1";
  expiry->max_sequence = static_cast<uint64_t>(sequence);
  return true;
}

bool FileFullyExpired(const rocksdb::TableProperties& properties, int64_t now_seconds) {
  // Ingested files take a global sequence number at ingestion: their own zeros say nothing.
  if (properties.user_collected_properties.count("rocksdb.external_sst_file.version") != 0) {
    return false;
  }
  FileExpiry expiry;
  return ReadFileExpiry(properties, &expiry) && expiry.all_rows_expire &&
         expiry.max_sequence == 0 && expiry.max_expiry_seconds <= now_seconds;
}

}  // namespace columnar
