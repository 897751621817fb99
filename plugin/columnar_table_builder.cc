#include "plugin/columnar_table_builder.h"

#include <algorithm>
#include <random>
#include <set>

#include "db/dbformat.h"
#include "file/writable_file_writer.h"
#include "plugin/pushdown.h"
#include "plugin/range_deletions.h"
#include "plugin/table_file.h"
#include "rocksdb/env.h"
#include "rocksdb/merge_operator.h"
#include "table/format.h"
#include "table/meta_blocks.h"
#include "table_format/checksum.h"
#include "table_format/layout_columns.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

using rocksdb::CompressionType;

// Flushes' files (also those of the WAL's recovery), which compaction rewrites soon.
bool SoonRewritten(rocksdb::TableFileCreationReason reason) {
  return reason == rocksdb::TableFileCreationReason::kFlush ||
         reason == rocksdb::TableFileCreationReason::kRecovery;
}

BlockCodec CodecFor(CompressionType type) {
  switch (type) {
    case rocksdb::kNoCompression:
    case rocksdb::kDisableCompressionOption:
      return BlockCodec::kNone;
    case rocksdb::kSnappyCompression:
    case rocksdb::kLZ4Compression:
    case rocksdb::kLZ4HCCompression:
      // Fast codecs (flush output) map to lz4, the fast codec this format carries.
      return BlockCodec::kLz4;
    default:
      // zstd, and the slower general-purpose codecs, map to zstd.
      return BlockCodec::kZstd;
  }
}

const char* CodecName(BlockCodec codec) {
  switch (codec) {
    case BlockCodec::kNone:
      return "NoCompression";
    case BlockCodec::kLz4:
      return "LZ4";
    case BlockCodec::kZstd:
      return "ZSTD";
    case BlockCodec::kZstdDict:
      return "ZSTD+dictionary";
  }
  return "unknown";
}

int ZstdLevel(const rocksdb::CompressionOptions& options) {
  return options.level == rocksdb::CompressionOptions::kDefaultCompressionLevel ? 3 : options.level;
}

std::array<char, 16> RandomFileId() {
  std::random_device device;
  std::array<char, 16> id;
  for (size_t i = 0; i < id.size(); i += 4) {
    const uint32_t r = device();
    std::memcpy(id.data() + i, &r, 4);
  }
  return id;
}

// The zstd level of the index and zone map blocks at least: 2.3 MB of access16 zone maps take
// 0.14 s at level 9 (0.10 s at 3) and compress to 140 kB instead of 172 kB; metrics' index
// (27,000 groups' first keys) takes 35.9 kB instead of 40.2 kB. Flushes' files, soon rewritten,
// take the file's own level: their zone maps' two layouts compressed at level 9 to pick one
// were 26M of devops' 526M flush instructions.
constexpr int kMetaBlockZstdLevel = 9;

// Compactions in a row that may carry a file's dictionaries over (kDictionaryCarriesProperty):
// entries of rows gone stay in a carried dictionary, so every so many compactions an output
// starts its own.
constexpr uint64_t kMaxDictionaryCarries = 8;
// The least encoded bytes of an input group worth copying. Since the rows before a copy are cut
// with their short group first (see the top), copies add no group, and since an output block
// may stay open to its input block's end (block_copy.h), they add few blocks: metrics' 0.5 kB
// groups of numbers are copied (a load: 4.2955-4.2958 bytes a point over four loads against
// 4.2942 without copies; closing a block at every copy's start, with memos of short chunks,
// made 4.296-4.313).
constexpr size_t kMinCopiedGroupBytes = 256;
// The most groups, and buffered bytes, an output holds back unwritten while an input could
// still seed its dictionaries (KeepAwaitingSeed): access16's compaction outputs met their first
// copyable group after 28-71 groups of new rows (128 of its groups buffer about 6 MB).
constexpr size_t kMaxGroupsAwaitingSeed = 128;
constexpr size_t kMaxBytesAwaitingSeed = 32u << 20;
// The most groups' rows, and buffered bytes, of one partition an output holds uncut while a
// copy may still follow them (HoldsOpenRowsForCopy).
constexpr size_t kMaxGroupsHeldForCopy = 64;
constexpr size_t kMaxBytesHeldForCopy = 16u << 20;
// An output closes at the first group of another input file it cannot copy
// (NextOutputCouldSeedFrom) once it holds at least this share of the target file size, or has
// copied fewer groups than that file has ahead (it took its dictionaries from a small file, or
// from a file's end): a smaller one continues, as each file repeats the dictionaries (about
// 0.45 MB of a 55 MB access16 file).
// A quarter was too much: in access16's final full compaction (three subcompactions, 64 MB
// targets) an output met the next input file's first group at 11-12 MB and encoded 874-1,038
// of that file's groups again. At an eighth, the shape of a load's L0 -> L6 compaction over
// three 8.8 MB files copies 5,380 of its 5,662 groups (2,223 of 5,889 at a quarter), for a
// third output and 0.6% more bytes (README, "An output copies only from the file...").
// C-dict's database of that shape also holds two small files; its second output took its
// dictionaries from the 9-group one, then refused 1,567 groups of the next file. With the rule
// on groups copied it copies 5,378 of its 5,654 groups (2,513 of 5,652 without), in five
// outputs that mirror its input's small files, for 0.75% more bytes.
// Targets from kNoTargetFileSize on are taken as no target at all.
constexpr uint64_t kLeastShareOfTargetToClose = 8;
constexpr uint64_t kNoTargetFileSize = uint64_t{1} << 50;
// Whether two values hold the same bytes. RocksDB's compaction iterator hands the input
// iterator's value through, so a followed row's value is mostly the very bytes the input group
// decoded: the same address needs no compare.
bool SameBytes(const rocksdb::Slice& a, const rocksdb::Slice& b) {
  return a.size() == b.size() && (a.data() == b.data() || a.compare(b) == 0);
}
// Bytes of memory a held-back block set may use before the dictionary must be trained.
size_t HoldLimit(const rocksdb::TableBuilderOptions& options) {
  size_t limit = 64u << 20;
  if (options.target_file_size > 0) limit = std::min<size_t>(limit, options.target_file_size);
  if (options.compression_opts.max_dict_buffer_bytes > 0) {
    limit = std::min<size_t>(limit, options.compression_opts.max_dict_buffer_bytes);
  }
  return limit;
}

}  // namespace

ColumnarTableBuilder::ColumnarTableBuilder(const rocksdb::TableBuilderOptions& options,
                                           rocksdb::WritableFileWriter* file,
                                           std::shared_ptr<const TableSettings> settings,
                                           const Status& settings_status)
    : ioptions_(options.ioptions),
      prefix_extractor_(options.moptions.prefix_extractor),
      compression_opts_(options.compression_opts),
      target_file_size_(options.target_file_size),
      file_(file),
      settings_(std::move(settings)),
      status_(settings_status) {
  if (!status_.ok()) return;
  layout_ = settings_->NewWriteLayout(options.moptions.prefix_extractor);
  file_layout_id_ = layout_->Id();
  partition_cuts_ = PartitionAlignedCuts(settings_->options().rows_per_group);
  if (settings_->schema() != nullptr) {
    zone_maps_ = std::make_unique<ZoneMapCollector>();
    // SUM / AVG of integer columns from row-group statistics (zone_map_collector.h).
    std::set<uint32_t> sum_columns;
    for (const ColumnDef& column : settings_->schema()->columns()) {
      if (!column.is_key() && column.is_live() &&
          (column.type == LogicalType::kInt || column.type == LogicalType::kBigInt)) {
        sum_columns.insert(column.id);
      }
    }
    zone_maps_->set_sum_columns(std::move(sum_columns));
    const TableSchema& schema = *settings_->schema();
    rows_land_first_ = !schema.clustering_key().empty() &&
                       schema.clustering_column(0).order == ClusteringOrder::kDesc;
    // Flushed files are soon rewritten by compaction: they skip the file dictionaries, whose
    // bookkeeping is most of the encoding cost, to keep ingestion fast.
    if (!SoonRewritten(options.reason)) {
      dictionaries_ = std::make_unique<FileDictionaryWriters>();
    }
  }
  // For the same reason their chunks leave out template (ChunkWriteOptions::short_lived):
  // splitting values into templates was 230M of access16's 714M flush instructions.
  soon_rewritten_ = SoonRewritten(options.reason);
  copy_inputs_ = settings_->options().copy_row_groups && !soon_rewritten_ && zone_maps_ != nullptr;
  awaiting_seed_ = copy_inputs_ && dictionaries_ != nullptr;
  compressor_.codec = CodecFor(options.compression_type);
  if (soon_rewritten_) {
    short_lived_settings_ = std::make_unique<ShortLivedColumnSettings>(
        &settings_->columns(), /*lz4_blocks=*/compressor_.codec == BlockCodec::kLz4);
  }
  compressor_.level = ZstdLevel(options.compression_opts);
  if (compressor_.codec == BlockCodec::kZstd && options.compression_opts.max_dict_bytes > 0) {
    training_dictionary_ = true;
    hold_limit_ = HoldLimit(options);
  }

  if (const rocksdb::FilterPolicy* policy = settings_->filter_policy()) {
    rocksdb::BlockBasedTableOptions filter_table_options;
    rocksdb::FilterBuildingContext context(filter_table_options);
    context.column_family_name = options.column_family_name;
    context.level_at_creation = options.level_at_creation;
    context.is_bottommost = options.is_bottommost;
    context.reason = options.reason;
    context.info_log = options.ioptions.logger;
    if (settings_->options().whole_key_filter) {
      key_filter_.reset(policy->GetBuilderWithContext(context));
    }
    if (settings_->options().partition_filter) {
      partition_filter_.reset(policy->GetBuilderWithContext(context));
    }
    if (key_filter_ != nullptr || partition_filter_ != nullptr) {
      properties_.filter_policy_name = policy->Name();
    }
  }

  rocksdb::TableProperties& p = properties_;
  p.column_family_id = options.column_family_id;
  p.column_family_name = options.column_family_name;
  p.oldest_key_time = options.oldest_key_time;
  p.file_creation_time = options.file_creation_time;
  p.orig_file_number = options.cur_file_num;
  p.db_id = options.db_id;
  p.db_session_id = options.db_session_id;
  p.db_host_id = options.ioptions.db_host_id;
  if (!rocksdb::ReifyDbHostIdProperty(options.ioptions.env, &p.db_host_id).ok()) {
    p.db_host_id.clear();
  }
  p.comparator_name = options.internal_comparator.user_comparator()->Name();
  p.merge_operator_name = options.ioptions.merge_operator != nullptr
                              ? options.ioptions.merge_operator->Name()
                              : "nullptr";
  p.prefix_extractor_name = options.moptions.prefix_extractor != nullptr
                                ? options.moptions.prefix_extractor->AsString()
                                : "nullptr";
  p.compression_name = CodecName(training_dictionary_ ? BlockCodec::kZstdDict : compressor_.codec);
  // What a later compaction compares before it takes this file's stored blocks (BlockCopy).
  p.compression_options = "level=" + std::to_string(compressor_.level) + "; ";
  if (copy_inputs_ && !training_dictionary_) {
    block_copy_ = std::make_unique<BlockCopy>(p.compression_name, p.compression_options);
  }
  p.format_version = FileRoot::kFormatVersion;
  std::string collector_names = "[";
  for (size_t i = 0; i < options.ioptions.table_properties_collector_factories.size(); i++) {
    if (i > 0) collector_names += ",";
    collector_names += options.ioptions.table_properties_collector_factories[i]->Name();
  }
  p.property_collectors_names = collector_names + "]";
  for (const auto& factory : *options.int_tbl_prop_collector_factories) {
    collectors_.emplace_back(
        factory->CreateIntTblPropCollector(options.column_family_id, options.level_at_creation));
  }
}

ColumnarTableBuilder::~ColumnarTableBuilder() = default;

void ColumnarTableBuilder::SetError(const Status& s) {
  if (status_.ok() && !s.ok()) status_ = s;
}

void ColumnarTableBuilder::Add(const rocksdb::Slice& key, const rocksdb::Slice& value) {
  if (!ok()) return;
  rocksdb::ParsedInternalKey parsed;
  Status s = rocksdb::ParseInternalKey(key, &parsed, false /* log_err_key */);
  if (!s.ok()) {
    SetError(s);
    return;
  }
  if (parsed.type == rocksdb::kTypeRangeDeletion) {
    // Range tombstones arrive after the point keys and are not ordered with them: keep them
    // aside, as BlockBasedTable does.
    range_deletions_.emplace_back(key.ToString(), value.ToString());
    properties_.num_range_deletions++;
    properties_.num_deletions++;
  } else {
    AddPointEntry(parsed, key, value);
    if (parsed.type == rocksdb::kTypeDeletion || parsed.type == rocksdb::kTypeSingleDeletion ||
        parsed.type == rocksdb::kTypeDeletionWithTimestamp) {
      properties_.num_deletions++;
    } else if (parsed.type == rocksdb::kTypeMerge) {
      properties_.num_merge_operands++;
    }
  }
  max_sequence_ = std::max<uint64_t>(max_sequence_, parsed.sequence);
  properties_.num_entries++;
  properties_.raw_key_size += key.size();
  properties_.raw_value_size += value.size();
  rocksdb::NotifyCollectTableCollectorsOnAdd(key, value, offset_, collectors_, ioptions_.logger);
}

void ColumnarTableBuilder::AddPointEntry(const rocksdb::ParsedInternalKey& key,
                                         const rocksdb::Slice& internal_key,
                                         const rocksdb::Slice& stored_value) {
  const bool starts_partition = NotePartition(key.user_key);
  if (copy_inputs_) FollowInputGroups(internal_key, stored_value, starts_partition);
  if (!ok()) return;
  rocksdb::Slice value = stored_value;
  if (value.size() > settings_->options().max_inline_value_bytes) {
    // Too large for a chunk: written to the file now, on its own, and the row keeps an empty
    // value that readers replace (oversized_values.h). No copy of the value is made. Its
    // place (group and row) is set when its group is written (PlaceOversizedValues).
    followed_.active = false;  // (a followed group's values were all inline)
    OversizedValue oversized;
    oversized_rows_.push_back(rows_added_);  // the row this entry becomes
    oversized.offset = offset_;
    oversized.size = value.size();
    oversized.checksum = ComputeChecksum(value);
    AppendToFile(value);
    if (!ok()) return;
    properties_.data_size += value.size();
    oversized_values_.push_back(oversized);
    value = rocksdb::Slice();
  }
  if (!entries_.Append(key.user_key, value, key.sequence, static_cast<uint8_t>(key.type))) {
    SetError(Status::InvalidArgument("ColumnarTable: row group exceeds 4 GiB"));
    return;
  }
  rows_added_++;
  AddToFilters(key.user_key);
  raw_entry_bytes_ += key.user_key.size() + value.size() + 8;

  if (followed_.active) {
    if (followed_.matched < followed_.row_count) return;  // more of it to come
    if (FollowedGroupEndsHere()) {
      CopyFollowedGroup();
      return;
    }
    // Shorter than a group cut by size: it may end where its partition does, which the next
    // entry tells (FollowInputGroups). Else it was cut short (a file's end, or before a copy),
    // and its rows are cut then as if never followed.
    return;
  }
  CutBufferedGroups();
}

void ColumnarTableBuilder::CopyFollowedGroup() {
  HoldCuts(CutsBeforeCopy());
  FlushHeldGroups();
  followed_.prefix = 0;
  FlushRowGroup(entries_.size());  // copied
  followed_.active = false;
}

void ColumnarTableBuilder::StopFollowing() {
  followed_.active = false;  // the buffered rows are cut as if never followed
  CutBufferedGroups();
}

void ColumnarTableBuilder::AddToFilters(const rocksdb::Slice& user_key) {
  // Versions of one key are adjacent: add each distinct key once. The previous
  // key is the group's previous entry, or for a group's first entry the last key of the
  // previous group (kept by FlushRowGroup).
  if (key_filter_ != nullptr) {
    const bool same = entries_.size() >= 2 ? user_key == entries_.Key(entries_[entries_.size() - 2])
                                           : any_filter_key_ && user_key == last_filter_key_;
    if (!same) key_filter_->AddKey(user_key);
    any_filter_key_ = true;
  }
}

bool ColumnarTableBuilder::NotePartition(const rocksdb::Slice& user_key) {
  Slice partition;
  const Slice last_partition(last_partition_key_);
  if (!layout_->NextPartitionOf(user_key, any_partition_key_ ? &last_partition : nullptr,
                                &partition) ||
      (any_partition_key_ && partition == last_partition)) {
    return false;
  }
  if (partition_filter_ != nullptr) partition_filter_->AddKey(partition);
  // The file's first row may continue a partition of the previous file: not a start.
  const bool starts = any_partition_key_;
  if (starts) {
    partition_cuts_.AddPartitionStart(rows_added_);
    previous_partition_first_row_ = partition_first_row_;
    partition_first_row_ = rows_added_;
  }
  last_partition_key_.assign(partition.data(), partition.size());
  any_partition_key_ = true;
  return starts;
}

void ColumnarTableBuilder::FollowInputGroups(const rocksdb::Slice& internal_key,
                                             const rocksdb::Slice& value, bool starts_partition) {
  if (followed_.active) {
    const size_t row = followed_.matched;
    if (row == followed_.row_count) {
      // A complete group shorter than a cut by size: copied if it ends with its partition,
      // as this builder would end it.
      if (starts_partition && FollowedGroupEndsWithItsPartition()) {
        CopyFollowedGroup();
      } else {
        StopFollowing();
      }
    } else if (entries_.size() == followed_.prefix + row && FollowedGroupHeld() &&
               followed_.rows->internal_key(row) == internal_key &&
               SameBytes(followed_.rows->value(row), value)) {
      followed_.matched++;
      return;
    } else {
      StopFollowing();
    }
  }
  const CompactionInputs& inputs = CompactionInputs::OfThisThread();
  if (inputs.empty()) return;  // not a compaction of copyable files
  const CompactionInputGroup* input = inputs.GroupStartingWith(internal_key, kMinCopiedGroupBytes);
  if (input == nullptr || !SameBytes(input->rows->value(0), value) ||
      !input->reader->RowGroupsCopyableWith(*settings_) ||
      input->reader->HasOversizedValues(input->group)) {
    return;
  }
  followed_.bytes.clear();
  rocksdb::ReadOptions read_options;
  read_options.fill_cache = false;
  if (!input->reader
           ->CopyRowGroupBytes(input->group, input->block, read_options, &copy_block_,
                               &followed_.bytes)
           .ok() ||
      followed_.bytes.size() < kMinCopiedGroupBytes) {
    return;  // the group is encoded again, as without copies
  }
  if (!DictionariesAllowCopyFrom(*input->reader, input->group)) {
    if (NextOutputCouldSeedFrom(*input->reader, input->group)) close_requested_ = true;
    return;
  }
  if (dictionaries_carried_) StopAwaitingSeed();  // the held groups use the seeded dictionaries
  if (training_dictionary_) CarryCompressionDictionaryFrom(*input->reader);
  followed_.active = true;
  followed_.input = input;
  followed_.reader = input->reader;
  followed_.group = input->group;
  followed_.rows = input->rows;
  followed_.row_count = input->rows->row_count();
  followed_.prefix = entries_.size();
  followed_.matched = 1;
  followed_.partition_first_row = partition_first_row_;
  followed_.previous_partition_first_row = previous_partition_first_row_;
}

bool ColumnarTableBuilder::FollowedGroupEndsHere() const {
  // The input group was cut where this builder cuts groups: at rows_per_group rows, or at the
  // entry that took it to group_target_bytes (no entry before did: the input's builder would
  // have cut there).
  const size_t rows = followed_.matched;
  return rows >= settings_->options().rows_per_group ||
         entries_.BytesBetween(followed_.prefix, entries_.size()) >=
             settings_->options().group_target_bytes;
}

bool ColumnarTableBuilder::FollowedGroupEndsWithItsPartition() const {
  // The followed group as a group of its own (the rows before it another, when any), ended by
  // the entry about to be added, whose partition start is noted at row rows_added_.
  const std::vector<size_t> before = CutsBeforeCopy();
  return PartitionEndCut(rows_added_ - followed_.matched,
                         before.empty() ? LastCutGroupRows() : before.back()) == followed_.matched;
}

size_t ColumnarTableBuilder::LastCutGroupRows() const {
  return held_groups_.empty() ? last_group_rows_ : held_groups_.back();
}

size_t ColumnarTableBuilder::PartitionEndCut(uint64_t group_first, size_t previous_rows) const {
  return partition_cuts_.Cut(group_first > 0, group_first - previous_rows, group_first);
}

uint64_t ColumnarTableBuilder::RowOfEntry(size_t entry) const {
  return rows_added_ - (entries_.size() - entry);
}

size_t ColumnarTableBuilder::SizeCut(size_t first, size_t end) const {
  const size_t rows_limit = settings_->options().rows_per_group;
  const size_t bytes_limit = settings_->options().group_target_bytes;
  for (size_t entry = first; entry < end; entry++) {
    if (entry + 1 - first >= rows_limit || entries_.BytesBetween(first, entry + 1) >= bytes_limit) {
      return entry + 1 - first;
    }
  }
  return 0;
}

size_t ColumnarTableBuilder::NaturalCut(size_t first, size_t previous_rows, size_t end) const {
  const size_t open_rows = end - first;
  // No open rows, no cut; with group_target_bytes=0 an empty open group would otherwise be cut
  // "by size" (0 bytes >= 0), reading the entry past the buffer's end.
  if (open_rows == 0) return 0;
  size_t partition_end = PartitionEndCut(RowOfEntry(first), previous_rows);
  if (partition_end > open_rows) partition_end = 0;  // a partition that begins after `end`
  if (open_rows < settings_->options().rows_per_group &&
      entries_.BytesBetween(first, end) < settings_->options().group_target_bytes) {
    return partition_end;  // no cut by size
  }
  const size_t size_cut = SizeCut(first, partition_end > 0 ? first + partition_end : end);
  return size_cut > 0 ? size_cut : partition_end;
}

size_t ColumnarTableBuilder::NaturalCut() const {
  // The open group: the buffered entries after the held groups; the group before it is the
  // last one held, or else the last one written.
  return NaturalCut(held_entries_, LastCutGroupRows(), entries_.size());
}

void ColumnarTableBuilder::CutBufferedGroups() {
  // Rows held for a partition that has now ended, where rows land first: the short group first.
  const size_t first = held_entries_;
  const uint64_t first_row = RowOfEntry(first);
  if (first_row < partition_first_row_) {
    const size_t end = first + static_cast<size_t>(partition_first_row_ - first_row);
    if (CutsEndedPartitionShortFirst(first, end, previous_partition_first_row_)) {
      HoldCuts(ShortFirstCuts(first, end));
    }
  }
  // (Held rows are all of one partition, which has not ended: they have no cut but by size.)
  // Rows held up to the limit are cut down to half of it at once: cut a group at a time, every
  // group written moved all the rows still held (as dropping written rows did then), which was
  // 27% of a metrics L0 -> L6 job's instructions while its groups were not copied.
  size_t share_of_limit = 1;
  while (ok() && !HoldsOpenRowsForCopy(share_of_limit)) {
    const size_t rows = NaturalCut();
    if (rows == 0) break;
    KeepAwaitingSeed();
    held_groups_.push_back(rows);
    held_entries_ += rows;
    share_of_limit = 2;
  }
  if (!awaiting_seed_) FlushHeldGroups();
}

bool ColumnarTableBuilder::HoldsOpenRowsForCopy(size_t share_of_limit) const {
  // Only rows of the partition still being added to, and only while a copy may come.
  const size_t open_rows = entries_.size() - held_entries_;
  return !closed_ && open_rows > 0 && RowOfEntry(held_entries_) >= partition_first_row_ &&
         open_rows < kMaxGroupsHeldForCopy * settings_->options().rows_per_group / share_of_limit &&
         entries_.bytes() < kMaxBytesHeldForCopy / share_of_limit && copy_inputs_ &&
         (rows_land_first_ || !CompactionInputs::OfThisThread().empty());
}

void ColumnarTableBuilder::HoldCuts(const std::vector<size_t>& cuts) {
  for (const size_t rows : cuts) {
    held_groups_.push_back(rows);
    held_entries_ += rows;
  }
}

bool ColumnarTableBuilder::CutsEndedPartitionShortFirst(size_t first, size_t end,
                                                        uint64_t partition_first_row) const {
  return rows_land_first_ && end - first >= settings_->options().rows_per_group &&
         RowOfEntry(first) >= partition_first_row;
}

std::vector<size_t> ColumnarTableBuilder::ShortFirstCuts(size_t first, size_t end) const {
  std::vector<size_t> cuts;
  for (size_t rows = SizeCut(first, end); rows > 0; rows = SizeCut(first, end)) {
    cuts.push_back(rows);
    first += rows;
  }
  const bool by_rows_only = std::all_of(cuts.begin(), cuts.end(), [&](size_t rows) {
    return rows == settings_->options().rows_per_group;
  });
  // With a cut by bytes the groups' sizes vary: the short group stays last.
  if (first < end) cuts.insert(by_rows_only ? cuts.begin() : cuts.end(), end - first);
  return cuts;
}

std::vector<size_t> ColumnarTableBuilder::CutsBeforeCopy() const {
  // The open group's entries up to the followed group's first.
  const size_t end = followed_.prefix;
  size_t first = held_entries_;
  // Rows of the followed group's partition before it (new rows where the copies resume), or
  // rows of the partition it ends, where rows land first: the short group first.
  const bool starts_partition = followed_.partition_first_row == RowOfEntry(end);
  const bool inside_partition =
      !starts_partition && first < end && RowOfEntry(first) >= followed_.partition_first_row;
  const bool ended_partition =
      starts_partition &&
      CutsEndedPartitionShortFirst(first, end, followed_.previous_partition_first_row);
  if (inside_partition || ended_partition) return ShortFirstCuts(first, end);
  std::vector<size_t> cuts;
  size_t previous_rows = LastCutGroupRows();
  for (size_t rows = NaturalCut(first, previous_rows, end); rows > 0;
       rows = NaturalCut(first, previous_rows, end)) {
    cuts.push_back(rows);
    first += rows;
    previous_rows = rows;
  }
  if (first < end) cuts.push_back(end - first);  // the rest, a group of their own
  return cuts;
}

bool ColumnarTableBuilder::KeepAwaitingSeed() {
  if (awaiting_seed_ &&
      (held_groups_.size() >= kMaxGroupsAwaitingSeed || entries_.bytes() >= kMaxBytesAwaitingSeed ||
       !SomeInputMaySeedDictionaries())) {
    awaiting_seed_ = false;
  }
  return awaiting_seed_;
}

void ColumnarTableBuilder::StopAwaitingSeed() {
  awaiting_seed_ = false;
  FlushHeldGroups();
}

size_t ColumnarTableBuilder::FlushHeldGroups() {
  // Written where they lie, then dropped at once (dropping each group would move the rest of
  // the buffer every time).
  size_t first = 0;
  for (const size_t rows : held_groups_) {
    if (!ok()) break;
    WriteBufferedGroup(first, rows);
    first += rows;
  }
  const size_t held = held_entries_;
  if (held > 0 && ok()) entries_.DropFront(held);
  held_groups_.clear();
  held_entries_ = 0;
  return held;
}

bool ColumnarTableBuilder::FollowedGroupHeld() const {
  const CompactionInputGroup* input = followed_.input;
  return CompactionInputs::OfThisThread().Registered(input) && input->reader == followed_.reader &&
         input->group == followed_.group && input->rows == followed_.rows;
}

namespace {

bool HasFileDictionaries(const ColumnarTableReader& reader) {
  const FileDictionarySet* dictionaries = reader.file_dictionaries();
  return dictionaries != nullptr && !dictionaries->columns().empty();
}

}  // namespace

bool ColumnarTableBuilder::DictionariesAllowCopyFrom(const ColumnarTableReader& reader,
                                                     size_t group) {
  if (!HasFileDictionaries(reader)) return true;
  if (dictionaries_carried_) return reader.file_id() == dictionaries_from_;
  // The first file copied from with dictionaries gives this file its dictionaries' start.
  if (dictionaries_ == nullptr || reader.dictionary_carries() >= kMaxDictionaryCarries ||
      OnlyATailAhead(reader, group) || !dictionaries_->Seed(*reader.file_dictionaries())) {
    return false;
  }
  dictionaries_carried_ = true;
  dictionaries_from_ = reader.file_id();
  dictionary_carries_ = reader.dictionary_carries() + 1;
  return true;
}

bool ColumnarTableBuilder::NextOutputCouldSeedFrom(const ColumnarTableReader& reader,
                                                   size_t group) const {
  // The group was refused for its file's dictionaries (this output took another file's); an
  // output starting after it could take them, and copy the rest of that file. Worth a file of
  // its own once this output is large enough, or when that file has more groups ahead than this
  // output copied (it seeded from a small file, or from a file's end).
  if (!dictionaries_carried_ || reader.file_id() == dictionaries_from_ ||
      reader.dictionary_carries() >= kMaxDictionaryCarries || target_file_size_ == 0 ||
      target_file_size_ >= kNoTargetFileSize) {
    return false;
  }
  const size_t groups = reader.index().num_row_groups();
  const size_t ahead = groups - std::min(group, groups);
  return EstimatedBytes() >= target_file_size_ / kLeastShareOfTargetToClose ||
         ahead > copied_groups_;
}

bool ColumnarTableBuilder::OnlyATailAhead(const ColumnarTableReader& reader, size_t group) const {
  // Held back while the output waits (and encoded with the next input file's dictionaries once
  // it seeds them), a tail costs its encoding only, which copying the next file's groups pays
  // back. Not once the wait is over (the groups written since rule any later seed out), nor
  // when a partitioner may end the output before the next file comes.
  if (!awaiting_seed_ || ioptions_.sst_partitioner_factory != nullptr) return false;
  const size_t groups = reader.index().num_row_groups();
  const size_t ahead = groups - std::min(group, groups);
  const size_t room =
      kMaxGroupsAwaitingSeed - std::min(held_groups_.size(), kMaxGroupsAwaitingSeed);
  return ahead <= room && ahead < (groups + 1) / 2;
}

FileDictionaryWriters* ColumnarTableBuilder::DictionariesForGroup() const {
  // Written while awaiting a seed (the rows before a copy from a file without dictionaries):
  // without dictionaries, which must stay empty for the seed.
  return awaiting_seed_ ? nullptr : dictionaries_.get();
}

bool ColumnarTableBuilder::SomeInputMaySeedDictionaries() const {
  for (const CompactionInputGroup* input : CompactionInputs::OfThisThread().groups()) {
    const ColumnarTableReader& reader = *input->reader;
    // Stored bytes are at most the encoded ones: a file whose full groups average under the
    // floor in storage holds few groups worth copying.
    if (HasFileDictionaries(reader) && reader.dictionary_carries() < kMaxDictionaryCarries &&
        reader.StoredFullGroupBytes() >= kMinCopiedGroupBytes &&
        reader.RowGroupsCopyableWith(*settings_)) {
      return true;
    }
  }
  return false;
}

void ColumnarTableBuilder::FlushRowGroup(size_t count) {
  if (count == 0 || !ok()) return;
  WriteBufferedGroup(0, count);
  if (ok()) entries_.DropFront(count);
}

void ColumnarTableBuilder::WriteBufferedGroup(size_t first, size_t count) {
  std::vector<Entry> rows(count);
  for (size_t i = 0; i < count; i++) {
    const BufferedEntries::Entry& b = entries_[first + i];
    rows[i].user_key = entries_.Key(b);
    rows[i].value = entries_.Value(b);
    rows[i].sequence = b.sequence;
    rows[i].value_type = b.value_type;
  }
  // The input group followed, when these are every entry of it and nothing else.
  RowGroupView verbatim;
  const bool offered = followed_.active && first == 0 && followed_.prefix == 0 &&
                       count == followed_.matched && count == followed_.row_count &&
                       verbatim.Parse(followed_.bytes).ok() &&
                       verbatim.size() == followed_.bytes.size();
  // Its decoded rows and block only while its iterator still holds them (not for a group
  // copied when the entry after it came).
  const bool held = offered && FollowedGroupHeld();
  // Where an input block that may be copied whole starts, a half-full output block closes
  // (block_copy.h).
  const size_t block_size = settings_->options().block_size;
  if (held && block_copy_ != nullptr &&
      block_copy_->ClosesBefore(*followed_.reader, followed_.group, block_.size(), block_size)) {
    FlushBlock();
  }
  // Its rows are these entries, one for one: the zone maps its file stored are theirs.
  if (held && zone_maps_ != nullptr) {
    ZoneMapSet stored;
    if (followed_.reader->StoredZoneMaps(followed_.group, &stored).ok()) {
      zone_maps_->OfferStoredZoneMaps(std::move(stored));
    }
  }
  const size_t group_start = block_.size();
  RowGroupWriteContext context;
  context.settings = short_lived_settings_ != nullptr
                         ? static_cast<const ColumnWriteSettings*>(short_lived_settings_.get())
                         : &settings_->columns();
  context.stats = &column_stats_;
  context.observer = zone_maps_.get();
  context.dictionaries = DictionariesForGroup();
  context.memos = &encoding_memos_;
  context.scratch = &layout_scratch_;
  context.file_layout_id = &file_layout_id_;
  bool copied = false;
  if (offered) {
    context.verbatim = &verbatim;
    context.verbatim_written = &copied;
    if (held) context.verbatim_rows = followed_.rows;
  }
  Status s = layout_->WriteRowGroup(rows.data(), rows.size(), context, &block_);
  if (copied) copied_groups_++;
  if (!s.ok()) {
    SetError(s);
    return;
  }
  const bool copied_held = copied && held;
  if (block_copy_ != nullptr) {
    block_copy_->OnGroupWritten(copied_held ? followed_.reader : nullptr, followed_.group,
                                copied_held ? followed_.input->block : nullptr, group_start,
                                block_);
  }
  if (zone_maps_ != nullptr) {
    bool all_sequence_zero_puts = true;
    for (const Entry& row : rows) {
      all_sequence_zero_puts &= row.sequence == 0 && row.value_type == kPutValueType;
    }
    zone_maps_->EndRowGroup(all_sequence_zero_puts);
  }
  const uint64_t first_row = rows_added_ - entries_.size() + first;
  PlaceOversizedValues(first_row, count);
  index_.AddRowGroup(rows[0].user_key, PackTrailer(rows[0].sequence, rows[0].value_type),
                     static_cast<uint32_t>(group_start));
  last_group_rows_ = count;
  partition_cuts_.ForgetThrough(first_row);
  const size_t group_bytes = block_.size() - group_start;
  encoded_group_bytes_ += group_bytes;
  if (dictionaries_ != nullptr) dictionary_bytes_ = dictionaries_->entry_bytes();
  if (key_filter_ != nullptr) {
    const Slice last_key = entries_.Key(entries_[first + count - 1]);
    last_filter_key_.assign(last_key.data(), last_key.size());
  }
  // Closes the block at the row-group boundary nearest to block_size: when the next group,
  // if as large as this one, would overshoot block_size by more than stopping here falls short
  // of it. A point read decompresses a whole block, so blocks near block_size keep its cost
  // near BlockBasedTable's (closing only past block_size made them up to twice as large).
  // A block holding copies stays open up to the end of their input block (block_copy.h).
  if (block_.size() + group_bytes / 2 < block_size) return;
  if (copied_held && block_copy_ != nullptr &&
      block_copy_->StaysOpenToInputBlockEnd(*followed_.reader, followed_.group,
                                            followed_.input->block, block_.size(), block_size)) {
    return;
  }
  FlushBlock();
}

void ColumnarTableBuilder::PlaceOversizedValues(uint64_t first_row, size_t count) {
  // Called before the group is added to the index: its number is the index's group count.
  for (; placed_oversized_ < oversized_rows_.size() &&
         oversized_rows_[placed_oversized_] < first_row + count;
       placed_oversized_++) {
    OversizedValue& oversized = oversized_values_[placed_oversized_];
    oversized.group = static_cast<uint32_t>(index_.num_row_groups());
    oversized.row = static_cast<uint32_t>(oversized_rows_[placed_oversized_] - first_row);
  }
}

void ColumnarTableBuilder::FlushBlock() {
  if (block_.empty() || !ok()) return;
  const uint32_t ordinal = index_.CloseBlock();
  raw_block_bytes_ += block_.size();
  if (training_dictionary_) {
    held_bytes_ += block_.size();
    held_blocks_.push_back(HeldBlock{ordinal, std::move(block_)});
    block_.clear();
    if (held_bytes_ >= hold_limit_) TrainDictionaryAndWriteHeldBlocks();
    return;
  }
  WriteBlockNow(ordinal, block_);
  block_.clear();
}

void ColumnarTableBuilder::WriteBlockNow(uint32_t ordinal, const Slice& raw) {
  // An input block copied whole is written as that file stored it.
  std::string copied_block;
  Slice stored;
  if (block_copy_ != nullptr && block_copy_->TakeStored(raw, &copied_block)) {
    stored = copied_block;
  } else {
    stored_block_.clear();
    const Status s = WriteBlock(raw, compressor_, &stored_block_);
    if (!s.ok()) {
      SetError(s);
      return;
    }
    stored = Slice(stored_block_.data(), stored_block_.size());
  }
  const uint64_t offset = offset_;
  AppendToFile(stored);
  if (!ok()) return;
  index_.SetBlockHandle(ordinal, offset, stored.size());
  stored_block_bytes_ += stored.size();
  properties_.data_size += stored.size();
  properties_.num_data_blocks++;
  rocksdb::NotifyCollectTableCollectorsOnBlockAdd(collectors_, raw.size(), 0, 0);
}

void ColumnarTableBuilder::TrainDictionaryAndWriteHeldBlocks() {
  const rocksdb::CompressionOptions& copts = compression_opts_;
  std::vector<Slice> samples;
  size_t sampled = 0;
  const size_t train_budget =
      copts.zstd_max_train_bytes > 0 ? copts.zstd_max_train_bytes : copts.max_dict_bytes;
  for (const HeldBlock& block : held_blocks_) {
    if (sampled >= train_budget) break;
    samples.emplace_back(block.raw);
    sampled += block.raw.size();
  }
  std::string raw_dictionary;
  if (copts.zstd_max_train_bytes > 0) {
    Status s = TrainZstdDictionary(samples, copts.max_dict_bytes, &raw_dictionary);
    if (!s.ok()) {
      training_dictionary_ = false;
      SetError(s);
      return;
    }
  } else {
    // Without a training budget RocksDB uses raw sample bytes as the dictionary; so do we.
    for (const Slice& sample : samples) {
      if (raw_dictionary.size() >= copts.max_dict_bytes) break;
      raw_dictionary.append(sample.data(),
                            std::min(sample.size(), copts.max_dict_bytes - raw_dictionary.size()));
    }
  }
  UseDictionaryAndWriteHeldBlocks(raw_dictionary);
}

void ColumnarTableBuilder::CarryCompressionDictionaryFrom(const ColumnarTableReader& reader) {
  // Trained on the rows of an input this output copies from, the input's dictionary suits the
  // output about as well as one trained anew, which costs 4-7% of a rewrite's instructions; and
  // with it the input's stored blocks may be copied as they are (block_copy.h).
  const ZstdDictionary* theirs = reader.compression_dictionary();
  const auto& their_properties = reader.GetTableProperties();
  if (theirs == nullptr || their_properties == nullptr ||
      reader.compression_dictionary_carries() >= kMaxDictionaryCarries ||
      theirs->raw().size() > compression_opts_.max_dict_bytes ||
      their_properties->compression_name != properties_.compression_name ||
      their_properties->compression_options != properties_.compression_options) {
    return;
  }
  compression_dictionary_carries_ = reader.compression_dictionary_carries() + 1;
  UseDictionaryAndWriteHeldBlocks(theirs->raw());
  if (dictionary_ == nullptr) {
    compression_dictionary_carries_ = 0;
    return;
  }
  block_copy_ = std::make_unique<BlockCopy>(properties_.compression_name,
                                            properties_.compression_options, dictionary_.get());
}

void ColumnarTableBuilder::UseDictionaryAndWriteHeldBlocks(const std::string& raw_dictionary) {
  training_dictionary_ = false;
  if (!raw_dictionary.empty()) {
    dictionary_ = std::make_unique<ZstdDictionary>(raw_dictionary, compressor_.level,
                                                   ZstdDictionary::kCompress);
    if (dictionary_->ok()) {
      compressor_.codec = BlockCodec::kZstdDict;
      compressor_.dictionary = dictionary_.get();
    } else {
      dictionary_.reset();
    }
  }
  for (HeldBlock& block : held_blocks_) {
    WriteBlockNow(block.ordinal, block.raw);
    std::string().swap(block.raw);
  }
  held_blocks_.clear();
  held_bytes_ = 0;
}

void ColumnarTableBuilder::AppendToFile(const Slice& data) {
  io_status_ = file_->Append(data);
  if (!io_status_.ok()) {
    SetError(io_status_);
    return;
  }
  offset_ += data.size();
}

BlockLocation ColumnarTableBuilder::WriteMetaBlock(const Slice& raw, int min_zstd_level) {
  std::string stored;
  BlockLocation location;
  BlockCompressor compressor{
      compressor_.codec == BlockCodec::kNone ? BlockCodec::kNone : BlockCodec::kZstd,
      std::max(compressor_.level, min_zstd_level), nullptr};
  Status s = WriteBlock(raw, compressor, &stored);
  if (!s.ok()) {
    SetError(s);
    return location;
  }
  location.offset = offset_;
  AppendToFile(stored);
  location.size = stored.size();
  return location;
}

void ColumnarTableBuilder::FinishFilters(FileRoot* root, rocksdb::MetaIndexBuilder* meta_index) {
  struct FilterToWrite {
    rocksdb::FilterBitsBuilder* builder;
    FileBlock block;
    const char* name;
  };
  for (const FilterToWrite& f :
       {FilterToWrite{key_filter_.get(), FileBlock::kKeyFilter, kKeyFilterBlockName},
        FilterToWrite{partition_filter_.get(), FileBlock::kPartitionFilter,
                      kPartitionFilterBlockName}}) {
    if (f.builder == nullptr || f.builder->EstimateEntriesAdded() == 0) continue;
    properties_.num_filter_entries += f.builder->EstimateEntriesAdded();  // Finish resets it
    std::unique_ptr<const char[]> buffer;
    const rocksdb::Slice contents = f.builder->Finish(&buffer);
    std::string stored;
    Status s = WriteBlock(contents, BlockCompressor{}, &stored);
    if (!s.ok()) return SetError(s);
    BlockLocation& location = root->at(f.block);
    location.offset = offset_;
    AppendToFile(stored);
    location.size = stored.size();
    properties_.filter_size += stored.size();
    meta_index->Add(f.name, rocksdb::BlockHandle(location.offset, location.size));
  }
}

rocksdb::Status ColumnarTableBuilder::Finish() {
  closed_ = true;
  // A complete followed group waiting for the next entry (shorter than a size cut) ends the
  // file, where this builder ends its last group: copied.
  if (followed_.active && followed_.matched == followed_.row_count && ok()) CopyFollowedGroup();
  followed_.active = false;
  StopAwaitingSeed();
  CutBufferedGroups();
  FlushRowGroup(entries_.size());
  FlushBlock();
  if (training_dictionary_) TrainDictionaryAndWriteHeldBlocks();
  if (!ok()) return status_;

  FileRoot root;
  root.file_id = RandomFileId();
  root.layout_id = file_layout_id_;
  root.footer_format_version = kColumnarFooterFormatVersion;
  rocksdb::MetaIndexBuilder meta_index;

  std::string index_raw;
  Status s = index_.Finish(&index_raw);
  if (!s.ok()) return status_ = s;
  const int meta_level = soon_rewritten_ ? 0 : kMetaBlockZstdLevel;
  root.at(FileBlock::kIndex) = WriteMetaBlock(index_raw, meta_level);
  properties_.index_size = root.at(FileBlock::kIndex).size;
  meta_index.Add(kIndexBlockName, rocksdb::BlockHandle(root.at(FileBlock::kIndex).offset,
                                                       root.at(FileBlock::kIndex).size));
  FinishFilters(&root, &meta_index);
  if (!range_deletions_.empty()) {
    std::string raw;
    EncodeRangeDeletions(range_deletions_, &raw);
    root.at(FileBlock::kRangeDeletions) = WriteMetaBlock(raw);
    meta_index.Add(kRangeDeletionBlockName,
                   rocksdb::BlockHandle(root.at(FileBlock::kRangeDeletions).offset,
                                        root.at(FileBlock::kRangeDeletions).size));
  }
  if (dictionaries_ != nullptr && !dictionaries_->empty()) {
    std::string raw;
    ChunkWriteOptions options;
    options.checksum = false;  // the block is checksummed
    s = dictionaries_->Finish(options, &raw);
    if (!s.ok()) return status_ = s;
    BlockLocation& location = root.at(FileBlock::kFileDictionaries);
    location = WriteMetaBlock(raw);
    meta_index.Add(kFileDictionaryBlockName, rocksdb::BlockHandle(location.offset, location.size));
  }
  if (zone_maps_ != nullptr && !zone_maps_->empty()) {
    std::string raw;
    if (soon_rewritten_) {
      zone_maps_->FinishRowMajor(&raw);
      root.at(FileBlock::kZoneMaps) = WriteMetaBlock(raw, meta_level);
    } else {
      // The layouts are weighed at a fast level (kZoneMapCompareLevel) and the chosen one is
      // compressed once at the block's: weighing both at the block's level was 6% of a devops
      // rewrite's instructions, and the fast level chose the same layouts (the same file bytes
      // on the devops, metrics and access16 rewrites).
      zone_maps_->Finish(&raw);
      root.at(FileBlock::kZoneMaps) = WriteMetaBlock(raw, meta_level);
    }
    meta_index.Add(kZoneMapBlockName, rocksdb::BlockHandle(root.at(FileBlock::kZoneMaps).offset,
                                                           root.at(FileBlock::kZoneMaps).size));
    properties_.user_collected_properties[kFileColumnStatsProperty] =
        zone_maps_->file_stats().Serialize();
    properties_.user_collected_properties[kOnlyRowsProperty] =
        zone_maps_->only_rows() && range_deletions_.empty() ? "1" : "0";
  }
  properties_.user_collected_properties[kMaxSequenceProperty] = std::to_string(max_sequence_);
  if (dictionary_ != nullptr) {
    std::string stored;
    s = WriteBlock(dictionary_->raw(), BlockCompressor{}, &stored);
    if (!s.ok()) return status_ = s;
    BlockLocation& location = root.at(FileBlock::kCompressionDictionary);
    location.offset = offset_;
    AppendToFile(stored);
    location.size = stored.size();
    meta_index.Add(kDictionaryBlockName, rocksdb::BlockHandle(location.offset, location.size));
  }
  if (!ok()) return status_;

  // Properties: RocksDB's standard ones, ours, then the collectors'.
  properties_.user_collected_properties[kLayoutProperty] = layout_->Name();
  if (settings_->schema() != nullptr) {
    properties_.user_collected_properties[kSchemaProperty] = settings_->schema()->Serialize();
  }
  properties_.user_collected_properties[kColumnStatsProperty] = column_stats_.Serialize();
  properties_.user_collected_properties[kRowGroupsProperty] =
      std::to_string(index_.num_row_groups());
  properties_.user_collected_properties[kRowsPerGroupProperty] =
      std::to_string(settings_->options().rows_per_group);
  if (settings_->schema() != nullptr && !soon_rewritten_) {
    properties_.user_collected_properties[kPassThroughProperty] = settings_->pass_through_options();
  }
  if (copied_groups_ > 0) {
    properties_.user_collected_properties[kCopiedRowGroupsProperty] =
        std::to_string(copied_groups_);
  }
  if (block_copy_ != nullptr && block_copy_->copied_blocks() > 0) {
    properties_.user_collected_properties[kCopiedBlocksProperty] =
        std::to_string(block_copy_->copied_blocks());
  }
  if (dictionaries_carried_) {
    properties_.user_collected_properties[kDictionaryCarriesProperty] =
        std::to_string(dictionary_carries_);
  }
  if (compression_dictionary_carries_ > 0) {
    properties_.user_collected_properties[kCompressionDictionaryCarriesProperty] =
        std::to_string(compression_dictionary_carries_);
  }
  if (!oversized_values_.empty()) {
    EncodeOversizedValues(oversized_values_,
                          &properties_.user_collected_properties[kOversizedValuesProperty]);
  }
  rocksdb::PropertyBlockBuilder property_block;
  property_block.AddTableProperty(properties_);
  property_block.Add(properties_.user_collected_properties);
  rocksdb::NotifyCollectTableCollectorsOnFinish(collectors_, ioptions_.logger, &property_block);
  const rocksdb::Slice properties_raw = property_block.Finish();
  const rocksdb::BlockHandle properties_handle(offset_, properties_raw.size());
  root.at(FileBlock::kProperties) = BlockLocation{offset_, properties_raw.size()};
  root.properties_patch_offset = FindPropertiesPatchOffset(properties_raw);
  root.properties_checksum = PropertiesChecksum(properties_raw, root.properties_patch_offset);
  AppendToFile(properties_raw);
  meta_index.Add(rocksdb::kPropertiesBlockName, properties_handle);

  const rocksdb::Slice meta_index_raw = meta_index.Finish();
  const rocksdb::BlockHandle meta_index_handle(offset_, meta_index_raw.size());
  root.at(FileBlock::kMetaIndex) = BlockLocation{offset_, meta_index_raw.size()};
  root.metaindex_checksum = ComputeChecksum(meta_index_raw);
  AppendToFile(meta_index_raw);

  std::string root_raw;
  root.EncodeTo(&root_raw);
  std::string root_stored;
  s = WriteBlock(root_raw, BlockCompressor{}, &root_stored);
  if (!s.ok()) return status_ = s;
  const rocksdb::BlockHandle root_handle(offset_, root_stored.size());
  AppendToFile(root_stored);
  if (!ok()) return status_;

  rocksdb::FooterBuilder footer;
  footer.Build(kColumnarTableMagicNumber, kColumnarFooterFormatVersion, offset_,
               rocksdb::kNoChecksum, meta_index_handle, root_handle);
  AppendToFile(footer.GetSlice());
  return status_;
}

void ColumnarTableBuilder::Abandon() {
  closed_ = true;
  followed_.active = false;
  held_blocks_.clear();
  entries_.Clear();
  held_groups_.clear();
  held_entries_ = 0;
}

uint64_t ColumnarTableBuilder::EstimatedFileSize() const {
  // A full file: the compaction closes this output before its next entry.
  if (close_requested_) return std::max(EstimatedBytes(), target_file_size_);
  return EstimatedBytes();
}

uint64_t ColumnarTableBuilder::EstimatedBytes() const {
  const double encode_ratio =
      raw_entry_bytes_ > 0 && encoded_group_bytes_ > 0
          ? static_cast<double>(encoded_group_bytes_) / static_cast<double>(raw_entry_bytes_)
          : 0.5;
  const double compress_ratio =
      raw_block_bytes_ > 0 && stored_block_bytes_ > 0
          ? static_cast<double>(stored_block_bytes_) / static_cast<double>(raw_block_bytes_)
          : (compressor_.codec == BlockCodec::kNone ? 1.0 : 0.5);
  const double pending_entries = static_cast<double>(entries_.bytes()) * encode_ratio;
  const double pending_blocks = static_cast<double>(held_bytes_ + block_.size()) + pending_entries;
  return offset_ + static_cast<uint64_t>(pending_blocks * compress_ratio) + index_.EstimatedSize() +
         static_cast<uint64_t>(static_cast<double>(dictionary_bytes_) * compress_ratio);
}

bool ColumnarTableBuilder::NeedCompact() const {
  for (const auto& collector : collectors_) {
    if (collector->NeedCompact()) return true;
  }
  return false;
}

rocksdb::TableProperties ColumnarTableBuilder::GetTableProperties() const {
  rocksdb::TableProperties result = properties_;
  for (const auto& collector : collectors_) {
    for (const auto& property : collector->GetReadableProperties()) {
      result.readable_properties.insert(property);
    }
    collector->Finish(&result.user_collected_properties).PermitUncheckedError();
  }
  return result;
}

std::string ColumnarTableBuilder::GetFileChecksum() const {
  return file_ != nullptr ? file_->GetFileChecksum() : rocksdb::kUnknownFileChecksum;
}

const char* ColumnarTableBuilder::GetFileChecksumFuncName() const {
  return file_ != nullptr ? file_->GetFileChecksumFuncName()
                          : rocksdb::kUnknownFileChecksumFuncName;
}

void ColumnarTableBuilder::SetSeqnoTimeTableProperties(
    const std::string& encoded_seqno_to_time_mapping, uint64_t oldest_ancestor_time) {
  properties_.seqno_to_time_mapping = encoded_seqno_to_time_mapping;
  properties_.creation_time = oldest_ancestor_time;
}

}  // namespace columnar
