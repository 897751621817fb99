// Typed values of the table layer: the CQL logical types, one typed value (or null), and rows.
//
// Ordering rule (shared by CompareValues and the key codec, so memcmp order of encoded keys
// equals typed order):
//   - null sorts before every non-null value (keys never hold nulls; rows may);
//   - boolean: false < true; int, date, bigint, timestamp: signed integer order;
//   - float, double: IEEE-754 total order on the bit pattern:
//       -NaN (larger payloads first) < -inf < negative numbers < -0.0 < +0.0
//       < positive numbers < +inf < +NaN (smaller payloads first),
//     so -0.0 and +0.0 differ, and NaNs are ordered by sign and payload. Cassandra's order
//     (Float.compare) agrees on every non-NaN value;
//   - text, ascii, blob: unsigned bytewise (shorter prefix first); uuid: unsigned bytewise
//     over its 16 bytes.
//
// Values of different logical types are compared by type first (deterministic, not CQL).
// Floats are held as raw bits: NaN payloads, -0.0 and subnormals survive every copy.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "table_format/types.h"

namespace columnar {

// CQL column types. The numbering is internal (schemas are serialized with the CQL names).
// Values from kFirstFrozenType up are handles of frozen collection and tuple types
// (frozen_type.h); every function below accepts them (they are byte-string types).
enum class LogicalType : uint16_t {
  kBoolean,
  kInt,        // int32
  kBigInt,     // int64
  kFloat,      // IEEE binary32
  kDouble,     // IEEE binary64
  kTimestamp,  // int64 milliseconds since the Unix epoch (UTC)
  kDate,       // int32 days since the Unix epoch (1970-01-01 = 0)
  kText,       // UTF-8 (not validated: bytes are kept as given)
  kAscii,      // bytes 0x00..0x7F only
  kBlob,
  kUuid,  // exactly 16 bytes
};

inline constexpr int kNumLogicalTypes = 11;

// The CQL name ("bigint", "timestamp", "frozen<list<int>>", ...).
const char* LogicalTypeName(LogicalType type);
// Accepts the scalar CQL names, case-insensitively, and "varchar" as text (frozen types:
// ParseCqlTypeName in cql_parser.h).
bool ParseLogicalTypeName(const std::string& name, LogicalType* type);
// In-memory / column-chunk representation: boolean -> int32 (0 or 1), date -> int32,
// timestamp -> int64, uuid -> 16-byte string, text/ascii/blob -> byte string.
PhysicalType PhysicalTypeOfLogical(LogicalType type);
// Bytes of a fixed-width value in the row codec and key codec (boolean 1, uuid 16), or 0
// for length-prefixed byte strings (text, ascii, blob, frozen types). Inline: the row and key
// codecs ask once per cell.
constexpr size_t EncodedFixedWidth(LogicalType type) {
  constexpr uint8_t kWidths[kNumLogicalTypes] = {1, 4, 8, 4, 8, 8, 4, 0, 0, 0, 16};
  const auto index = static_cast<uint16_t>(type);
  return index < kNumLogicalTypes ? kWidths[index] : 0;
}
// True for types held as a byte string (text, ascii, blob, uuid, frozen types: every type
// from text on).
constexpr bool IsBytesType(LogicalType type) {
  return static_cast<uint16_t>(type) >= static_cast<uint16_t>(LogicalType::kText);
}

class Value {
 public:
  Value() = default;  // null

  static Value Boolean(bool v);
  static Value Int(int32_t v);
  static Value BigInt(int64_t v);
  static Value Float(float v);
  static Value Double(double v);
  static Value Timestamp(int64_t millis_since_epoch);
  static Value Date(int32_t days_since_epoch);
  static Value Text(std::string v);
  static Value Ascii(std::string v);
  static Value Blob(std::string v);
  static Value Uuid(std::string sixteen_bytes);
  // A fixed-width (non byte-string) value from its bit pattern as FixedBits() returns it.
  static Value FromFixedBits(LogicalType type, uint64_t bits);
  // A value of any byte-string type.
  static Value FromBytes(LogicalType type, std::string bytes);

  // In-place forms of FromFixedBits / FromBytes and of the null value; a byte string reuses
  // this value's buffer (result rows refilled query after query allocate nothing).
  void AssignFixedBits(LogicalType type, uint64_t bits);
  void AssignBytes(LogicalType type, const Slice& bytes);
  void AssignNull();

  bool is_null() const { return null_; }
  // Meaningless for null values.
  LogicalType type() const { return type_; }

  bool bool_value() const { return bits_ != 0; }
  int32_t int32_value() const { return static_cast<int32_t>(static_cast<uint32_t>(bits_)); }
  int64_t int64_value() const { return static_cast<int64_t>(bits_); }
  float float_value() const;
  double double_value() const;
  const std::string& bytes() const { return bytes_; }
  // Bit pattern of a fixed-width value, zero-extended: boolean 0/1, int32/date and float as
  // their 32 bits, int64/timestamp and double as their 64 bits.
  uint64_t FixedBits() const { return bits_; }

  // The value as a CQL literal: null, true, 42, 1.5, NaN, -Infinity, 'it''s', 0xcafe,
  // 123e4567-e89b-12d3-a456-426614174000, '2024-05-01T12:00:00.000Z' (timestamps with a
  // year in 1..9999; others as integer milliseconds), '2024-05-01' (dates likewise).
  // FromCqlLiteral parses it back to an equal value, except NaN payloads (printed as NaN).
  std::string ToCqlLiteral() const;

  // Parses a CQL literal (as written in a statement) as a value of `type`. `null` gives the
  // null value for every type. Timestamps accept integer milliseconds or a quoted
  // 'yyyy-mm-dd[(T| )hh:mm[:ss[.fff]]][Z|(+|-)hh[:]mm]' (UTC unless an offset is given);
  // dates accept integer days since the epoch or a quoted 'yyyy-mm-dd'.
  static Status FromCqlLiteral(LogicalType type, const Slice& literal, Value* out);

 private:
  Value(LogicalType type, uint64_t bits) : null_(false), type_(type), bits_(bits) {}
  Value(LogicalType type, std::string bytes)
      : null_(false), type_(type), bytes_(std::move(bytes)) {}

  bool null_ = true;
  LogicalType type_ = LogicalType::kBoolean;
  uint64_t bits_ = 0;
  std::string bytes_;
};

// IEEE total-order transform: maps a float's bits to an unsigned integer whose order is the
// ordering rule above (negative: every bit flipped; positive: sign bit flipped). Bijective.
inline uint32_t FloatOrderKey(uint32_t bits) {
  return (bits & 0x80000000u) ? ~bits : bits ^ 0x80000000u;
}
inline uint64_t DoubleOrderKey(uint64_t bits) {
  return (bits >> 63) ? ~bits : bits ^ (uint64_t{1} << 63);
}

// Three-way comparison under the ordering rule above: <0, 0, >0.
int CompareValues(const Value& a, const Value& b);
// Same nullness, type and bits (floats compare by bit pattern: NaN == NaN, -0.0 != +0.0).
bool operator==(const Value& a, const Value& b);
inline bool operator!=(const Value& a, const Value& b) { return !(a == b); }

// OK when `value` is non-null, of logical type `type` and well formed (ascii bytes < 0x80,
// uuid 16 bytes); otherwise InvalidArgument naming `column`.
Status CheckValueForColumn(const Value& value, LogicalType type, const std::string& column);
// True when `bytes` is a well-formed value of byte-string type `type`. Text and blob take any
// bytes: answered inline, as the row codec asks for every text value of every row.
bool IsWellFormedConstrainedBytes(LogicalType type, const Slice& bytes);
// True when no byte has its high bit set (an ascii value), eight bytes at a time: the row codec
// checks every ascii value of every row a table file takes in.
inline bool IsAsciiBytes(const Slice& bytes) {
  const char* p = bytes.data();
  const size_t n = bytes.size();
  uint64_t high = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t word;
    std::memcpy(&word, p + i, 8);
    high |= word;
  }
  for (; i < n; i++) high |= static_cast<unsigned char>(p[i]);
  return (high & 0x8080808080808080ull) == 0;
}
inline bool IsWellFormedBytes(LogicalType type, const Slice& bytes) {
  return type == LogicalType::kText || type == LogicalType::kBlob ||
         IsWellFormedConstrainedBytes(type, bytes);
}

// Values of one row. The row codec indexes it by column id (see row_codec.h); the key codec
// takes key components in key order.
using Row = std::vector<Value>;

}  // namespace columnar
