// ColumnarTableReader: serves Get, MultiGet, iterators and range tombstones from one
// ColumnarTable file. RocksDB shares one reader between all threads: everything here is
// immutable after Open, and the mutable state (decompressed blocks, decoded row groups) lives
// in the factory's shared, bounded rocksdb::Cache.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "file/random_access_file_reader.h"
#include "plugin/cache_pin.h"
#include "plugin/cache_room.h"
#include "plugin/oversized_values.h"
#include "plugin/pushdown.h"
#include "plugin/table_settings.h"
#include "plugin/zone_map_collector.h"
#include "table/block_based/filter_policy_internal.h"
#include "table/table_builder.h"
#include "table/table_reader.h"
#include "table_format/file_root.h"
#include "table_format/partition_directory.h"
#include "table_format/row_group_index.h"
#include "table_format/row_layout.h"
#include "table_format/typed_layout.h"
#include "table_format/zstd_codec.h"

namespace columnar {

// A data block after decompression: the raw concatenated row groups. A plain buffer rather
// than a std::string, which would be zero-filled before the block is read into it.
struct RawBlock {
  uint32_t ordinal = 0;
  std::array<char, 16> file_id{};  // the file's (FileRoot::file_id)
  std::unique_ptr<char[]> buffer;
  size_t size = 0;       // bytes of the block
  size_t allocated = 0;  // bytes of the buffer (a stored block keeps its trailer)
  // Point reads that found the block in the cache (ColumnarTableReader::LoadRowsForPointRead).
  mutable std::atomic<uint32_t> cached_point_reads{0};
  rocksdb::Slice bytes() const { return rocksdb::Slice(buffer.get(), size); }
  size_t MemoryUsage() const { return allocated + sizeof(*this); }
};

class ColumnarTableReader : public rocksdb::TableReader {
 public:
  static rocksdb::Status Open(const rocksdb::ReadOptions& read_options,
                              const rocksdb::TableReaderOptions& options,
                              std::unique_ptr<rocksdb::RandomAccessFileReader>&& file,
                              uint64_t file_size, std::shared_ptr<const TableSettings> settings,
                              std::unique_ptr<rocksdb::TableReader>* reader);

  rocksdb::InternalIterator* NewIterator(const rocksdb::ReadOptions& read_options,
                                         const rocksdb::SliceTransform* prefix_extractor,
                                         rocksdb::Arena* arena, bool skip_filters,
                                         rocksdb::TableReaderCaller caller,
                                         size_t compaction_readahead_size = 0,
                                         bool allow_unprepared_value = false) override;
  uint64_t ApproximateOffsetOf(const rocksdb::Slice& key,
                               rocksdb::TableReaderCaller caller) override;
  uint64_t ApproximateSize(const rocksdb::Slice& start, const rocksdb::Slice& end,
                           rocksdb::TableReaderCaller caller) override;
  void SetupForCompaction() override {}
  std::shared_ptr<const rocksdb::TableProperties> GetTableProperties() const override {
    return properties_;
  }
  size_t ApproximateMemoryUsage() const override;
  rocksdb::Status Get(const rocksdb::ReadOptions& read_options, const rocksdb::Slice& key,
                      rocksdb::GetContext* get_context,
                      const rocksdb::SliceTransform* prefix_extractor,
                      bool skip_filters = false) override;
  rocksdb::FragmentedRangeTombstoneIterator* NewRangeTombstoneIterator(
      const rocksdb::ReadOptions& read_options) override;
  rocksdb::Status VerifyChecksum(const rocksdb::ReadOptions& read_options,
                                 rocksdb::TableReaderCaller caller) override;
  // Anchors weighed by the bytes their rows take uncompressed (RawBytesPerDataByte).
  rocksdb::Status ApproximateKeyAnchors(const rocksdb::ReadOptions& read_options,
                                        std::vector<Anchor>& anchors) override;

  // ---- used by ColumnarTableIterator ----
  const RowGroupIndex& index() const { return index_; }
  // Data block `block` as the file stores it (payload and trailer, checksum verified) into
  // *stored, when its raw bytes are `raw`; false when they are not, or it cannot be read.
  // `held`: a pin of some block's raw bytes, compared instead of decompressing when it is this
  // block of this file.
  bool StoredBlockHolding(uint32_t block, const rocksdb::Slice& raw, const RawBlock* held,
                          std::string* stored) const;
  // Whether `block` (may be null) is the block of this file that holds `group`.
  bool HoldsBlockOf(const RawBlock* block, size_t group) const;
  // The first internal key of a group as reads see it (with an ingested file's global
  // sequence number).
  rocksdb::Slice first_key(size_t group) const {
    return effective_first_keys_.empty() ? index_.first_key(group)
                                         : rocksdb::Slice(effective_first_keys_[group]);
  }
  const rocksdb::InternalKeyComparator& comparator() const { return comparator_; }
  // The row group a seek for `target` (an internal key) starts in: the last one whose first
  // key is <= target, or 0 when target precedes the whole file.
  size_t GroupForSeek(const rocksdb::Slice& target) const;
  // The row group whose rows a lower-bound search for `target` (Seek, Get) must start with:
  // GroupForSeek's, or the next one when that group holds only rows of partitions before
  // target's. A seek to the start of a partition that begins a group lands, by the first keys,
  // in the group before it; when that group's boundary is not known yet, its partition slot
  // alone is read (LearnGroupBoundary) rather than the group being decoded whole to find none
  // of its rows (a cold `latest` query decoded two groups). SeekForPrev, which may want that
  // group's last row, keeps GroupForSeek. `block` as for LoadRowGroup.
  rocksdb::Status GroupForLowerBound(const rocksdb::Slice& target,
                                     const rocksdb::ReadOptions& read_options,
                                     CachePin<RawBlock>* block, size_t* group) const;
  // What a whole group is decoded for: point reads get search prefixes
  // (DecodedRowGroup::BuildSearchPrefixes) when the keys allow them; a compaction's input keeps
  // what the output's builder needs to copy the group verbatim
  // (RowLayout::DecodeRowGroupForCopy).
  enum class DecodeFor { kScan, kPointReads, kCopy };
  // Pins decoded row group `group` (one found in the cache serves whatever `purpose`). `block`
  // is a block pin the caller keeps between calls, so neighbouring groups of one block
  // decompress it once even when the cache is not filled.
  rocksdb::Status LoadRowGroup(size_t group, const rocksdb::ReadOptions& read_options,
                               CachePin<RawBlock>* block, CachePin<DecodedRowGroup>* out,
                               DecodeFor purpose = DecodeFor::kScan) const;
  // Where a point read (Get, an iterator's Seek) of internal key `target` lands in `group`:
  // the lower bound of `target` there, and the rows from it on that the read needs, which
  // are the rows with target's user key (`same_user_key`) or the one row at the bound.
  // A group that is hot (decoded in the cache, or read often while its block stayed cached)
  // is decoded whole and cached, so further reads cost a binary search; otherwise only its
  // key columns are decoded and the needed rows materialised (RowLayout::DecodeKeys), and
  // the cache holds just the raw block, as BlockBasedTable's does.
  struct PointRows {
    CachePin<DecodedRowGroup> rows;  // the whole group, or only some of its rows
    size_t first_row = 0;            // the group row that rows' row 0 is
    size_t position = 0;             // the lower bound of target, a row of `rows`
    bool whole = false;              // rows is the whole group
    size_t group_rows = 0;           // rows of the group
    // The group holds rows after `rows`: the ones past what the read asked for.
    bool truncated() const { return !whole && first_row + rows->row_count() < group_rows; }
  };
  rocksdb::Status LoadRowsForPointRead(size_t group, const rocksdb::Slice& target,
                                       bool same_user_key, const rocksdb::ReadOptions& read_options,
                                       CachePin<RawBlock>* block, PointRows* out) const;
  // The same for a scan with a pushdown spec (pushdown.h): the group's entries as the spec
  // leaves them (possibly none). Without a spec, LoadRowGroup.
  rocksdb::Status LoadRowGroupForScan(size_t group, const rocksdb::ReadOptions& read_options,
                                      const ScanSpec* spec, CachePin<RawBlock>* block,
                                      CachePin<DecodedRowGroup>* out) const;
  // The pushdown spec of a read, when it has one this file can use.
  const ScanSpec* PushdownSpecOf(const rocksdb::ReadOptions& read_options) const;
  // The partition of `user_key` the partition filter knows it by: from the file's schema
  // (typed layout), or from `prefix_extractor` when it is the one the file was written with.
  bool PartitionOf(const rocksdb::Slice& user_key, const rocksdb::SliceTransform* prefix_extractor,
                   rocksdb::Slice* partition) const;
  // False when the partition filter proves `partition` absent from the file.
  bool PartitionMayMatch(const rocksdb::Slice& partition) const;
  bool has_partition_filter() const { return partition_filter_ != nullptr; }

  // ---- used by the columnar scan path (column_scan.h) ----
  // The file's typed layout; null for files without a schema (generic layout).
  const TypedLayout* typed_layout() const;
  // The sequence number every key of an ingested file takes; kDisableGlobalSequenceNumber for
  // other files.
  rocksdb::SequenceNumber global_sequence() const { return global_seqno_; }
  bool has_range_deletions() const { return range_deletions_ != nullptr; }
  // The zone maps of row group `group` into *out, with *usable set when a predicate they rule
  // out matches no entry of the group (every entry a typed Put at sequence number 0, no global
  // sequence number); *usable false (and *out empty) for files or groups without them. Maps
  // decoded for this call go to the cache only with `fill_cache` (as every zone-map load).
  rocksdb::Status SkippableZoneMaps(size_t group, bool fill_cache, CachePin<ZoneMapSet>* out,
                                    bool* usable) const;
  // The zone maps of row group `group` into *out, whatever the group holds, with
  // *only_sequence_zero_puts set when every entry is a typed Put stored with sequence number 0
  // (the zone map entry's flag; an ingested file's entries are stored so). NotFound for files
  // without zone maps.
  rocksdb::Status GroupZoneMaps(size_t group, bool fill_cache, CachePin<ZoneMapSet>* out,
                                bool* only_sequence_zero_puts) const;
  // Parses row group `group`, loading its block into *block unless it already holds it.
  rocksdb::Status ViewRowGroup(size_t group, const rocksdb::ReadOptions& read_options,
                               CachePin<RawBlock>* block, RowGroupView* view) const;
  // Decoded scan columns, shared through the block cache so that a group scanned again is not
  // decoded again: the key and metadata columns `wanted` of a group as one entry, each regular
  // column (every row) as its own, so a query caches only the columns it reads. Lookups give an
  // empty pin on a miss.
  CachePin<TypedGroupColumns> CachedScanKeyColumns(size_t group,
                                                   const ScanColumnsWanted& wanted) const;
  rocksdb::Status DecodeScanKeyColumns(size_t group, const RowGroupView& view,
                                       const ScanColumnsWanted& wanted, bool fill_cache,
                                       CachePin<TypedGroupColumns>* out) const;
  CachePin<ColumnVector> CachedScanColumn(size_t group, uint32_t column_id) const;
  // Regular column `column_id` of `group`: with `wanted_rows` (TypedLayout::
  // DecodeScanRegularColumn) only those rows, never cached; otherwise every row, cached when
  // `fill_cache`.
  rocksdb::Status DecodeScanColumn(size_t group, const RowGroupView& view, uint32_t column_id,
                                   const uint64_t* wanted_rows, bool fill_cache,
                                   CachePin<ColumnVector>* out) const;
  // Counts a scan of `group`'s columns: true when the group was scanned before, or while the
  // cache has room to spare. Only a hot group's decoded columns are cached, and a filtered scan
  // of a cold group decodes the selected rows only: renting before buying, as point reads do.
  bool ScanColumnsHot(size_t group) const;

  // ---- used by ColumnarTableBuilder to copy a compaction input's groups ----
  // Whether a builder of `settings` may copy this file's row groups: a typed file written
  // long-lived with the same options and schema, without a global sequence number.
  bool RowGroupsCopyableWith(const TableSettings& settings) const;
  // The file's identity (its root block's random file id).
  const std::array<char, 16>& file_id() const { return root_.file_id; }
  // The file's dictionaries; null when it has none.
  const FileDictionarySet* file_dictionaries() const { return file_dictionaries_.get(); }
  // How many compactions in a row carried the file's dictionaries over
  // (kDictionaryCarriesProperty).
  uint64_t dictionary_carries() const { return dictionary_carries_; }
  // The file's zstd dictionary (its data blocks' compression); null when it has none.
  const ZstdDictionary* compression_dictionary() const { return dictionary_.get(); }
  // How many compactions in a row carried it over (kCompressionDictionaryCarriesProperty).
  uint64_t compression_dictionary_carries() const { return compression_dictionary_carries_; }
  // The file's data bytes (as stored) per rows_per_group rows: what one of its full row groups
  // stores on average. (Not per group: groups ending with their partition are shorter, and
  // a file of short partitions has many of them; partition_aligned_cuts.h.)
  uint64_t StoredFullGroupBytes() const;
  // The zone maps this file stored for `group`, decoded (not cached), for an output copying the
  // group: they are the ones its values give again. NotFound for files without zone maps.
  rocksdb::Status StoredZoneMaps(size_t group, ZoneMapSet* out) const;
  // Whether some row of `group` has its value stored outside the group (oversized_values.h).
  bool HasOversizedValues(size_t group) const;
  // Appends the encoded bytes of row group `group` to *out: from `held` when that is the
  // group's block (of this file), else from the block loaded into *block, kept when it holds it
  // already.
  rocksdb::Status CopyRowGroupBytes(size_t group, const RawBlock* held,
                                    const rocksdb::ReadOptions& read_options,
                                    CachePin<RawBlock>* block, std::string* out) const;
  // How many bytes CopyRowGroupBytes would append for `group`: from the index, or from `held`
  // when the group ends its block (the index knows where a group ends only when another
  // follows it in the block) and `held` is that block; SIZE_MAX when neither tells.
  size_t EncodedGroupBytes(size_t group, const RawBlock* held) const;

 private:
  ColumnarTableReader(const rocksdb::TableReaderOptions& options,
                      std::unique_ptr<rocksdb::RandomAccessFileReader>&& file, uint64_t file_size,
                      std::shared_ptr<const TableSettings> settings);

  rocksdb::Status CreateLayout();
  // RocksDB 7.8 weighs anchors only to plan subcompactions (CompactionJob::
  // GenSubcompactionBoundaries), against the output file size: ranges of at least one output
  // file each, and no split at all into two. A range's cost to a compaction follows its rows,
  // which this format packs several times tighter than BlockBasedTable's blocks: weighed by
  // file bytes, a compaction of columnar files would stay one thread until it held several
  // times the rows of a BlockBasedTable one (db_bench_ext metrics: 74 MB, 17 M points, one
  // thread; the same points in BlockBasedTable, 200 MB, three). So a range weighs the bytes its
  // rows take uncompressed (the file's raw key and value sizes spread over its data bytes),
  // never less than its file bytes.
  double RawBytesPerDataByte() const;
  rocksdb::Status ReadFileStats();
  rocksdb::Status LoadZoneMaps(size_t group, bool fill_cache, CachePin<ZoneMapSet>* out) const;
  rocksdb::Status ReadRowsPerGroup();
  rocksdb::Status ReadLargestSequence();
  void ReadDictionaryCarries();
  rocksdb::Status ReadOversizedValueDirectory();
  std::vector<OversizedValue>::const_iterator FirstOversizedValueOf(size_t group) const;
  rocksdb::Status ReadOversizedValue(const OversizedValue& where, bool verify,
                                     std::string* value) const;
  // Puts the values of `group`'s oversized rows into *decoded (oversized_values.h).
  rocksdb::Status AttachOversizedValues(size_t group, const rocksdb::ReadOptions& read_options,
                                        std::unique_ptr<DecodedRowGroup>* decoded) const;
  // Checks the entries of decoded rows [first_row, first_row + decoded.row_count()) of
  // `group` before any reaches RocksDB (a whole group from 0, or the rows a point read found).
  rocksdb::Status CheckKeys(size_t group, size_t first_row, const DecodedRowGroup& decoded) const;
  // CheckKeys's checks of one entry's value type and sequence number.
  rocksdb::Status CheckTrailer(uint64_t trailer) const;
  // Decodes `group` whole from its block (loading it into *block unless it holds it already)
  // and caches it: LoadRowGroup after a cache miss.
  rocksdb::Status DecodeAndCacheRowGroup(size_t group, const rocksdb::ReadOptions& read_options,
                                         DecodeFor purpose, CachePin<RawBlock>* block,
                                         CachePin<DecodedRowGroup>* out) const;
  // The point-read path for a cold group (LoadRowsForPointRead).
  rocksdb::Status ReadRowsOfColdGroup(size_t group, const rocksdb::Slice& target,
                                      bool same_user_key, const rocksdb::ReadOptions& read_options,
                                      CachePin<RawBlock>* block, PointRows* out) const;
  // The lower bound of internal key `target` among the rows of `group`.
  size_t LowerBound(const DecodedRowGroup& group, const rocksdb::Slice& target) const;

  // Whether a block read for a group goes to the cache: as the read options say, or not at all
  // (a block of one group whose decoded rows are cached instead); zone maps always follow the
  // read options.
  enum class BlockCaching { kAsReadOptions, kUncached };
  rocksdb::Status ViewRowGroup(size_t group, const rocksdb::ReadOptions& read_options,
                               BlockCaching block_caching, CachePin<RawBlock>* block,
                               RowGroupView* view) const;
  // Parses a group from its block; the zone maps its anchors need are cached with `fill_cache`.
  rocksdb::Status ParseRowGroup(size_t group, const rocksdb::Slice& block_bytes, bool fill_cache,
                                RowGroupView* view) const;
  // Gives the anchored chunks of a parsed group their anchors (RowGroupView::SetAnchor).
  rocksdb::Status SetAnchors(size_t group, bool fill_cache, RowGroupView* view) const;
  rocksdb::Status ReadAt(uint64_t offset, uint64_t size, std::string* out) const;
  // Reads `size` bytes at `offset` into out[0, size).
  rocksdb::Status ReadInto(uint64_t offset, uint64_t size, char* out) const;
  rocksdb::Status ReadStoredBlock(const BlockLocation& location, bool verify,
                                  std::string* stored) const;
  rocksdb::Status ReadMetaBlock(FileBlock block, std::string* raw) const;
  rocksdb::Status OpenFilters();
  rocksdb::Status LoadBlock(uint32_t block, const rocksdb::ReadOptions& read_options,
                            CachePin<RawBlock>* out) const;
  // A cache key: the file id, the kind ('B' block, 'G' decoded group, 'Z' zone maps, 'K' scan
  // key columns, 'V' a scan column), the ordinal, and for a decoded group of an ingested file
  // its global sequence number, for scan columns their detail. Built on the stack: as a
  // std::string (over 15 bytes) it cost an allocation on every cache lookup.
  struct CacheKeyBytes {
    char bytes[16 + 1 + 10 + 10];
    size_t size = 0;
    operator rocksdb::Slice() const { return rocksdb::Slice(bytes, size); }
  };
  // `detail` (kinds 'K' and 'V'): the wanted columns' mask, or the column id.
  CacheKeyBytes CacheKey(char kind, uint64_t ordinal, uint64_t detail = 0) const;
  rocksdb::Status VerifyFooter() const;
  rocksdb::Status VerifyPatchedGlobalSequence(const std::string& properties) const;

  const rocksdb::ImmutableOptions& ioptions_;
  const rocksdb::InternalKeyComparator comparator_;
  std::unique_ptr<rocksdb::RandomAccessFileReader> file_;
  const uint64_t file_size_;
  std::shared_ptr<const TableSettings> settings_;
  rocksdb::SequenceNumber largest_seqno_;

  FileRoot root_;
  uint64_t footer_offset_ = 0;
  std::shared_ptr<const rocksdb::TableProperties> properties_;
  // The rows_per_group the file was written with: no row group of it may hold more rows.
  uint32_t rows_per_group_ = 0;
  // The largest sequence number the file says it holds (kMaxSequenceProperty; unbounded when
  // the property is absent).
  uint64_t largest_sequence_ = rocksdb::kMaxSequenceNumber;
  // Values stored outside the row groups, in (group, row) order.
  std::vector<OversizedValue> oversized_values_;
  rocksdb::SequenceNumber global_seqno_ = rocksdb::kDisableGlobalSequenceNumber;
  std::unique_ptr<RowLayout> layout_;
  RowGroupIndex index_;
  std::vector<std::string> effective_first_keys_;  // only for files with a global seqno
  std::string key_filter_bytes_;
  std::string partition_filter_bytes_;
  std::unique_ptr<rocksdb::FilterBitsReader> key_filter_;
  std::unique_ptr<rocksdb::FilterBitsReader> partition_filter_;
  std::string partition_extractor_name_;
  std::shared_ptr<const rocksdb::FragmentedRangeTombstoneList> range_deletions_;
  std::unique_ptr<ZstdDictionary> dictionary_;
  // Typed layout: per-group zone maps (entries point into zone_map_bytes_).
  std::string zone_map_bytes_;
  std::vector<ZoneMapEntry> zone_maps_;
  // Per group, ExpiredFrom of its zone maps once read (kExpiryUnknown before).
  static constexpr int64_t kExpiryUnknown = INT64_MIN;
  mutable std::unique_ptr<std::atomic<int64_t>[]> group_expired_from_;
  // Per group: scans of its columns so far, saturating (ScanColumnsHot).
  mutable std::unique_ptr<std::atomic<uint8_t>[]> group_scans_;
  // Per group but the last: when its last row lies in another partition than the next group's
  // first row, the length of that row's partition (a prefix of its user key); kBoundaryUnknown
  // until the group is decoded whole or its partition slot read (LearnGroupBoundary; the
  // index holds first keys only, and the file's format is unchanged), kPartitionContinues
  // otherwise. Typed layout and bytewise keys only (null otherwise).
  static constexpr uint32_t kBoundaryUnknown = 0;
  static constexpr uint32_t kPartitionContinues = UINT32_MAX;
  mutable std::unique_ptr<std::atomic<uint32_t>[]> next_partition_lengths_;
  void RecordGroupBoundary(size_t group, const DecodedRowGroup& decoded) const;
  // `group`, or the next one when `group` is known to end before target's partition, which
  // the next group begins.
  size_t PastGroupEndingBefore(size_t group, const rocksdb::Slice& target) const;
  // Records next_partition_lengths_[group] from its last row's partition (false: not known).
  void StoreGroupBoundary(size_t group, bool last_known,
                          const rocksdb::Slice& last_partition) const;
  rocksdb::Status LearnGroupBoundary(size_t group, const rocksdb::ReadOptions& read_options,
                                     CachePin<RawBlock>* block) const;
  // The group is the only one in its block.
  bool AloneInBlock(size_t group) const;
  // The groups beginning in each partition (partition_directory.h), built at the first seek or
  // point read (compactions, which only scan, never build it); the same files as
  // next_partition_lengths_, null otherwise or when it cannot be built.
  mutable std::once_flag partition_directory_once_;
  mutable std::unique_ptr<PartitionDirectory> partition_directory_;
  // Its memory once built, for ApproximateMemoryUsage (which must not read the pointer while
  // another thread builds it).
  mutable std::atomic<size_t> partition_directory_bytes_{0};
  const PartitionDirectory* Directory() const;
  // GroupForSeek through the directory: true with *group set when target's partition begins
  // some group.
  bool GroupForSeekInPartition(const rocksdb::Slice& target, size_t* group) const;
  // The first group in [lo, hi) whose first key is above target (hi when none is).
  size_t FirstGroupAbove(const rocksdb::Slice& target, size_t lo, size_t hi) const;
  // The file's merged column statistics, when it may be skipped by them (ReadFileStats).
  std::unique_ptr<ZoneMapSet> file_stats_;
  size_t dictionary_bytes_ = 0;
  std::shared_ptr<const FileDictionarySet> file_dictionaries_;
  uint64_t dictionary_carries_ = 0;
  uint64_t compression_dictionary_carries_ = 0;
  // The group bytes `group` spans in its block's raw bytes (ParseRowGroup's bounds check).
  rocksdb::Status GroupBytesIn(size_t group, const rocksdb::Slice& block_bytes,
                               rocksdb::Slice* bytes) const;
  // Point reads decode a group whole at once while the cache has room (LoadRowsForPointRead).
  CacheRoom cache_room_;
};

}  // namespace columnar
