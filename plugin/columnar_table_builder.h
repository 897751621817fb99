// ColumnarTableBuilder: writes one ColumnarTable file (layout in table_file.h) from the sorted
// stream of internal entries RocksDB hands a TableBuilder during flush, compaction or
// SstFileWriter.
//
// Entries are buffered one row group at a time; a full group (rows_per_group rows,
// group_target_bytes, or the end of a long partition: partition_aligned_cuts.h) is encoded by
// the RowLayout into the open data block; a full block is compressed and written. With a zstd
// dictionary (compression_opts.max_dict_bytes > 0), blocks are held in memory until enough samples
// exist to train the dictionary, then written compressed with it (as BlockBasedTable does).
// A compaction output that copies an input's groups before then takes that input's dictionary
// instead (at most kMaxDictionaryCarries compactions in a row): no training, and the input's
// blocks it copies whole are written as stored (block_copy.h).
//
// Compaction rewrites mostly unchanged rows: a time series' new points land at one end of each
// partition, and every older group comes back as it was. The builder of a
// compaction's output follows the input groups its thread's iterators hold
// (compaction_inputs.h): when the entries of a group arrive one for one, equal in key,
// sequence, type and value, and the group ends where this builder would end it anyway, the
// group's encoded bytes are copied instead of being encoded again. (A group that ends with its
// partition is known to end there only once the next partition's first entry comes: it waits
// for it.) Such bytes decode alike only in a file of the same options and schema
// (kPassThroughProperty) whose file dictionaries begin with the input file's: an output starts
// its dictionaries from the first input file it copies from (FileDictionaryWriters::Seed) and then
// copies only from that file and from files without dictionaries. The entries before a followed
// group are held until it is known whether the group is copied: then they are cut into groups of
// their own (the copies line up again after new rows); otherwise they are cut into groups as if
// nothing had been followed. Groups of under 256 bytes are encoded again (kMinCopiedGroupBytes).
//
// Where the copies resume inside a partition, the entries before them are cut with their short
// group first: the groups after it are whole, as the copies are, and the partition keeps its
// one short group instead of gaining one at every compaction. That is where time series
// declared newest first (the first clustering column descending, the common way) gain their
// new points: before the groups copied. So the entries of the partition being added to are
// held uncut while a copy may follow them (at most kMaxGroupsHeldForCopy groups' rows and
// kMaxBytesHeldForCopy bytes), and in a partition that sorts newest first, the rows of a
// partition that ends are cut the same way: its short group stays where the next points land.
//
// An output's first groups are often new rows (a compaction's output begins wherever the
// previous one ended), and a single entry they admit to the dictionaries rules the seeding out,
// and with it every copy from input files with dictionaries. So while an input that could give
// its dictionaries is at hand, an output holds its first groups back (cut, not yet encoded; at
// most kMaxGroupsAwaitingSeed groups and kMaxBytesAwaitingSeed buffered bytes) until a copy
// seeds its dictionaries, or no input can: they are then encoded with the dictionaries, as they
// would have been.
//
// An output copies only from the input file its dictionaries came from: once the next input
// file's groups come, nothing more is copied. So an output of at least a quarter of the target
// file size closes at the first of them it cannot copy (EstimatedFileSize then reports the
// target size, and the compaction cuts the file before the next entry, as it does for a full
// file); the next output may seed from that file and copy the rest of its groups. Such an
// output may start with a file's last few groups (at most what it can hold back, under half the
// file): it does not seed from those but holds them back, and the next input file seeds it
// (not with an SST partitioner, which may end the output before the next file comes).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "db/table_properties_collector.h"
#include "plugin/block_copy.h"
#include "plugin/buffered_entries.h"
#include "plugin/cache_pin.h"
#include "plugin/columnar_table_reader.h"
#include "plugin/compaction_inputs.h"
#include "plugin/oversized_values.h"
#include "plugin/table_settings.h"
#include "plugin/zone_map_collector.h"
#include "rocksdb/table_properties.h"
#include "table/block_based/filter_policy_internal.h"
#include "table/meta_blocks.h"
#include "table/table_builder.h"
#include "table_format/column_settings.h"
#include "table_format/column_stats.h"
#include "table_format/data_block.h"
#include "table_format/entry.h"
#include "table_format/file_dictionary.h"
#include "table_format/file_root.h"
#include "table_format/partition_aligned_cuts.h"
#include "table_format/row_group_index.h"
#include "table_format/zstd_codec.h"

namespace columnar {

class ColumnarTableBuilder : public rocksdb::TableBuilder {
 public:
  // With a non-OK `settings_status` (invalid options) the builder writes nothing and reports
  // that status.
  ColumnarTableBuilder(const rocksdb::TableBuilderOptions& options,
                       rocksdb::WritableFileWriter* file,
                       std::shared_ptr<const TableSettings> settings,
                       const Status& settings_status = Status::OK());
  ~ColumnarTableBuilder() override;

  void Add(const rocksdb::Slice& key, const rocksdb::Slice& value) override;
  rocksdb::Status status() const override { return status_; }
  rocksdb::IOStatus io_status() const override { return io_status_; }
  rocksdb::Status Finish() override;
  void Abandon() override;
  uint64_t NumEntries() const override { return properties_.num_entries; }
  uint64_t FileSize() const override { return offset_; }
  uint64_t EstimatedFileSize() const override;
  bool NeedCompact() const override;
  rocksdb::TableProperties GetTableProperties() const override;
  std::string GetFileChecksum() const override;
  const char* GetFileChecksumFuncName() const override;
  void SetSeqnoTimeTableProperties(const std::string& encoded_seqno_to_time_mapping,
                                   uint64_t oldest_ancestor_time) override;

 private:
  struct HeldBlock {
    uint32_t ordinal;
    std::string raw;
  };

  void AddPointEntry(const rocksdb::ParsedInternalKey& key, const rocksdb::Slice& internal_key,
                     const rocksdb::Slice& value);
  // Before the entry is buffered: follows the input group being copied (copying it when it is
  // complete and ends with its partition where this entry begins another: `starts_partition`),
  // or starts following the one this entry begins (cutting the buffered group first).
  void FollowInputGroups(const rocksdb::Slice& internal_key, const rocksdb::Slice& value,
                         bool starts_partition);
  // Writes the rows before the followed group as a group of their own, then the group copied.
  void CopyFollowedGroup();
  // Gives up the followed group: its rows are cut as if never followed.
  void StopFollowing();
  // Whether the complete followed group, shorter than a cut by size, is where this builder ends
  // a group at its partition's end, the next entry beginning another partition.
  bool FollowedGroupEndsWithItsPartition() const;
  // Rows of the last group cut: the last one held back, or else the last one written.
  size_t LastCutGroupRows() const;
  // PartitionAlignedCuts::Cut for a group beginning at row `group_first`, the group before it
  // (if any: group_first > 0) holding `previous_rows` rows.
  size_t PartitionEndCut(uint64_t group_first, size_t previous_rows) const;
  // Whether this file's dictionaries let a group of `reader`'s file be copied, starting them
  // from that file's when they are still empty (called last: seeding is for a copy only).
  bool DictionariesAllowCopyFrom(const ColumnarTableReader& reader, size_t group);
  // Whether the groups of `reader`'s file from `group` on are a tail (at most what the output
  // can still hold back, and under half the file) better held back for the next input file to
  // seed this output's dictionaries (see the top).
  bool OnlyATailAhead(const ColumnarTableReader& reader, size_t group) const;
  // Whether the next output could seed its dictionaries from `reader`'s file, whose group
  // `group` this output could not copy, and this one is worth closing (see the top).
  bool NextOutputCouldSeedFrom(const ColumnarTableReader& reader, size_t group) const;
  // Whether the input group being followed is still the one its iterator holds.
  bool FollowedGroupHeld() const;
  // The dictionaries the next group may use: none while they may still be seeded from an input.
  FileDictionaryWriters* DictionariesForGroup() const;
  // Whether the groups cut now are still held back for a seed (ends for good once not).
  bool KeepAwaitingSeed();
  // Ends the wait for a seed: the held groups are written.
  void StopAwaitingSeed();
  // Writes the held groups; returns how many entries they held.
  size_t FlushHeldGroups();
  // Whether a compaction input now at hand could seed this file's dictionaries for a copy.
  bool SomeInputMaySeedDictionaries() const;
  // Before the entry of `user_key` is buffered: whether it begins another partition than the
  // previous entry's (never the file's first entry), noted for the groups' cuts and added to
  // the partition filter.
  bool NotePartition(const rocksdb::Slice& user_key);
  // Called after the entry of `user_key` was buffered.
  void AddToFilters(const rocksdb::Slice& user_key);
  // Writes the first `count` buffered entries as a row group (copied when they are the
  // followed input group) and drops them from the buffer.
  void FlushRowGroup(size_t count);
  // Writes buffered entries [first, first + count) as a row group, leaving the buffer as it is.
  void WriteBufferedGroup(size_t first, size_t count);
  // Gives the oversized values among rows [first_row, first_row + count) their place in the
  // group being written.
  void PlaceOversizedValues(uint64_t first_row, size_t count);
  // Where the open group ends: at rows_per_group, at group_target_bytes, or at its partition's
  // end (partition_aligned_cuts.h), whichever comes first (0: none yet).
  size_t NaturalCut() const;
  // NaturalCut of a group beginning at entry `first`, among the entries before `end`, the
  // group before it holding `previous_rows` rows.
  size_t NaturalCut(size_t first, size_t previous_rows, size_t end) const;
  // Rows of a group beginning at entry `first` cut by rows_per_group or group_target_bytes
  // among the entries before `end` (0: no cut there).
  size_t SizeCut(size_t first, size_t end) const;
  // The row number (as rows_added_ counts) of buffered entry `entry`.
  uint64_t RowOfEntry(size_t entry) const;
  // Whether the open group's rows stay uncut for now: every one is of the partition still
  // being added to, a copy may follow them (see the top), and they are under the limits divided
  // by `share_of_limit`.
  bool HoldsOpenRowsForCopy(size_t share_of_limit) const;
  // How the entries before the followed group are cut when it is copied.
  std::vector<size_t> CutsBeforeCopy() const;
  // Whether entries [first, end), every one of a partition that has ended (which began at row
  // `partition_first_row`), are cut with the short group first: at least a group's worth, in a
  // partition where rows land first.
  bool CutsEndedPartitionShortFirst(size_t first, size_t end, uint64_t partition_first_row) const;
  // Entries [first, end), of one partition, cut by size with the short group first (see the
  // top), or last when a cut is by bytes.
  std::vector<size_t> ShortFirstCuts(size_t first, size_t end) const;
  // Holds groups of these row counts, cut from the open group's front.
  void HoldCuts(const std::vector<size_t>& cuts);
  // Writes the buffered entries' groups as cut without copies, keeping the last group's start.
  void CutBufferedGroups();
  // Whether the followed input group, complete, ends where this builder would cut it.
  bool FollowedGroupEndsHere() const;
  // The file's bytes as they stand, with buffered data at the ratios seen so far.
  uint64_t EstimatedBytes() const;
  void FlushBlock();
  void WriteBlockNow(uint32_t ordinal, const Slice& raw);
  void TrainDictionaryAndWriteHeldBlocks();
  // While the dictionary is still to be trained: takes the zstd dictionary of `reader`'s file,
  // whose groups the output is about to copy, when that file compressed its blocks as this one
  // does and its dictionary was not carried too often already.
  void CarryCompressionDictionaryFrom(const ColumnarTableReader& reader);
  // Compresses the held blocks, and every later one, with `raw_dictionary` (none when empty or
  // not usable).
  void UseDictionaryAndWriteHeldBlocks(const std::string& raw_dictionary);
  // Writes a framed meta block of ours; returns where it went.
  // `min_zstd_level`: the block is compressed at least this hard (zone maps: written once per
  // file, read once per open, and much smaller at level 9 than at 3).
  BlockLocation WriteMetaBlock(const Slice& raw, int min_zstd_level = 0);
  void AppendToFile(const Slice& data);
  void SetError(const Status& s);
  bool ok() const { return status_.ok(); }
  void FinishFilters(FileRoot* root, rocksdb::MetaIndexBuilder* meta_index);

  // TableBuilderOptions is often a temporary of the caller: keep copies, and references only
  // to what outlives every builder (the column family's immutable options).
  const rocksdb::ImmutableOptions& ioptions_;
  const std::shared_ptr<const rocksdb::SliceTransform> prefix_extractor_;
  const rocksdb::CompressionOptions compression_opts_;
  // The compaction's output file size (0 for flushes and SstFileWriter).
  const uint64_t target_file_size_;
  rocksdb::WritableFileWriter* file_;
  std::shared_ptr<const TableSettings> settings_;
  std::unique_ptr<RowLayout> layout_;

  rocksdb::Status status_;
  rocksdb::IOStatus io_status_;
  bool closed_ = false;
  uint64_t offset_ = 0;
  rocksdb::TableProperties properties_;
  std::vector<std::unique_ptr<rocksdb::IntTblPropCollector>> collectors_;

  // The row group being filled.
  BufferedEntries entries_;
  // The data block being filled, and blocks held back for dictionary training.
  std::string block_;
  // The last data block written, framed (kept for its buffer).
  ByteBuffer stored_block_;
  std::vector<HeldBlock> held_blocks_;
  size_t held_bytes_ = 0;
  size_t hold_limit_ = 0;
  bool training_dictionary_ = false;
  std::unique_ptr<ZstdDictionary> dictionary_;
  // How many compactions in a row carried dictionary_ over (0: trained for this file).
  uint64_t compression_dictionary_carries_ = 0;
  BlockCompressor compressor_;

  RowGroupIndexBuilder index_;
  ColumnStats column_stats_;
  // The columns' encoding choices, reused across this file's row groups (encoding_memo.h).
  EncodingMemos encoding_memos_;
  // The layout's scratch from one row group of the file to the next (its column buffers).
  std::unique_ptr<RowGroupWriteScratch> layout_scratch_;
  // The layout id the root records: the layout's, raised by groups that need a later one.
  uint32_t file_layout_id_ = 0;
  // Typed layout only: zone maps for predicate pushdown.
  std::unique_ptr<ZoneMapCollector> zone_maps_;
  std::unique_ptr<FileDictionaryWriters> dictionaries_;
  // Files compaction soon rewrites (flushes): the column settings with every chunk short-lived.
  std::unique_ptr<ShortLivedColumnSettings> short_lived_settings_;
  // A flush's or the WAL recovery's file, soon rewritten by compaction.
  bool soon_rewritten_ = false;
  uint64_t max_sequence_ = 0;
  // Values written outside the row groups (oversized_values.h), in (group, row) order; their
  // rows' numbers (rows_added_), and how many have their place (the rest: groups unwritten).
  std::vector<OversizedValue> oversized_values_;
  std::vector<uint64_t> oversized_rows_;
  size_t placed_oversized_ = 0;
  std::string last_filter_key_;  // the last key of the previous row group
  std::string last_partition_key_;
  bool any_filter_key_ = false;
  bool any_partition_key_ = false;
  std::unique_ptr<rocksdb::FilterBitsBuilder> key_filter_;
  std::unique_ptr<rocksdb::FilterBitsBuilder> partition_filter_;
  std::vector<std::pair<std::string, std::string>> range_deletions_;
  // Groups end where long partitions do (partition_aligned_cuts.h); rows are numbered by
  // rows_added_, the point entries buffered so far.
  PartitionAlignedCuts partition_cuts_{1};
  uint64_t rows_added_ = 0;
  uint64_t partition_first_row_ = 0;           // the first row of the last entry's partition
  uint64_t previous_partition_first_row_ = 0;  // and of the partition before it
  // The first clustering column sorts descending: a partition's new rows (a time series'
  // newest points) land at its start, and its short group is kept there (see the top).
  bool rows_land_first_ = false;
  size_t last_group_rows_ = 0;  // rows of the last group written

  // Copying a compaction input's groups (see the top of this file).
  struct FollowedGroup {
    bool active = false;
    const CompactionInputGroup* input = nullptr;  // the iterator's registration
    const ColumnarTableReader* reader = nullptr;
    size_t group = SIZE_MAX;
    const DecodedRowGroup* rows = nullptr;  // (released once its iterator moves on)
    size_t row_count = 0;
    size_t prefix = 0;   // entries buffered before the group's first
    size_t matched = 0;  // entries_[prefix, prefix + matched) are its rows [0, matched)
    uint64_t partition_first_row = 0;           // the first row of its first row's partition
    uint64_t previous_partition_first_row = 0;  // and of the partition before that
    std::string bytes;                          // the group's encoded bytes
  };
  FollowedGroup followed_;
  CachePin<RawBlock> copy_block_;  // an input block read to copy a group from
  // Input blocks copied whole as stored; null when this file's blocks cannot be (block_copy.h).
  std::unique_ptr<BlockCopy> block_copy_;
  bool copy_inputs_ = false;  // a long-lived typed file: may copy groups
  bool dictionaries_carried_ = false;
  std::array<char, 16> dictionaries_from_{};  // the file id they were carried from
  uint64_t dictionary_carries_ = 0;
  uint64_t copied_groups_ = 0;
  // Set once the next output could copy what this one cannot (NextOutputCouldSeedFrom).
  bool close_requested_ = false;
  // The first groups of the file, cut but held back while a seed may come (KeepAwaitingSeed):
  // their row counts, at the buffer's front; held_entries_ is their sum.
  bool awaiting_seed_ = false;
  std::vector<size_t> held_groups_;
  size_t held_entries_ = 0;

  // Running ratios for size estimates while data is still buffered.
  uint64_t raw_entry_bytes_ = 0;
  uint64_t encoded_group_bytes_ = 0;
  uint64_t raw_block_bytes_ = 0;
  uint64_t stored_block_bytes_ = 0;
  // The file dictionaries' entry bytes after the last row group (they change only when one is
  // written; EstimatedFileSize, called for every entry, would otherwise sum them every time).
  size_t dictionary_bytes_ = 0;
};

}  // namespace columnar
