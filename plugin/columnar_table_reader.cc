#include "plugin/columnar_table_reader.h"

#include <algorithm>
#include <cstring>

#include "db/dbformat.h"
#include "filter/file_column_stats.h"
#include "memory/arena.h"
#include "plugin/columnar_table_iterator.h"
#include "plugin/filtered_row_group.h"
#include "plugin/range_deletions.h"
#include "plugin/table_file.h"
#include "plugin/zone_map_block.h"
#include "rocksdb/snapshot.h"
#include "rocksdb/table_properties.h"
#include "table/format.h"
#include "table/get_context.h"
#include "table/internal_iterator.h"
#include "table/iterator_wrapper.h"
#include "table/meta_blocks.h"
#include "table/sst_file_writer_collectors.h"
#include "table_format/checksum.h"
#include "table_format/data_block.h"
#include "table_format/generic_layout.h"
#include "table_format/layout_columns.h"
#include "table_format/row_layout.h"
#include "table_format/typed_layout.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

// How BlockBasedTable derives an ingested file's global sequence number
// (block_based_table_reader.cc, GetGlobalSequenceNumber): files written by SstFileWriter carry
// a version property; from version 2 on, every key takes the file's largest sequence number
// as recorded in the MANIFEST.
Status GlobalSequenceNumber(const rocksdb::TableProperties& properties,
                            rocksdb::SequenceNumber largest_seqno,
                            rocksdb::SequenceNumber* global_seqno) {
  *global_seqno = rocksdb::kDisableGlobalSequenceNumber;
  const auto& props = properties.user_collected_properties;
  const auto version = props.find(rocksdb::ExternalSstFilePropertyNames::kVersion);
  const auto seqno = props.find(rocksdb::ExternalSstFilePropertyNames::kGlobalSeqno);
  if (version == props.end()) {
    if (seqno != props.end()) {
      return Status::Corruption("a non-external file has a global sequence number property");
    }
    return Status::OK();
  }
  if (version->second.size() < 4) return Status::Corruption("bad external file version");
  if (columnar::DecodeFixed32(version->second.data()) < 2) return Status::OK();
  rocksdb::SequenceNumber value = 0;
  if (seqno != props.end()) {
    if (seqno->second.size() < 8) return Status::Corruption("bad global sequence number");
    value = columnar::DecodeFixed64(seqno->second.data());
    if (value > rocksdb::kMaxSequenceNumber) {
      return Status::Corruption("external file's global sequence number out of range");
    }
  }
  if (largest_seqno < rocksdb::kMaxSequenceNumber) {
    if (value == 0) value = largest_seqno;
    if (value != largest_seqno) {
      return Status::Corruption("external file's global sequence number differs from its largest");
    }
  }
  *global_seqno = value;
  return Status::OK();
}

// LoadRowsForPointRead: point reads a block serves from the cache before the group read is
// decoded whole.
constexpr uint32_t kCachedReadsBeforeDecoding = 8;

// A cold point read's parsed group and key columns, the thread's own, kept from one read to
// the next with their buffers: built anew, they made five of a cold Get's fifteen heap
// allocations (callgrind, db_bench readrandom). Nothing a read returns points into them
// (DecodeRows copies the rows out). Buffers grown for a group of many rows are not kept. One
// at a time per thread: ReadRowsOfColdGroup does not nest.
class ColdReadScratch {
 public:
  ColdReadScratch() : parts_(ThreadParts()) {}
  ~ColdReadScratch() {
    if (parts_.view.row_count() > kLargestKeptGroupRows) parts_ = Parts();
  }
  ColdReadScratch(const ColdReadScratch&) = delete;
  ColdReadScratch& operator=(const ColdReadScratch&) = delete;

  RowGroupView& view() { return parts_.view; }
  std::unique_ptr<GroupKeys>& keys() { return parts_.keys; }

 private:
  static constexpr uint32_t kLargestKeptGroupRows = 4096;
  struct Parts {
    RowGroupView view;
    std::unique_ptr<GroupKeys> keys;
  };
  static Parts& ThreadParts() {
    thread_local Parts parts;
    return parts;
  }

  Parts& parts_;
};

}  // namespace

ColumnarTableReader::ColumnarTableReader(const rocksdb::TableReaderOptions& options,
                                         std::unique_ptr<rocksdb::RandomAccessFileReader>&& file,
                                         uint64_t file_size,
                                         std::shared_ptr<const TableSettings> settings)
    : ioptions_(options.ioptions),
      comparator_(options.internal_comparator),
      file_(std::move(file)),
      file_size_(file_size),
      settings_(std::move(settings)),
      largest_seqno_(options.largest_seqno) {}

rocksdb::Status ColumnarTableReader::Open(const rocksdb::ReadOptions& /*read_options*/,
                                          const rocksdb::TableReaderOptions& options,
                                          std::unique_ptr<rocksdb::RandomAccessFileReader>&& file,
                                          uint64_t file_size,
                                          std::shared_ptr<const TableSettings> settings,
                                          std::unique_ptr<rocksdb::TableReader>* reader) {
  std::unique_ptr<ColumnarTableReader> table(
      new ColumnarTableReader(options, std::move(file), file_size, std::move(settings)));
  rocksdb::Footer footer;
  Status s = rocksdb::ReadFooterFromFile(rocksdb::IOOptions(), table->file_.get(), nullptr,
                                         file_size, &footer, kColumnarTableMagicNumber);
  if (!s.ok()) return s;
  table->footer_offset_ = file_size - rocksdb::Footer::kNewVersionsEncodedLength;
  if (footer.format_version() != kColumnarFooterFormatVersion) {
    return Status::Corruption("ColumnarTable: unsupported footer version");
  }
  const rocksdb::BlockHandle& root_handle = footer.index_handle();
  if (root_handle.offset() + root_handle.size() > table->footer_offset_) {
    return Status::Corruption("ColumnarTable: root block outside the file");
  }
  std::string stored;
  s = table->ReadAt(root_handle.offset(), root_handle.size(), &stored);
  std::string buffer;
  Slice raw;
  if (s.ok()) s = ReadBlock(stored, nullptr, true, &buffer, &raw);
  if (s.ok()) s = table->root_.DecodeFrom(raw, root_handle.offset());
  if (!s.ok()) return s;

  // Properties: RocksDB's parser (which reads the metaindex, then the properties block, and
  // asserts on malformed blocks), only after both blocks are checked against the root.
  const BlockLocation& meta_index = table->root_.at(FileBlock::kMetaIndex);
  if (footer.metaindex_handle().offset() != meta_index.offset ||
      footer.metaindex_handle().size() != meta_index.size) {
    return Status::Corruption("ColumnarTable: footer and root disagree");
  }
  s = table->ReadAt(meta_index.offset, meta_index.size, &stored);
  if (s.ok()) {
    s = columnar::VerifyChecksum(stored, table->root_.metaindex_checksum, "metaindex block");
  }
  if (s.ok()) {
    s = table->ReadAt(table->root_.at(FileBlock::kProperties).offset,
                      table->root_.at(FileBlock::kProperties).size, &stored);
  }
  if (s.ok()) {
    s = PropertiesChecksum(stored, table->root_.properties_patch_offset) ==
                table->root_.properties_checksum
            ? Status::OK()
            : Status::Corruption("ColumnarTable: properties block checksum mismatch");
  }
  std::unique_ptr<rocksdb::TableProperties> properties;
  if (s.ok()) {
    s = rocksdb::ReadTableProperties(table->file_.get(), file_size, kColumnarTableMagicNumber,
                                     table->ioptions_, &properties);
  }
  if (!s.ok()) return s;
  s = GlobalSequenceNumber(*properties, table->largest_seqno_, &table->global_seqno_);
  if (!s.ok()) return s;
  table->partition_extractor_name_ = properties->prefix_extractor_name;
  table->properties_ = std::move(properties);

  s = table->ReadRowsPerGroup();
  if (s.ok()) s = table->ReadLargestSequence();
  if (s.ok()) table->ReadDictionaryCarries();
  if (s.ok()) s = table->CreateLayout();
  if (s.ok()) s = table->ReadFileStats();
  if (!s.ok()) return s;

  s = table->ReadMetaBlock(FileBlock::kIndex, &buffer);
  // A group holds at least one entry and a byte of the file.
  const uint64_t max_groups = std::min<uint64_t>(file_size, table->properties_->num_entries);
  if (s.ok()) s = table->index_.Decode(buffer, max_groups);
  if (s.ok()) s = table->ReadOversizedValueDirectory();
  if (!s.ok()) return s;
  if (table->global_seqno_ != rocksdb::kDisableGlobalSequenceNumber) {
    // Every key of the file has the global sequence number: seek on keys that say so.
    table->effective_first_keys_.reserve(table->index_.num_row_groups());
    for (size_t g = 0; g < table->index_.num_row_groups(); g++) {
      std::string key = table->index_.first_key(g).ToString();
      const uint64_t type = columnar::DecodeFixed64(key.data() + key.size() - 8) & 0xff;
      columnar::EncodeFixed64(&key[key.size() - 8], (table->global_seqno_ << 8) | type);
      table->effective_first_keys_.push_back(std::move(key));
    }
  }
  s = table->OpenFilters();
  if (!s.ok()) return s;

  if (table->root_.at(FileBlock::kRangeDeletions).present()) {
    std::vector<RangeDeletion> deletions;
    s = table->ReadMetaBlock(FileBlock::kRangeDeletions, &buffer);
    if (s.ok()) s = DecodeRangeDeletions(buffer, &deletions);
    if (!s.ok()) return s;
    table->range_deletions_ =
        FragmentRangeDeletions(std::move(deletions), table->comparator_, table->global_seqno_);
  }
  if (table->root_.at(FileBlock::kZoneMaps).present()) {
    s = table->ReadMetaBlock(FileBlock::kZoneMaps, &table->zone_map_bytes_);
    if (s.ok()) s = ZoneMapBlockToRowMajor(&table->zone_map_bytes_);
    if (s.ok()) {
      s = ParseZoneMapBlock(table->zone_map_bytes_, table->index_.num_row_groups(),
                            &table->zone_maps_);
    }
    if (!s.ok()) return s;
    table->group_expired_from_.reset(new std::atomic<int64_t>[table->zone_maps_.size()]);
    for (size_t g = 0; g < table->zone_maps_.size(); g++) {
      table->group_expired_from_[g].store(kExpiryUnknown, std::memory_order_relaxed);
    }
  }
  table->group_scans_.reset(new std::atomic<uint8_t>[table->index_.num_row_groups()]);
  for (size_t g = 0; g < table->index_.num_row_groups(); g++) {
    table->group_scans_[g].store(0, std::memory_order_relaxed);
  }
  if (table->root_.layout_id != GenericLayout::kId &&
      table->comparator_.user_comparator() == rocksdb::BytewiseComparator() &&
      table->index_.num_row_groups() > 1) {
    const size_t boundaries = table->index_.num_row_groups() - 1;
    table->next_partition_lengths_.reset(new std::atomic<uint32_t>[boundaries]);
    for (size_t g = 0; g < boundaries; g++) {
      table->next_partition_lengths_[g].store(kBoundaryUnknown, std::memory_order_relaxed);
    }
  }
  if (table->root_.at(FileBlock::kCompressionDictionary).present()) {
    s = table->ReadMetaBlock(FileBlock::kCompressionDictionary, &buffer);
    if (!s.ok()) return s;
    table->dictionary_ = std::make_unique<ZstdDictionary>(buffer, 3, ZstdDictionary::kDecompress);
    if (!table->dictionary_->ok()) return Status::Corruption("ColumnarTable: bad dictionary");
  }
  *reader = std::move(table);
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::ReadRowsPerGroup() {
  // Every group's row count is checked against it (ParseRowGroup): a forged group claiming
  // millions of rows would otherwise cost millions of decoded rows per read.
  const auto& props = properties_->user_collected_properties;
  const auto found = props.find(kRowsPerGroupProperty);
  if (found == props.end()) return Status::Corruption("ColumnarTable: rows_per_group missing");
  const std::string& text = found->second;
  // At most 7 digits: kMaxRowsPerGroup has 7.
  if (text.empty() || text.size() > 7 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return Status::Corruption("ColumnarTable: bad rows_per_group property");
  }
  const uint64_t value = std::stoull(text);
  if (value == 0 || value > kMaxRowsPerGroup) {
    return Status::Corruption("ColumnarTable: rows_per_group property out of range");
  }
  rows_per_group_ = static_cast<uint32_t>(value);
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::ReadLargestSequence() {
  // The builder records the largest sequence number it wrote (pushdown.h); pushdown trusts it
  // to skip whole files, so no entry read from the file may exceed it (CheckKeys).
  const auto& props = properties_->user_collected_properties;
  const auto found = props.find(kMaxSequenceProperty);
  if (found == props.end()) return Status::OK();  // no bound known
  const std::string& text = found->second;
  if (text.empty() || text.size() > 17 ||
      text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoull(text) > rocksdb::kMaxSequenceNumber) {
    return Status::Corruption("ColumnarTable: bad max_sequence property");
  }
  largest_sequence_ = std::stoull(text);
  return Status::OK();
}

namespace {

// A carries property (kDictionaryCarriesProperty, kCompressionDictionaryCarriesProperty): only
// a hint for later compactions, so a malformed value counts as past any bound, and they start
// that dictionary afresh.
uint64_t ParseCarries(const rocksdb::UserCollectedProperties& props, const char* name) {
  const auto found = props.find(name);
  if (found == props.end()) return 0;
  const std::string& text = found->second;
  return !text.empty() && text.size() <= 9 &&
                 text.find_first_not_of("0123456789") == std::string::npos
             ? std::stoull(text)
             : UINT64_MAX;
}

}  // namespace

void ColumnarTableReader::ReadDictionaryCarries() {
  const auto& props = properties_->user_collected_properties;
  dictionary_carries_ = ParseCarries(props, kDictionaryCarriesProperty);
  compression_dictionary_carries_ = ParseCarries(props, kCompressionDictionaryCarriesProperty);
}

rocksdb::Status ColumnarTableReader::ReadOversizedValueDirectory() {
  const auto& props = properties_->user_collected_properties;
  const auto found = props.find(kOversizedValuesProperty);
  if (found == props.end()) return Status::OK();
  // Values lie among the data blocks, before the index (the first block written by Finish).
  return DecodeOversizedValues(found->second, root_.at(FileBlock::kIndex).offset,
                               index_.num_row_groups(), rows_per_group_, &oversized_values_);
}

std::vector<OversizedValue>::const_iterator ColumnarTableReader::FirstOversizedValueOf(
    size_t group) const {
  return std::lower_bound(oversized_values_.begin(), oversized_values_.end(), group,
                          [](const OversizedValue& v, size_t g) { return v.group < g; });
}

rocksdb::Status ColumnarTableReader::StoredZoneMaps(size_t group, ZoneMapSet* out) const {
  if (group >= zone_maps_.size()) return Status::NotFound("ColumnarTable: no zone maps");
  return ZoneMapSet::Decode(zone_maps_[group].encoded, out);
}

bool ColumnarTableReader::HasOversizedValues(size_t group) const {
  const auto it = FirstOversizedValueOf(group);
  return it != oversized_values_.end() && it->group == group;
}

rocksdb::Status ColumnarTableReader::ReadOversizedValue(const OversizedValue& where, bool verify,
                                                        std::string* value) const {
  Status s = ReadAt(where.offset, where.size, value);
  if (s.ok() && verify) s = columnar::VerifyChecksum(*value, where.checksum, "oversized value");
  return s;
}

rocksdb::Status ColumnarTableReader::AttachOversizedValues(
    size_t group, const rocksdb::ReadOptions& read_options,
    std::unique_ptr<DecodedRowGroup>* decoded) const {
  if (!HasOversizedValues(group)) return Status::OK();
  if (read_options.read_tier == rocksdb::kBlockCacheTier) {
    return Status::Incomplete("ColumnarTable: oversized value not in cache and no I/O allowed");
  }
  std::vector<std::pair<uint32_t, std::string>> values;
  for (auto it = FirstOversizedValueOf(group); it != oversized_values_.end() && it->group == group;
       ++it) {
    std::string value;
    Status s = ReadOversizedValue(*it, read_options.verify_checksums, &value);
    if (!s.ok()) return s;
    values.emplace_back(it->row, std::move(value));
  }
  return WithOversizedValues(std::move(*decoded), std::move(values), decoded);
}

rocksdb::Status ColumnarTableReader::ReadFileStats() {
  // Only a file whose every entry is a row and whose largest sequence number is 0 may be
  // skipped by its statistics (pushdown.h); ingested files get a global one later.
  const auto& props = properties_->user_collected_properties;
  const auto stats = props.find(kFileColumnStatsProperty);
  const auto max_sequence = props.find(kMaxSequenceProperty);
  const auto only_rows = props.find(kOnlyRowsProperty);
  if (stats == props.end() || max_sequence == props.end() || max_sequence->second != "0" ||
      only_rows == props.end() || only_rows->second != "1" ||
      global_seqno_ != rocksdb::kDisableGlobalSequenceNumber) {
    return Status::OK();
  }
  auto parsed = std::make_unique<ZoneMapSet>();
  Status s = ParseFileColumnStats(stats->second, parsed.get());
  if (s.ok()) file_stats_ = std::move(parsed);
  return s;
}

rocksdb::Status ColumnarTableReader::CreateLayout() {
  switch (root_.layout_id) {
    case GenericLayout::kId:
      layout_ = std::make_unique<GenericLayout>(nullptr);
      return Status::OK();
    case TypedLayout::kId:
    case TypedLayout::kIdWithCellExceptions: {
      // Files describe themselves: the schema they were written with is in their properties.
      const auto& props = properties_->user_collected_properties;
      const auto schema_text = props.find(kSchemaProperty);
      if (schema_text == props.end()) return Status::Corruption("ColumnarTable: schema missing");
      TableSchema schema;
      Status s = TableSchema::Deserialize(schema_text->second, &schema);
      if (!s.ok()) return s;
      std::shared_ptr<FileDictionarySet> dictionaries;
      if (root_.at(FileBlock::kFileDictionaries).present()) {
        std::string raw;
        dictionaries = std::make_shared<FileDictionarySet>();
        s = ReadMetaBlock(FileBlock::kFileDictionaries, &raw);
        if (s.ok()) s = FileDictionarySet::Decode(raw, dictionaries.get());
        if (!s.ok()) return s;
        dictionary_bytes_ = dictionaries->MemoryUsage();
        file_dictionaries_ = dictionaries;
      }
      layout_ = std::make_unique<TypedLayout>(std::move(schema), std::move(dictionaries),
                                              root_.layout_id);
      return Status::OK();
    }
    default:
      return Status::Corruption("ColumnarTable: unknown row layout");
  }
}

rocksdb::Status ColumnarTableReader::ReadAt(uint64_t offset, uint64_t size,
                                            std::string* out) const {
  if (offset > file_size_ || size > file_size_ - offset) {
    return Status::Corruption("ColumnarTable: read outside the file");
  }
  out->resize(size);
  return ReadInto(offset, size, &(*out)[0]);
}

rocksdb::Status ColumnarTableReader::ReadInto(uint64_t offset, uint64_t size, char* out) const {
  if (offset > file_size_ || size > file_size_ - offset) {
    return Status::Corruption("ColumnarTable: read outside the file");
  }
  if (size == 0) return Status::OK();  // no read, and no copy from a null result
  // Always read into `out`: with direct I/O and no aligned buffer, RocksDB reads into its own
  // aligned buffer and copies the bytes into this scratch before it frees that buffer. (Passing
  // an AlignedBuf would make the result point into memory this function must then keep alive.)
  Slice result;
  const rocksdb::IOStatus s = file_->Read(rocksdb::IOOptions(), offset, size, &result, out, nullptr,
                                          rocksdb::Env::IO_TOTAL);
  if (!s.ok()) return s;
  if (result.size() != size) return Status::Corruption("ColumnarTable: truncated read");
  if (result.data() != out) std::memcpy(out, result.data(), size);
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::ReadStoredBlock(const BlockLocation& location, bool verify,
                                                     std::string* stored) const {
  Status s = ReadAt(location.offset, location.size, stored);
  if (s.ok() && verify) s = VerifyBlockChecksum(*stored);
  return s;
}

rocksdb::Status ColumnarTableReader::ReadMetaBlock(FileBlock block, std::string* raw) const {
  std::string stored;
  Status s = ReadStoredBlock(root_.at(block), true, &stored);
  if (!s.ok()) return s;
  // A compressed block is decompressed into *raw; one stored raw is its own payload, the bytes
  // `stored` begins with (data_block.h), and is kept without a copy.
  Slice contents;
  s = ReadBlock(stored, nullptr, false, raw, &contents);
  if (!s.ok()) return s;
  if (contents.data() == stored.data()) {
    stored.resize(contents.size());
    raw->swap(stored);
  }
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::OpenFilters() {
  const rocksdb::FilterPolicy* policy = settings_->filter_policy();
  if (policy == nullptr) return Status::OK();
  if (root_.at(FileBlock::kKeyFilter).present()) {
    Status s = ReadMetaBlock(FileBlock::kKeyFilter, &key_filter_bytes_);
    if (!s.ok()) return s;
    key_filter_.reset(policy->GetFilterBitsReader(key_filter_bytes_));
  }
  if (root_.at(FileBlock::kPartitionFilter).present()) {
    Status s = ReadMetaBlock(FileBlock::kPartitionFilter, &partition_filter_bytes_);
    if (!s.ok()) return s;
    partition_filter_.reset(policy->GetFilterBitsReader(partition_filter_bytes_));
  }
  return Status::OK();
}

ColumnarTableReader::CacheKeyBytes ColumnarTableReader::CacheKey(char kind, uint64_t ordinal,
                                                                 uint64_t detail) const {
  CacheKeyBytes key;
  std::memcpy(key.bytes, root_.file_id.data(), root_.file_id.size());
  char* end = key.bytes + root_.file_id.size();
  *end++ = kind;
  end = columnar::EncodeVarint64(end, ordinal);
  if (kind == 'G' && global_seqno_ != rocksdb::kDisableGlobalSequenceNumber) {
    // Decoded groups carry the sequence number they were opened with.
    end = columnar::EncodeVarint64(end, global_seqno_);
  }
  if (kind == 'K' || kind == 'V') end = columnar::EncodeVarint64(end, detail);
  key.size = static_cast<size_t>(end - key.bytes);
  return key;
}

rocksdb::Status ColumnarTableReader::LoadBlock(uint32_t block,
                                               const rocksdb::ReadOptions& read_options,
                                               CachePin<RawBlock>* out) const {
  rocksdb::Cache* cache = settings_->cache();
  const CacheKeyBytes key = CacheKey('B', block);
  *out = CachePin<RawBlock>::Lookup(cache, key);
  if (*out) return Status::OK();
  if (read_options.read_tier == rocksdb::kBlockCacheTier) {
    return Status::Incomplete("ColumnarTable: block not in cache and no I/O allowed");
  }
  // The stored and the decompressed block go to buffers that are not zero-filled first: a
  // point read that misses the cache reads a whole block for one row, and clearing both
  // buffers cost about a tenth of such a read.
  const uint64_t offset = index_.block_offset(block);
  const uint64_t stored_size = index_.block_size(block);
  if (offset > file_size_ || stored_size > file_size_ - offset) {
    return Status::Corruption("ColumnarTable: read outside the file");
  }
  std::unique_ptr<char[]> stored(new char[stored_size]);
  Status s = ReadInto(offset, stored_size, stored.get());
  const Slice stored_bytes(stored.get(), stored_size);
  if (s.ok() && read_options.verify_checksums) s = VerifyBlockChecksum(stored_bytes);
  if (!s.ok()) return s;
  auto raw_block = std::make_unique<RawBlock>();
  raw_block->file_id = root_.file_id;
  raw_block->ordinal = block;
  Slice raw;
  s = ReadBlock(stored_bytes, dictionary_.get(), false, &raw_block->buffer, &raw);
  if (!s.ok()) return s;
  raw_block->size = raw.size();
  raw_block->allocated = raw.size();
  if (raw.data() == stored.get()) {
    // Stored uncompressed: keep the payload (the trailer stays, unused, at the buffer's end).
    raw_block->buffer = std::move(stored);
    raw_block->allocated = stored_size;
  }
  const size_t charge = raw_block->MemoryUsage();
  *out = CachePin<RawBlock>::Insert(read_options.fill_cache ? cache : nullptr, key,
                                    std::move(raw_block), charge);
  return Status::OK();
}

bool ColumnarTableReader::StoredBlockHolding(uint32_t block, const rocksdb::Slice& raw,
                                             const RawBlock* held, std::string* stored) const {
  if (block >= index_.num_blocks() ||
      !ReadStoredBlock(BlockLocation{index_.block_offset(block), index_.block_size(block)},
                       /*verify=*/true, stored)
           .ok()) {
    return false;
  }
  if (held != nullptr && held->file_id == root_.file_id && held->ordinal == block) {
    return held->bytes() == raw;
  }
  std::string buffer;
  Slice decoded;
  return ReadBlock(*stored, dictionary_.get(), false, &buffer, &decoded).ok() && decoded == raw;
}

rocksdb::Status ColumnarTableReader::ViewRowGroup(size_t group,
                                                  const rocksdb::ReadOptions& read_options,
                                                  CachePin<RawBlock>* block,
                                                  RowGroupView* view) const {
  return ViewRowGroup(group, read_options, BlockCaching::kAsReadOptions, block, view);
}

rocksdb::Status ColumnarTableReader::ViewRowGroup(size_t group,
                                                  const rocksdb::ReadOptions& read_options,
                                                  BlockCaching block_caching,
                                                  CachePin<RawBlock>* block,
                                                  RowGroupView* view) const {
  // Consecutive groups mostly share a block: *block is kept when it already holds this one.
  const uint32_t block_ordinal = index_.block_of(group);
  if (!*block || (*block)->ordinal != block_ordinal) {
    block->Reset();
    Status s;
    if (block_caching == BlockCaching::kUncached && read_options.fill_cache) {
      rocksdb::ReadOptions uncached = read_options;
      uncached.fill_cache = false;
      s = LoadBlock(block_ordinal, uncached, block);
    } else {
      s = LoadBlock(block_ordinal, read_options, block);
    }
    if (!s.ok()) return s;
  }
  return ParseRowGroup(group, (*block)->bytes(), read_options.fill_cache, view);
}

namespace {

uint64_t WantedMask(const ScanColumnsWanted& wanted) {
  return (wanted.partitions ? 1u : 0u) | (wanted.clustering ? 2u : 0u) |
         (wanted.write_times ? 4u : 0u) | (wanted.expiries ? 8u : 0u);
}

}  // namespace

CachePin<TypedGroupColumns> ColumnarTableReader::CachedScanKeyColumns(
    size_t group, const ScanColumnsWanted& wanted) const {
  return CachePin<TypedGroupColumns>::Lookup(settings_->cache(),
                                             CacheKey('K', group, WantedMask(wanted)));
}

rocksdb::Status ColumnarTableReader::DecodeScanKeyColumns(size_t group, const RowGroupView& view,
                                                          const ScanColumnsWanted& wanted,
                                                          bool fill_cache,
                                                          CachePin<TypedGroupColumns>* out) const {
  auto columns = std::make_unique<TypedGroupColumns>();
  Status s = static_cast<const TypedLayout&>(*layout_).DecodeScanColumns(
      view, index_.first_key(group), columns.get(), wanted);
  if (!s.ok()) return s;
  const size_t charge = columns->MemoryUsage();
  *out = CachePin<TypedGroupColumns>::Insert(fill_cache ? settings_->cache() : nullptr,
                                             CacheKey('K', group, WantedMask(wanted)),
                                             std::move(columns), charge);
  return Status::OK();
}

CachePin<ColumnVector> ColumnarTableReader::CachedScanColumn(size_t group,
                                                             uint32_t column_id) const {
  return CachePin<ColumnVector>::Lookup(settings_->cache(), CacheKey('V', group, column_id));
}

rocksdb::Status ColumnarTableReader::DecodeScanColumn(size_t group, const RowGroupView& view,
                                                      uint32_t column_id,
                                                      const uint64_t* wanted_rows, bool fill_cache,
                                                      CachePin<ColumnVector>* out) const {
  auto column = std::make_unique<ColumnVector>();
  Status s = static_cast<const TypedLayout&>(*layout_).DecodeScanRegularColumn(
      view, column_id, wanted_rows, column.get());
  if (!s.ok()) return s;
  const size_t charge = column->MemoryUsage();
  rocksdb::Cache* cache = fill_cache && wanted_rows == nullptr ? settings_->cache() : nullptr;
  *out = CachePin<ColumnVector>::Insert(cache, CacheKey('V', group, column_id), std::move(column),
                                        charge);
  return Status::OK();
}

bool ColumnarTableReader::ScanColumnsHot(size_t group) const {
  std::atomic<uint8_t>& scans = group_scans_[group];
  const uint8_t before = scans.load(std::memory_order_relaxed);
  if (before < UINT8_MAX) scans.store(before + 1, std::memory_order_relaxed);
  return before > 0 || cache_room_.HasRoom(settings_->cache());
}

rocksdb::Status ColumnarTableReader::LoadRowGroup(size_t group,
                                                  const rocksdb::ReadOptions& read_options,
                                                  CachePin<RawBlock>* block,
                                                  CachePin<DecodedRowGroup>* out,
                                                  DecodeFor purpose) const {
  *out = CachePin<DecodedRowGroup>::Lookup(settings_->cache(), CacheKey('G', group));
  if (*out) return Status::OK();
  return DecodeAndCacheRowGroup(group, read_options, purpose, block, out);
}

rocksdb::Status ColumnarTableReader::DecodeAndCacheRowGroup(
    size_t group, const rocksdb::ReadOptions& read_options, DecodeFor purpose,
    CachePin<RawBlock>* block, CachePin<DecodedRowGroup>* out) const {
  // A block of this group alone is not needed in the cache while the decoded group is there
  // (reads look the group up first): it is not cached when read for this decode, and dropped
  // from the cache when it was, which keeps the group's charge near its block's, one copy as
  // BlockBasedTable's cache holds, instead of two. (*block stays pinned.)
  const uint32_t block_ordinal = index_.block_of(group);
  RowGroupView view;
  Status s = ViewRowGroup(
      group, read_options,
      AloneInBlock(group) ? BlockCaching::kUncached : BlockCaching::kAsReadOptions, block, &view);
  if (!s.ok()) return s;
  std::unique_ptr<DecodedRowGroup> decoded;
  s = purpose == DecodeFor::kCopy
          ? layout_->DecodeRowGroupForCopy(view, index_.first_key(group), &decoded)
          : layout_->DecodeRowGroup(view, index_.first_key(group), &decoded);
  if (s.ok() && global_seqno_ != rocksdb::kDisableGlobalSequenceNumber) {
    decoded->AssignSequence(global_seqno_);
  }
  if (s.ok()) s = CheckKeys(group, 0, *decoded);
  if (s.ok()) s = AttachOversizedValues(group, read_options, &decoded);
  if (!s.ok()) return s;
  RecordGroupBoundary(group, *decoded);
  // The search prefixes need bytewise order; CheckKeys has just checked the order.
  if (purpose == DecodeFor::kPointReads &&
      comparator_.user_comparator() == rocksdb::BytewiseComparator()) {
    decoded->BuildSearchPrefixes();
  }
  const size_t charge = decoded->MemoryUsage();
  rocksdb::Cache* cache = read_options.fill_cache ? settings_->cache() : nullptr;
  *out = CachePin<DecodedRowGroup>::Insert(cache, CacheKey('G', group), std::move(decoded), charge);
  if (cache != nullptr && AloneInBlock(group)) cache->Erase(CacheKey('B', block_ordinal));
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::LoadRowsForPointRead(
    size_t group, const rocksdb::Slice& target, bool same_user_key,
    const rocksdb::ReadOptions& read_options, CachePin<RawBlock>* block, PointRows* out) const {
  rocksdb::Cache* cache = settings_->cache();
  out->rows = CachePin<DecodedRowGroup>::Lookup(cache, CacheKey('G', group));
  if (!out->rows) {
    const uint32_t block_ordinal = index_.block_of(group);
    if (*block && (*block)->ordinal != block_ordinal) block->Reset();
    if (!*block) *block = CachePin<RawBlock>::Lookup(cache, CacheKey('B', block_ordinal));
    // Decoding a group whole costs about three reads of its key columns, and then makes every
    // read of it a binary search: like renting before buying, a group is decoded whole once
    // its block has served that many point reads from the cache (a cache that holds the data
    // ends with every group decoded; one much smaller than the data rarely decodes any).
    // Ingested files (global sequence number) and groups with oversized values always take
    // the whole-group path, which handles both.
    // While the cache has room to spare, nothing is evicted for the decoded group: it is
    // decoded whole at once (db_bench readrandom, 1M keys, 1 GiB cache: the three reads of
    // the key columns before cost more than the whole decode saves on the group's later
    // reads).
    const bool hot = (*block && (*block)->cached_point_reads.fetch_add(
                                    1, std::memory_order_relaxed) >= kCachedReadsBeforeDecoding) ||
                     cache_room_.HasRoom(read_options.fill_cache ? cache : nullptr);
    const bool cold = !hot && global_seqno_ == rocksdb::kDisableGlobalSequenceNumber &&
                      !HasOversizedValues(group);
    if (cold) {
      Status s = ReadRowsOfColdGroup(group, target, same_user_key, read_options, block, out);
      if (!s.IsNotSupported()) return s;
    }
    Status s =
        DecodeAndCacheRowGroup(group, read_options, DecodeFor::kPointReads, block, &out->rows);
    if (!s.ok()) return s;
  }
  out->whole = true;
  out->first_row = 0;
  out->group_rows = out->rows->row_count();
  out->position = LowerBound(*out->rows.get(), target);
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::ReadRowsOfColdGroup(size_t group, const rocksdb::Slice& target,
                                                         bool same_user_key,
                                                         const rocksdb::ReadOptions& read_options,
                                                         CachePin<RawBlock>* block,
                                                         PointRows* out) const {
  ColdReadScratch scratch;
  RowGroupView& view = scratch.view();
  Status s = ViewRowGroup(group, read_options, block, &view);
  if (!s.ok()) return s;
  std::unique_ptr<GroupKeys>& keys = scratch.keys();
  s = layout_->DecodeKeys(view, index_.first_key(group), &keys);
  if (!s.ok()) return s;
  // Internal-key order is user key ascending, then trailer descending: the bound is found
  // among user keys first, then among the trailers of target's own user key only (usually
  // one row), so no other row's trailer is read.
  const rocksdb::Comparator* user_comparator = comparator_.user_comparator();
  const rocksdb::Slice target_user_key = rocksdb::ExtractUserKey(target);
  const uint64_t target_trailer = rocksdb::ExtractInternalKeyFooter(target);
  const size_t rows = keys->row_count();
  size_t begin = 0;
  size_t hi = rows;
  // Bytewise keys: found by the key columns without assembling keys (BytewiseLowerBound).
  if (user_comparator == rocksdb::BytewiseComparator() &&
      keys->BytewiseLowerBound(target_user_key, &begin)) {
    hi = begin;
  }
  while (begin < hi) {
    const size_t mid = begin + (hi - begin) / 2;
    if (user_comparator->Compare(keys->UserKey(mid), target_user_key) < 0) {
      begin = mid + 1;
    } else {
      hi = mid;
    }
  }
  size_t versions_end = begin;
  while (versions_end < rows &&
         user_comparator->Compare(keys->UserKey(versions_end), target_user_key) == 0) {
    versions_end++;
  }
  if (versions_end > begin) {
    const uint64_t* trailers = nullptr;
    s = keys->Trailers(begin, versions_end, &trailers);
    if (!s.ok()) return s;
    const size_t versions = versions_end - begin;
    // Versions the read skips are checked too: a forged sequence number must not hide.
    for (size_t i = 0; i < versions; i++) {
      s = CheckTrailer(trailers[i]);
      if (!s.ok()) return s;
    }
    size_t newer = 0;
    while (newer < versions && trailers[newer] > target_trailer) newer++;
    begin += newer;
  }
  size_t end = begin;
  if (same_user_key) {
    // Every version of target's user key from the bound on (a Get reads them until one
    // decides it); a timestamp is part of the version, not of the key.
    while (end < rows &&
           user_comparator->EqualWithoutTimestamp(keys->UserKey(end), target_user_key)) {
      end++;
    }
  } else if (end < rows) {
    end++;
  }
  std::unique_ptr<DecodedRowGroup> decoded;
  s = layout_->DecodeRows(view, *keys, begin, end, &decoded);
  if (s.ok()) s = CheckKeys(group, begin, *decoded);
  if (!s.ok()) return s;
  out->rows = CachePin<DecodedRowGroup>(std::move(decoded));
  out->whole = false;
  out->first_row = begin;
  out->group_rows = rows;
  out->position = 0;
  return Status::OK();
}

size_t ColumnarTableReader::LowerBound(const DecodedRowGroup& group,
                                       const rocksdb::Slice& target) const {
  size_t lo = 0;
  size_t hi = group.row_count();
  if (group.has_search_prefixes()) {
    group.NarrowBySearchPrefix(rocksdb::ExtractUserKey(target), &lo, &hi);
  }
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (comparator_.Compare(group.internal_key(mid), target) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

const TypedLayout* ColumnarTableReader::typed_layout() const {
  return TypedLayout::IsTypedId(root_.layout_id) ? static_cast<const TypedLayout*>(layout_.get())
                                                 : nullptr;
}

rocksdb::Status ColumnarTableReader::SkippableZoneMaps(size_t group, bool fill_cache,
                                                       CachePin<ZoneMapSet>* out,
                                                       bool* usable) const {
  *usable = group < zone_maps_.size() && global_seqno_ == rocksdb::kDisableGlobalSequenceNumber &&
            (zone_maps_[group].flags & kZoneMapGroupSkippable) != 0;
  if (!*usable) return Status::OK();
  return LoadZoneMaps(group, fill_cache, out);
}

rocksdb::Status ColumnarTableReader::GroupZoneMaps(size_t group, bool fill_cache,
                                                   CachePin<ZoneMapSet>* out,
                                                   bool* only_sequence_zero_puts) const {
  *only_sequence_zero_puts = false;
  if (group >= zone_maps_.size()) return Status::NotFound("ColumnarTable: no zone maps");
  *only_sequence_zero_puts = (zone_maps_[group].flags & kZoneMapGroupSkippable) != 0;
  return LoadZoneMaps(group, fill_cache, out);
}

const ScanSpec* ColumnarTableReader::PushdownSpecOf(
    const rocksdb::ReadOptions& read_options) const {
  if (!TypedLayout::IsTypedId(root_.layout_id) || !read_options.table_filter) return nullptr;
  const auto* filter = read_options.table_filter.target<PushdownTableFilter>();
  return filter != nullptr ? filter->spec().get() : nullptr;
}

rocksdb::Status ColumnarTableReader::LoadRowGroupForScan(size_t group,
                                                         const rocksdb::ReadOptions& read_options,
                                                         const ScanSpec* spec,
                                                         CachePin<RawBlock>* block,
                                                         CachePin<DecodedRowGroup>* out) const {
  // A group with oversized values is read whole: filtered decoding would lose them, and
  // returning rows a predicate rejects is allowed (pushdown.h).
  if (spec == nullptr || HasOversizedValues(group)) {
    return LoadRowGroup(group, read_options, block, out);
  }
  const bool global_sequence = global_seqno_ != rocksdb::kDisableGlobalSequenceNumber;
  // Without a predicate only expiry can rule the group out; once its zone maps have been read,
  // the group's expiry is known without them (no cache lookup for every point read).
  if (spec->predicate == nullptr && group < zone_maps_.size()) {
    const int64_t expired_from = group_expired_from_[group].load(std::memory_order_relaxed);
    if (expired_from != kExpiryUnknown &&
        (spec->now_seconds == INT64_MIN || spec->now_seconds < expired_from)) {
      return LoadRowGroup(group, read_options, block, out);
    }
  }
  CachePin<ZoneMapSet> zone_maps;
  if (group < zone_maps_.size()) {
    Status s = LoadZoneMaps(group, read_options.fill_cache, &zone_maps);
    if (!s.ok()) return s;
    group_expired_from_[group].store(ExpiredFrom(*zone_maps.get()), std::memory_order_relaxed);
    const bool skippable =
        !global_sequence && (zone_maps_[group].flags & kZoneMapGroupSkippable) != 0;
    if (RowGroupRuledOut(*spec, skippable, *zone_maps.get())) {
      spec->counters->row_groups_pruned++;
      *out = CachePin<DecodedRowGroup>(NewEmptyRowGroup());
      return Status::OK();
    }
  }
  // Without a predicate the spec only hides expired groups: the cached decoded group serves.
  if (spec->predicate == nullptr) return LoadRowGroup(group, read_options, block, out);

  RowGroupView view;
  Status s = ViewRowGroup(group, read_options, block, &view);
  if (!s.ok()) return s;
  FilteredRowGroupInput input;
  input.view = &view;
  input.layout = static_cast<const TypedLayout*>(layout_.get());
  input.first_internal_key = index_.first_key(group);
  input.zone_maps = zone_maps.get();
  if (global_sequence) input.global_sequence = global_seqno_;
  std::unique_ptr<DecodedRowGroup> decoded;
  s = DecodeFilteredRowGroup(*spec, input, &decoded);
  if (s.ok() && global_sequence) decoded->AssignSequence(global_seqno_);
  if (s.ok()) s = CheckKeys(group, 0, *decoded);
  if (!s.ok()) return s;
  *out = CachePin<DecodedRowGroup>(std::move(decoded));
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::CheckKeys(size_t group, size_t first_row,
                                               const DecodedRowGroup& decoded) const {
  // RocksDB's iterators assert on out-of-order keys, and a value type a table never holds
  // misleads its Get, iterators and compactions (a range deletion type among point entries
  // reads as a deletion; unknown types reach switches that assert): damage that escaped the
  // checksums (reads with verify_checksums off, or a forged file) must surface as Corruption
  // instead, before any entry is handed to RocksDB. The format layer keeps the type byte
  // opaque; only here is it RocksDB's.
  // Sequence numbers: every one at most the file's largest (an ingested file's entries all
  // carry its global one instead).
  for (size_t row = 0; row < decoded.row_count(); row++) {
    Status s = CheckTrailer(decoded.trailer(row));
    if (!s.ok()) return s;
  }
  if (comparator_.user_comparator() == rocksdb::BytewiseComparator()) {
    // InternalKeyComparator's order, inline: user keys ascending, then trailers descending
    // (its virtual calls per row were a fifth of decoding a group whole).
    for (size_t row = 1; row < decoded.row_count(); row++) {
      const int order = decoded.user_key(row - 1).compare(decoded.user_key(row));
      if (order > 0 || (order == 0 && decoded.trailer(row - 1) <= decoded.trailer(row))) {
        return Status::Corruption("ColumnarTable: keys out of order in a row group");
      }
    }
  } else {
    for (size_t row = 1; row < decoded.row_count(); row++) {
      if (comparator_.Compare(decoded.internal_key(row - 1), decoded.internal_key(row)) >= 0) {
        return Status::Corruption("ColumnarTable: keys out of order in a row group");
      }
    }
  }
  if (decoded.row_count() == 0) return Status::OK();
  // Rows after the group's first (whose key the layout checked against the index) lie above
  // it; the last lies below the next group.
  if (first_row > 0 && comparator_.Compare(first_key(group), decoded.internal_key(0)) >= 0) {
    return Status::Corruption("ColumnarTable: keys out of order in a row group");
  }
  if (group + 1 < index_.num_row_groups() &&
      comparator_.Compare(decoded.internal_key(decoded.row_count() - 1), first_key(group + 1)) >=
          0) {
    return Status::Corruption("ColumnarTable: row group overlaps the next one");
  }
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::CheckTrailer(uint64_t trailer) const {
  const uint64_t largest = global_seqno_ == rocksdb::kDisableGlobalSequenceNumber
                               ? largest_sequence_
                               : rocksdb::kMaxSequenceNumber;
  if (!rocksdb::IsValueType(static_cast<rocksdb::ValueType>(trailer & 0xff))) {
    return Status::Corruption("ColumnarTable: entry of an invalid value type");
  }
  if ((trailer >> 8) > largest) {
    return Status::Corruption("ColumnarTable: sequence number above the file's largest");
  }
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::LoadZoneMaps(size_t group, bool fill_cache,
                                                  CachePin<ZoneMapSet>* out) const {
  rocksdb::Cache* cache = settings_->cache();
  const CacheKeyBytes key = CacheKey('Z', group);
  *out = CachePin<ZoneMapSet>::Lookup(cache, key);
  if (*out) return Status::OK();
  auto decoded = std::make_unique<ZoneMapSet>();
  Status s = ZoneMapSet::Decode(zone_maps_[group].encoded, decoded.get());
  if (!s.ok()) return s;
  // Decoded maps hold a few small values per column; charge a multiple of the encoding. A
  // compaction (fill_cache=false) decodes every group's maps for its anchors: cached, they
  // filled the cache with ~100-byte entries of files about to be deleted, which the first
  // reads after a load then evicted a hundred per block (metrics `latest` at one reader, the
  // round after the load: 0.09x A's queries per second, 1.0x-1.2x in later rounds).
  const size_t charge = sizeof(ZoneMapSet) + 4 * zone_maps_[group].encoded.size();
  *out =
      CachePin<ZoneMapSet>::Insert(fill_cache ? cache : nullptr, key, std::move(decoded), charge);
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::GroupBytesIn(size_t group, const rocksdb::Slice& block_bytes,
                                                  rocksdb::Slice* bytes) const {
  const uint32_t begin = index_.offset_in_block(group);
  const uint32_t end_mark = index_.end_in_block(group);
  const size_t end = end_mark == 0 ? block_bytes.size() : end_mark;
  if (begin >= end || end > block_bytes.size()) {
    return Status::Corruption("ColumnarTable: row group outside its block");
  }
  *bytes = rocksdb::Slice(block_bytes.data() + begin, end - begin);
  return Status::OK();
}

rocksdb::Status ColumnarTableReader::ParseRowGroup(size_t group, const rocksdb::Slice& block_bytes,
                                                   bool fill_cache, RowGroupView* view) const {
  rocksdb::Slice bytes;
  Status s = GroupBytesIn(group, block_bytes, &bytes);
  if (s.ok()) s = view->Parse(bytes);
  if (s.ok() && view->size() != bytes.size()) {
    return Status::Corruption("ColumnarTable: row group size");
  }
  if (s.ok() && view->row_count() > rows_per_group_) {
    return Status::Corruption("ColumnarTable: row group holds more rows than rows_per_group");
  }
  if (s.ok() && view->anchored_count() > 0) s = SetAnchors(group, fill_cache, view);
  return s;
}

uint64_t ColumnarTableReader::StoredFullGroupBytes() const {
  const uint64_t rows = properties_->num_entries;
  if (rows == 0) return 0;
  return static_cast<uint64_t>(static_cast<double>(properties_->data_size) /
                               static_cast<double>(rows) * rows_per_group_);
}

bool ColumnarTableReader::RowGroupsCopyableWith(const TableSettings& settings) const {
  if (!TypedLayout::IsTypedId(root_.layout_id) ||
      global_seqno_ != rocksdb::kDisableGlobalSequenceNumber || settings.schema() == nullptr) {
    return false;
  }
  const auto& props = properties_->user_collected_properties;
  const auto options = props.find(kPassThroughProperty);
  const auto schema = props.find(kSchemaProperty);
  return options != props.end() && schema != props.end() &&
         options->second == settings.pass_through_options() &&
         schema->second == settings.schema_text();
}

rocksdb::Status ColumnarTableReader::CopyRowGroupBytes(size_t group, const RawBlock* held,
                                                       const rocksdb::ReadOptions& read_options,
                                                       CachePin<RawBlock>* block,
                                                       std::string* out) const {
  if (group >= index_.num_row_groups()) return Status::InvalidArgument("no such row group");
  if (!HoldsBlockOf(held, group)) {
    if (!HoldsBlockOf(block->get(), group)) {
      block->Reset();
      Status s = LoadBlock(index_.block_of(group), read_options, block);
      if (!s.ok()) return s;
    }
    held = block->get();
  }
  rocksdb::Slice bytes;
  Status s = GroupBytesIn(group, held->bytes(), &bytes);
  if (s.ok()) out->append(bytes.data(), bytes.size());
  return s;
}

size_t ColumnarTableReader::EncodedGroupBytes(size_t group, const RawBlock* held) const {
  if (group >= index_.num_row_groups()) return SIZE_MAX;
  const uint32_t begin = index_.offset_in_block(group);
  const uint32_t end_mark = index_.end_in_block(group);
  if (end_mark != 0) return end_mark > begin ? end_mark - begin : SIZE_MAX;
  rocksdb::Slice bytes;
  return HoldsBlockOf(held, group) && GroupBytesIn(group, held->bytes(), &bytes).ok() ? bytes.size()
                                                                                      : SIZE_MAX;
}

bool ColumnarTableReader::HoldsBlockOf(const RawBlock* block, size_t group) const {
  // Block ordinals repeat from file to file: the file id tells this file's block 0 from another's.
  return block != nullptr && block->ordinal == index_.block_of(group) &&
         block->file_id == root_.file_id;
}

rocksdb::Status ColumnarTableReader::SetAnchors(size_t group, bool fill_cache,
                                                RowGroupView* view) const {
  // Anchored chunks were written against the column's minimum in the group's zone map.
  const TypedLayout* layout = typed_layout();
  if (layout == nullptr || group >= zone_maps_.size()) {
    return Status::Corruption("ColumnarTable: anchored chunk without zone maps");
  }
  CachePin<ZoneMapSet> zone_maps;
  Status s = LoadZoneMaps(group, fill_cache, &zone_maps);
  if (!s.ok()) return s;
  for (size_t i = 0; i < view->anchored_count(); i++) {
    const uint32_t slot = view->anchored_slot(i);
    uint32_t column_id;
    const ZoneMap* zone_map =
        layout->RegularColumnOfSlot(slot, &column_id) ? zone_maps.get()->Find(column_id) : nullptr;
    if (zone_map == nullptr || zone_map->type == PhysicalType::kBytes ||
        zone_map->non_null_count() == 0 || zone_map->has_value_set) {
      return Status::Corruption("ColumnarTable: anchored chunk without its zone-map minimum");
    }
    view->SetAnchor(slot, zone_map->min.bits);
  }
  return Status::OK();
}

const PartitionDirectory* ColumnarTableReader::Directory() const {
  if (next_partition_lengths_ == nullptr) return nullptr;  // typed layout, bytewise keys
  std::call_once(partition_directory_once_, [this] {
    partition_directory_ = PartitionDirectory::Build(
        index_.num_row_groups(), [this](size_t group, const Slice* previous, Slice* partition) {
          return layout_->NextPartitionOf(rocksdb::ExtractUserKey(first_key(group)), previous,
                                          partition);
        });
    if (partition_directory_ != nullptr) {
      partition_directory_bytes_.store(partition_directory_->ApproximateMemoryUsage(),
                                       std::memory_order_relaxed);
    }
  });
  return partition_directory_.get();
}

bool ColumnarTableReader::GroupForSeekInPartition(const rocksdb::Slice& target,
                                                  size_t* group) const {
  const PartitionDirectory* directory = Directory();
  rocksdb::Slice partition;
  if (directory == nullptr || !layout_->PartitionOf(rocksdb::ExtractUserKey(target), &partition)) {
    return false;
  }
  const PartitionDirectory::Run* run = directory->Find(partition);
  if (run == nullptr) return false;
  const rocksdb::Slice run_first = first_key(run->first_group);
  // Another partition with the same hash.
  if (!rocksdb::ExtractUserKey(run_first).starts_with(partition)) return false;
  // Groups before the run begin in earlier partitions, below every key of target's; groups
  // after it in later ones, above them. A seek to the partition's start ends here.
  if (comparator_.Compare(run_first, target) > 0) {
    *group = run->first_group == 0 ? 0 : run->first_group - 1;
    return true;
  }
  *group = FirstGroupAbove(target, run->first_group + 1, run->first_group + run->groups) - 1;
  return true;
}

size_t ColumnarTableReader::FirstGroupAbove(const rocksdb::Slice& target, size_t lo,
                                            size_t hi) const {
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (comparator_.Compare(first_key(mid), target) <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

size_t ColumnarTableReader::GroupForSeek(const rocksdb::Slice& target) const {
  size_t in_partition;
  if (GroupForSeekInPartition(target, &in_partition)) return in_partition;
  const size_t above = FirstGroupAbove(target, 0, index_.num_row_groups());
  return above == 0 ? 0 : above - 1;
}

rocksdb::Status ColumnarTableReader::GroupForLowerBound(const rocksdb::Slice& target,
                                                        const rocksdb::ReadOptions& read_options,
                                                        CachePin<RawBlock>* block,
                                                        size_t* group) const {
  *group = GroupForSeek(target);
  if (next_partition_lengths_ == nullptr || *group + 1 >= index_.num_row_groups()) {
    return Status::OK();
  }
  if (next_partition_lengths_[*group].load(std::memory_order_relaxed) == kBoundaryUnknown) {
    rocksdb::Slice next_partition;
    if (!layout_->PartitionOf(rocksdb::ExtractUserKey(first_key(*group + 1)), &next_partition) ||
        !rocksdb::ExtractUserKey(target).starts_with(next_partition)) {
      return Status::OK();  // the boundary cannot move this search
    }
    rocksdb::Slice own_partition;
    if (layout_->PartitionOf(rocksdb::ExtractUserKey(first_key(*group)), &own_partition) &&
        own_partition == next_partition) {
      // Both first rows lie in that partition, so every row between them does: no read needed.
      StoreGroupBoundary(*group, true, own_partition);
    } else {
      Status s = LearnGroupBoundary(*group, read_options, block);
      // A read that may not do I/O (kBlockCacheTier) starts in this group as before, which
      // reports what it cannot read in the way the caller expects (Get marks the key as
      // possibly present).
      if (s.IsIncomplete()) return Status::OK();
      if (!s.ok()) return s;
    }
  }
  *group = PastGroupEndingBefore(*group, target);
  return Status::OK();
}

size_t ColumnarTableReader::PastGroupEndingBefore(size_t group,
                                                  const rocksdb::Slice& target) const {
  const uint32_t length = next_partition_lengths_[group].load(std::memory_order_relaxed);
  if (length == kBoundaryUnknown || length == kPartitionContinues) return group;
  // A typed key's partition is a self-delimiting prefix, so the keys starting with one are
  // contiguous. The group's last row L is below the next group's first key F (CheckKeys) and
  // does not start with F's partition: when target does, L, and every row before it, is below
  // target.
  const rocksdb::Slice user_key = rocksdb::ExtractUserKey(target);
  const rocksdb::Slice next_key = rocksdb::ExtractUserKey(first_key(group + 1));
  if (user_key.size() >= length && std::memcmp(user_key.data(), next_key.data(), length) == 0) {
    return group + 1;
  }
  return group;
}

rocksdb::Status ColumnarTableReader::LearnGroupBoundary(size_t group,
                                                        const rocksdb::ReadOptions& read_options,
                                                        CachePin<RawBlock>* block) const {
  // A block read for this group alone is not cached: the group is read whole only if a seek
  // lands in it, and then caches its decoded rows instead (DecodeAndCacheRowGroup).
  RowGroupView view;
  Status s = ViewRowGroup(
      group, read_options,
      AloneInBlock(group) ? BlockCaching::kUncached : BlockCaching::kAsReadOptions, block, &view);
  if (!s.ok()) return s;
  ColumnVector changes(PhysicalType::kBytes);
  rocksdb::Slice last_partition;
  s = DecodeLastPartition(view, rocksdb::ExtractUserKey(first_key(group)), &changes,
                          &last_partition);
  if (!s.ok()) return s;
  StoreGroupBoundary(group, true, last_partition);
  return Status::OK();
}

void ColumnarTableReader::RecordGroupBoundary(size_t group, const DecodedRowGroup& decoded) const {
  if (next_partition_lengths_ == nullptr || group + 1 >= index_.num_row_groups() ||
      decoded.row_count() == 0) {
    return;
  }
  rocksdb::Slice last_partition;
  const bool known =
      layout_->PartitionOf(decoded.user_key(decoded.row_count() - 1), &last_partition);
  StoreGroupBoundary(group, known, last_partition);
}

void ColumnarTableReader::StoreGroupBoundary(size_t group, bool last_known,
                                             const rocksdb::Slice& last_partition) const {
  rocksdb::Slice next_partition;
  const bool ends =
      last_known &&
      layout_->PartitionOf(rocksdb::ExtractUserKey(first_key(group + 1)), &next_partition) &&
      last_partition != next_partition && next_partition.size() > 0 &&
      next_partition.size() < kPartitionContinues;
  next_partition_lengths_[group].store(
      ends ? static_cast<uint32_t>(next_partition.size()) : kPartitionContinues,
      std::memory_order_relaxed);
}

bool ColumnarTableReader::AloneInBlock(size_t group) const {
  const uint32_t block_ordinal = index_.block_of(group);
  return index_.first_group_of_block(block_ordinal) == group &&
         (group + 1 == index_.num_row_groups() || index_.block_of(group + 1) != block_ordinal);
}

bool ColumnarTableReader::PartitionOf(const rocksdb::Slice& user_key,
                                      const rocksdb::SliceTransform* prefix_extractor,
                                      rocksdb::Slice* partition) const {
  if (root_.layout_id != GenericLayout::kId) return layout_->PartitionOf(user_key, partition);
  if (prefix_extractor == nullptr || prefix_extractor->AsString() != partition_extractor_name_ ||
      !prefix_extractor->InDomain(user_key)) {
    return false;
  }
  *partition = prefix_extractor->Transform(user_key);
  return true;
}

bool ColumnarTableReader::PartitionMayMatch(const rocksdb::Slice& partition) const {
  return partition_filter_ == nullptr || partition_filter_->MayMatch(partition);
}

rocksdb::InternalIterator* ColumnarTableReader::NewIterator(
    const rocksdb::ReadOptions& read_options, const rocksdb::SliceTransform* prefix_extractor,
    rocksdb::Arena* arena, bool skip_filters, rocksdb::TableReaderCaller caller,
    size_t /*compaction_readahead_size*/, bool /*allow_unprepared_value*/) {
  const ScanSpec* spec = PushdownSpecOf(read_options);
  // Only a compaction's input shows its groups to the output's builder (compaction_inputs.h),
  // and only when builders of this factory copy groups (otherwise they never look at them, and
  // the columns a group keeps for a copy would be decoded for nothing).
  const bool compaction_input = caller == rocksdb::TableReaderCaller::kCompaction &&
                                settings_->options().copy_row_groups &&
                                TypedLayout::IsTypedId(root_.layout_id) &&
                                global_seqno_ == rocksdb::kDisableGlobalSequenceNumber &&
                                properties_->user_collected_properties.count(kPassThroughProperty);
  if (spec != nullptr && file_stats_ != nullptr && FileRuledOut(*spec, *file_stats_)) {
    spec->counters->files_skipped++;
    return rocksdb::NewEmptyInternalIterator<rocksdb::Slice>(arena);
  }
  if (arena == nullptr) {
    return new ColumnarTableIterator(this, read_options, prefix_extractor, skip_filters, spec,
                                     compaction_input);
  }
  void* memory = arena->AllocateAligned(sizeof(ColumnarTableIterator));
  return new (memory) ColumnarTableIterator(this, read_options, prefix_extractor, skip_filters,
                                            spec, compaction_input);
}

rocksdb::Status ColumnarTableReader::Get(const rocksdb::ReadOptions& read_options,
                                         const rocksdb::Slice& key,
                                         rocksdb::GetContext* get_context,
                                         const rocksdb::SliceTransform* prefix_extractor,
                                         bool skip_filters) {
  const rocksdb::Slice user_key = rocksdb::ExtractUserKey(key);
  if (!skip_filters) {
    if (key_filter_ != nullptr && !key_filter_->MayMatch(user_key)) return Status::OK();
    rocksdb::Slice partition;
    if (PartitionOf(user_key, prefix_extractor, &partition) && !PartitionMayMatch(partition)) {
      return Status::OK();
    }
  }
  const size_t groups = index_.num_row_groups();
  CachePin<RawBlock> block;
  size_t first_group = 0;
  if (groups > 0) {
    Status s = GroupForLowerBound(key, read_options, &block, &first_group);
    if (!s.ok()) return s;
  }
  for (size_t group = first_group; group < groups; group++) {
    // In groups after the first, the bound is row 0.
    PointRows rows;
    Status s = LoadRowsForPointRead(group, key, true, read_options, &block, &rows);
    if (s.IsIncomplete()) {
      get_context->MarkKeyMayExist();
      return s;
    }
    if (!s.ok()) return s;
    for (size_t row = rows.position; row < rows.rows->row_count(); row++) {
      rocksdb::ParsedInternalKey parsed;
      s = rocksdb::ParseInternalKey(rows.rows->internal_key(row), &parsed, false);
      if (!s.ok()) return s;
      bool matched = false;
      if (!get_context->SaveValue(parsed, rows.rows->value(row), &matched)) {
        return Status::OK();
      }
    }
    // The group's next row has another user key: GetContext would stop there.
    if (rows.truncated()) return Status::OK();
  }
  return Status::OK();
}

rocksdb::FragmentedRangeTombstoneIterator* ColumnarTableReader::NewRangeTombstoneIterator(
    const rocksdb::ReadOptions& read_options) {
  if (range_deletions_ == nullptr) return nullptr;
  const rocksdb::SequenceNumber snapshot = read_options.snapshot != nullptr
                                               ? read_options.snapshot->GetSequenceNumber()
                                               : rocksdb::kMaxSequenceNumber;
  return new rocksdb::FragmentedRangeTombstoneIterator(range_deletions_, comparator_, snapshot,
                                                       read_options.timestamp);
}

uint64_t ColumnarTableReader::ApproximateOffsetOf(const rocksdb::Slice& key,
                                                  rocksdb::TableReaderCaller /*caller*/) {
  if (index_.num_row_groups() == 0) return 0;
  const size_t group = GroupForSeek(key);
  if (group == 0 && comparator_.Compare(key, first_key(0)) < 0) return 0;
  const uint32_t block = index_.block_of(group);
  if (group + 1 == index_.num_row_groups() && comparator_.Compare(key, first_key(group)) > 0) {
    // Past the last group's first key: count the last block as before the key.
    return index_.block_offset(block) + index_.block_size(block);
  }
  return index_.block_offset(block);
}

uint64_t ColumnarTableReader::ApproximateSize(const rocksdb::Slice& start,
                                              const rocksdb::Slice& end,
                                              rocksdb::TableReaderCaller caller) {
  const uint64_t start_offset = ApproximateOffsetOf(start, caller);
  const uint64_t end_offset = ApproximateOffsetOf(end, caller);
  return end_offset > start_offset ? end_offset - start_offset : 0;
}

size_t ColumnarTableReader::ApproximateMemoryUsage() const {
  return sizeof(*this) + index_.MemoryUsage() + dictionary_bytes_ + key_filter_bytes_.capacity() +
         oversized_values_.capacity() * sizeof(OversizedValue) +
         partition_filter_bytes_.capacity() + zone_map_bytes_.capacity() +
         zone_maps_.size() * (sizeof(ZoneMapEntry) + sizeof(std::atomic<int64_t>)) +
         (next_partition_lengths_ != nullptr
              ? (index_.num_row_groups() - 1) * sizeof(std::atomic<uint32_t>)
              : 0) +
         partition_directory_bytes_.load(std::memory_order_relaxed) +
         (dictionary_ != nullptr ? dictionary_->raw().size() * 4 : 0);
}

rocksdb::Status ColumnarTableReader::ApproximateKeyAnchors(const rocksdb::ReadOptions& /*ro*/,
                                                           std::vector<Anchor>& anchors) {
  // About 128 anchors at block boundaries, each weighing the rows up to the next one.
  const size_t blocks = index_.num_blocks();
  if (blocks == 0) return Status::OK();
  const size_t step = std::max<size_t>(1, blocks / 128);
  const double weight = RawBytesPerDataByte();
  const size_t first = anchors.size();
  for (size_t b = step; b < blocks + step; b += step) {
    const size_t next = std::min(b, blocks);
    const uint64_t begin = index_.block_offset(static_cast<uint32_t>(b - step));
    const uint64_t end = next < blocks ? index_.block_offset(static_cast<uint32_t>(next))
                                       : index_.block_offset(static_cast<uint32_t>(blocks - 1)) +
                                             index_.block_size(static_cast<uint32_t>(blocks - 1));
    // The anchor key: the first key of the next range (or the file's last first key).
    const size_t group = next < blocks ? index_.first_group_of_block(static_cast<uint32_t>(next))
                                       : index_.num_row_groups() - 1;
    const rocksdb::Slice key = rocksdb::ExtractUserKey(index_.first_key(group));
    const auto size = static_cast<size_t>(static_cast<double>(end - begin) * weight);
    // One user key across ranges (its versions, or a last group that begins the last block):
    // one anchor, which RocksDB would otherwise deduplicate, dropping the later range's size.
    if (anchors.size() > first && anchors.back().user_key == key.ToStringView()) {
      anchors.back().range_size += size;
    } else {
      anchors.emplace_back(key, size);
    }
  }
  return Status::OK();
}

double ColumnarTableReader::RawBytesPerDataByte() const {
  const uint64_t raw = properties_->raw_key_size + properties_->raw_value_size;
  const uint64_t data = properties_->data_size;
  if (data == 0 || raw <= data) return 1.0;
  return static_cast<double>(raw) / static_cast<double>(data);
}

rocksdb::Status ColumnarTableReader::VerifyPatchedGlobalSequence(
    const std::string& properties) const {
  // The properties checksum leaves out the global sequence number RocksDB's ingestion may
  // write in place (write_global_seqno); it must be 0, or the file's largest sequence number
  // from the MANIFEST. Without the MANIFEST (largest unknown) only 0 can be vouched for.
  const uint32_t patch = root_.properties_patch_offset;
  if (patch == 0 || patch - 1 + 8 > properties.size()) return Status::OK();
  const uint64_t written = columnar::DecodeFixed64(properties.data() + patch - 1);
  if (written == 0 || (largest_seqno_ < rocksdb::kMaxSequenceNumber && written == largest_seqno_)) {
    return Status::OK();
  }
  return Status::Corruption("ColumnarTable: global sequence number property damaged");
}

rocksdb::Status ColumnarTableReader::VerifyFooter() const {
  std::string footer_bytes;
  Status s = ReadAt(footer_offset_, file_size_ - footer_offset_, &footer_bytes);
  if (!s.ok()) return s;
  rocksdb::Footer footer;
  s = footer.DecodeFrom(footer_bytes, footer_offset_);
  if (!s.ok()) return s;
  rocksdb::FooterBuilder expected;
  expected.Build(kColumnarTableMagicNumber, kColumnarFooterFormatVersion, footer_offset_,
                 rocksdb::kNoChecksum, footer.metaindex_handle(), footer.index_handle());
  if (expected.GetSlice() != rocksdb::Slice(footer_bytes)) {
    return Status::Corruption("ColumnarTable: footer damaged");
  }
  const BlockLocation& meta_index = root_.at(FileBlock::kMetaIndex);
  if (footer.metaindex_handle().offset() != meta_index.offset ||
      footer.metaindex_handle().size() != meta_index.size) {
    return Status::Corruption("ColumnarTable: footer and root disagree");
  }
  std::string root_block;
  return ReadStoredBlock(
      BlockLocation{footer.index_handle().offset(), footer.index_handle().size()}, true,
      &root_block);
}

rocksdb::Status ColumnarTableReader::VerifyChecksum(const rocksdb::ReadOptions& /*read_options*/,
                                                    rocksdb::TableReaderCaller /*caller*/) {
  Status s = VerifyFooter();
  std::string stored;
  for (uint32_t b = 0; s.ok() && b < index_.num_blocks(); b++) {
    s = ReadStoredBlock(BlockLocation{index_.block_offset(b), index_.block_size(b)}, true, &stored);
  }
  std::string value;
  for (size_t i = 0; s.ok() && i < oversized_values_.size(); i++) {
    s = ReadOversizedValue(oversized_values_[i], true, &value);
  }
  for (size_t i = 0; s.ok() && i < root_.blocks.size(); i++) {
    const auto block = static_cast<FileBlock>(i);
    if (!root_.at(block).present()) continue;
    if (block == FileBlock::kProperties || block == FileBlock::kMetaIndex) {
      s = ReadAt(root_.at(block).offset, root_.at(block).size, &stored);
      const bool properties = block == FileBlock::kProperties;
      const uint32_t expected = properties ? root_.properties_checksum : root_.metaindex_checksum;
      const uint32_t actual = properties ? PropertiesChecksum(stored, root_.properties_patch_offset)
                                         : ComputeChecksum(stored);
      if (s.ok() && actual != expected) s = Status::Corruption("ColumnarTable: meta block damaged");
      if (s.ok() && properties) s = VerifyPatchedGlobalSequence(stored);
    } else {
      s = ReadStoredBlock(root_.at(block), true, &stored);
    }
  }
  return s;
}

}  // namespace columnar
