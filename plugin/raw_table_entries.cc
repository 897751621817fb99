#include "plugin/raw_table_entries.h"

#include <memory>

#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "db/wide/wide_column_serialization.h"
#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "table/internal_iterator.h"
#include "table/table_builder.h"
#include "table/table_reader.h"

namespace columnar {

namespace {

rocksdb::Status VisitPointEntries(rocksdb::TableReader* reader,
                                  const rocksdb::SliceTransform* prefix_extractor,
                                  const rocksdb::ReadOptions& read_options,
                                  const std::function<bool(const RawEntry&)>& visit,
                                  bool* stopped) {
  std::unique_ptr<rocksdb::InternalIterator> it(
      reader->NewIterator(read_options, prefix_extractor, /*arena=*/nullptr,
                          /*skip_filters=*/false, rocksdb::TableReaderCaller::kSSTDumpTool));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    rocksdb::ParsedInternalKey parsed;
    rocksdb::Status s = rocksdb::ParseInternalKey(it->key(), &parsed, /*log_err_key=*/true);
    if (!s.ok()) return s;
    RawEntry entry;
    entry.user_key = parsed.user_key;
    entry.sequence = parsed.sequence;
    entry.type = static_cast<uint8_t>(parsed.type);
    entry.type_name = ValueTypeName(entry.type);
    entry.value = it->value();
    if (!visit(entry)) {
      *stopped = true;
      return rocksdb::Status::OK();
    }
  }
  return it->status();
}

rocksdb::Status VisitRangeTombstones(rocksdb::TableReader* reader,
                                     const rocksdb::ReadOptions& read_options,
                                     const std::function<bool(const RawEntry&)>& visit) {
  std::unique_ptr<rocksdb::FragmentedRangeTombstoneIterator> it(
      reader->NewRangeTombstoneIterator(read_options));
  if (it == nullptr) return rocksdb::Status::OK();
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    RawEntry entry;
    entry.user_key = it->start_key();
    entry.sequence = it->seq();
    entry.type = rocksdb::kTypeRangeDeletion;
    entry.type_name = ValueTypeName(entry.type);
    entry.value = it->end_key();
    entry.range_deletion = true;
    if (!visit(entry)) break;
  }
  return rocksdb::Status::OK();
}

}  // namespace

const char* ValueTypeName(uint8_t type) {
  switch (type) {
    case rocksdb::kTypeValue:
      return "PUT";
    case rocksdb::kTypeDeletion:
      return "DELETE";
    case rocksdb::kTypeSingleDeletion:
      return "SINGLE_DELETE";
    case rocksdb::kTypeMerge:
      return "MERGE";
    case rocksdb::kTypeRangeDeletion:
      return "RANGE_DELETE";
    case rocksdb::kTypeBlobIndex:
      return "BLOB_INDEX";
    case rocksdb::kTypeDeletionWithTimestamp:
      return "DELETE_WITH_TIMESTAMP";
    case rocksdb::kTypeWideColumnEntity:
      return "ENTITY";
    default:
      return "UNKNOWN";
  }
}

struct TableFile::State {
  explicit State(const rocksdb::Options& options)
      : ioptions(options), moptions(options), env_options(options) {}
  const rocksdb::ImmutableOptions ioptions;
  const rocksdb::MutableCFOptions moptions;
  const rocksdb::EnvOptions env_options;
  std::unique_ptr<rocksdb::TableReader> reader;  // refers to the options above
};

TableFile::TableFile() = default;
TableFile::~TableFile() = default;

rocksdb::Status TableFile::Open(const rocksdb::Options& options, const std::string& path) {
  state_ = std::make_unique<State>(options);
  const rocksdb::ImmutableOptions& ioptions = state_->ioptions;
  const std::shared_ptr<rocksdb::FileSystem>& fs = ioptions.fs;
  const rocksdb::FileOptions file_options(state_->env_options);
  uint64_t file_size = 0;
  rocksdb::IOStatus s = fs->GetFileSize(path, file_options.io_options, &file_size, nullptr);
  std::unique_ptr<rocksdb::FSRandomAccessFile> file;
  if (s.ok()) s = fs->NewRandomAccessFile(path, file_options, &file, nullptr);
  if (!s.ok()) return std::move(s);
  auto file_reader = std::make_unique<rocksdb::RandomAccessFileReader>(std::move(file), path);
  rocksdb::TableReaderOptions reader_options(ioptions, state_->moptions.prefix_extractor,
                                             state_->env_options, ioptions.internal_comparator);
  // As SstFileReader: accept files with a global sequence number.
  reader_options.largest_seqno = rocksdb::kMaxSequenceNumber;
  return ioptions.table_factory->NewTableReader(reader_options, std::move(file_reader), file_size,
                                                &state_->reader);
}

rocksdb::TableReader* TableFile::reader() const {
  return state_ != nullptr ? state_->reader.get() : nullptr;
}

const rocksdb::SliceTransform* TableFile::prefix_extractor() const {
  return state_ != nullptr ? state_->moptions.prefix_extractor.get() : nullptr;
}

rocksdb::Status VisitRawEntries(const rocksdb::Options& options, const std::string& path,
                                const rocksdb::ReadOptions& read_options,
                                const std::function<bool(const RawEntry&)>& visit) {
  TableFile file;
  rocksdb::Status s = file.Open(options, path);
  if (!s.ok()) return s;
  bool stopped = false;
  s = VisitPointEntries(file.reader(), file.prefix_extractor(), read_options, visit, &stopped);
  if (!s.ok() || stopped) return s;
  return VisitRangeTombstones(file.reader(), read_options, visit);
}

bool VisitEntityColumns(
    const rocksdb::Slice& value,
    const std::function<void(const rocksdb::Slice& name, const rocksdb::Slice& value)>& column) {
  rocksdb::Slice input = value;
  rocksdb::WideColumns columns;
  if (!rocksdb::WideColumnSerialization::Deserialize(input, columns).ok()) return false;
  for (const rocksdb::WideColumn& c : columns) column(c.name(), c.value());
  return true;
}

}  // namespace columnar
