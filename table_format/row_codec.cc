#include "table_format/row_codec.h"

#include <cassert>
#include <cstring>

#include "table_format/column_values.h"
#include "table_format/frozen_type.h"
#include "table_format/staged_appender.h"
#include "table_format/varint.h"

namespace columnar {
namespace {

constexpr uint8_t kFlagWriteTime = 1 << 0;
constexpr uint8_t kFlagExpiry = 1 << 1;
constexpr uint8_t kKnownRowFlags = kFlagWriteTime | kFlagExpiry;
// Format 2 only.
constexpr uint8_t kFlagLiveness = 1 << 2;
constexpr uint8_t kFlagDeletion = 1 << 3;
constexpr uint8_t kFlagLocalDeletionTime = 1 << 4;
constexpr uint8_t kKnownCellFlags =
    kFlagWriteTime | kFlagExpiry | kFlagLiveness | kFlagDeletion | kFlagLocalDeletionTime;

constexpr uint8_t kExceptionWriteTime = 1 << 0;
constexpr uint8_t kExceptionExpiry = 1 << 1;
constexpr uint8_t kExceptionNoCell = 1 << 2;
constexpr uint8_t kKnownExceptionBits = kExceptionWriteTime | kExceptionExpiry | kExceptionNoCell;

Status RowCorruption(const std::string& problem) {
  return Status::Corruption("row value: " + problem);
}

void AppendVarint64(uint64_t v, StagedAppender* out) {
  char* p = out->Room(kMaxVarint64Bytes);
  out->Advance(static_cast<size_t>(EncodeVarint64(p, v) - p));
}

void AppendCellValue(const RowCell& cell, StagedAppender* out) {
  const size_t width = EncodedFixedWidth(cell.type);
  if (cell.type == LogicalType::kUuid) {
    out->Append(cell.bytes.data(), cell.bytes.size());
  } else if (IsBytesType(cell.type)) {
    AppendVarint64(cell.bytes.size(), out);
    out->Append(cell.bytes.data(), cell.bytes.size());
  } else {
    EncodeFixed64(out->Room(8), cell.fixed_bits);  // little-endian: the low `width` bytes
    out->Advance(width);
  }
}

// The presence bitmap and values of `cells`.
void AppendValues(const std::vector<RowCell>& cells, StagedAppender* out) {
  // The presence bitmap, a byte at a time, then the values.
  uint8_t byte = 0;
  for (size_t i = 0; i < cells.size(); i++) {
    byte |= static_cast<uint8_t>(cells[i].present ? 1 << (i % 8) : 0);
    if (i % 8 == 7 || i + 1 == cells.size()) {
      *out->Room(1) = static_cast<char>(byte);
      out->Advance(1);
      byte = 0;
    }
  }
  for (const RowCell& cell : cells) {
    if (cell.present) AppendCellValue(cell, out);
  }
}

// Whether a cell fits its column: ids and types match, and a present value is well formed
// (checked without building a Status per cell; CellError says why not).
inline bool CellIsValid(const RowCell& cell, const ColumnDef& column) {
  if (cell.column_id != column.id || cell.type != column.type) return false;
  if (!cell.present) return true;
  if (IsBytesType(cell.type)) return IsWellFormedBytes(cell.type, cell.bytes);
  const size_t width = EncodedFixedWidth(cell.type);
  return cell.fixed_bits <=
         (cell.type == LogicalType::kBoolean ? 1 : (width == 8 ? UINT64_MAX : UINT32_MAX));
}

// Why CellIsValid refuses the cell.
Status CellError(const RowCell& cell, const ColumnDef& column) {
  if (cell.column_id != column.id || cell.type != column.type) {
    return Status::InvalidArgument("row cell for column id " + std::to_string(cell.column_id) +
                                   " does not match column '" + column.name + "'");
  }
  if (IsBytesType(cell.type)) {
    return Status::InvalidArgument("column '" + column.name + "': malformed " +
                                   LogicalTypeName(column.type) + " value");
  }
  return Status::InvalidArgument("column '" + column.name + "': bit pattern too wide for " +
                                 LogicalTypeName(column.type));
}

Status ReadCellValue(Slice* in, RowCell* cell) {
  const size_t width = EncodedFixedWidth(cell->type);
  if (cell->type == LogicalType::kUuid || !IsBytesType(cell->type)) {
    if (in->size() < width) return RowCorruption("truncated value");
    if (cell->type == LogicalType::kUuid) {
      cell->bytes = Slice(in->data(), width);
    } else if (width == 8) {
      cell->fixed_bits = DecodeFixed64(in->data());  // numbers and times: one load
    } else if (width == 4) {
      cell->fixed_bits = DecodeFixed32(in->data());
    } else {
      char buf[8] = {};
      std::memcpy(buf, in->data(), width);
      cell->fixed_bits = DecodeFixed64(buf);
      if (cell->type == LogicalType::kBoolean && cell->fixed_bits > 1) {
        return RowCorruption("boolean byte is not 0 or 1");
      }
    }
    in->remove_prefix(width);
    return Status::OK();
  }
  uint64_t length;
  if (!GetCanonicalVarint64(in, &length) || length > in->size()) {
    return RowCorruption("truncated or non-canonical length");
  }
  cell->bytes = Slice(in->data(), length);
  in->remove_prefix(length);
  if (!IsWellFormedBytes(cell->type, cell->bytes)) return RowCorruption("non-ASCII byte");
  return Status::OK();
}

// ReadCellValue without a Status, for the cell-by-cell loop of DecodeIntoColumns: false when
// ReadCellValue would fail (which then says why, from the same input). *in and *cell are left
// undefined on failure.
__attribute__((always_inline)) inline bool TryReadCellValue(Slice* in, RowCell* cell) {
  const LogicalType type = cell->type;
  if (type != LogicalType::kUuid && IsBytesType(type)) {
    uint64_t length;
    if (!GetCanonicalVarint64(in, &length) || length > in->size()) return false;
    cell->bytes = Slice(in->data(), length);
    in->remove_prefix(length);
    return IsWellFormedBytes(type, cell->bytes);
  }
  const size_t width = EncodedFixedWidth(type);
  if (in->size() < width) return false;
  if (type == LogicalType::kUuid) {
    cell->bytes = Slice(in->data(), width);
  } else if (width == 8) {
    cell->fixed_bits = DecodeFixed64(in->data());
  } else if (width == 4) {
    cell->fixed_bits = DecodeFixed32(in->data());
  } else {
    char buf[8] = {};
    std::memcpy(buf, in->data(), width);
    cell->fixed_bits = DecodeFixed64(buf);
    if (type == LogicalType::kBoolean && cell->fixed_bits > 1) return false;
  }
  in->remove_prefix(width);
  return true;
}

// How DecodeIntoColumns reads a cell of a type: the common types without a RowCell.
enum CellKind : uint8_t {
  kWideCell,      // 8 bytes (bigint, double, timestamp)
  kNarrowCell,    // 4 bytes (int, float, date)
  kAnyBytesCell,  // a length and any bytes (text, blob)
  kAsciiCell,     // a length and ascii bytes
  kOtherCell,     // the rest (boolean, uuid, frozen types): TryReadCellValue
};

uint8_t KindOfCell(LogicalType type) {
  if (type == LogicalType::kText || type == LogicalType::kBlob) return kAnyBytesCell;
  if (type == LogicalType::kAscii) return kAsciiCell;
  if (IsBytesType(type)) return kOtherCell;
  const size_t width = EncodedFixedWidth(type);
  return width == 8 ? kWideCell : width == 4 ? kNarrowCell : kOtherCell;
}

// Appends a present cell to its column (a byte-string column takes its bytes, any other its
// fixed_bits, as AppendFixedBits), the common physical types first, inline.
__attribute__((always_inline)) inline void AppendPresentCell(const RowCell& cell,
                                                             ColumnVector* column) {
  switch (column->type()) {
    case PhysicalType::kBytes:
      column->AppendBytes(cell.bytes);
      break;
    case PhysicalType::kInt64:
      column->Append<int64_t>(static_cast<int64_t>(cell.fixed_bits));
      break;
    case PhysicalType::kFloat64: {
      double d;
      std::memcpy(&d, &cell.fixed_bits, sizeof(d));
      column->Append<double>(d);
      break;
    }
    default:
      AppendFixedBits(cell.fixed_bits, column);
      break;
  }
}

// DecodeIntoColumns' path for the cells its loop does not read itself (other types, long
// strings) and for malformed ones: reads the cell at *at (its column's `absent` cell), appends
// it and moves *at past it, or says what is wrong. Out of line, so that the loop's registers
// hold its own cursor.
__attribute__((noinline)) Status AppendAnyCell(const RowCell& absent, const char** at,
                                               const char* end, ColumnVector* column) {
  RowCell cell = absent;
  cell.present = true;
  const size_t left = static_cast<size_t>(end - *at);
  Slice rest(*at, left);
  if (!TryReadCellValue(&rest, &cell)) {
    rest = Slice(*at, left);
    Status s = ReadCellValue(&rest, &cell);
    assert(!s.ok());
    if (s.ok()) s = RowCorruption("malformed value");  // unreachable: the two agree
    return s;
  }
  AppendPresentCell(cell, column);
  *at = rest.data();
  return Status::OK();
}

Status CellMetadataNotSupported() {
  return Status::NotSupported("row value has per-cell metadata (row format 2)");
}

// The header of any shape, with the Status of whatever is wrong with it (DecodeHeader's slow
// path: out of line, so that the common path keeps no frame, strings or calls).
__attribute__((noinline)) Status DecodeAnyHeader(Slice* in, uint32_t max_version,
                                                 RowMetadata* meta) {
  uint8_t format, flags;
  uint64_t version, write_time, expiry;
  if (!in->empty() && static_cast<uint8_t>((*in)[0]) == kRowFormatWithCellMetadata) {
    return CellMetadataNotSupported();
  }
  if (!GetFixed8(in, &format) || format != kRowFormatVersion) {
    return RowCorruption("unknown format byte");
  }
  if (!GetCanonicalVarint64(in, &version) || version == 0 || version > max_version) {
    return RowCorruption("schema version missing, non-canonical or unknown to this schema (" +
                         std::to_string(max_version) + " versions)");
  }
  if (!GetFixed8(in, &flags) || (flags & ~kKnownRowFlags) != 0) {
    return RowCorruption("missing or unknown flags");
  }
  meta->schema_version = static_cast<uint32_t>(version);
  meta->has_write_time = (flags & kFlagWriteTime) != 0;
  meta->has_expiry = (flags & kFlagExpiry) != 0;
  meta->write_time_micros = 0;
  meta->expiry_seconds = 0;
  if (meta->has_write_time) {
    if (!GetCanonicalVarint64(in, &write_time)) return RowCorruption("bad write time");
    meta->write_time_micros = ZigZagDecode(write_time);
  }
  if (meta->has_expiry) {
    if (!GetCanonicalVarint64(in, &expiry)) return RowCorruption("bad expiry");
    meta->expiry_seconds = expiry;
  }
  return Status::OK();
}

// The common header, decoded in a few word operations: format 1, a one-byte schema version,
// and a write time and expiry of 1 to 8 bytes with 8 bytes readable at each (the row's values
// follow them), whose last byte is not zero. Returns the header's length after filling *meta,
// or 0 for any other shape, valid or not, without touching *meta: DecodeAnyHeader then decides.
// Every row read in a compaction has its header decoded up to three times (compaction filter,
// properties collector, table builder).
__attribute__((always_inline)) inline size_t DecodeCommonHeader(const Slice& in,
                                                                uint32_t max_version,
                                                                RowMetadata* meta) {
  const auto* p = reinterpret_cast<const uint8_t*>(in.data());
  const size_t n = in.size();
  if (n < 3 || p[0] != kRowFormatVersion) {
    return 0;
  }
  const uint32_t version = p[1];  // below 0x80: a whole canonical varint
  const uint8_t flags = p[2];
  if (version - 1 >= max_version || version >= 0x80 || (flags & ~kKnownRowFlags) != 0) {
    return 0;
  }
  size_t pos = 3;
  uint64_t write_time = 0, expiry = 0;
  int len;
  if ((flags & kFlagWriteTime) != 0) {
    // A zero last byte is non-canonical, or the varint 0 alone: DecodeAnyHeader tells which.
    if (n - pos < 8 || !DecodeVarintFromWord(p + pos, &write_time, &len) || p[pos + len - 1] == 0) {
      return 0;
    }
    pos += len;
  }
  if ((flags & kFlagExpiry) != 0) {
    if (n - pos < 8 || !DecodeVarintFromWord(p + pos, &expiry, &len) || p[pos + len - 1] == 0) {
      return 0;
    }
    pos += len;
  }
  meta->schema_version = version;
  meta->has_write_time = (flags & kFlagWriteTime) != 0;
  meta->write_time_micros = ZigZagDecode(write_time);  // 0 when absent
  meta->has_expiry = (flags & kFlagExpiry) != 0;
  meta->expiry_seconds = expiry;
  return pos;
}

__attribute__((always_inline)) inline Status DecodeHeader(Slice* in, uint32_t max_version,
                                                          RowMetadata* meta) {
  const size_t length = DecodeCommonHeader(*in, max_version, meta);
  if (length == 0) {
    return DecodeAnyHeader(in, max_version, meta);
  }
  in->remove_prefix(length);
  return Status::OK();
}

// ---- rows whose cells all share the row's expiry ----
//
// Format 2 with flags write_time | liveness [| expiry] [| local_deletion_time] whose exceptions
// are "no cell" or another write time, never another expiry: an INSERT that names some of the
// columns, or such a row where later writes (UPDATE) changed some cells. Every cell it has lives
// and expires with the row, so its values read as those of the format-1 row with the same
// header and values; the exceptions (and a cell deletion's local time, for gc_grace_seconds)
// are all format 1 lacks.

Status NotOnlyCellExceptions() {
  return Status::NotSupported("row value has per-cell metadata beyond cell exceptions");
}

// The header of a row with cell exceptions, into *meta as format 1's header would fill it, and
// *flags its flags. NotSupported for any other format-2 row, Corruption for a malformed one.
Status DecodeCellExceptionsHeader(Slice* in, uint32_t max_version, RowMetadata* meta,
                                  uint8_t* flags_out, Slice* local_deletion_time) {
  uint8_t format, flags;
  uint64_t version, field;
  if (!GetFixed8(in, &format) || format != kRowFormatWithCellMetadata) {
    return RowCorruption("unknown format byte");
  }
  if (!GetCanonicalVarint64(in, &version) || version == 0 || version > max_version) {
    return RowCorruption("schema version missing, non-canonical or unknown to this schema");
  }
  if (!GetFixed8(in, &flags)) return RowCorruption("missing flags");
  if ((flags & ~(kFlagExpiry | kFlagLocalDeletionTime)) != (kFlagWriteTime | kFlagLiveness)) {
    return NotOnlyCellExceptions();
  }
  *flags_out = flags;
  meta->schema_version = static_cast<uint32_t>(version);
  meta->has_write_time = true;
  if (!GetCanonicalVarint64(in, &field)) return RowCorruption("bad write time");
  meta->write_time_micros = ZigZagDecode(field);
  meta->has_expiry = (flags & kFlagExpiry) != 0;
  meta->expiry_seconds = 0;
  if (meta->has_expiry) {
    if (!GetCanonicalVarint64(in, &field)) return RowCorruption("bad expiry");
    // A cell deletion cannot expire at the last second (EncodeVersions): left to DecodeVersions.
    if (field == UINT64_MAX) return NotOnlyCellExceptions();
    meta->expiry_seconds = field;
  }
  const char* local_begin = in->data();
  if ((flags & kFlagLocalDeletionTime) != 0 && !GetCanonicalVarint64(in, &field)) {
    return RowCorruption("bad local deletion time");
  }
  *local_deletion_time = Slice(local_begin, static_cast<size_t>(in->data() - local_begin));
  return Status::OK();
}

// The cell exceptions of a typed row (what RowCodec::DecodeIntoColumns gives, WriteColumnRow
// takes), the bytes of the format-2 row that its format-1 header and values do not hold:
//
//   | flags u8                       | [local_deletion_time] | exception_count | exceptions |
//   | the row's, bits 2 and 4 only   | varint64              | varint32 >= 1   |            |
struct CellExceptions {
  uint8_t flags = 0;          // kFlagLiveness [| kFlagLocalDeletionTime]
  Slice local_deletion_time;  // its varint's bytes, or empty
  Slice exceptions;           // exception_count and the exceptions
};

bool ParseCellExceptions(Slice in, CellExceptions* out) {
  uint64_t ignored;
  if (!GetFixed8(&in, &out->flags) || (out->flags & ~kFlagLocalDeletionTime) != kFlagLiveness) {
    return false;
  }
  const char* local_begin = in.data();
  if ((out->flags & kFlagLocalDeletionTime) != 0 && !GetCanonicalVarint64(&in, &ignored)) {
    return false;
  }
  out->local_deletion_time = Slice(local_begin, static_cast<size_t>(in.data() - local_begin));
  out->exceptions = in;
  return true;
}

// Walks an exception list of a row of cell exceptions (exception_count and the exceptions, to
// the end of the row): at least one and at most `columns`, each a canonical index and the what
// byte, followed by a canonical write time for kExceptionWriteTime alone. `visit(index, what,
// write_time)` sees each; false when it refuses one, or when the list is malformed or another
// exception kind (another expiry) comes.
template <typename Visit>
bool WalkCellExceptions(Slice exceptions, size_t columns, const Visit& visit) {
  uint64_t count;
  if (!GetCanonicalVarint64(&exceptions, &count) || count == 0 || count > columns) return false;
  for (uint64_t e = 0; e < count; e++) {
    uint64_t index, time = 0;
    uint8_t what;
    if (!GetCanonicalVarint64(&exceptions, &index) || !GetFixed8(&exceptions, &what) ||
        (what != kExceptionNoCell && what != kExceptionWriteTime) ||
        (what == kExceptionWriteTime && !GetCanonicalVarint64(&exceptions, &time)) ||
        !visit(index, what, ZigZagDecode(time))) {
      return false;
    }
  }
  return exceptions.empty();
}

// Whether `exceptions` are the canonical exceptions of a row of `columns` cells written at
// `write_time` whose cells share its expiry: strictly increasing indexes below `columns`, each
// either "no cell" on a cell that `live(index)` says has no value or another write time than
// the row's; with `deletion_needed` (a local deletion time), some cell is a deletion.
template <typename Live>
bool ValidCellExceptions(Slice exceptions, size_t columns, int64_t write_time, bool deletion_needed,
                         const Live& live) {
  uint64_t next = 0;  // the smallest index the next exception may have
  uint64_t without_cell = 0;
  const auto canonical = [&](uint64_t index, uint8_t what, int64_t time) {
    if (index < next || index >= columns) return false;
    next = index + 1;
    if (what == kExceptionWriteTime) return time != write_time;
    without_cell++;
    return !live(index);
  };
  if (!WalkCellExceptions(exceptions, columns, canonical)) return false;
  if (!deletion_needed) return true;
  uint64_t without_value = 0;
  for (size_t i = 0; i < columns; i++) without_value += live(i) ? 0 : 1;
  return without_value > without_cell;
}

}  // namespace

bool operator==(const CellVersion& a, const CellVersion& b) {
  return a.state == b.state && a.write_time_micros == b.write_time_micros &&
         a.has_expiry == b.has_expiry && a.expiry_seconds == b.expiry_seconds;
}

bool operator==(const RowLiveness& a, const RowLiveness& b) {
  return a.write_time_micros == b.write_time_micros && a.has_expiry == b.has_expiry &&
         a.expiry_seconds == b.expiry_seconds;
}

bool operator==(const RowMetadata& a, const RowMetadata& b) {
  return a.schema_version == b.schema_version && a.has_write_time == b.has_write_time &&
         a.write_time_micros == b.write_time_micros && a.has_expiry == b.has_expiry &&
         a.expiry_seconds == b.expiry_seconds;
}

RowCodec::RowCodec(TableSchema schema) : schema_(std::move(schema)) {
  for (uint32_t version = 1; version <= schema_.version(); version++) {
    columns_by_version_.push_back(schema_.RegularColumnsAt(version));
    std::vector<RowCell> absent(columns_by_version_.back().size());
    for (size_t i = 0; i < absent.size(); i++) {
      absent[i].column_id = columns_by_version_.back()[i];
      absent[i].type = schema_.columns()[absent[i].column_id].type;
    }
    std::vector<uint32_t> constrained;
    for (size_t i = 0; i < absent.size(); i++) {
      const LogicalType type = absent[i].type;
      const bool holds_more =
          IsBytesType(type) ? type != LogicalType::kText && type != LogicalType::kBlob
                            : EncodedFixedWidth(type) < FixedWidth(PhysicalTypeOfLogical(type));
      if (holds_more) constrained.push_back(static_cast<uint32_t>(i));
    }
    std::vector<CellPlan> plans(absent.size());
    for (size_t i = 0; i < absent.size(); i++) {
      plans[i] = CellPlan{absent[i].column_id, KindOfCell(absent[i].type)};
    }
    cell_plans_by_version_.push_back(std::move(plans));
    constrained_cells_by_version_.push_back(std::move(constrained));
    absent_cells_by_version_.push_back(std::move(absent));
  }
}

const std::vector<uint32_t>* RowCodec::ColumnsAt(uint32_t version) const {
  if (version == 0 || version > columns_by_version_.size()) return nullptr;
  return &columns_by_version_[version - 1];
}

Status RowCodec::EncodeCells(const RowMetadata& meta, const std::vector<RowCell>& cells,
                             std::string* out) const {
  Status s = CheckCells(meta.schema_version, cells);
  if (!s.ok()) return s;
  AppendRow(meta, cells, out);
  return Status::OK();
}

Status RowCodec::EncodeColumnCells(const RowMetadata& meta, const std::vector<RowCell>& cells,
                                   std::string* out) const {
  const uint32_t version = meta.schema_version;
  // An unknown version gets the full check, which reports it.
  const std::vector<uint32_t>* constrained =
      version >= 1 && version <= constrained_cells_by_version_.size()
          ? &constrained_cells_by_version_[version - 1]
          : nullptr;
  Status s = CheckCells(version, cells, constrained);
  if (!s.ok()) return s;
  assert(CheckCells(version, cells).ok());  // the other cells fit by construction
  AppendRow(meta, cells, out);
  return Status::OK();
}

void RowCodec::AppendRow(const RowMetadata& meta, const std::vector<RowCell>& cells,
                         std::string* out) const {
  StagedAppender staged(out);
  char* p = staged.Room(2 + 3 * kMaxVarint64Bytes);
  char* const start = p;
  *p++ = static_cast<char>(kRowFormatVersion);
  p = EncodeVarint64(p, meta.schema_version);
  *p++ = static_cast<char>((meta.has_write_time ? kFlagWriteTime : 0) |
                           (meta.has_expiry ? kFlagExpiry : 0));
  if (meta.has_write_time) p = EncodeVarint64(p, ZigZagEncode(meta.write_time_micros));
  if (meta.has_expiry) p = EncodeVarint64(p, meta.expiry_seconds);
  staged.Advance(static_cast<size_t>(p - start));
  AppendValues(cells, &staged);
}

char* RowCodec::WriteColumnRow(const RowMetadata& meta, const ColumnCellSource* sources,
                               size_t count, size_t row, char* out,
                               const Slice& cell_exceptions) const {
  const bool with_cell_exceptions = !cell_exceptions.empty();
  CellExceptions parsed;
  if (with_cell_exceptions) {
    const auto live = [&](uint64_t i) {
      return sources[i].column != nullptr && !sources[i].column->IsNull(row);
    };
    if (!meta.has_write_time || (meta.has_expiry && meta.expiry_seconds == UINT64_MAX) ||
        !ParseCellExceptions(cell_exceptions, &parsed) ||
        !ValidCellExceptions(parsed.exceptions, count, meta.write_time_micros,
                             (parsed.flags & kFlagLocalDeletionTime) != 0, live)) {
      return nullptr;
    }
  }
  // The layout of AppendRow, written in place.
  char* p = out;
  *p++ = static_cast<char>(with_cell_exceptions ? kRowFormatWithCellMetadata : kRowFormatVersion);
  p = EncodeVarint64(p, meta.schema_version);
  *p++ = static_cast<char>((meta.has_write_time ? kFlagWriteTime : 0) |
                           (meta.has_expiry ? kFlagExpiry : 0) | parsed.flags);
  if (meta.has_write_time) p = EncodeVarint64(p, ZigZagEncode(meta.write_time_micros));
  if (meta.has_expiry) p = EncodeVarint64(p, meta.expiry_seconds);
  // (Only rows with cell exceptions have bytes here: the copies are skipped for the others, a
  // library call each.)
  if (with_cell_exceptions) {
    std::memcpy(p, parsed.local_deletion_time.data(), parsed.local_deletion_time.size());
    p += parsed.local_deletion_time.size();
  }
  // The presence bitmap, filled a byte at a time as the values follow it.
  char* const bitmap = p;
  p += (count + 7) / 8;
  uint8_t byte = 0;
  for (size_t i = 0; i < count; i++) {
    const ColumnCellSource& source = sources[i];
    const ColumnVector* column = source.column;
    if (column != nullptr && !column->IsNull(row)) {
      byte |= static_cast<uint8_t>(1 << (i % 8));
      const LogicalType type = source.type;
      if (!IsBytesType(type)) {
        // The column's physical width: 4 (int, date, float, boolean) or 8 bytes, little-endian.
        if (FixedWidth(column->type()) == 8) {
          std::memcpy(p, column->fixed_bytes() + row * 8, 8);
          p += 8;
        } else if (type != LogicalType::kBoolean) {
          std::memcpy(p, column->fixed_bytes() + row * 4, 4);
          p += 4;
        } else {
          uint32_t bits;
          std::memcpy(&bits, column->fixed_bytes() + row * 4, 4);
          if (source.check && bits > 1) return nullptr;
          *p++ = static_cast<char>(bits);
        }
      } else {
        const uint32_t* offsets = column->offsets();
        const uint32_t begin = offsets[row];
        const size_t length = offsets[row + 1] - begin;
        const char* bytes = column->bytes_data().data() + begin;
        if (type == LogicalType::kUuid) {
          if (length != 16) return nullptr;
        } else {
          if (source.check && !IsWellFormedBytes(type, Slice(bytes, length))) return nullptr;
          p = EncodeVarint64(p, length);
        }
        ByteStringCursor::CopyBytes(p, bytes, length);
        p += length;
      }
    }
    if (i % 8 == 7 || i + 1 == count) {
      bitmap[i / 8] = static_cast<char>(byte);
      byte = 0;
    }
  }
  if (!with_cell_exceptions) return p;
  std::memcpy(p, parsed.exceptions.data(), parsed.exceptions.size());
  return p + parsed.exceptions.size();
}

bool RowCodec::ColumnFitsType(const ColumnVector& column, LogicalType type) {
  switch (type) {
    case LogicalType::kBoolean: {
      // Null rows hold 0.
      const int32_t* values = column.data<int32_t>();
      uint32_t any = 0;
      for (size_t i = 0; i < column.size(); i++) any |= static_cast<uint32_t>(values[i]);
      return any <= 1;
    }
    case LogicalType::kAscii:
      // Every row's bytes at once (null rows hold none).
      return IsWellFormedConstrainedBytes(type, column.bytes_data());
    case LogicalType::kUuid:
      return false;
    default:
      // Text and blob take any bytes, the fixed-width types any bits of their physical width;
      // frozen types are checked value by value.
      return !IsFrozenType(type);
  }
}

bool RowCodec::CellExceptionsHaveWriteTimes(const Slice& cell_exceptions) {
  CellExceptions parsed;
  // Only "no cell" exceptions (the count bound is the list's own: any index is accepted).
  const auto no_cell = [](uint64_t, uint8_t what, int64_t) { return what == kExceptionNoCell; };
  return !ParseCellExceptions(cell_exceptions, &parsed) ||
         !WalkCellExceptions(parsed.exceptions, SIZE_MAX, no_cell);
}

Status RowCodec::DecodeMetadata(const Slice& value, RowMetadata* meta) const {
  Slice in = value;
  return DecodeHeader(&in, schema_.version(), meta);
}

Status RowCodec::DecodeCells(const Slice& value, RowMetadata* meta,
                             std::vector<RowCell>* cells) const {
  Slice in = value;
  Status s = DecodeHeader(&in, schema_.version(), meta);
  if (!s.ok()) return s;
  s = DecodeValues(&in, meta->schema_version, cells);
  if (!s.ok()) return s;
  if (!in.empty()) return RowCorruption(std::to_string(in.size()) + " bytes after the last value");
  return Status::OK();
}

Status RowCodec::DecodeIntoColumns(const Slice& value, RowMetadata* meta, ColumnVector* columns,
                                   std::string* cell_exceptions) const {
  Slice in = value;
  const bool with_cell_exceptions = cell_exceptions != nullptr && HasCellMetadata(value);
  if (cell_exceptions != nullptr) cell_exceptions->clear();
  uint8_t flags = 0;
  Slice local_deletion_time;
  Status s = with_cell_exceptions ? DecodeCellExceptionsHeader(&in, schema_.version(), meta, &flags,
                                                               &local_deletion_time)
                                  : DecodeHeader(&in, schema_.version(), meta);
  if (!s.ok()) return s;
  // DecodeValues' checks, in its order, with each cell appended as it is read.
  const std::vector<RowCell>& cells = absent_cells_by_version_[meta->schema_version - 1];
  const size_t count = cells.size();
  const size_t bitmap_bytes = (count + 7) / 8;
  if (in.size() < bitmap_bytes) return RowCorruption("truncated presence bitmap");
  const auto* bitmap = reinterpret_cast<const uint8_t*>(in.data());
  if (count % 8 != 0 && (bitmap[bitmap_bytes - 1] >> (count % 8)) != 0) {
    return RowCorruption("presence bitmap padding bits are set");
  }
  in.remove_prefix(bitmap_bytes);
  const CellPlan* plan = cell_plans_by_version_[meta->schema_version - 1].data();
  // The values are read through a pointer pair held in registers (a Slice whose address the
  // slow path took would be kept in memory, and reloaded for every cell).
  const char* at = in.data();
  const char* const end = at + in.size();
  size_t appended = 0;
  for (; appended < count; appended++) {
    const CellPlan cell_plan = plan[appended];
    ColumnVector* column = &columns[cell_plan.column_id];
    if (((bitmap[appended / 8] >> (appended % 8)) & 1) == 0) {
      column->AppendNull();
      continue;
    }
    // The common kinds straight from the bytes (a short length in one byte); whatever else,
    // or fails, goes through TryReadCellValue and, failing, ReadCellValue for the Status.
    const size_t left = static_cast<size_t>(end - at);
    const bool bytes_column = column->type() == PhysicalType::kBytes;
    switch (cell_plan.kind) {
      case kWideCell:
        if (!bytes_column && left >= 8) {
          column->AppendLowBytes(DecodeFixed64(at));
          at += 8;
          continue;
        }
        break;
      case kNarrowCell:
        if (!bytes_column && left >= 4) {
          column->AppendLowBytes(DecodeFixed32(at));
          at += 4;
          continue;
        }
        break;
      case kAnyBytesCell:
      case kAsciiCell:
        if (bytes_column && left > 0 && static_cast<uint8_t>(at[0]) < 0x80 &&
            static_cast<uint8_t>(at[0]) < left) {
          const Slice bytes(at + 1, static_cast<uint8_t>(at[0]));
          // A non-ascii byte in an ascii cell: the slow path below says so.
          if (cell_plan.kind == kAnyBytesCell || IsAsciiBytes(bytes)) {
            column->AppendBytes(bytes);
            at += 1 + bytes.size();
            continue;
          }
        }
        break;
      default:
        break;
    }
    s = AppendAnyCell(cells[appended], &at, end, column);
    if (!s.ok()) break;
  }
  in = Slice(at, static_cast<size_t>(end - at));
  if (s.ok() && with_cell_exceptions) {
    const auto live = [&](uint64_t i) {
      const ColumnVector& column = columns[cells[i].column_id];
      return !column.IsNull(column.size() - 1);
    };
    if (ValidCellExceptions(in, count, meta->write_time_micros,
                            (flags & kFlagLocalDeletionTime) != 0, live)) {
      cell_exceptions->push_back(
          static_cast<char>(flags & (kFlagLiveness | kFlagLocalDeletionTime)));
      cell_exceptions->append(local_deletion_time.data(), local_deletion_time.size());
      cell_exceptions->append(in.data(), in.size());
      in.remove_prefix(in.size());
    } else {
      s = NotOnlyCellExceptions();
    }
  }
  if (s.ok() && !in.empty()) {
    s = RowCorruption(std::to_string(in.size()) + " bytes after the last value");
  }
  if (!s.ok()) {
    for (size_t i = 0; i < appended; i++) columns[cells[i].column_id].PopBack();
  }
  return s;
}

Status RowCodec::DecodeValues(Slice* in, uint32_t version, std::vector<RowCell>* cells) const {
  const std::vector<RowCell>& absent = absent_cells_by_version_[version - 1];
  const size_t count = absent.size();
  const size_t bitmap_bytes = (count + 7) / 8;
  if (in->size() < bitmap_bytes) return RowCorruption("truncated presence bitmap");
  const auto* bitmap = reinterpret_cast<const uint8_t*>(in->data());
  if (count % 8 != 0 && (bitmap[bitmap_bytes - 1] >> (count % 8)) != 0) {
    return RowCorruption("presence bitmap padding bits are set");
  }
  in->remove_prefix(bitmap_bytes);
  // ids and types set, every cell absent: the present ones are filled in. Cell by cell rather
  // than `*cells = absent`, whose copy is an out-of-line memmove (most rows have few cells).
  cells->resize(count);
  RowCell* const out = cells->data();
  for (size_t i = 0; i < count; i++) out[i] = absent[i];
  for (size_t i = 0; i < count; i++) {
    if (((bitmap[i / 8] >> (i % 8)) & 1) == 0) continue;
    RowCell& cell = out[i];
    cell.present = true;
    Status s = ReadCellValue(in, &cell);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

Status RowCodec::CheckCells(uint32_t schema_version, const std::vector<RowCell>& cells,
                            const std::vector<uint32_t>* only) const {
  const std::vector<uint32_t>* ids = ColumnsAt(schema_version);
  if (ids == nullptr) {
    return Status::InvalidArgument("schema version " + std::to_string(schema_version) +
                                   " is not a version of " + schema_.QualifiedName());
  }
  if (cells.size() != ids->size()) {
    return Status::InvalidArgument("schema version " + std::to_string(schema_version) +
                                   " rows hold " + std::to_string(ids->size()) +
                                   " regular columns, got " + std::to_string(cells.size()));
  }
  const std::vector<ColumnDef>& columns = schema_.columns();
  if (only != nullptr) {
    for (uint32_t i : *only) {
      if (!CellIsValid(cells[i], columns[(*ids)[i]]))
        return CellError(cells[i], columns[(*ids)[i]]);
    }
    return Status::OK();
  }
  for (size_t i = 0; i < cells.size(); i++) {
    if (!CellIsValid(cells[i], columns[(*ids)[i]])) return CellError(cells[i], columns[(*ids)[i]]);
  }
  return Status::OK();
}

// ---- rows with per-cell metadata ----

namespace {

// The per-cell defaults of a format-2 row (see the layout in the header).
struct CellDefaults {
  bool has_write_time = false;
  int64_t write_time_micros = 0;
  bool has_expiry = false;
  uint64_t expiry_seconds = 0;
};

// A cell version with the fields that do not apply to its state cleared.
CellVersion Normalized(const CellVersion& version) {
  CellVersion out;
  out.state = version.state;
  if (version.state == CellState::kAbsent) return out;
  out.write_time_micros = version.write_time_micros;
  if (version.has_expiry) {
    out.has_expiry = true;
    out.expiry_seconds = version.expiry_seconds;
  }
  return out;
}

CellDefaults DefaultsOf(const RowVersions& row) {
  CellDefaults defaults;
  if (row.has_liveness) {
    defaults.has_write_time = true;
    defaults.write_time_micros = row.liveness.write_time_micros;
    defaults.has_expiry = row.liveness.has_expiry;
    defaults.expiry_seconds = row.liveness.has_expiry ? row.liveness.expiry_seconds : 0;
    return defaults;
  }
  for (const CellVersion& raw : row.versions) {
    const CellVersion version = Normalized(raw);
    if (version.state == CellState::kAbsent) continue;
    defaults.has_write_time = true;
    defaults.write_time_micros = version.write_time_micros;
    defaults.has_expiry = version.has_expiry;
    defaults.expiry_seconds = version.expiry_seconds;
    break;
  }
  return defaults;
}

// Whether `row` is a format-1 row: liveness, no deletion, every cell live or deleted at the
// liveness's time, live cells with its expiry.
bool FitsFormat1(const RowVersions& row) {
  if (!row.has_liveness || row.has_deletion) return false;
  const RowLiveness& live = row.liveness;
  for (const CellVersion& raw : row.versions) {
    const CellVersion version = Normalized(raw);
    if (version.state == CellState::kAbsent) return false;
    if (version.write_time_micros != live.write_time_micros) return false;
    if (version.has_expiry != live.has_expiry ||
        (live.has_expiry && version.expiry_seconds != live.expiry_seconds)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool HasDeletions(const RowVersions& row) {
  if (row.has_deletion) return true;
  for (const CellVersion& version : row.versions) {
    if (version.state == CellState::kDeleted) return true;
  }
  return false;
}

Status RowCodec::EncodeVersions(const RowVersions& row, std::string* out) const {
  Status s = CheckCells(row.schema_version, row.cells);
  if (!s.ok()) return s;
  if (row.versions.size() != row.cells.size()) {
    return Status::InvalidArgument("row has " + std::to_string(row.cells.size()) + " cells but " +
                                   std::to_string(row.versions.size()) + " cell versions");
  }
  for (size_t i = 0; i < row.cells.size(); i++) {
    const CellVersion& version = row.versions[i];
    if (row.cells[i].present != (version.state == CellState::kLive)) {
      return Status::InvalidArgument("cell " + std::to_string(i) +
                                     ": a value must be present exactly for a live cell");
    }
    if (row.has_deletion && version.state != CellState::kAbsent &&
        version.write_time_micros <= row.deletion_time_micros) {
      return Status::InvalidArgument("cell " + std::to_string(i) +
                                     " is written at or before the row's deletion time");
    }
    if (version.state != CellState::kAbsent && version.has_expiry &&
        version.expiry_seconds == UINT64_MAX) {
      return Status::InvalidArgument("cell expiry out of range");
    }
  }
  if (row.has_liveness && row.has_deletion &&
      row.liveness.write_time_micros <= row.deletion_time_micros) {
    return Status::InvalidArgument("row liveness is written at or before the row's deletion time");
  }

  if (FitsFormat1(row)) {
    RowMetadata meta;
    meta.schema_version = row.schema_version;
    // Format 1 without a write time decodes as INT64_MIN: keep such rows' bytes.
    meta.has_write_time = row.liveness.write_time_micros != INT64_MIN;
    meta.write_time_micros = meta.has_write_time ? row.liveness.write_time_micros : 0;
    meta.has_expiry = row.liveness.has_expiry;
    meta.expiry_seconds = row.liveness.has_expiry ? row.liveness.expiry_seconds : 0;
    return EncodeCells(meta, row.cells, out);
  }

  const CellDefaults defaults = DefaultsOf(row);
  const bool local_deletion_time = row.has_local_deletion_time && HasDeletions(row);
  out->push_back(static_cast<char>(kRowFormatWithCellMetadata));
  PutVarint32(out, row.schema_version);
  out->push_back(static_cast<char>(
      (defaults.has_write_time ? kFlagWriteTime : 0) | (defaults.has_expiry ? kFlagExpiry : 0) |
      (row.has_liveness ? kFlagLiveness : 0) | (row.has_deletion ? kFlagDeletion : 0) |
      (local_deletion_time ? kFlagLocalDeletionTime : 0)));
  if (defaults.has_write_time) PutVarint64(out, ZigZagEncode(defaults.write_time_micros));
  if (defaults.has_expiry) PutVarint64(out, defaults.expiry_seconds);
  if (row.has_deletion) PutVarint64(out, ZigZagEncode(row.deletion_time_micros));
  if (local_deletion_time) PutVarint64(out, ZigZagEncode(row.local_deletion_seconds));
  {
    StagedAppender staged(out);
    AppendValues(row.cells, &staged);
  }

  std::string exceptions;
  uint32_t count = 0;
  for (size_t i = 0; i < row.versions.size(); i++) {
    const CellVersion version = Normalized(row.versions[i]);
    uint8_t what = 0;
    if (version.state == CellState::kAbsent) {
      what = kExceptionNoCell;
    } else {
      if (version.write_time_micros != defaults.write_time_micros) what |= kExceptionWriteTime;
      if (version.has_expiry != defaults.has_expiry ||
          (version.has_expiry && version.expiry_seconds != defaults.expiry_seconds)) {
        what |= kExceptionExpiry;
      }
    }
    if (what == 0) continue;
    count++;
    PutVarint32(&exceptions, static_cast<uint32_t>(i));
    exceptions.push_back(static_cast<char>(what));
    if (what & kExceptionWriteTime)
      PutVarint64(&exceptions, ZigZagEncode(version.write_time_micros));
    if (what & kExceptionExpiry) {
      PutVarint64(&exceptions, version.has_expiry ? version.expiry_seconds + 1 : 0);
    }
  }
  PutVarint32(out, count);
  out->append(exceptions);
  return Status::OK();
}

Status RowCodec::DecodeVersions(const Slice& value, RowVersions* row) const {
  if (!HasCellMetadata(value)) {
    RowMetadata meta;
    Status s = DecodeCells(value, &meta, &row->cells);
    if (!s.ok()) return s;
    row->schema_version = meta.schema_version;
    row->has_liveness = true;
    row->liveness.write_time_micros = meta.has_write_time ? meta.write_time_micros : INT64_MIN;
    row->liveness.has_expiry = meta.has_expiry;
    row->liveness.expiry_seconds = meta.expiry_seconds;
    row->has_deletion = false;
    row->deletion_time_micros = 0;
    row->has_local_deletion_time = false;
    row->local_deletion_seconds = 0;
    row->versions.assign(row->cells.size(), CellVersion());
    for (size_t i = 0; i < row->cells.size(); i++) {
      CellVersion& version = row->versions[i];
      version.write_time_micros = row->liveness.write_time_micros;
      version.state = row->cells[i].present ? CellState::kLive : CellState::kDeleted;
      version.has_expiry = meta.has_expiry;
      version.expiry_seconds = meta.expiry_seconds;
    }
    return Status::OK();
  }

  Slice in = value;
  uint8_t format, flags;
  uint64_t version_number, field;
  GetFixed8(&in, &format);
  if (!GetCanonicalVarint64(&in, &version_number) || version_number == 0 ||
      version_number > schema_.version()) {
    return RowCorruption("schema version missing, non-canonical or unknown to this schema");
  }
  if (!GetFixed8(&in, &flags) || (flags & ~kKnownCellFlags) != 0) {
    return RowCorruption("missing or unknown flags");
  }
  CellDefaults defaults;
  defaults.has_write_time = (flags & kFlagWriteTime) != 0;
  defaults.has_expiry = (flags & kFlagExpiry) != 0;
  if (defaults.has_write_time) {
    if (!GetCanonicalVarint64(&in, &field)) return RowCorruption("bad write time");
    defaults.write_time_micros = ZigZagDecode(field);
  }
  if (defaults.has_expiry) {
    if (!GetCanonicalVarint64(&in, &field)) return RowCorruption("bad expiry");
    defaults.expiry_seconds = field;
  }
  row->schema_version = static_cast<uint32_t>(version_number);
  row->has_liveness = (flags & kFlagLiveness) != 0;
  row->liveness = RowLiveness();
  if (row->has_liveness) {
    if (!defaults.has_write_time) return RowCorruption("row liveness without a write time");
    row->liveness.write_time_micros = defaults.write_time_micros;
    row->liveness.has_expiry = defaults.has_expiry;
    row->liveness.expiry_seconds = defaults.expiry_seconds;
  }
  row->has_deletion = (flags & kFlagDeletion) != 0;
  row->deletion_time_micros = 0;
  if (row->has_deletion) {
    if (!GetCanonicalVarint64(&in, &field)) return RowCorruption("bad deletion time");
    row->deletion_time_micros = ZigZagDecode(field);
  }
  // Re-encoding below rejects the flag on a row without deletions (it is not canonical there).
  row->has_local_deletion_time = (flags & kFlagLocalDeletionTime) != 0;
  row->local_deletion_seconds = 0;
  if (row->has_local_deletion_time) {
    if (!GetCanonicalVarint64(&in, &field)) return RowCorruption("bad local deletion time");
    row->local_deletion_seconds = ZigZagDecode(field);
  }
  const std::vector<uint32_t>& ids = *ColumnsAt(row->schema_version);
  Status s = DecodeValues(&in, row->schema_version, &row->cells);
  if (!s.ok()) return s;
  row->versions.assign(ids.size(), CellVersion());
  for (size_t i = 0; i < ids.size(); i++) {
    CellVersion& version = row->versions[i];
    version.state = row->cells[i].present ? CellState::kLive : CellState::kDeleted;
    version.write_time_micros = defaults.write_time_micros;
    version.has_expiry = defaults.has_expiry;
    version.expiry_seconds = defaults.expiry_seconds;
  }
  uint64_t count;
  if (!GetCanonicalVarint64(&in, &count) || count > ids.size()) {
    return RowCorruption("bad exception count");
  }
  int64_t previous = -1;
  for (uint64_t e = 0; e < count; e++) {
    uint64_t index;
    uint8_t what;
    if (!GetCanonicalVarint64(&in, &index) || index >= ids.size() ||
        static_cast<int64_t>(index) <= previous) {
      return RowCorruption("exception column index missing, out of order or out of range");
    }
    previous = static_cast<int64_t>(index);
    if (!GetFixed8(&in, &what) || what == 0 || (what & ~kKnownExceptionBits) != 0) {
      return RowCorruption("missing or unknown exception bits");
    }
    CellVersion& version = row->versions[index];
    if (what & kExceptionNoCell) {
      if (what != kExceptionNoCell || version.state == CellState::kLive) {
        return RowCorruption("a no-cell exception on a live cell or with other bits");
      }
      version = CellVersion();
    }
    if (what & kExceptionWriteTime) {
      if (!GetCanonicalVarint64(&in, &field)) return RowCorruption("bad cell write time");
      version.write_time_micros = ZigZagDecode(field);
    }
    if (what & kExceptionExpiry) {
      if (!GetCanonicalVarint64(&in, &field)) return RowCorruption("bad cell expiry");
      version.has_expiry = field != 0;
      version.expiry_seconds = field == 0 ? 0 : field - 1;
    }
  }
  if (!in.empty()) return RowCorruption(std::to_string(in.size()) + " bytes after the exceptions");
  // Canonical by construction: the one encoding of what was parsed must be these bytes.
  std::string again;
  s = EncodeVersions(*row, &again);
  if (!s.ok() || Slice(again) != value) return RowCorruption("non-canonical per-cell metadata");
  return Status::OK();
}

Status RowCodec::EncodeRow(const RowMetadata& meta, const Row& row, std::string* out) const {
  static const Value kNullValue;
  const std::vector<uint32_t>* ids = ColumnsAt(meta.schema_version);
  if (ids == nullptr) return EncodeCells(meta, {}, out);  // reports the unknown version
  for (uint32_t id = 0; id < row.size() && id < schema_.next_column_id(); id++) {
    const ColumnDef& column = schema_.columns()[id];
    if (!row[id].is_null() && !column.is_key() && !column.LiveAt(meta.schema_version)) {
      return Status::InvalidArgument("column '" + column.name + "' (id " + std::to_string(id) +
                                     ") is not in schema version " +
                                     std::to_string(meta.schema_version));
    }
  }
  std::vector<RowCell> cells;
  cells.reserve(ids->size());
  for (uint32_t id : *ids) {
    const ColumnDef& column = schema_.columns()[id];
    const Value& value = id < row.size() ? row[id] : kNullValue;
    if (!value.is_null()) {
      Status s = CheckValueForColumn(value, column.type, column.name);
      if (!s.ok()) return s;
    }
    cells.push_back(CellFromValue(id, column.type, value));
  }
  return EncodeCells(meta, cells, out);
}

Status RowCodec::DecodeRow(const Slice& value, RowMetadata* meta, Row* row) const {
  std::vector<RowCell> cells;
  Status s = DecodeCells(value, meta, &cells);
  if (!s.ok()) return s;
  row->assign(schema_.next_column_id(), Value());
  for (const RowCell& cell : cells) {
    if (schema_.columns()[cell.column_id].is_live()) (*row)[cell.column_id] = ValueFromCell(cell);
  }
  return Status::OK();
}

Status EncodeRow(const TableSchema& schema, const RowMetadata& meta, const Row& row,
                 std::string* out) {
  return RowCodec(schema).EncodeRow(meta, row, out);
}

Status DecodeRow(const TableSchema& schema, const Slice& value, RowMetadata* meta, Row* row) {
  return RowCodec(schema).DecodeRow(value, meta, row);
}

RowCell CellFromValue(uint32_t column_id, LogicalType type, const Value& value) {
  RowCell cell;
  cell.column_id = column_id;
  cell.type = type;
  cell.present = !value.is_null();
  if (cell.present) {
    cell.fixed_bits = value.FixedBits();
    cell.bytes = Slice(value.bytes());
  }
  return cell;
}

void AssignFromCell(const RowCell& cell, Value* out) {
  if (!cell.present) {
    out->AssignNull();
  } else if (IsBytesType(cell.type)) {
    out->AssignBytes(cell.type, cell.bytes);
  } else {
    out->AssignFixedBits(cell.type, cell.fixed_bits);
  }
}

Value ValueFromCell(const RowCell& cell) {
  if (!cell.present) return Value();
  if (IsBytesType(cell.type)) return Value::FromBytes(cell.type, cell.bytes.ToString());
  return Value::FromFixedBits(cell.type, cell.fixed_bits);
}

}  // namespace columnar
