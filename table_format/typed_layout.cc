#include "table_format/typed_layout.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>

#include "table_format/column_values.h"
#include "table_format/key_codec.h"
#include "table_format/layout_columns.h"
#include "table_format/metadata_transform.h"
#include "table_format/staged_appender.h"
#include "table_format/varint.h"

namespace columnar {

namespace {

constexpr uint32_t kOpaqueKeySlot = kFirstLayoutSlot;        // 3
constexpr uint32_t kRowVersionSlot = kFirstLayoutSlot + 1;   // 4
constexpr uint32_t kOpaqueValueSlot = kFirstLayoutSlot + 2;  // 5
constexpr uint32_t kClusteringFromKeySlot = 6;
constexpr uint32_t kEarlyExpirySlot = 7;
constexpr int kEarlyExpiryTransform = 1;
constexpr uint32_t kWriteTimeSlot = 8;
constexpr uint32_t kExpirySlot = 16;
constexpr uint32_t kCellExceptionsSlot = kExpirySlot + kMetadataTransformCount;  // 23
constexpr uint32_t kClusteringSlot = 24;
static_assert(kCellExceptionsSlot < kClusteringSlot, "slot 23 lies between expiry and clustering");
constexpr uint32_t kMaxClusteringColumns = 40;
constexpr uint32_t kRegularSlot = 64;
// The names the row-metadata slots' chunks go by (column settings, column statistics).
constexpr const char* kOpaqueKeyColumn = "opaque_key";
constexpr const char* kRowVersionColumn = "row_version";
constexpr const char* kOpaqueValueColumn = "opaque_value";
constexpr const char* kExpiryColumn = "expiry";
constexpr const char* kWriteTimeColumn = "write_time";
constexpr const char* kCellExceptionsColumn = "cell_exceptions";
// Bytes reserved per row in a byte-string column of a row group being split.
constexpr size_t kReservedBytesPerValue = 16;

bool IsIntegerLike(LogicalType type) {
  return type == LogicalType::kInt || type == LogicalType::kBigInt ||
         type == LogicalType::kTimestamp || type == LogicalType::kDate;
}

// ---- moving values between cells, Values and columns ----

int64_t IntegerAt(const ColumnVector& column, size_t row) {
  return column.type() == PhysicalType::kInt32 ? column.Get<int32_t>(row)
                                               : column.Get<int64_t>(row);
}

Value ValueAt(const ColumnVector& column, size_t row, LogicalType type) {
  if (column.type() == PhysicalType::kBytes) {
    return Value::FromBytes(type, column.GetBytes(row).ToString());
  }
  return Value::FromFixedBits(type, FixedBitsAt(column, row));
}

bool AllNull(const ColumnVector& column) { return column.null_count() == column.size(); }

// A byte-string column null in most rows (the writer's opaque keys and values): nulls are
// counted and appended in bulk when a value or the finished column is asked for.
class MostlyNullBytes {
 public:
  void AppendNull() { pending_nulls_++; }
  void AppendBytes(const Slice& v) {
    FlushNulls();
    column_.AppendBytes(v);
  }
  const ColumnVector& column() {
    FlushNulls();
    return column_;
  }
  void Clear() {
    column_.Clear();
    pending_nulls_ = 0;
  }

 private:
  void FlushNulls() {
    column_.AppendNulls(pending_nulls_);
    pending_nulls_ = 0;
  }

  ColumnVector column_{PhysicalType::kBytes};
  size_t pending_nulls_ = 0;
};

// A group's columns as the writer shows them to a ColumnObserver: the number of typed rows,
// every clustering column (in key order), every live regular column (`regular` by column id)
// and every row's expiry in seconds, each with a value or null per row. The one order both the
// splitter (rows split into columns) and a group copied verbatim (the columns its decode kept)
// report in.
void ReportTypedColumns(const TableSchema& schema, size_t rows, size_t typed_rows,
                        const std::vector<ColumnVector>& clustering,
                        const std::vector<ColumnVector>& regular,
                        const ColumnVector& expiry_seconds, ColumnObserver* observer) {
  observer->BeginRowGroup(rows);
  observer->OnTypedRows(typed_rows);
  for (size_t k = 0; k < clustering.size(); k++) {
    observer->OnColumn(schema.clustering_key()[k], clustering[k]);
  }
  for (const ColumnDef& column : schema.columns()) {
    if (!column.is_key() && column.is_live()) observer->OnColumn(column.id, regular[column.id]);
  }
  observer->OnExpiry(expiry_seconds);
}

// The columns a decode for a copy keeps with the rows (TypedLayout::DecodeRowGroupForCopy),
// for ReportTypedColumns.
struct ObservedColumns {
  size_t rows = 0;
  size_t typed_rows = 0;
  std::vector<ColumnVector> clustering;
  std::vector<ColumnVector> regular;  // by column id; every live regular column has `rows`
  ColumnVector expiry_seconds{PhysicalType::kInt64};

  // Whether these fit `schema`'s report (a schema of the same text as the decoding file's).
  bool Fit(const TableSchema& schema) const {
    if (clustering.size() != schema.clustering_key().size() ||
        regular.size() != schema.next_column_id() || expiry_seconds.size() != rows) {
      return false;
    }
    for (const ColumnVector& column : clustering) {
      if (column.size() != rows) return false;
    }
    for (const ColumnDef& column : schema.columns()) {
      if (column.is_key() || !column.is_live()) continue;
      const ColumnVector& values = regular[column.id];
      if (values.size() != rows || values.type() != PhysicalTypeOfLogical(column.type)) {
        return false;
      }
    }
    return true;
  }

  size_t MemoryUsage() const {
    size_t bytes = expiry_seconds.MemoryUsage();
    for (const ColumnVector& column : clustering) bytes += column.MemoryUsage();
    for (const ColumnVector& column : regular) bytes += column.MemoryUsage();
    return bytes;
  }
};

// The columns `rows` kept, if it is a typed group decoded for a copy (defined with
// TypedRowGroup).
const ObservedColumns* ObservedColumnsOf(const DecodedRowGroup* rows);

}  // namespace

TypedLayout::TypedLayout(TableSchema schema, std::shared_ptr<const FileDictionarySet> dictionaries,
                         uint32_t id)
    : codec_(std::move(schema)), dictionaries_(std::move(dictionaries)), id_(id) {}

const ColumnVector* TypedLayout::FileDictionaryOf(uint32_t column_id) const {
  const ColumnDef* column = schema().ColumnById(column_id);
  return dictionaries_ == nullptr || column == nullptr ? nullptr
                                                       : dictionaries_->Find(column->name);
}

bool TypedLayout::PartitionOf(const Slice& user_key, Slice* partition) const {
  return NextPartitionOf(user_key, nullptr, partition);
}

bool TypedLayout::NextPartitionOf(const Slice& user_key, const Slice* previous,
                                  Slice* partition) const {
  size_t length;
  if (!PartitionKeyLengthAfter(schema(), user_key, previous, &length).ok()) return false;
  *partition = Slice(user_key.data(), length);
  return true;
}

// Splits entries into the layout's columns. A file's writer may keep one from group to group
// (RowGroupWriteContext::scratch): Clear empties it, keeping its buffers.
class TypedLayout::Splitter : public RowGroupWriteScratch {
 public:
  Splitter(const RowCodec& codec, size_t count)
      : codec_(codec), schema_(codec.schema()), versions_(PhysicalType::kInt32) {
    const size_t clustering = schema_.clustering_key().size();
    for (size_t k = 0; k < clustering; k++) {
      clustering_.emplace_back(PhysicalTypeOfLogical(schema_.clustering_column(k).type));
      clustering_.back().Reserve(count);
    }
    fixed_clustering_.resize(clustering);
    for (size_t k = 0; k < clustering; k++) {
      fixed_clustering_[k] = !IsBytesType(schema_.clustering_column(k).type);
    }
    decoded_bits_.resize(clustering);
    decoded_.resize(clustering);
    regular_.resize(schema_.next_column_id());
    for (const ColumnDef& column : schema_.columns()) {
      if (column.is_key()) continue;
      regular_[column.id].Reset(PhysicalTypeOfLogical(column.type));
      regular_[column.id].Reserve(count);  // a value (or null) for every row
      // Byte strings: room for short values (tags), grown as usual past that.
      if (regular_[column.id].type() == PhysicalType::kBytes) {
        regular_[column.id].ReserveBytes(count * kReservedBytesPerValue);
      }
      regular_ids_.push_back(column.id);
    }
    reference_ok_ = clustering > 0 && IsIntegerLike(schema_.clustering_column(0).type);
    partition_lengths_.reserve(count);
    write_times_.Reserve(count);
    expiries_.Reserve(count);
    references_.Reserve(count);
  }

  // For rows of `codec`.
  bool Splits(const RowCodec& codec) const { return &codec_ == &codec; }

  // Back to the state of a new splitter (the buffers keep their capacity).
  void Clear() {
    partition_lengths_.clear();
    opaque_keys_.Clear();
    versions_.Clear();
    opaque_values_.Clear();
    cell_exceptions_.Clear();
    any_cell_exceptions_ = false;
    for (ColumnVector& column : clustering_) column.Clear();
    for (uint32_t id : regular_ids_) regular_[id].Clear();
    write_times_.Clear();
    expiries_.Clear();
    references_.Clear();
    last_partition_ = Slice();
    any_partition_ = false;
    dictionaries_ = nullptr;
  }

  void AddRow(const Entry& entry) {
    const size_t row = partition_lengths_.size();
    references_.AppendAbsent();  // set by AddKey when the key is typed
    AddKey(entry.user_key);
    if (AddValue(entry)) return;  // a cell in every regular column
    for (uint32_t id : regular_ids_) {
      if (regular_[id].size() == row) regular_[id].AppendNull();
    }
  }

  Status Write(const Entry* entries, size_t count, const RowGroupWriteContext& context,
               std::string* out) {
    const ColumnWriteSettings& settings = *context.settings;
    dictionaries_ = context.dictionaries;
    RowGroupWriter& writer = writer_;  // kept, with its buffers, from group to group
    writer.Begin(static_cast<uint32_t>(count), partition_lengths_[0], context.stats, context.memos);
    Status s = WritePartitionColumn(entries, count, partition_lengths_, settings, &writer);
    if (s.ok()) s = WriteTrailerColumns(entries, count, settings, &writer);
    if (s.ok())
      s = AddIfAny(&writer, kOpaqueKeySlot, kOpaqueKeyColumn, opaque_keys_.column(), settings);
    if (s.ok() && !AllCurrentVersion()) {
      s = AddIfAny(&writer, kRowVersionSlot, kRowVersionColumn, versions_, settings);
    }
    if (s.ok())
      s = AddIfAny(&writer, kOpaqueValueSlot, kOpaqueValueColumn, opaque_values_.column(),
                   settings);
    ColumnVector& from_key = scratch_[kFromKeyScratch];
    const bool first_from_key = FirstClusteringFromKey(&from_key);
    if (s.ok() && first_from_key) {
      s = AddSchemaColumn(&writer, kClusteringFromKeySlot, schema_.clustering_column(0).name,
                          from_key, settings);
    }
    // Expiry against the time in seconds goes before the write time (slot 7), so that the
    // chunks repeating from group to group (slots 6 and 7: a series' times and a fixed TTL)
    // follow the group header as one run, which block compression finds.
    ColumnVector& expiry = scratch_[kExpiryScratch];
    const int expiry_transform = Residuals(expiries_, &expiry);
    const bool early_expiry = expiry_transform == kEarlyExpiryTransform;
    if (s.ok() && early_expiry)
      s = AddIfAny(&writer, kEarlyExpirySlot, kExpiryColumn, expiry, settings);
    if (s.ok()) {
      ColumnVector& write_time = scratch_[kWriteTimeScratch];
      const int transform = Residuals(write_times_, &write_time);
      s = AddIfAny(&writer, kWriteTimeSlot + transform, kWriteTimeColumn, write_time, settings);
    }
    if (s.ok() && !early_expiry) {
      s = AddIfAny(&writer, kExpirySlot + expiry_transform, kExpiryColumn, expiry, settings);
    }
    if (s.ok() && any_cell_exceptions_) {
      s = AddIfAny(&writer, kCellExceptionsSlot, kCellExceptionsColumn, cell_exceptions_.column(),
                   settings);
    }
    for (size_t k = first_from_key ? 1 : 0; s.ok() && k < clustering_.size(); k++) {
      s = AddSchemaColumn(&writer, kClusteringSlot + static_cast<uint32_t>(k),
                          schema_.clustering_column(k).name, clustering_[k], settings);
    }
    for (const ColumnDef& column : schema_.columns()) {
      if (!s.ok()) break;
      if (column.is_key()) continue;
      uint64_t anchor = 0;
      const bool anchored =
          context.observer != nullptr && context.observer->Anchor(column.id, &anchor);
      s = AddSchemaColumn(&writer, kRegularSlot + column.id, column.name, regular_[column.id],
                          settings, anchored ? &anchor : nullptr);
    }
    if (s.ok()) writer.Finish(out);
    return s;
  }

  uint32_t first_partition_length() const { return partition_lengths_[0]; }
  // Some row of the group has cell exceptions (the file needs kIdWithCellExceptions).
  bool any_cell_exceptions() const { return any_cell_exceptions_; }

  // Shows the typed columns to an observer (zone maps, file statistics).
  void Report(ColumnObserver* observer) {
    ColumnVector& expiry = scratch_[kExpiryScratch];
    expiries_.ToColumn(&expiry);
    ReportTypedColumns(schema_, partition_lengths_.size(),
                       versions_.size() - versions_.null_count(), clustering_, regular_, expiry,
                       observer);
  }

 private:
  // The partition length of `key`, compared with the last typed row's partition first
  // (PartitionKeyLengthAfter).
  bool PartitionLength(const Slice& key, size_t* length) {
    if (!PartitionKeyLengthAfter(schema_, key, any_partition_ ? &last_partition_ : nullptr, length)
             .ok()) {
      return false;
    }
    last_partition_ = Slice(key.data(), *length);
    any_partition_ = true;
    return true;
  }

  void AddKey(const Slice& key) {
    size_t partition_length;
    if (!PartitionLength(key, &partition_length)) {
      // Not a key of this schema: the whole key is its own partition.
      partition_lengths_.push_back(static_cast<uint32_t>(key.size()));
      opaque_keys_.AppendBytes(Slice());
      AppendClusteringNulls();
      return;
    }
    partition_lengths_.push_back(static_cast<uint32_t>(partition_length));
    Slice rest(key.data() + partition_length, key.size() - partition_length);
    const Slice suffix = rest;
    bool typed = true;
    for (size_t k = 0; k < clustering_.size() && typed; k++) {
      const ColumnDef& column = schema_.clustering_column(k);
      // Fixed-width components (times, numbers) straight to their bits, without a Value.
      typed =
          fixed_clustering_[k]
              ? DecodeFixedKeyComponent(&rest, column.type, column.order, &decoded_bits_[k]).ok()
              : DecodeKeyComponent(&rest, column.type, column.order, &decoded_[k]).ok();
    }
    if (!typed || !rest.empty()) {
      opaque_keys_.AppendBytes(suffix);
      AppendClusteringNulls();
      return;
    }
    opaque_keys_.AppendNull();
    for (size_t k = 0; k < clustering_.size(); k++) {
      if (fixed_clustering_[k]) {
        AppendFixedBits(decoded_bits_[k], &clustering_[k]);
      } else {
        AppendValue(decoded_[k], &clustering_[k]);
      }
    }
    if (reference_ok_) references_.SetLast(IntegerAt(clustering_[0], clustering_[0].size() - 1));
  }

  // The first clustering column minus its value in row 0's key (slot 6), when that key is
  // typed and every difference fits the column's type: the group's first key is in the index,
  // so the chunk need not repeat it (a time series' first time is 4 to 5 bytes a group that
  // block compression cannot remove).
  bool FirstClusteringFromKey(ColumnVector* out) const {
    if (!reference_ok_ || clustering_[0].IsNull(0)) return false;
    const ColumnVector& column = clustering_[0];
    const int64_t first = IntegerAt(column, 0);
    out->Reset(column.type());
    out->Reserve(column.size());
    for (size_t row = 0; row < column.size(); row++) {
      if (column.IsNull(row)) {
        out->AppendNull();
        continue;
      }
      int64_t difference;
      if (__builtin_sub_overflow(IntegerAt(column, row), first, &difference)) return false;
      if (column.type() == PhysicalType::kInt32) {
        if (difference != static_cast<int32_t>(difference)) return false;
        out->Append<int32_t>(static_cast<int32_t>(difference));
      } else {
        out->Append<int64_t>(difference);
      }
    }
    return true;
  }

  bool AllCurrentVersion() const {
    for (size_t i = 0; i < versions_.size(); i++) {
      if (!versions_.IsNull(i) &&
          static_cast<uint32_t>(versions_.Get<int32_t>(i)) != schema_.version()) {
        return false;
      }
    }
    return true;
  }

  void AppendClusteringNulls() {
    for (ColumnVector& column : clustering_) column.AppendNull();
  }

  // True when the row's value put a cell in every regular column (a row of a version holding
  // them all); otherwise the columns it left out are AddRow's to fill with nulls.
  bool AddValue(const Entry& entry) {
    RowMetadata meta;
    // The cells go straight to their columns; a value that does not decode leaves them as they
    // were and is kept whole (opaque). Rows with cell exceptions keep their exception bytes.
    if (entry.value_type == kPutValueType &&
        codec_.DecodeIntoColumns(entry.value, &meta, regular_.data(), &exceptions_scratch_).ok()) {
      versions_.Append<int32_t>(static_cast<int32_t>(meta.schema_version));
      opaque_values_.AppendNull();
      AppendCellExceptions(exceptions_scratch_);
      if (meta.has_write_time) {
        write_times_.Append(meta.write_time_micros);
      } else {
        write_times_.AppendAbsent();
      }
      if (meta.has_expiry) {
        expiries_.Append(static_cast<int64_t>(meta.expiry_seconds));
      } else {
        expiries_.AppendAbsent();
      }
      return codec_.ColumnsAt(meta.schema_version)->size() == regular_ids_.size();
    }
    versions_.AppendNull();
    opaque_values_.AppendBytes(entry.value);
    cell_exceptions_.AppendNull();
    write_times_.AppendAbsent();
    expiries_.AppendAbsent();
    return false;
  }

  void AppendCellExceptions(const std::string& exceptions) {
    if (exceptions.empty()) {
      cell_exceptions_.AppendNull();
      return;
    }
    cell_exceptions_.AppendBytes(exceptions);
    any_cell_exceptions_ = true;
  }

  Status AddIfAny(RowGroupWriter* writer, uint32_t slot, const std::string& name,
                  const ColumnVector& column, const ColumnWriteSettings& settings) {
    if (AllNull(column)) return Status::OK();
    return writer->AddColumn(slot, name, column, settings.For(name, column.type()));
  }

  // Schema columns of byte strings and integers may use the file's dictionary of the column
  // (integers: its Huffman tables, file_huffman.h).
  // Regular columns may be anchored to a value the readers know (ColumnObserver::Anchor: the
  // group's zone-map minimum), which TypedLayout::RegularColumnOfSlot finds again.
  Status AddSchemaColumn(RowGroupWriter* writer, uint32_t slot, const std::string& name,
                         const ColumnVector& column, const ColumnWriteSettings& settings,
                         const uint64_t* anchor = nullptr) {
    if (AllNull(column)) return Status::OK();
    ChunkWriteOptions options = settings.For(name, column.type());
    if (anchor != nullptr) {
      options.has_anchor = true;
      options.anchor = *anchor;
    }
    if (dictionaries_ != nullptr &&
        (column.type() == PhysicalType::kBytes || column.type() == PhysicalType::kInt32 ||
         column.type() == PhysicalType::kInt64)) {
      options.file_dictionary = dictionaries_->For(name);
    }
    return writer->AddColumn(slot, name, column, options);
  }

  // A metadata column minus the transform of the clustering time that leaves the smallest
  // range (metadata_transform.h), into *column; returns the transform.
  int Residuals(const OptionalInt64s& values, ColumnVector* column) const {
    const int transform = reference_ok_ ? ChooseMetadataTransform(values, references_) : 0;
    MetadataResiduals(values, references_, transform, column);
    return transform;
  }

  const RowCodec& codec_;
  const TableSchema& schema_;
  bool reference_ok_ = false;
  std::vector<uint32_t> partition_lengths_;
  MostlyNullBytes opaque_keys_;
  ColumnVector versions_;
  MostlyNullBytes opaque_values_;
  MostlyNullBytes cell_exceptions_;  // a typed row's cell exceptions (RowCodec), mostly null
  bool any_cell_exceptions_ = false;
  std::string exceptions_scratch_;  // one row's, from DecodeIntoColumns
  std::vector<ColumnVector> clustering_;
  std::vector<ColumnVector> regular_;  // by column id; key columns stay empty
  std::vector<uint32_t> regular_ids_;  // the regular columns' ids
  OptionalInt64s write_times_;
  OptionalInt64s expiries_;
  OptionalInt64s references_;  // first clustering column, as an integer
  Slice last_partition_;       // the last typed row's partition key (PartitionLength)
  bool any_partition_ = false;
  std::vector<bool> fixed_clustering_;  // by clustering column: fixed-width type
  std::vector<uint64_t> decoded_bits_;  // the key's fixed-width clustering values
  std::vector<Value> decoded_;          // and its byte-string ones
  FileDictionaryWriters* dictionaries_ = nullptr;
  // Columns built from the rows of each group (Report, Write), each filled (reset) before use:
  // kept from group to group, so that their buffers are not allocated every time.
  enum { kFromKeyScratch, kExpiryScratch, kWriteTimeScratch, kScratchColumns };
  ColumnVector scratch_[kScratchColumns];
  RowGroupWriter writer_;  // the group's chunks, its buffer kept from group to group (Write)
};

namespace {

// The columns the decode of an offered copy kept (RowGroupWriteContext::verbatim_rows), when
// they fit `schema` and the group's first partition is the one its first entry has.
const ObservedColumns* KeptColumnsFor(const TableSchema& schema,
                                      const RowGroupWriteContext& context,
                                      const Slice& first_user_key) {
  const ObservedColumns* kept = ObservedColumnsOf(context.verbatim_rows);
  if (kept == nullptr || kept->rows != context.verbatim->row_count() || !kept->Fit(schema)) {
    return nullptr;
  }
  // As the splitter finds it: a key of no partition of the schema is its own partition.
  size_t partition_length;
  if (!PartitionKeyLengthAfter(schema, first_user_key, nullptr, &partition_length).ok()) {
    partition_length = first_user_key.size();
  }
  return context.verbatim->first_partition_length() == partition_length ? kept : nullptr;
}

}  // namespace

Status TypedLayout::WriteRowGroup(const Entry* entries, size_t count,
                                  const RowGroupWriteContext& context, std::string* out) const {
  if (schema().clustering_key().size() > kMaxClusteringColumns) {
    return Status::InvalidArgument("typed layout: too many clustering columns");
  }
  const bool offered = count > 0 && context.verbatim != nullptr &&
                       context.verbatim_written != nullptr &&
                       context.verbatim->row_count() == count;
  // A copy whose decode kept its columns shows those to the observer: the entries are split
  // only if the copy is refused after all (its anchors unknown here).
  const ObservedColumns* kept =
      offered ? KeptColumnsFor(schema(), context, entries[0].user_key) : nullptr;
  if (kept != nullptr) {
    if (context.observer != nullptr) {
      ReportTypedColumns(schema(), kept->rows, kept->typed_rows, kept->clustering, kept->regular,
                         kept->expiry_seconds, context.observer);
    }
    if (WriteVerbatim(context, out)) return Status::OK();
  }
  std::unique_ptr<Splitter> own;
  Splitter* splitter = SplitterFor(context, count, &own);
  for (size_t i = 0; i < count; i++) splitter->AddRow(entries[i]);
  if (splitter->any_cell_exceptions() && context.file_layout_id != nullptr) {
    *context.file_layout_id = kIdWithCellExceptions;
  }
  if (kept == nullptr) {
    if (context.observer != nullptr) splitter->Report(context.observer);
    if (offered &&
        context.verbatim->first_partition_length() == splitter->first_partition_length() &&
        WriteVerbatim(context, out)) {
      return Status::OK();
    }
  }
  return splitter->Write(entries, count, context, out);
}

TypedLayout::Splitter* TypedLayout::SplitterFor(const RowGroupWriteContext& context, size_t count,
                                                std::unique_ptr<Splitter>* own) const {
  if (context.scratch == nullptr) {
    *own = std::make_unique<Splitter>(codec_, count);
    return own->get();
  }
  auto* splitter = dynamic_cast<Splitter*>(context.scratch->get());
  if (splitter != nullptr && splitter->Splits(codec_)) {
    splitter->Clear();
    return splitter;
  }
  *context.scratch = std::make_unique<Splitter>(codec_, count);
  return static_cast<Splitter*>(context.scratch->get());
}

bool TypedLayout::WriteVerbatim(const RowGroupWriteContext& context, std::string* out) const {
  const RowGroupView& view = *context.verbatim;
  if (!AnchorsKnown(view, context.observer)) return false;
  RecordVerbatimStats(view, context.stats);
  if (view.HasSlot(kCellExceptionsSlot) && context.file_layout_id != nullptr) {
    *context.file_layout_id = kIdWithCellExceptions;
  }
  const Slice bytes = view.bytes();
  out->append(bytes.data(), bytes.size());
  *context.verbatim_written = true;
  return true;
}

bool TypedLayout::AnchorsKnown(const RowGroupView& view, const ColumnObserver* observer) const {
  // A reader gives an anchored chunk the group's zone-map minimum of its column: this file
  // must keep that zone map. The minimum itself is the same, made from the same values.
  for (size_t i = 0; i < view.anchored_count(); i++) {
    uint32_t column_id;
    uint64_t anchor;
    if (!RegularColumnOfSlot(view.anchored_slot(i), &column_id) || observer == nullptr ||
        !observer->Anchor(column_id, &anchor)) {
      return false;
    }
  }
  return true;
}

void TypedLayout::RecordVerbatimStats(const RowGroupView& view, ColumnStats* stats) const {
  if (stats == nullptr) return;
  for (size_t i = 0; i < view.slot_count(); i++) {
    const uint32_t slot = view.slot(i);
    const Slice chunk = view.ChunkOf(slot);
    ChunkHeader header;
    if (!ParseChunkHeader(chunk, &header, view.row_count()).ok()) continue;
    stats->Record(SlotName(slot), chunk.size(), header.encoding, view.row_count());
  }
}

std::string TypedLayout::SlotName(uint32_t slot) const {
  switch (slot) {
    case kPartitionSlot:
      return kPartitionColumn;
    case kSequenceSlot:
      return kSequenceColumn;
    case kValueTypeSlot:
      return kValueTypeColumn;
    case kOpaqueKeySlot:
      return kOpaqueKeyColumn;
    case kRowVersionSlot:
      return kRowVersionColumn;
    case kOpaqueValueSlot:
      return kOpaqueValueColumn;
    case kClusteringFromKeySlot:
      return schema().clustering_column(0).name;
    case kEarlyExpirySlot:
      return kExpiryColumn;
    case kCellExceptionsSlot:
      return kCellExceptionsColumn;
    default:
      break;
  }
  if (slot >= kWriteTimeSlot && slot < kExpirySlot) return kWriteTimeColumn;
  if (slot >= kExpirySlot && slot < kClusteringSlot) return kExpiryColumn;
  if (slot >= kClusteringSlot && slot < kRegularSlot &&
      slot - kClusteringSlot < schema().clustering_key().size()) {
    return schema().clustering_column(slot - kClusteringSlot).name;
  }
  const ColumnDef* column =
      slot >= kRegularSlot ? schema().ColumnById(slot - kRegularSlot) : nullptr;
  return column != nullptr ? column->name : "slot " + std::to_string(slot);
}

namespace {

// A row group's values, written in place (RowCodec::WriteColumnRow) into one malloc'd buffer:
// the assembler reserves the group's bound once, and Trim gives the slack back with realloc,
// which shrinks in place (std::string's shrink_to_fit copied every group).
class ValueBytes {
 public:
  ValueBytes() = default;
  ValueBytes(const ValueBytes&) = delete;
  ValueBytes& operator=(const ValueBytes&) = delete;
  ~ValueBytes() { std::free(data_); }

  // Never null: an empty group's values still compare as bytes (memcmp takes no null pointer).
  const char* data() const { return data_ != nullptr ? data_ : ""; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }

  // Room for n bytes at the returned address; Advance(written) after writing.
  char* Room(size_t n) {
    if (capacity_ - size_ < n) Grow(n);
    return data_ + size_;
  }
  void Advance(size_t n) { size_ += n; }
  void Append(const char* bytes, size_t n) {
    if (n == 0) return;
    std::memcpy(Room(n), bytes, n);
    size_ += n;
  }
  void Reserve(size_t n) { Room(n); }
  // Capacity down to the size.
  void Trim() {
    if (capacity_ == size_) return;
    if (size_ == 0) {
      std::free(data_);
      data_ = nullptr;
      capacity_ = 0;
      return;
    }
    if (char* shrunk = static_cast<char*>(std::realloc(data_, size_))) {
      data_ = shrunk;
      capacity_ = size_;
    }
  }

 private:
  void Grow(size_t n) {
    const size_t capacity = std::max(size_ + n, 2 * capacity_);
    char* grown = static_cast<char*>(std::realloc(data_, capacity));
    if (grown == nullptr) throw std::bad_alloc();
    data_ = grown;
    capacity_ = capacity;
  }

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// A typed row group: keys and values rebuilt from the columns once, at decode time.
class TypedRowGroup : public DecodedRowGroup {
 public:
  Slice value(size_t row) const override {
    return Slice(values_.data() + value_offsets_[row],
                 value_offsets_[row + 1] - value_offsets_[row]);
  }
  size_t MemoryUsage() const override {
    return DecodedRowGroup::MemoryUsage() + values_.capacity() +
           value_offsets_.capacity() * sizeof(uint32_t) +
           (observed_ != nullptr ? observed_->MemoryUsage() : 0);
  }

  std::string& keys() { return keys_; }
  std::vector<uint32_t>& key_offsets() { return key_offsets_; }
  ValueBytes& values() { return values_; }
  std::vector<uint32_t>& value_offsets() { return value_offsets_; }
  // The columns a decode for a copy kept (TypedLayout::DecodeRowGroupForCopy), or null.
  const ObservedColumns* observed() const { return observed_.get(); }
  void set_observed(std::unique_ptr<ObservedColumns> observed) { observed_ = std::move(observed); }

 private:
  ValueBytes values_;
  std::vector<uint32_t> value_offsets_;  // as key_offsets_
  std::unique_ptr<ObservedColumns> observed_;
};

const ObservedColumns* ObservedColumnsOf(const DecodedRowGroup* rows) {
  const auto* typed = dynamic_cast<const TypedRowGroup*>(rows);
  return typed != nullptr ? typed->observed() : nullptr;
}

Status DecodeOptionalSlot(const RowGroupView& view, uint32_t slot, PhysicalType type,
                          ColumnVector* out, const ColumnVector* file_dictionary = nullptr) {
  if (!view.HasSlot(slot)) {
    out->Reset(type);
    out->AppendNulls(view.row_count());
    return Status::OK();
  }
  return view.DecodeSlot(slot, type, out, false, file_dictionary);
}

// Finds which transform variant of a metadata column the group holds (at most one); expiry
// may also be in slot 7 (transform 1).
Status DecodeMetadata(const RowGroupView& view, uint32_t base_slot, ColumnVector* out,
                      int* transform) {
  *transform = 0;
  uint32_t slot = base_slot;
  int found = 0;
  for (int t = 0; t < kMetadataTransformCount; t++) {
    if (view.HasSlot(base_slot + t)) {
      *transform = t;
      slot = base_slot + t;
      found++;
    }
  }
  if (base_slot == kExpirySlot && view.HasSlot(kEarlyExpirySlot)) {
    *transform = kEarlyExpiryTransform;
    slot = kEarlyExpirySlot;
    found++;
  }
  if (found > 1) return Status::Corruption("typed layout: metadata column stored twice");
  return DecodeOptionalSlot(view, slot, PhysicalType::kInt64, out);
}

// The first clustering column's value in the group's first key, as the writer saw it (an
// integer of the column's physical type).
Status FirstKeyClusteringValue(const TableSchema& schema, const Slice& first_user_key,
                               int64_t* value) {
  size_t partition_length = 0;
  Status s = PartitionKeyLength(schema, first_user_key, &partition_length);
  const ColumnDef& column = schema.clustering_column(0);
  Value decoded;
  if (s.ok()) {
    // (the length is set only when the partition decodes)
    Slice rest(first_user_key.data() + partition_length, first_user_key.size() - partition_length);
    s = DecodeKeyComponent(&rest, column.type, column.order, &decoded);
  }
  if (!s.ok()) {
    return Status::Corruption("typed layout: clustering stored against an untyped first key");
  }
  ColumnVector one(PhysicalTypeOfLogical(column.type));
  AppendValue(decoded, &one);
  *value = IntegerAt(one, 0);
  return Status::OK();
}

// Clustering column k of every row: slot 24 + k, or, for k = 0, slot 6 (its differences from
// its value in the group's first key) resolved against `first_user_key`.
Status DecodeClusteringColumn(const TypedLayout& layout, const RowGroupView& view,
                              const Slice& first_user_key, size_t k, ColumnVector* out) {
  const TableSchema& schema = layout.schema();
  const uint32_t column_id = schema.clustering_key()[k];
  const PhysicalType type = PhysicalTypeOfLogical(schema.clustering_column(k).type);
  if (k != 0 || !view.HasSlot(kClusteringFromKeySlot)) {
    return DecodeOptionalSlot(view, kClusteringSlot + static_cast<uint32_t>(k), type, out,
                              layout.FileDictionaryOf(column_id));
  }
  if (view.HasSlot(kClusteringSlot) || !IsIntegerLike(schema.clustering_column(0).type)) {
    return Status::Corruption("typed layout: bad first clustering column against the first key");
  }
  int64_t first = 0;
  Status s = FirstKeyClusteringValue(schema, first_user_key, &first);
  // Written with the column's file dictionary like slot 24 (its Huffman tables).
  if (s.ok()) {
    s = view.DecodeSlot(kClusteringFromKeySlot, type, out, false,
                        layout.FileDictionaryOf(column_id));
  }
  if (!s.ok()) return s;
  for (size_t row = 0; row < out->size(); row++) {
    if (out->IsNull(row)) continue;
    int64_t value;
    if (__builtin_add_overflow(first, IntegerAt(*out, row), &value) ||
        (type == PhysicalType::kInt32 && value != static_cast<int32_t>(value))) {
      return Status::Corruption("typed layout: clustering value out of range");
    }
    if (type == PhysicalType::kInt32) {
      out->mutable_data<int32_t>()[row] = static_cast<int32_t>(value);
    } else {
      out->mutable_data<int64_t>()[row] = value;
    }
  }
  if (out->IsNull(0) || IntegerAt(*out, 0) != first) {
    return Status::Corruption("typed layout: first clustering value differs from the first key");
  }
  return Status::OK();
}

}  // namespace

Status TypedLayout::ClusteringColumnValues(const RowGroupView& view, const Slice& first_user_key,
                                           uint32_t column_id, ColumnVector* out) const {
  const std::vector<uint32_t>& clustering = schema().clustering_key();
  for (size_t k = 0; k < clustering.size(); k++) {
    if (clustering[k] == column_id) {
      return DecodeClusteringColumn(*this, view, first_user_key, k, out);
    }
  }
  return Status::InvalidArgument("typed layout: not a clustering column");
}

namespace {

// Appends the encoded clustering key of typed row `row` (every clustering column, in key
// order) through `staged`, which appends to `key`.
Status AppendClusteringKey(const TableSchema& schema, const std::vector<ColumnVector>& clustering,
                           uint32_t row, StagedAppender* staged, std::string* key) {
  for (size_t k = 0; k < clustering.size(); k++) {
    const ColumnDef& column = schema.clustering_column(k);
    if (clustering[k].IsNull(row)) {
      return Status::Corruption("typed layout: typed key without clustering value");
    }
    if (!IsBytesType(column.type)) {
      char* at = staged->Room(kMaxFixedKeyComponentBytes);
      staged->Advance(
          WriteFixedKeyComponent(FixedBitsAt(clustering[k], row), column.type, column.order, at));
      continue;
    }
    staged->Flush();  // EncodeKeyComponent appends to the key itself
    Status s = EncodeKeyComponent(ValueAt(clustering[k], row, column.type), column.type,
                                  column.order, column.name, key);
    if (!s.ok()) return Status::Corruption("typed layout: bad clustering value: " + s.ToString());
  }
  return Status::OK();
}

}  // namespace

// Rebuilds keys and values from a parsed row group.
class TypedLayout::Assembler {
  enum class RowAction { kWhole, kPlaceholder, kDrop };

 public:
  Assembler(const TypedLayout& layout, const RowGroupView& view)
      : layout_(layout), codec_(layout.codec_), schema_(codec_.schema()), view_(view) {}

  // The columns of the scan path (TypedGroupColumns), sharing the slot decoding of Decode.
  Status DecodeScanColumns(const Slice& first_internal_key, const ScanColumnsWanted& wanted,
                           TypedGroupColumns* out) {
    first_user_key_ = Slice(first_internal_key.data(), first_internal_key.size() - 8);
    out->rows = view_.row_count();
    out->all_typed = true;
    Status s = DecodeOptionalSlot(view_, kOpaqueValueSlot, PhysicalType::kBytes, &opaque_values_);
    if (s.ok()) s = DecodeOptionalSlot(view_, kOpaqueKeySlot, PhysicalType::kBytes, &opaque_keys_);
    if (!s.ok()) return s;
    if (opaque_values_.null_count() != out->rows || opaque_keys_.null_count() != out->rows) {
      out->all_typed = false;
      return Status::OK();
    }
    // Rows with cell exceptions read here as format-1 rows do (a column without a cell is null,
    // every cell expires with the row), unless the scan wants write times and some cell has
    // another write time than its row (writetime() of the columns would be the row's): such
    // groups go through the row path.
    s = CheckCellExceptionsSlot();
    if (s.ok() && wanted.write_times && view_.HasSlot(kCellExceptionsSlot)) {
      bool other_write_times = false;
      s = CellExceptionsHaveWriteTimes(&other_write_times);
      if (s.ok() && other_write_times) {
        out->all_typed = false;
        return Status::OK();
      }
    }
    if (s.ok()) s = CheckRegularSlots();
    if (s.ok()) s = DecodeTrailers(view_, &out->trailers);
    const Slice first_user_key(first_internal_key.data(), first_internal_key.size() - 8);
    out->partitions.clear();
    out->write_times.Reset(PhysicalType::kInt64);
    out->expiries.Reset(PhysicalType::kInt64);
    if (s.ok() && wanted.partitions) {
      s = DecodePartitions(view_, first_user_key, &out->partition_changes, &out->partitions);
    }
    if (s.ok() && wanted.clustering) s = DecodeClustering();
    if (s.ok() && wanted.write_times) {
      s = DecodeMetadata(view_, kWriteTimeSlot, &write_times_, &write_time_transform_);
      // Metadata stored against the clustering time needs the clustering columns.
      if (s.ok() && write_time_transform_ != 0) s = DecodeClustering();
      if (s.ok()) s = Resolve(write_times_, write_time_transform_, &out->write_times);
    }
    if (s.ok() && wanted.expiries) {
      s = DecodeExpiry();
      if (s.ok()) s = Resolve(expiries_, expiry_transform_, &out->expiries);
    }
    if (!s.ok()) return s;
    out->clustering = std::move(clustering_);
    if (!wanted.clustering) out->clustering.clear();
    return Status::OK();
  }

  // Cell exceptions only in files whose layout id says readers know them.
  Status CheckCellExceptionsSlot() const {
    if (view_.HasSlot(kCellExceptionsSlot) && layout_.Id() != kIdWithCellExceptions) {
      return Status::Corruption("typed layout: cell exceptions in a file written without them");
    }
    return Status::OK();
  }

  // Whether some row's cell exceptions give a cell another write time than the row's.
  Status CellExceptionsHaveWriteTimes(bool* any) {
    Status s =
        view_.DecodeSlot(kCellExceptionsSlot, PhysicalType::kBytes, &cell_exceptions_, false);
    if (!s.ok()) return s;
    *any = false;
    for (uint32_t row = 0; row < cell_exceptions_.size() && !*any; row++) {
      *any = !cell_exceptions_.IsNull(row) &&
             RowCodec::CellExceptionsHaveWriteTimes(cell_exceptions_.GetBytes(row));
    }
    return Status::OK();
  }

  // Every regular column chunk of the group belongs to a regular column of the schema (the
  // regular columns are then decoded one at a time, each knowing only its own slot).
  Status CheckRegularSlots() const {
    for (size_t i = 0; i < view_.slot_count(); i++) {
      const uint32_t slot = view_.slot(i);
      if (slot < kRegularSlot) continue;
      const ColumnDef* column = schema_.ColumnById(slot - kRegularSlot);
      if (column == nullptr || column->is_key()) {
        return Status::Corruption("typed layout: chunk for an unknown column");
      }
    }
    return Status::OK();
  }

  // `selection` null: every row whole. Columns are decoded only as far as the rows that are
  // returned need them: a group whose rows all drop out decodes no more than its trailers, the
  // opaque-value slot and (with an expiry check) its expiry.
  // `keep_observed`: the group also keeps the columns its writer showed a ColumnObserver
  // (TypedRowGroup::observed; only without a selection, which decodes every column).
  Status Decode(const Slice& first_internal_key, const RowSelection* selection,
                SelectionCounts* counts, std::unique_ptr<DecodedRowGroup>* out,
                bool keep_observed = false) {
    selection_ = selection;
    first_user_key_ = Slice(first_internal_key.data(), first_internal_key.size() - 8);
    const uint32_t rows = view_.row_count();
    Status s = DecodeTrailers(view_, &trailers_);
    if (s.ok())
      s = DecodeOptionalSlot(view_, kOpaqueValueSlot, PhysicalType::kBytes, &opaque_values_);
    if (s.ok() && selection != nullptr && selection->now_seconds != INT64_MIN) s = DecodeExpiry();
    if (!s.ok()) return s;
    std::vector<RowAction> actions(rows);
    bool any_key = false;
    bool any_typed_value = false;
    if (selection != nullptr) built_rows_.assign((rows + 63) / 64, 0);
    for (uint32_t row = 0; row < rows; row++) {
      actions[row] = ActionFor(row);
      any_key |= actions[row] != RowAction::kDrop;
      const bool built = actions[row] == RowAction::kWhole && opaque_values_.IsNull(row);
      any_typed_value |= built;
      if (built && selection != nullptr) built_rows_[row / 64] |= uint64_t{1} << (row % 64);
    }
    auto group = std::make_unique<TypedRowGroup>();
    if (!any_key) {
      counts->dropped += rows;
      *out = std::move(group);
      return Status::OK();
    }
    const Slice first_user_key(first_internal_key.data(), first_internal_key.size() - 8);
    s = DecodePartitions(view_, first_user_key, &partition_changes_, &partitions_);
    if (s.ok()) s = DecodeKeyColumns();
    if (s.ok() && any_typed_value) s = DecodeValueColumns();
    if (!s.ok()) return s;

    group->key_offsets().reserve(rows + 1);
    group->value_offsets().reserve(rows + 1);
    group->key_offsets().push_back(0);
    group->value_offsets().push_back(0);
    group->values().Reserve(ValuesBound(actions));
    for (uint32_t row = 0; row < rows; row++) {
      if (actions[row] == RowAction::kDrop) {
        counts->dropped++;
        continue;
      }
      s = AppendKey(row, &group->keys());
      if (s.ok() && actions[row] == RowAction::kPlaceholder) {
        group->values().Append(selection->placeholder.data(), selection->placeholder.size());
        counts->placeholders++;
      } else if (s.ok()) {
        s = AppendValue(row, &group->values());
        if (selection != nullptr && opaque_values_.IsNull(row)) counts->built++;
      }
      if (!s.ok()) return s;
      group->key_offsets().push_back(static_cast<uint32_t>(group->keys().size()));
      group->value_offsets().push_back(static_cast<uint32_t>(group->values().size()));
      if (row == 0 && group->internal_key(0) != first_internal_key) {
        return Status::Corruption("row group: first key differs from the index");
      }
    }
    if (keep_observed && selection == nullptr) {
      std::unique_ptr<ObservedColumns> observed;
      s = KeepObserved(&observed);
      if (!s.ok()) return s;
      group->set_observed(std::move(observed));
    }
    // Decoded groups live in the block cache, charged by capacity: the slack of appending
    // would cost cache room.
    group->keys().shrink_to_fit();
    group->values().Trim();
    *out = std::move(group);
    return Status::OK();
  }

 private:
  // After a whole decode: the columns as the splitter showed them to its observer, moved out
  // (the rows are built). A regular column without a chunk had no value in any row.
  Status KeepObserved(std::unique_ptr<ObservedColumns>* out) {
    Status s = value_columns_decoded_ ? Status::OK() : DecodeValueColumns();  // no typed value
    if (!s.ok() || !SplitAlike()) return s;
    auto observed = std::make_unique<ObservedColumns>();
    observed->rows = view_.row_count();
    observed->typed_rows = opaque_values_.null_count();
    if (s.ok()) s = Resolve(expiries_, expiry_transform_, &observed->expiry_seconds);
    if (!s.ok()) return s;
    for (const ColumnDef& column : schema_.columns()) {
      if (column.is_key() || present_[column.id]) continue;
      regular_[column.id].Reset(PhysicalTypeOfLogical(column.type));
      regular_[column.id].AppendNulls(observed->rows);
    }
    observed->clustering = std::move(clustering_);
    observed->regular = std::move(regular_);
    *out = std::move(observed);
    return Status::OK();
  }

  // Whether the columns are what splitting the rows they build gives (as a writer of ours
  // stored them): only typed rows, which are Puts, have regular values and metadata, only
  // typed keys clustering values, and every row is of the current schema version (a row of an
  // older one has no cell in the columns added since). A damaged group that still decodes
  // may differ; its copy splits the rows.
  bool SplitAlike() const {
    if (has_versions_) return false;
    const uint32_t rows = view_.row_count();
    for (uint32_t row = 0; row < rows; row++) {
      if (opaque_values_.IsNull(row)) {
        if ((trailers_[row] & 0xff) != kPutValueType) return false;
        continue;
      }
      if (!write_times_.IsNull(row) || !expiries_.IsNull(row)) return false;
      for (size_t id = 0; id < present_.size(); id++) {
        if (present_[id] && !regular_[id].IsNull(row)) return false;
      }
    }
    if (opaque_keys_.null_count() == rows) return true;
    for (uint32_t row = 0; row < rows; row++) {
      if (opaque_keys_.IsNull(row)) continue;
      for (const ColumnVector& column : clustering_) {
        if (!column.IsNull(row)) return false;
      }
    }
    return true;
  }

  Status DecodeClustering() {
    if (clustering_decoded_) return Status::OK();
    clustering_decoded_ = true;
    clustering_.resize(schema_.clustering_key().size());
    for (size_t k = 0; k < clustering_.size(); k++) {
      Status s = DecodeClusteringColumn(layout_, view_, first_user_key_, k, &clustering_[k]);
      if (!s.ok()) return s;
    }
    return Status::OK();
  }

  // Expiry, and the clustering columns it may be stored against.
  Status DecodeExpiry() {
    if (expiry_decoded_) return Status::OK();
    expiry_decoded_ = true;
    Status s = DecodeMetadata(view_, kExpirySlot, &expiries_, &expiry_transform_);
    if (s.ok() && expiry_transform_ != 0) s = DecodeClustering();
    return s;
  }

  Status DecodeKeyColumns() {
    Status s = DecodeOptionalSlot(view_, kOpaqueKeySlot, PhysicalType::kBytes, &opaque_keys_);
    return s.ok() ? DecodeClustering() : s;
  }

  // Row versions, metadata and the regular columns the selection keeps.
  Status DecodeValueColumns() {
    value_columns_decoded_ = true;
    has_versions_ = view_.HasSlot(kRowVersionSlot);  // once a group, not once a row
    Status s = CheckCellExceptionsSlot();
    if (s.ok()) s = DecodeOptionalSlot(view_, kRowVersionSlot, PhysicalType::kInt32, &versions_);
    has_cell_exceptions_ = view_.HasSlot(kCellExceptionsSlot);
    if (s.ok() && has_cell_exceptions_) {
      s = view_.DecodeSlot(kCellExceptionsSlot, PhysicalType::kBytes, &cell_exceptions_, false);
    }
    if (s.ok()) s = DecodeMetadata(view_, kWriteTimeSlot, &write_times_, &write_time_transform_);
    if (s.ok()) s = DecodeExpiry();
    if (!s.ok()) return s;
    regular_.resize(schema_.next_column_id());
    present_.assign(schema_.next_column_id(), false);
    for (size_t i = 0; i < view_.slot_count(); i++) {
      const uint32_t slot = view_.slot(i);
      if (slot < kRegularSlot) continue;
      const ColumnDef* column = schema_.ColumnById(slot - kRegularSlot);
      if (column == nullptr || column->is_key()) {
        return Status::Corruption("typed layout: chunk for an unknown column");
      }
      if (!Keeps(column->id)) continue;
      // A selective scan builds few rows: only theirs are materialised.
      s = view_.DecodeSlot(slot, PhysicalTypeOfLogical(column->type), &regular_[column->id], false,
                           layout_.FileDictionaryOf(column->id),
                           built_rows_.empty() ? nullptr : built_rows_.data());
      if (!s.ok()) return s;
      present_[column->id] = true;
    }
    return Status::OK();
  }

  Status AppendKey(uint32_t row, std::string* keys) {
    // Staged: a key of fixed-width clustering components costs one append, not one a part.
    StagedAppender staged(keys);
    staged.Append(partitions_[row].data(), partitions_[row].size());
    if (!opaque_keys_.IsNull(row)) {
      const Slice suffix = opaque_keys_.GetBytes(row);
      staged.Append(suffix.data(), suffix.size());
    } else {
      Status s = AppendClusteringKey(schema_, clustering_, row, &staged, keys);
      if (!s.ok()) return s;
    }
    EncodeFixed64(staged.Room(8), trailers_[row]);
    staged.Advance(8);
    return Status::OK();
  }

  Status Metadata(const ColumnVector& column, int transform, uint32_t row, bool* has,
                  int64_t* value) const {
    *has = !column.IsNull(row);
    if (!*has) return Status::OK();
    if (transform == 0) {
      *value = column.Get<int64_t>(row);  // stored as is
      return Status::OK();
    }
    if (clustering_.empty() || clustering_[0].IsNull(row)) {
      return Status::Corruption("typed layout: relative metadata without a reference");
    }
    const int64_t reference = IntegerAt(clustering_[0], row);
    const __int128 v =
        static_cast<__int128>(column.Get<int64_t>(row)) + MetadataTransformOf(transform, reference);
    if (!FitsInt64(v)) return Status::Corruption("typed layout: metadata out of range");
    *value = static_cast<int64_t>(v);
    return Status::OK();
  }

  // A metadata column with its transform undone, row by row.
  Status Resolve(const ColumnVector& column, int transform, ColumnVector* out) const {
    out->Reset(PhysicalType::kInt64);
    out->Reserve(column.size());
    for (uint32_t row = 0; row < column.size(); row++) {
      bool has = false;
      int64_t value = 0;
      Status s = Metadata(column, transform, row, &has, &value);
      if (!s.ok()) return s;
      if (has) {
        out->Append<int64_t>(value);
      } else {
        out->AppendNull();
      }
    }
    return Status::OK();
  }

  // Room for the values of the rows `actions` returns, reserved once: WriteColumnRow's bound
  // for each typed row, whose strings are bounded by each column's bytes in all rows
  // (row_bound_, which every typed row asks for), and opaque values and placeholders as they
  // are. Only speed depends on it: ValueBytes grows when a row finds too little room.
  size_t ValuesBound(const std::vector<RowAction>& actions) {
    // The bitmap of any version holds at most a bit per column id.
    size_t fixed = kMaxRowHeaderBytes + (schema_.next_column_id() + 7) / 8;
    size_t strings = 0;  // every byte of the string columns
    for (size_t id = 0; id < present_.size(); id++) {
      if (!present_[id]) continue;
      const ColumnVector& column = regular_[id];
      if (column.type() == PhysicalType::kBytes) {
        fixed += 5;  // a varint32 length
        strings += column.bytes_data().size();
      } else {
        fixed += FixedWidth(column.type());
      }
    }
    // Every row's cell exceptions, as bytes: the last typed row asks for room for all of them.
    const size_t exceptions = cell_exceptions_.bytes_data().size();
    row_bound_ = fixed + strings + exceptions;
    // The strings twice: the last typed row asks for room for all of them.
    size_t bound = 2 * (strings + exceptions);
    if (selection_ == nullptr && !opaque_values_.has_nulls()) {
      return bound + opaque_values_.bytes_data().size();  // every row opaque
    }
    if (selection_ == nullptr && opaque_values_.null_count() == actions.size()) {
      return bound + actions.size() * fixed;  // every row typed
    }
    for (uint32_t row = 0; row < actions.size(); row++) {
      if (actions[row] == RowAction::kDrop) continue;
      if (actions[row] == RowAction::kPlaceholder) {
        bound += selection_->placeholder.size();
      } else if (!opaque_values_.IsNull(row)) {
        bound += opaque_values_.GetBytes(row).size();
      } else {
        bound += fixed;
      }
    }
    return bound;
  }

  // Builds the cell sources of rows written at `version` (nullptr for a version the schema
  // does not have), kept in sources_ for the next rows: a group's rows mostly share one
  // version (AppendValue asks only when the version changes).
  const std::vector<ColumnCellSource>* SourcesFor(uint32_t version) {
    const std::vector<uint32_t>* ids = codec_.ColumnsAt(version);
    if (ids == nullptr) return nullptr;
    if (column_fits_.empty()) column_fits_.assign(schema_.next_column_id(), kFitsUnknown);
    sources_.resize(ids->size());
    for (size_t i = 0; i < ids->size(); i++) {
      const uint32_t id = (*ids)[i];
      ColumnCellSource& source = sources_[i];
      source.type = schema_.columns()[id].type;
      // present_ holds only the columns the selection keeps (DecodeValueColumns).
      source.column = present_[id] ? &regular_[id] : nullptr;
      source.check = false;
      if (source.column == nullptr) continue;
      if (column_fits_[id] == kFitsUnknown) {
        column_fits_[id] = RowCodec::ColumnFitsType(*source.column, source.type) ? kFits : kCheck;
      }
      source.check = column_fits_[id] == kCheck;
    }
    sources_version_ = version;
    return &sources_;
  }

  Status AppendValue(uint32_t row, ValueBytes* values) {
    if (!opaque_values_.IsNull(row)) {
      const Slice value = opaque_values_.GetBytes(row);
      values->Append(value.data(), value.size());
      return Status::OK();
    }
    RowMetadata meta;
    if (!has_versions_) {
      meta.schema_version = schema_.version();
    } else if (versions_.IsNull(row)) {
      return Status::Corruption("typed layout: row without version");
    } else {
      meta.schema_version = static_cast<uint32_t>(versions_.Get<int32_t>(row));
    }
    // The previous row's sources serve while the version stays.
    const std::vector<ColumnCellSource>* sources =
        meta.schema_version == sources_version_ ? &sources_ : SourcesFor(meta.schema_version);
    if (sources == nullptr) return Status::Corruption("typed layout: unknown schema version");
    int64_t expiry = 0;
    Status s = Metadata(write_times_, write_time_transform_, row, &meta.has_write_time,
                        &meta.write_time_micros);
    if (s.ok()) s = Metadata(expiries_, expiry_transform_, row, &meta.has_expiry, &expiry);
    if (!s.ok()) return s;
    if (meta.has_expiry && expiry < 0) return Status::Corruption("typed layout: negative expiry");
    meta.expiry_seconds = static_cast<uint64_t>(expiry);
    const Slice exceptions = has_cell_exceptions_ && !cell_exceptions_.IsNull(row)
                                 ? cell_exceptions_.GetBytes(row)
                                 : Slice();
    char* const start = values->Room(row_bound_);
    const char* end =
        codec_.WriteColumnRow(meta, sources->data(), sources->size(), row, start, exceptions);
    if (end != nullptr) {
      values->Advance(static_cast<size_t>(end - start));
      return Status::OK();
    }
    // A cell its type refuses: the cells path reports which.
    std::string value;
    s = AppendValueByCells(row, meta, *codec_.ColumnsAt(meta.schema_version), &value);
    if (s.ok() && !exceptions.empty()) {
      return Status::Corruption("typed layout: cell exceptions that do not fit their row");
    }
    if (s.ok()) values->Append(value.data(), value.size());
    return s;
  }

  // AppendValue through RowCells and EncodeColumnCells, which check every cell the type
  // constrains.
  Status AppendValueByCells(uint32_t row, const RowMetadata& meta, const std::vector<uint32_t>& ids,
                            std::string* values) {
    cells_.resize(ids.size());
    for (size_t i = 0; i < ids.size(); i++) {
      const uint32_t id = ids[i];
      RowCell& cell = cells_[i];
      cell.column_id = id;
      cell.type = schema_.columns()[id].type;
      // present_ holds only the columns the selection keeps (DecodeValueColumns).
      cell.present = present_[id] && !regular_[id].IsNull(row);
      if (!cell.present) continue;
      if (regular_[id].type() == PhysicalType::kBytes) {
        cell.bytes = regular_[id].GetBytes(row);
      } else {
        cell.fixed_bits = FixedBitsAt(regular_[id], row);
      }
    }
    Status s = codec_.EncodeColumnCells(meta, cells_, values);
    return s.ok() ? s : Status::Corruption("typed layout: row does not re-encode: " + s.ToString());
  }

  RowAction ActionFor(uint32_t row) const {
    if (selection_ == nullptr || !opaque_values_.IsNull(row)) return RowAction::kWhole;
    bool passes = (selection_->passing[row >> 6] >> (row & 63)) & 1;
    if (passes && selection_->now_seconds != INT64_MIN && !expiries_.IsNull(row)) {
      bool has_expiry = false;
      int64_t expiry = 0;
      passes = !Metadata(expiries_, expiry_transform_, row, &has_expiry, &expiry).ok() ||
               !has_expiry || expiry > selection_->now_seconds;
    }
    if (passes) return RowAction::kWhole;
    const uint64_t sequence =
        selection_->global_sequence ? *selection_->global_sequence : trailers_[row] >> 8;
    return sequence == 0 ? RowAction::kDrop : RowAction::kPlaceholder;
  }

  bool Keeps(uint32_t column_id) const {
    return selection_ == nullptr || selection_->keep_columns.empty() ||
           (column_id < selection_->keep_columns.size() && selection_->keep_columns[column_id]);
  }

  const TypedLayout& layout_;
  const RowCodec& codec_;
  const TableSchema& schema_;
  const RowGroupView& view_;
  const RowSelection* selection_ = nullptr;
  Slice first_user_key_;
  ColumnVector partition_changes_;
  std::vector<Slice> partitions_;
  std::vector<uint64_t> trailers_;
  ColumnVector opaque_keys_, versions_, opaque_values_, write_times_, expiries_;
  ColumnVector cell_exceptions_{PhysicalType::kBytes};  // filled when the group has any
  bool has_cell_exceptions_ = false;                    // (set by DecodeValueColumns)
  int write_time_transform_ = 0;
  int expiry_transform_ = 0;
  bool clustering_decoded_ = false;
  bool expiry_decoded_ = false;
  bool has_versions_ = false;  // the group stores row versions (set by DecodeValueColumns)
  bool value_columns_decoded_ = false;
  std::vector<ColumnVector> clustering_;
  std::vector<ColumnVector> regular_;
  std::vector<bool> present_;
  std::vector<RowCell> cells_;
  std::vector<uint64_t> built_rows_;  // with a selection: the rows returned with their values
  // WriteColumnRow's room for any typed row of the group (ValuesBound).
  size_t row_bound_ = 0;
  // The cell sources of the last version asked for (SourcesFor); 0: none yet.
  uint32_t sources_version_ = 0;
  std::vector<ColumnCellSource> sources_;
  // By column id: whether RowCodec::ColumnFitsType vouched for the decoded column.
  enum : uint8_t { kFitsUnknown, kFits, kCheck };
  std::vector<uint8_t> column_fits_;
};

Status TypedLayout::DecodeRowGroup(const RowGroupView& view, const Slice& first_internal_key,
                                   std::unique_ptr<DecodedRowGroup>* out) const {
  if (first_internal_key.size() < 8) return Status::Corruption("row group: short first key");
  Assembler assembler(*this, view);
  SelectionCounts ignored;
  return assembler.Decode(first_internal_key, nullptr, &ignored, out);
}

Status TypedLayout::DecodeRowGroupForCopy(const RowGroupView& view, const Slice& first_internal_key,
                                          std::unique_ptr<DecodedRowGroup>* out) const {
  if (first_internal_key.size() < 8) return Status::Corruption("row group: short first key");
  Assembler assembler(*this, view);
  SelectionCounts ignored;
  return assembler.Decode(first_internal_key, nullptr, &ignored, out, /*keep_observed=*/true);
}

Status TypedLayout::DecodeSelected(const RowGroupView& view, const Slice& first_internal_key,
                                   const RowSelection& selection,
                                   std::unique_ptr<DecodedRowGroup>* out,
                                   SelectionCounts* counts) const {
  if (first_internal_key.size() < 8) return Status::Corruption("row group: short first key");
  if (selection.passing == nullptr) return Status::InvalidArgument("selection without rows");
  Assembler assembler(*this, view);
  return assembler.Decode(first_internal_key, &selection, counts, out);
}

Status TypedLayout::DecodeScanColumns(const RowGroupView& view, const Slice& first_internal_key,
                                      TypedGroupColumns* out,
                                      const ScanColumnsWanted& wanted) const {
  if (first_internal_key.size() < 8) return Status::Corruption("row group: short first key");
  Assembler assembler(*this, view);
  return assembler.DecodeScanColumns(first_internal_key, wanted, out);
}

Status TypedLayout::DecodeScanRegularColumn(const RowGroupView& view, uint32_t column_id,
                                            const uint64_t* wanted_rows, ColumnVector* out) const {
  const ColumnDef* column = schema().ColumnById(column_id);
  if (column == nullptr || column->role != ColumnRole::kRegular) {
    return Status::InvalidArgument("typed layout: not a regular column");
  }
  const PhysicalType type = PhysicalTypeOfLogical(column->type);
  const uint32_t slot = kRegularSlot + column_id;
  if (!view.HasSlot(slot)) {
    out->Reset(type);
    out->AppendNulls(view.row_count());
    return Status::OK();
  }
  return view.DecodeSlot(slot, type, out, false, FileDictionaryOf(column_id), wanted_rows);
}

Status TypedLayout::ScanRowUserKey(const TypedGroupColumns& columns, uint32_t row,
                                   std::string* out) const {
  if (row >= columns.partitions.size() ||
      columns.clustering.size() != schema().clustering_key().size()) {
    return Status::InvalidArgument("typed layout: row key without partitions and clustering");
  }
  out->clear();
  StagedAppender staged(out);
  staged.Append(columns.partitions[row].data(), columns.partitions[row].size());
  return AppendClusteringKey(schema(), columns.clustering, row, &staged, out);
}

size_t TypedGroupColumns::MemoryUsage() const {
  size_t bytes = sizeof(*this) + trailers.capacity() * sizeof(uint64_t) +
                 partition_changes.MemoryUsage() + partitions.capacity() * sizeof(Slice) +
                 write_times.MemoryUsage() + expiries.MemoryUsage();
  for (const ColumnVector& column : clustering) bytes += column.MemoryUsage();
  return bytes;
}

bool TypedLayout::RegularColumnOfSlot(uint32_t slot, uint32_t* column_id) const {
  if (slot < kRegularSlot) return false;
  const ColumnDef* column = schema().ColumnById(slot - kRegularSlot);
  if (column == nullptr || column->role != ColumnRole::kRegular) return false;
  *column_id = slot - kRegularSlot;
  return true;
}

bool TypedLayout::ColumnSlot(uint32_t column_id, uint32_t* slot, PhysicalType* type) const {
  const ColumnDef* column = schema().ColumnById(column_id);
  if (column == nullptr || column->role == ColumnRole::kPartitionKey) return false;
  *type = PhysicalTypeOfLogical(column->type);
  if (column->role == ColumnRole::kRegular) {
    *slot = kRegularSlot + column_id;
    return true;
  }
  const std::vector<uint32_t>& clustering = schema().clustering_key();
  for (size_t k = 0; k < clustering.size(); k++) {
    if (clustering[k] == column_id) {
      *slot = kClusteringSlot + static_cast<uint32_t>(k);
      return true;
    }
  }
  return false;
}

Status TypedLayout::PartitionColumnValues(const RowGroupView& view, const Slice& first_user_key,
                                          uint32_t column_id, ColumnVector* out,
                                          bool* known) const {
  const std::vector<uint32_t>& partition_key = schema().partition_key();
  size_t position = partition_key.size();
  for (size_t i = 0; i < partition_key.size(); i++) {
    if (partition_key[i] == column_id) position = i;
  }
  if (position == partition_key.size()) {
    return Status::InvalidArgument("typed layout: not a partition key column");
  }
  ColumnVector changes;
  std::vector<Slice> partitions;
  Status s = DecodePartitions(view, first_user_key, &changes, &partitions);
  if (!s.ok()) return s;
  const ColumnDef& column = schema().partition_column(position);
  out->Reset(PhysicalTypeOfLogical(column.type));
  out->Reserve(partitions.size());
  *known = true;
  Value value;
  for (size_t row = 0; row < partitions.size(); row++) {
    // Rows of one partition share its slice: decode each partition once.
    if (row == 0 || partitions[row].data() != partitions[row - 1].data() ||
        partitions[row].size() != partitions[row - 1].size()) {
      Slice in = partitions[row];
      for (size_t i = 0; i < partition_key.size() && s.ok(); i++) {
        s = DecodeKeyComponent(&in, schema().partition_column(i).type, ClusteringOrder::kAsc,
                               i == position ? &value : nullptr);
      }
      if (!s.ok() || !in.empty()) {
        // An opaque key is its own partition: it has no partition key values.
        *known = false;
        return Status::OK();
      }
    }
    AppendValue(value, out);
  }
  return Status::OK();
}

bool TypedLayout::ClusteringKnown(const RowGroupView& view) const {
  return !view.HasSlot(kOpaqueKeySlot);
}

}  // namespace columnar
