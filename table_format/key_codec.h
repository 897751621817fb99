// Key codec: the RocksDB key of a row, order-preserving and self-delimiting.
//
// Byte layout:
//
//   key := partition component* clustering component*   (in key-column order)
//
// Component encodings (ASC; memcmp order of the bytes == typed order, value.h's rule):
//
//   boolean            1 byte: 0x00 false, 0x01 true
//   int, date          4 bytes big-endian of (uint32)v ^ 0x80000000   (sign bit flipped)
//   bigint, timestamp  8 bytes big-endian of (uint64)v ^ 2^63
//   float              4 bytes big-endian of FloatOrderKey(bits):  negative -> every bit
//   double             8 bytes big-endian of DoubleOrderKey(bits)  flipped; positive -> sign
//                      bit flipped. Bijective: every NaN payload, -0.0 and subnormal
//                      round-trips; order -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN
//   text, ascii, blob  the bytes with 0x00 written as 0x00 0xFF, then the terminator 0x00 0x01
//   uuid               its 16 bytes
//   frozen<...>, tuple its canonical bytes (frozen_value.h, memcmp-ordered as Cassandra orders
//                      the values), escaped and terminated like blob
//
// Every encoding is prefix-free, so a tuple's encoding sorts like the tuple and a reader can
// walk the components without knowing the values. A DESC clustering column's component has
// every byte complemented, which reverses its order (prefix-free codes stay prefix-free).
// Partition key components are always ASC.
//
// Range bounds: every key whose clustering values start with (c1..ck) starts with
// EncodeClusteringPrefix(partition, c1..ck) and nothing else does, so [prefix,
// PrefixSuccessor(prefix)) is exactly those keys. EncodeClusteringRange builds the bounds of
// `c(k+1) > x`, `<= y` etc. from that, flipping for DESC columns.
#pragma once

#include <string>
#include <vector>

#include "table_format/schema.h"
#include "table_format/types.h"
#include "table_format/value.h"

namespace columnar {

// Appends one component. InvalidArgument naming `column` when the value is null, of the wrong
// type or malformed.
Status EncodeKeyComponent(const Value& value, LogicalType type, ClusteringOrder order,
                          const std::string& column, std::string* out);
// What EncodeKeyComponent writes for a value of fixed-width type `type` (not IsBytesType) with
// Value::FixedBits() `bits`, without building a Value.
void AppendFixedKeyComponent(uint64_t bits, LogicalType type, ClusteringOrder order,
                             std::string* out);
// The same bytes written at dst, which has room for kMaxFixedKeyComponentBytes; returns how
// many were written (for callers that stage a key's parts and append them at once).
constexpr size_t kMaxFixedKeyComponentBytes = 8;
size_t WriteFixedKeyComponent(uint64_t bits, LogicalType type, ClusteringOrder order, char* dst);
// Reads one component from the front of *in and advances it. With value == nullptr it only
// checks and skips. Corruption when truncated or not a canonical encoding.
Status DecodeKeyComponent(Slice* in, LogicalType type, ClusteringOrder order, Value* value);
// DecodeKeyComponent of a fixed-width type (not IsBytesType) without building a Value: *bits
// gets what Value::FixedBits() would hold. InvalidArgument for a byte-string type.
Status DecodeFixedKeyComponent(Slice* in, LogicalType type, ClusteringOrder order, uint64_t* bits);

// Append the encoded key or its parts to *out. Each needs one value per partition key column;
// EncodeKey needs one per clustering column, EncodeClusteringPrefix any leading subset.
Status EncodePartitionKey(const TableSchema& schema, const std::vector<Value>& partition,
                          std::string* out);
Status EncodeKey(const TableSchema& schema, const std::vector<Value>& partition,
                 const std::vector<Value>& clustering, std::string* out);
Status EncodeClusteringPrefix(const TableSchema& schema, const std::vector<Value>& partition,
                              const std::vector<Value>& clustering_prefix, std::string* out);

// Splits a full key into its typed values. Corruption when the key is truncated, has
// trailing bytes, or holds a non-canonical component.
Status DecodeKey(const TableSchema& schema, const Slice& key, std::vector<Value>* partition,
                 std::vector<Value>* clustering);

// The partition key values of an encoded partition key (exactly its components, as
// PartitionKeyLength delimits them). Corruption on trailing bytes or bad components.
Status DecodePartitionKey(const TableSchema& schema, const Slice& partition_key,
                          std::vector<Value>* partition);

// Bytes taken by the partition key components at the start of `key` (found by walking them).
Status PartitionKeyLength(const TableSchema& schema, const Slice& key, size_t* length);
// PartitionKeyLength for a key that may share the partition of an earlier one: `previous`
// (may be null) must be a whole partition key PartitionKeyLength accepted. A key that starts
// with it has exactly that partition, since every component is prefix-free: walking the key
// reads the same components, with the same checks. The usual case (rows of one partition in a
// row) costs a comparison instead of a walk.
Status PartitionKeyLengthAfter(const TableSchema& schema, const Slice& key, const Slice* previous,
                               size_t* length);

// The smallest byte string greater than every string that starts with `prefix`: drop
// trailing 0xFF bytes and increment the last byte. False when there is none (empty or all
// 0xFF): every string starting with `prefix` sorts last.
bool PrefixSuccessor(const Slice& prefix, std::string* successor);

// A typed bound on one clustering column.
struct ClusteringBound {
  Value value;
  bool inclusive = true;
};

// Keys [start, limit) of one partition; no limit when limit_unbounded (end of the key space).
struct KeyRange {
  std::string start;
  std::string limit;
  bool limit_unbounded = false;
};

// The keys of partition `partition` whose first clustering values equal `clustering_prefix`
// and whose next clustering column lies between `lower` and `upper` (each optional, typed
// order, so `time > x AND time <= y` is lower {x, false}, upper {y, true} whether the column
// is ASC or DESC). With no bounds: the whole prefix (or partition, with an empty prefix).
Status EncodeClusteringRange(const TableSchema& schema, const std::vector<Value>& partition,
                             const std::vector<Value>& clustering_prefix,
                             const ClusteringBound* lower, const ClusteringBound* upper,
                             KeyRange* range);

}  // namespace columnar
