#include "plugin/column_scan.h"

#include <algorithm>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/dbformat.h"
#include "db/memtable.h"
#include "db/memtable_list.h"
#include "db/range_del_aggregator.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "filter/prune.h"
#include "memory/arena.h"
#include "plugin/cache_pin.h"
#include "plugin/columnar_table_reader.h"
#include "plugin/pushdown.h"
#include "plugin/row_group_column_source.h"
#include "rocksdb/comparator.h"
#include "table_format/column_values.h"
#include "table_format/layout_columns.h"

namespace columnar {

namespace {

// A half-open user-key interval [start, limit); no limit when `unbounded`.
struct Span {
  std::string start;
  std::string limit;
  bool unbounded = false;
};

// The smallest user key after `key` (bytewise order).
std::string Successor(const Slice& key) {
  std::string next(key.data(), key.size());
  next.push_back('\0');
  return next;
}

bool BelowLimit(const Slice& key, const Span& span) {
  return span.unbounded || key.compare(span.limit) < 0;
}

// Whether a file's keys reach into `span`.
bool FileMeets(const rocksdb::FileMetaData& meta, const Span& span) {
  return BelowLimit(meta.smallest.user_key(), span) &&
         meta.largest.user_key().compare(span.start) >= 0;
}

// `span` minus the union of `holes` (each half-open), in key order.
std::vector<Span> Subtract(const Span& span, std::vector<Span> holes) {
  std::sort(holes.begin(), holes.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  std::vector<Span> out;
  std::string cursor = span.start;
  for (const Span& hole : holes) {
    if (!BelowLimit(hole.start, span)) break;
    if (!hole.unbounded && hole.limit <= cursor) continue;
    if (hole.start > cursor) out.push_back(Span{cursor, hole.start, false});
    if (hole.unbounded) return out;
    cursor = std::max(cursor, hole.limit);
    if (!BelowLimit(cursor, span)) return out;
  }
  out.push_back(Span{cursor, span.limit, span.unbounded});
  return out;
}

// False when the row-expiry zone map (always kept, zone_map_collector.h) shows that no row of
// the group has expired at `now_seconds` (the row path hides rows whose expiry is <= now).
bool SomeRowMayHaveExpired(const ZoneMapSet& maps, int64_t now_seconds) {
  const ZoneMap* expiry = maps.Find(kExpiryZoneMapColumn);
  return expiry == nullptr ||
         (expiry->non_null_count() > 0 && static_cast<int64_t>(expiry->min.bits) <= now_seconds);
}

bool Overlaps(const Span& a, const Span& b) {
  return BelowLimit(b.start, a) && BelowLimit(a.start, b);
}

// Where a columnar piece's span meets one of its row groups: the group's keys within the span,
// and whether the span begins or ends inside the group (only a piece's first and last group).
struct GroupSpan {
  KeyRange range;
  bool starts_inside = false;
  bool ends_inside = false;
  bool whole() const { return !starts_inside && !ends_inside; }
};

// Rows of a typed group (decoded with partitions and clustering; one version per key, in key
// order) whose user keys are below `key`.
Status RowsBelow(const TypedLayout& layout, const TypedGroupColumns& columns, const Slice& key,
                 uint32_t* rows) {
  std::string buffer;
  uint32_t lo = 0, hi = columns.rows;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    Status s = layout.ScanRowUserKey(columns, mid, &buffer);
    if (!s.ok()) return s;
    if (Slice(buffer).compare(key) < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *rows = lo;
  return Status::OK();
}

// A row group's stored bytes, parsed on first use: a group whose scan columns are all cached
// is not read at all.
class LazyGroupView {
 public:
  LazyGroupView(const ColumnarTableReader& reader, size_t group, bool fill_cache,
                CachePin<RawBlock>* block)
      : reader_(reader), group_(group), block_(block) {
    options_.fill_cache = fill_cache;
  }

  Status Get(const RowGroupView** view) {
    if (!parsed_) {
      Status s = reader_.ViewRowGroup(group_, options_, block_, &view_);
      if (!s.ok()) return s;
      parsed_ = true;
    }
    *view = &view_;
    return Status::OK();
  }

 private:
  const ColumnarTableReader& reader_;
  const size_t group_;
  rocksdb::ReadOptions options_;
  CachePin<RawBlock>* const block_;
  RowGroupView view_;
  bool parsed_ = false;
};

}  // namespace

class ColumnScan::Impl {
 public:
  struct File {
    const ColumnarTableReader* reader = nullptr;
    rocksdb::Cache::Handle* handle = nullptr;  // when the table cache had to open it
    std::string largest;                       // the largest user key
    std::string largest_successor;             // Successor(largest user key)
  };

  ~Impl() {
    for (File& file : files_) {
      if (file.handle != nullptr) cfd_->table_cache()->ReleaseHandle(file.handle);
    }
    if (sv_ != nullptr) db_->CleanupSuperVersion(sv_);
  }

  Status Plan(const rocksdb::Snapshot* snapshot, const KeyRange& range);
  Status ReadPiece(size_t index, const ColumnScanRequest& request, bool reversed,
                   const GroupVisitor& visit, bool* stopped);

  rocksdb::DBImpl* db_ = nullptr;
  rocksdb::ColumnFamilyData* cfd_ = nullptr;
  rocksdb::SuperVersion* sv_ = nullptr;
  std::vector<File> files_;
  std::vector<Piece> pieces_;
  ColumnScanCounters counters_;

 private:
  // Key spans of the memtables' entries inside `range` (one per memtable, first to last key).
  void MemtableSpans(const Span& range, std::vector<Span>* spans) const;
  // The columnar file of `meta` when it may serve columnar pieces at `read_sequence`.
  Status EligibleFile(const rocksdb::FileMetaData& meta, int level,
                      rocksdb::SequenceNumber read_sequence, File* file) const;
  // The row groups of `file` holding keys of `span` (the first and last possibly partly), as a
  // piece of exactly `span` (false when none).
  bool GroupsOf(const File& file, size_t file_index, const Span& span, Piece* piece) const;
  Slice FirstUserKey(const File& file, size_t group) const {
    return rocksdb::ExtractUserKey(file.reader->first_key(group));
  }
  // The exclusive user-key end of `group`'s rows (one version per key: the next group's first).
  Slice GroupLimit(const File& file, size_t group) const {
    return group + 1 < file.reader->index().num_row_groups() ? FirstUserKey(file, group + 1)
                                                             : Slice(file.largest_successor);
  }
  GroupSpan SpanOf(const File& file, size_t group, const Piece& piece) const;
  Status ReadGroup(const File& file, size_t group, const GroupSpan& span,
                   const ColumnScanRequest& request, CachePin<RawBlock>* block,
                   const GroupVisitor& visit, bool* keep_going);
  // Deselects the rows of `columns` outside `span` (a group the span cuts).
  Status ClipToSpan(const File& file, const TypedGroupColumns& columns, const GroupSpan& span,
                    SelectionBitmap* selection) const;
  // The regular columns `request` reads of `group` (by column id; empty pins for the others):
  // from the cache, or decoded.
  Status RegularColumns(const File& file, size_t group, const ColumnScanRequest& request,
                        const SelectionBitmap& selection, bool all_selected, bool cache_columns,
                        LazyGroupView* view, std::vector<CachePin<ColumnVector>>* out);
  // Offers `group` to request.answer_from_statistics when its statistics describe exactly the
  // rows the scan returns (column_scan.h); *answered when the caller took it.
  Status AnswerFromStatistics(const File& file, size_t group, const ColumnScanRequest& request,
                              CachePin<ZoneMapSet>* zone_maps, bool* answered, bool* keep_going);
};

void ColumnScan::Impl::MemtableSpans(const Span& range, std::vector<Span>* spans) const {
  rocksdb::ReadOptions options;
  options.total_order_seek = true;
  rocksdb::Arena arena;
  std::vector<rocksdb::InternalIterator*> iterators;
  iterators.push_back(sv_->mem->NewIterator(options, &arena));
  sv_->imm->AddIterators(options, &iterators, &arena);
  const rocksdb::InternalKey start(range.start, rocksdb::kMaxSequenceNumber,
                                   rocksdb::kValueTypeForSeek);
  for (rocksdb::InternalIterator* it : iterators) {
    it->Seek(start.Encode());
    if (it->Valid() && BelowLimit(rocksdb::ExtractUserKey(it->key()), range)) {
      Span span;
      span.start = rocksdb::ExtractUserKey(it->key()).ToString();
      if (range.unbounded) {
        it->SeekToLast();
      } else {
        // The last entry below the limit: (limit, max sequence) precedes every entry of limit.
        const rocksdb::InternalKey limit(range.limit, rocksdb::kMaxSequenceNumber,
                                         rocksdb::kValueTypeForSeek);
        it->SeekForPrev(limit.Encode());
      }
      // Conservative when the memtable changed between the two seeks: to the range's end.
      if (it->Valid() && rocksdb::ExtractUserKey(it->key()).compare(span.start) >= 0) {
        span.limit = Successor(rocksdb::ExtractUserKey(it->key()));
      } else {
        span.limit = range.limit;
        span.unbounded = range.unbounded;
      }
      spans->push_back(std::move(span));
    }
    it->~InternalIteratorBase();  // arena-allocated
  }
}

Status ColumnScan::Impl::EligibleFile(const rocksdb::FileMetaData& meta, int level,
                                      rocksdb::SequenceNumber read_sequence, File* file) const {
  rocksdb::TableReader* reader = meta.fd.table_reader;
  rocksdb::Cache::Handle* handle = nullptr;
  if (reader == nullptr) {
    Status s = cfd_->table_cache()->FindTable(rocksdb::ReadOptions(), *cfd_->soptions(),
                                              cfd_->internal_comparator(), meta, &handle,
                                              sv_->mutable_cf_options.prefix_extractor, false, true,
                                              nullptr, false, level, true, 0, meta.temperature);
    if (!s.ok()) return s;
    reader = cfd_->table_cache()->GetTableReaderFromHandle(handle);
  }
  file->reader = dynamic_cast<const ColumnarTableReader*>(reader);
  file->handle = handle;
  bool eligible = file->reader != nullptr && file->reader->typed_layout() != nullptr &&
                  !file->reader->has_range_deletions() &&
                  file->reader->index().num_row_groups() > 0;
  if (eligible) {
    const rocksdb::SequenceNumber global = file->reader->global_sequence();
    // One version per user key, all visible: a file whose every sequence number is 0 (a
    // bottommost compaction output no snapshot needed older versions for), or an ingested file
    // (SstFileWriter takes each key once) at or below the snapshot.
    eligible = global == rocksdb::kDisableGlobalSequenceNumber ? meta.fd.largest_seqno == 0
                                                               : global <= read_sequence;
  }
  if (!eligible) {
    if (handle != nullptr) cfd_->table_cache()->ReleaseHandle(handle);
    file->reader = nullptr;
    file->handle = nullptr;
  }
  return Status::OK();
}

bool ColumnScan::Impl::GroupsOf(const File& file, size_t file_index, const Span& span,
                                Piece* piece) const {
  const size_t groups = file.reader->index().num_row_groups();
  // The group span.start falls in: the last one whose first key is <= span.start (span.start
  // is at or after the file's smallest key).
  size_t lo = 0, hi = groups;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (FirstUserKey(file, mid).compare(span.start) <= 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const size_t first = lo == 0 ? 0 : lo - 1;
  // Groups from `first` whose first key is below span.limit.
  size_t end = groups;
  if (!span.unbounded) {
    lo = first;
    hi = groups;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (FirstUserKey(file, mid).compare(span.limit) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    end = lo;
  }
  if (first >= end) return false;
  piece->columnar = true;
  piece->file = file_index;
  piece->first_group = first;
  piece->end_group = end;
  piece->range.start = span.start;
  piece->range.limit = span.limit;
  piece->range.limit_unbounded = span.unbounded;
  return true;
}

Status ColumnScan::Impl::Plan(const rocksdb::Snapshot* snapshot, const KeyRange& range) {
  const Span whole{range.start, range.limit, range.limit_unbounded};
  const rocksdb::SequenceNumber read_sequence =
      snapshot != nullptr ? snapshot->GetSequenceNumber() : rocksdb::kMaxSequenceNumber;
  std::vector<Span> foreign;
  MemtableSpans(whole, &foreign);

  // Range tombstones of the memtables (files' tombstones lie inside their key ranges).
  rocksdb::ReadRangeDelAggregator tombstones(&cfd_->internal_comparator(),
                                             rocksdb::kMaxSequenceNumber);
  rocksdb::ReadOptions options;
  std::unique_ptr<rocksdb::FragmentedRangeTombstoneIterator> mem_tombstones(
      sv_->mem->NewRangeTombstoneIterator(options, rocksdb::kMaxSequenceNumber, false));
  if (mem_tombstones != nullptr) tombstones.AddTombstones(std::move(mem_tombstones));
  rocksdb::Arena arena;
  Status s = sv_->imm->AddRangeTombstoneIterators(options, &arena, &tombstones);
  if (!s.ok()) return s;

  // Every file overlapping the range is a source; the eligible ones may serve pieces.
  struct Candidate {
    Span span;  // the file's key range within the scan's
    size_t file = SIZE_MAX;
  };
  std::vector<Candidate> sources;
  const rocksdb::VersionStorageInfo* storage = sv_->current->storage_info();
  for (int level = 0; level < storage->num_levels(); level++) {
    for (const rocksdb::FileMetaData* meta : storage->LevelFiles(level)) {
      if (!FileMeets(*meta, whole)) continue;
      const Slice smallest = meta->smallest.user_key();
      const Slice largest = meta->largest.user_key();
      Candidate candidate;
      candidate.span.start = std::max(whole.start, smallest.ToString());
      candidate.span.limit = Successor(largest);
      if (!whole.unbounded && whole.limit < candidate.span.limit) {
        candidate.span.limit = whole.limit;
      }
      File file;
      s = EligibleFile(*meta, level, read_sequence, &file);
      if (!s.ok()) return s;
      if (file.reader != nullptr) {
        file.largest = largest.ToString();
        file.largest_successor = Successor(largest);
        candidate.file = files_.size();
        files_.push_back(std::move(file));
      }
      sources.push_back(std::move(candidate));
    }
  }

  std::vector<Piece> columnar;
  for (size_t i = 0; i < sources.size(); i++) {
    if (sources[i].file == SIZE_MAX) continue;
    std::vector<Span> holes = foreign;
    for (size_t j = 0; j < sources.size(); j++) {
      if (j != i && Overlaps(sources[i].span, sources[j].span)) holes.push_back(sources[j].span);
    }
    for (const Span& free : Subtract(sources[i].span, std::move(holes))) {
      if (!tombstones.IsEmpty() && tombstones.IsRangeOverlapped(free.start, free.limit)) continue;
      Piece piece;
      if (GroupsOf(files_[sources[i].file], sources[i].file, free, &piece)) {
        columnar.push_back(std::move(piece));
      }
    }
  }
  std::sort(columnar.begin(), columnar.end(),
            [](const Piece& a, const Piece& b) { return a.range.start < b.range.start; });

  // The gaps between columnar pieces are row pieces.
  std::string cursor = whole.start;
  bool cursor_at_end = false;  // a columnar piece reaches the end of an unbounded range
  for (Piece& piece : columnar) {
    if (piece.range.start > cursor) {
      Piece row;
      row.range.start = cursor;
      row.range.limit = piece.range.start;
      pieces_.push_back(std::move(row));
    }
    cursor = piece.range.limit;
    cursor_at_end = piece.range.limit_unbounded;
    pieces_.push_back(std::move(piece));
  }
  if (!cursor_at_end && (whole.unbounded || cursor < whole.limit)) {
    Piece row;
    row.range.start = cursor;
    row.range.limit = whole.limit;
    row.range.limit_unbounded = whole.unbounded;
    pieces_.push_back(std::move(row));
  }
  for (const Piece& piece : pieces_) {
    (piece.columnar ? counters_.columnar_pieces : counters_.row_pieces)++;
  }
  return Status::OK();
}

Status ColumnScan::Impl::AnswerFromStatistics(const File& file, size_t group,
                                              const ColumnScanRequest& request,
                                              CachePin<ZoneMapSet>* zone_maps, bool* answered,
                                              bool* keep_going) {
  *answered = false;
  bool only_sequence_zero_puts = false;
  Status s =
      file.reader->GroupZoneMaps(group, request.fill_cache, zone_maps, &only_sequence_zero_puts);
  if (s.IsNotFound()) return Status::OK();
  if (!s.ok() || !only_sequence_zero_puts) return s;
  const ZoneMapSet& maps = *zone_maps->get();
  // Row expiry always has a zone map (zone_map_collector.h): the group's row count, and
  // whether some row has expired (the row path hides rows whose expiry is <= now).
  const ZoneMap* expiry = maps.Find(kExpiryZoneMapColumn);
  if (expiry == nullptr) return Status::OK();
  if (request.now_seconds >= 0 && SomeRowMayHaveExpired(maps, request.now_seconds)) {
    return Status::OK();
  }
  if (request.predicate != nullptr &&
      Prune(*request.predicate, maps) != PruneResult::kAllRowsMatch) {
    return Status::OK();
  }
  ColumnScanStatistics statistics;
  statistics.zone_maps = &maps;
  statistics.rows = expiry->row_count;
  // Keys are ordered by partition first and partitions are self-delimiting prefixes: rows
  // between two keys of one partition are in that partition. The group's rows lie between its
  // first key and the next group's first key (or the file's largest key).
  const bool last = group + 1 == file.reader->index().num_row_groups();
  Slice first_partition;
  Slice end_partition;
  statistics.one_partition =
      file.reader->PartitionOf(FirstUserKey(file, group), nullptr, &first_partition) &&
      file.reader->PartitionOf(last ? Slice(file.largest) : FirstUserKey(file, group + 1), nullptr,
                               &end_partition) &&
      first_partition == end_partition;
  if (statistics.one_partition) statistics.partition = first_partition;
  *answered = request.answer_from_statistics(statistics, keep_going);
  if (*answered) {
    counters_.row_groups_from_statistics++;
    counters_.rows_from_statistics += statistics.rows;
  }
  return Status::OK();
}

GroupSpan ColumnScan::Impl::SpanOf(const File& file, size_t group, const Piece& piece) const {
  GroupSpan span;
  const Slice first = FirstUserKey(file, group);
  const Slice limit = GroupLimit(file, group);
  span.starts_inside = first.compare(piece.range.start) < 0;
  span.ends_inside = !piece.range.limit_unbounded && limit.compare(piece.range.limit) > 0;
  span.range.start = span.starts_inside ? piece.range.start : first.ToString();
  span.range.limit = span.ends_inside ? piece.range.limit : limit.ToString();
  return span;
}

Status ColumnScan::Impl::ClipToSpan(const File& file, const TypedGroupColumns& columns,
                                    const GroupSpan& span, SelectionBitmap* selection) const {
  const TypedLayout& layout = *file.reader->typed_layout();
  uint32_t begin = 0;
  uint32_t end = columns.rows;
  Status s;
  if (span.starts_inside) s = RowsBelow(layout, columns, span.range.start, &begin);
  if (s.ok() && span.ends_inside) s = RowsBelow(layout, columns, span.range.limit, &end);
  if (!s.ok()) return s;
  for (uint32_t row = 0; row < columns.rows; row++) {
    if (row < begin || row >= end) selection->Set(row, false);
  }
  return Status::OK();
}

Status ColumnScan::Impl::ReadGroup(const File& file, size_t group, const GroupSpan& span,
                                   const ColumnScanRequest& request, CachePin<RawBlock>* block,
                                   const GroupVisitor& visit, bool* keep_going) {
  // Zone maps rule whole groups out before anything is read, as pushdown does.
  CachePin<ZoneMapSet> zone_maps;
  if (request.predicate != nullptr) {
    bool usable = false;
    Status s = file.reader->SkippableZoneMaps(group, request.fill_cache, &zone_maps, &usable);
    if (!s.ok()) return s;
    if (usable && Prune(*request.predicate, *zone_maps.get()) == PruneResult::kNoRowMatches) {
      counters_.row_groups_pruned++;
      return Status::OK();
    }
  }
  // Statistics describe every row of the group: only for groups the span holds whole.
  if (request.answer_from_statistics && span.whole()) {
    bool answered = false;
    CachePin<ZoneMapSet> statistics;  // apart: evaluation below uses only skippable groups' maps
    Status s = AnswerFromStatistics(file, group, request, &statistics, &answered, keep_going);
    if (!s.ok() || answered) return s;
  }
  LazyGroupView view(*file.reader, group, request.fill_cache, block);
  // Decoded columns are cached from a group's second scan (or while the cache has room to
  // spare): a scan that touches groups once (a large range, a cache smaller than the data)
  // would only churn the cache.
  const bool cache_columns = request.fill_cache && file.reader->ScanColumnsHot(group);
  ScanColumnsWanted wanted = request.wanted;
  if (!span.whole()) {
    // The rows' keys, to find where the span cuts the group.
    wanted.partitions = true;
    wanted.clustering = true;
  }
  if (request.now_seconds >= 0 && !wanted.expiries) {
    // The expiry check reads the expiries unless the group's expiry zone map rules it out.
    CachePin<ZoneMapSet> maps;
    bool only_sequence_zero_puts = false;
    Status s =
        file.reader->GroupZoneMaps(group, request.fill_cache, &maps, &only_sequence_zero_puts);
    if (!s.ok() && !s.IsNotFound()) return s;
    wanted.expiries = !s.ok() || SomeRowMayHaveExpired(*maps.get(), request.now_seconds);
  }
  CachePin<TypedGroupColumns> keys = file.reader->CachedScanKeyColumns(group, wanted);
  if (!keys) {
    const RowGroupView* parsed = nullptr;
    Status s = view.Get(&parsed);
    if (s.ok()) {
      s = file.reader->DecodeScanKeyColumns(group, *parsed, wanted, cache_columns, &keys);
    }
    if (!s.ok()) return s;
  }
  const TypedGroupColumns& columns = *keys.get();
  ColumnScanGroup out;
  out.range = span.range;
  bool typed = columns.all_typed;
  for (size_t row = 0; typed && row < columns.rows; row++) {
    // Only Puts at sequence number 0 (an ingested file's rows are stored at 0 too).
    typed = columns.trailers[row] == PackTrailer(0, kPutValueType);
  }
  if (!typed) {
    counters_.row_groups_fallback++;
    out.columnar = false;
    *keep_going = visit(out);
    return Status::OK();
  }
  counters_.row_groups_read++;

  SelectionBitmap selection(columns.rows, true);
  if (!span.whole()) {
    Status s = ClipToSpan(file, columns, span, &selection);
    if (!s.ok()) return s;
  }
  if (request.now_seconds >= 0 && wanted.expiries && columns.expiries.null_count() < columns.rows) {
    for (size_t row = 0; row < columns.rows; row++) {
      if (!columns.expiries.IsNull(row) &&
          columns.expiries.Get<int64_t>(row) <= request.now_seconds) {
        selection.Set(row, false);
      }
    }
  }
  if (request.predicate != nullptr && !selection.None()) {
    const RowGroupView* parsed = nullptr;
    Status s = view.Get(&parsed);
    if (!s.ok()) return s;
    // Partition key columns come from the rows' partitions (RowGroupColumnSource).
    RowGroupColumnSource source(*parsed, *file.reader->typed_layout(),
                                rocksdb::ExtractUserKey(file.reader->first_key(group)),
                                *request.predicate);
    EvaluationResult evaluation;
    s = request.evaluator->Evaluate(columns.rows, &source, &evaluation, zone_maps.get());
    if (!s.ok()) return s;
    selection.And(evaluation.selection);
  }
  out.selected_count = selection.Count();
  if (out.selected_count == 0) return Status::OK();
  std::vector<CachePin<ColumnVector>> regular;
  Status s = RegularColumns(file, group, request, selection, out.selected_count == columns.rows,
                            cache_columns, &view, &regular);
  if (!s.ok()) return s;
  out.columns = &columns;
  out.regular.assign(regular.size(), nullptr);
  for (size_t id = 0; id < regular.size(); id++) out.regular[id] = regular[id].get();
  out.selected = selection.words();
  *keep_going = visit(out);
  return Status::OK();
}

Status ColumnScan::Impl::RegularColumns(const File& file, size_t group,
                                        const ColumnScanRequest& request,
                                        const SelectionBitmap& selection, bool all_selected,
                                        bool cache_columns, LazyGroupView* view,
                                        std::vector<CachePin<ColumnVector>>* out) {
  const TableSchema& schema = file.reader->typed_layout()->schema();
  // Every row of a group whose rows are all selected, or whose columns are cached (a hot
  // group), is decoded; of a cold group's filtered scan only the selected rows.
  const bool every_row = all_selected || cache_columns;
  out->resize(request.regular_columns.size());
  for (uint32_t id = 0; id < request.regular_columns.size(); id++) {
    const ColumnDef* column = schema.ColumnById(id);
    if (!request.regular_columns[id] || column == nullptr || column->role != ColumnRole::kRegular) {
      continue;
    }
    CachePin<ColumnVector>& pin = (*out)[id];
    pin = file.reader->CachedScanColumn(group, id);
    if (pin) {
      counters_.columns_cached++;
      continue;
    }
    counters_.columns_decoded++;
    const RowGroupView* parsed = nullptr;
    Status s = view->Get(&parsed);
    if (s.ok()) {
      s = file.reader->DecodeScanColumn(group, *parsed, id, every_row ? nullptr : selection.words(),
                                        cache_columns, &pin);
    }
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status ColumnScan::Impl::ReadPiece(size_t index, const ColumnScanRequest& request, bool reversed,
                                   const GroupVisitor& visit, bool* stopped) {
  const Piece& piece = pieces_[index];
  if (!piece.columnar) return Status::InvalidArgument("ColumnScan: not a columnar piece");
  const File& file = files_[piece.file];
  CachePin<RawBlock> block;
  bool keep_going = true;
  for (size_t i = 0; i < piece.end_group - piece.first_group && keep_going; i++) {
    const size_t group = reversed ? piece.end_group - 1 - i : piece.first_group + i;
    Status s =
        ReadGroup(file, group, SpanOf(file, group, piece), request, &block, visit, &keep_going);
    if (!s.ok()) return s;
  }
  if (stopped != nullptr) *stopped = !keep_going;
  return Status::OK();
}

ColumnScan::ColumnScan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ColumnScan::~ColumnScan() = default;

Status ColumnScan::Open(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                        const rocksdb::Snapshot* snapshot, const KeyRange& range,
                        std::unique_ptr<ColumnScan>* out) {
  auto impl = std::make_unique<Impl>();
  impl->db_ = dynamic_cast<rocksdb::DBImpl*>(db->GetRootDB());
  impl->cfd_ = static_cast<rocksdb::ColumnFamilyHandleImpl*>(column_family)->cfd();
  if (impl->db_ == nullptr || impl->cfd_->user_comparator() != rocksdb::BytewiseComparator()) {
    Piece row;
    row.range = range;
    impl->pieces_.push_back(std::move(row));
    impl->counters_.row_pieces++;
  } else {
    // Referenced, not taken from the thread-local slot: the row pieces' iterators on this thread
    // take their own from it while the scan holds this one (as DB iterators do).
    impl->sv_ = impl->cfd_->GetReferencedSuperVersion(impl->db_);
    Status s = impl->Plan(snapshot, range);
    if (!s.ok()) return s;
  }
  out->reset(new ColumnScan(std::move(impl)));
  return Status::OK();
}

bool ColumnScan::MayHaveColumnarPieces(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* column_family,
                                       const KeyRange& range) {
  auto* db_impl = dynamic_cast<rocksdb::DBImpl*>(db->GetRootDB());
  rocksdb::ColumnFamilyData* cfd =
      static_cast<rocksdb::ColumnFamilyHandleImpl*>(column_family)->cfd();
  if (db_impl == nullptr || cfd->user_comparator() != rocksdb::BytewiseComparator()) return false;
  const Span whole{range.start, range.limit, range.limit_unbounded};
  rocksdb::SuperVersion* sv = cfd->GetReferencedSuperVersion(db_impl);
  const rocksdb::VersionStorageInfo* storage = sv->current->storage_info();
  bool may = false;
  for (int level = 0; level < storage->num_levels() && !may; level++) {
    for (const rocksdb::FileMetaData* meta : storage->LevelFiles(level)) {
      if (!FileMeets(*meta, whole)) continue;
      if (meta->fd.largest_seqno == 0 || meta->fd.smallest_seqno == meta->fd.largest_seqno) {
        may = true;
        break;
      }
    }
  }
  db_impl->CleanupSuperVersion(sv);
  return may;
}

const std::vector<ColumnScan::Piece>& ColumnScan::pieces() const { return impl_->pieces_; }

const TableSchema& ColumnScan::schema_of(size_t piece) const {
  return impl_->files_[impl_->pieces_[piece].file].reader->typed_layout()->schema();
}

Status ColumnScan::ReadPiece(size_t piece, const ColumnScanRequest& request, bool reversed,
                             const GroupVisitor& visit, bool* stopped) {
  return impl_->ReadPiece(piece, request, reversed, visit, stopped);
}

const ColumnScanCounters& ColumnScan::counters() const { return impl_->counters_; }

}  // namespace columnar
