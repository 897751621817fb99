#include "table_format/key_codec.h"

#include <cstring>

#include "table_format/frozen_type.h"

namespace columnar {
namespace {

constexpr uint8_t kEscape = 0x00;
constexpr uint8_t kEscapedZero = 0xFF;
constexpr uint8_t kTerminator = 0x01;
constexpr uint32_t kSign32 = 0x80000000u;
constexpr uint64_t kSign64 = uint64_t{1} << 63;

uint8_t MaskOf(ClusteringOrder order) { return order == ClusteringOrder::kDesc ? 0xFF : 0x00; }

// The low `width` bytes of v, most significant first, each xor `mask`, at dst. Widths 8 and 4
// (every fixed-width component but boolean): a byte swap and one store, as ReadBigEndian reads.
void WriteBigEndian(uint64_t v, size_t width, uint8_t mask, char* dst) {
  if (width == 8) {
    const uint64_t swapped = __builtin_bswap64(v) ^ (mask != 0 ? ~uint64_t{0} : 0);
    std::memcpy(dst, &swapped, 8);
    return;
  }
  if (width == 4) {
    const uint32_t swapped =
        __builtin_bswap32(static_cast<uint32_t>(v)) ^ (mask != 0 ? 0xFFFFFFFFu : 0u);
    std::memcpy(dst, &swapped, 4);
    return;
  }
  for (size_t i = 0; i < width; i++) {
    dst[i] = static_cast<char>((v >> (8 * (width - 1 - i))) ^ mask);
  }
}

// A 4- or 8-byte big-endian integer (every fixed-width component but boolean and uuid): one
// load and a byte swap.
bool ReadBigEndian(Slice* in, size_t width, uint8_t mask, uint64_t* v) {
  if (in->size() < width) return false;
  uint64_t result;
  if (width == 8) {
    std::memcpy(&result, in->data(), 8);
    result = __builtin_bswap64(result) ^ (mask != 0 ? ~uint64_t{0} : 0);
  } else if (width == 4) {
    uint32_t narrow;
    std::memcpy(&narrow, in->data(), 4);
    result = __builtin_bswap32(narrow) ^ (mask != 0 ? 0xFFFFFFFFu : 0u);
  } else {
    result = 0;
    for (size_t i = 0; i < width; i++) {
      result = result << 8 | (static_cast<uint8_t>((*in)[i]) ^ mask);
    }
  }
  in->remove_prefix(width);
  *v = result;
  return true;
}

void AppendEscapedBytes(const std::string& bytes, uint8_t mask, std::string* out) {
  for (char c : bytes) {
    out->push_back(static_cast<char>(c ^ mask));
    if (static_cast<uint8_t>(c) == kEscape) out->push_back(static_cast<char>(kEscapedZero ^ mask));
  }
  out->push_back(static_cast<char>(kEscape ^ mask));
  out->push_back(static_cast<char>(kTerminator ^ mask));
}

// Reads escaped bytes up to and including the terminator; `bytes` may be null (skip). Runs
// of plain bytes are found with memchr (the escape byte is rare: only a 0x00 in the value).
bool ReadEscapedBytes(Slice* in, uint8_t mask, std::string* bytes) {
  const char* p = in->data();
  const char* const end = p + in->size();
  const char escape = static_cast<char>(kEscape ^ mask);
  while (true) {
    const auto* hit =
        static_cast<const char*>(std::memchr(p, escape, static_cast<size_t>(end - p)));
    if (hit == nullptr || hit + 1 >= end) return false;
    if (bytes != nullptr) {
      if (mask == 0) {
        bytes->append(p, static_cast<size_t>(hit - p));
      } else {
        for (const char* c = p; c < hit; c++) bytes->push_back(static_cast<char>(*c ^ mask));
      }
    }
    const uint8_t next = static_cast<uint8_t>(hit[1]) ^ mask;
    if (next == kTerminator) {
      in->remove_prefix(static_cast<size_t>(hit + 2 - in->data()));
      return true;
    }
    if (next != kEscapedZero) return false;
    if (bytes != nullptr) bytes->push_back(static_cast<char>(kEscape));
    p = hit + 2;
  }
}

// The big-endian integer whose unsigned order is the typed order of a fixed-width value.
uint64_t OrderedBits(LogicalType type, uint64_t bits) {
  switch (type) {
    case LogicalType::kInt:
    case LogicalType::kDate:
      return static_cast<uint32_t>(bits) ^ kSign32;
    case LogicalType::kBigInt:
    case LogicalType::kTimestamp:
      return bits ^ kSign64;
    case LogicalType::kFloat:
      return FloatOrderKey(static_cast<uint32_t>(bits));
    case LogicalType::kDouble:
      return DoubleOrderKey(bits);
    default:  // boolean
      return bits;
  }
}

uint64_t BitsFromOrdered(LogicalType type, uint64_t ordered) {
  switch (type) {
    case LogicalType::kInt:
    case LogicalType::kDate:
      return static_cast<uint32_t>(ordered) ^ kSign32;
    case LogicalType::kBigInt:
    case LogicalType::kTimestamp:
      return ordered ^ kSign64;
    case LogicalType::kFloat: {
      const auto key = static_cast<uint32_t>(ordered);
      return (key & kSign32) ? key ^ kSign32 : static_cast<uint32_t>(~key);
    }
    case LogicalType::kDouble:
      return (ordered & kSign64) ? ordered ^ kSign64 : ~ordered;
    default:  // boolean
      return ordered;
  }
}

Status ComponentCorruption(LogicalType type, const char* problem) {
  return Status::Corruption(std::string("key component of type ") + LogicalTypeName(type) + ": " +
                            problem);
}

Status CheckCount(const char* what, size_t expected, size_t got) {
  if (expected == got) return Status::OK();
  return Status::InvalidArgument(std::string(what) + " needs " + std::to_string(expected) +
                                 " values, got " + std::to_string(got));
}

Status AppendPartition(const TableSchema& schema, const std::vector<Value>& partition,
                       std::string* out) {
  Status s = CheckCount("partition key", schema.partition_key().size(), partition.size());
  for (size_t i = 0; s.ok() && i < partition.size(); i++) {
    const ColumnDef& column = schema.partition_column(i);
    s = EncodeKeyComponent(partition[i], column.type, ClusteringOrder::kAsc, column.name, out);
  }
  return s;
}

Status AppendClustering(const TableSchema& schema, const std::vector<Value>& clustering,
                        std::string* out) {
  if (clustering.size() > schema.clustering_key().size()) {
    return Status::InvalidArgument("table " + schema.QualifiedName() + " has " +
                                   std::to_string(schema.clustering_key().size()) +
                                   " clustering columns, got " + std::to_string(clustering.size()) +
                                   " values");
  }
  for (size_t i = 0; i < clustering.size(); i++) {
    const ColumnDef& column = schema.clustering_column(i);
    Status s = EncodeKeyComponent(clustering[i], column.type, column.order, column.name, out);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// Either the prefix's successor, or an unbounded limit.
void SetLimitAfter(const std::string& prefix, KeyRange* range) {
  range->limit_unbounded = !PrefixSuccessor(prefix, &range->limit);
  if (range->limit_unbounded) range->limit.clear();
}

}  // namespace

Status EncodeKeyComponent(const Value& value, LogicalType type, ClusteringOrder order,
                          const std::string& column, std::string* out) {
  Status s = CheckValueForColumn(value, type, column);
  if (!s.ok()) return s;
  const uint8_t mask = MaskOf(order);
  if (type == LogicalType::kUuid) {
    for (char c : value.bytes()) out->push_back(static_cast<char>(c ^ mask));
  } else if (IsBytesType(type)) {
    AppendEscapedBytes(value.bytes(), mask, out);
  } else {
    AppendFixedKeyComponent(value.FixedBits(), type, order, out);
  }
  return Status::OK();
}

void AppendFixedKeyComponent(uint64_t bits, LogicalType type, ClusteringOrder order,
                             std::string* out) {
  char buf[kMaxFixedKeyComponentBytes];
  out->append(buf, WriteFixedKeyComponent(bits, type, order, buf));
}

size_t WriteFixedKeyComponent(uint64_t bits, LogicalType type, ClusteringOrder order, char* dst) {
  const size_t width = EncodedFixedWidth(type);
  WriteBigEndian(OrderedBits(type, bits), width, MaskOf(order), dst);
  return width;
}

Status DecodeKeyComponent(Slice* in, LogicalType type, ClusteringOrder order, Value* value) {
  const uint8_t mask = MaskOf(order);
  if (IsBytesType(type)) {
    std::string bytes;
    // ascii and frozen values are checked even when only skipped.
    const bool checked = type == LogicalType::kAscii || IsFrozenType(type);
    std::string* sink = value != nullptr || checked ? &bytes : nullptr;
    if (type == LogicalType::kUuid) {
      if (in->size() < 16) return ComponentCorruption(type, "truncated");
      for (size_t i = 0; i < 16; i++) bytes.push_back(static_cast<char>((*in)[i] ^ mask));
      in->remove_prefix(16);
    } else if (!ReadEscapedBytes(in, mask, sink)) {
      return ComponentCorruption(type, "truncated or bad escape");
    }
    // (text, blob and 16 read bytes of a uuid are always well formed)
    if (checked && !IsWellFormedBytes(type, bytes)) {
      return ComponentCorruption(type,
                                 IsFrozenType(type) ? "not a canonical value" : "non-ASCII byte");
    }
    if (value != nullptr) *value = Value::FromBytes(type, std::move(bytes));
    return Status::OK();
  }
  uint64_t bits;
  Status s = DecodeFixedKeyComponent(in, type, order, &bits);
  if (s.ok() && value != nullptr) *value = Value::FromFixedBits(type, bits);
  return s;
}

Status DecodeFixedKeyComponent(Slice* in, LogicalType type, ClusteringOrder order, uint64_t* bits) {
  if (IsBytesType(type)) return Status::InvalidArgument("not a fixed-width key component");
  uint64_t ordered;
  if (!ReadBigEndian(in, EncodedFixedWidth(type), MaskOf(order), &ordered)) {
    return ComponentCorruption(type, "truncated");
  }
  if (type == LogicalType::kBoolean && ordered > 1) {
    return ComponentCorruption(type, "boolean byte is not 0 or 1");
  }
  *bits = BitsFromOrdered(type, ordered);
  return Status::OK();
}

Status EncodePartitionKey(const TableSchema& schema, const std::vector<Value>& partition,
                          std::string* out) {
  return AppendPartition(schema, partition, out);
}

Status EncodeKey(const TableSchema& schema, const std::vector<Value>& partition,
                 const std::vector<Value>& clustering, std::string* out) {
  Status s = CheckCount("clustering key", schema.clustering_key().size(), clustering.size());
  if (s.ok()) s = AppendPartition(schema, partition, out);
  return s.ok() ? AppendClustering(schema, clustering, out) : s;
}

Status EncodeClusteringPrefix(const TableSchema& schema, const std::vector<Value>& partition,
                              const std::vector<Value>& clustering_prefix, std::string* out) {
  Status s = AppendPartition(schema, partition, out);
  return s.ok() ? AppendClustering(schema, clustering_prefix, out) : s;
}

Status DecodeKey(const TableSchema& schema, const Slice& key, std::vector<Value>* partition,
                 std::vector<Value>* clustering) {
  Slice in = key;
  partition->assign(schema.partition_key().size(), Value());
  clustering->assign(schema.clustering_key().size(), Value());
  for (size_t i = 0; i < partition->size(); i++) {
    Status s = DecodeKeyComponent(&in, schema.partition_column(i).type, ClusteringOrder::kAsc,
                                  &(*partition)[i]);
    if (!s.ok()) return s;
  }
  for (size_t i = 0; i < clustering->size(); i++) {
    const ColumnDef& column = schema.clustering_column(i);
    Status s = DecodeKeyComponent(&in, column.type, column.order, &(*clustering)[i]);
    if (!s.ok()) return s;
  }
  if (!in.empty()) {
    return Status::Corruption("key has " + std::to_string(in.size()) +
                              " bytes after its last component");
  }
  return Status::OK();
}

Status DecodePartitionKey(const TableSchema& schema, const Slice& partition_key,
                          std::vector<Value>* partition) {
  Slice in = partition_key;
  partition->resize(schema.partition_key().size());
  for (size_t i = 0; i < partition->size(); i++) {
    Status s = DecodeKeyComponent(&in, schema.partition_column(i).type, ClusteringOrder::kAsc,
                                  &(*partition)[i]);
    if (!s.ok()) return s;
  }
  if (!in.empty()) return Status::Corruption("partition key has bytes after its last component");
  return Status::OK();
}

Status PartitionKeyLength(const TableSchema& schema, const Slice& key, size_t* length) {
  Slice in = key;
  for (size_t i = 0; i < schema.partition_key().size(); i++) {
    Status s =
        DecodeKeyComponent(&in, schema.partition_column(i).type, ClusteringOrder::kAsc, nullptr);
    if (!s.ok()) return s;
  }
  *length = key.size() - in.size();
  return Status::OK();
}

Status PartitionKeyLengthAfter(const TableSchema& schema, const Slice& key, const Slice* previous,
                               size_t* length) {
  if (previous != nullptr && key.starts_with(*previous)) {
    *length = previous->size();
    return Status::OK();
  }
  return PartitionKeyLength(schema, key, length);
}

bool PrefixSuccessor(const Slice& prefix, std::string* successor) {
  successor->assign(prefix.data(), prefix.size());
  while (!successor->empty() && static_cast<uint8_t>(successor->back()) == 0xFF) {
    successor->pop_back();
  }
  if (successor->empty()) return false;
  successor->back() = static_cast<char>(static_cast<uint8_t>(successor->back()) + 1);
  return true;
}

Status EncodeClusteringRange(const TableSchema& schema, const std::vector<Value>& partition,
                             const std::vector<Value>& clustering_prefix,
                             const ClusteringBound* lower, const ClusteringBound* upper,
                             KeyRange* range) {
  std::string base;
  Status s = EncodeClusteringPrefix(schema, partition, clustering_prefix, &base);
  if (!s.ok()) return s;
  const size_t bounded = clustering_prefix.size();
  if ((lower != nullptr || upper != nullptr) && bounded >= schema.clustering_key().size()) {
    return Status::InvalidArgument("a range bound needs a clustering column after the " +
                                   std::to_string(bounded) + " fixed ones");
  }
  // In key order, the typed lower bound comes first for ASC and last for DESC.
  const bool descending = bounded < schema.clustering_key().size() &&
                          schema.clustering_column(bounded).order == ClusteringOrder::kDesc;
  const ClusteringBound* first = descending ? upper : lower;
  const ClusteringBound* last = descending ? lower : upper;
  auto bound_prefix = [&](const ClusteringBound& bound, std::string* out) {
    const ColumnDef& column = schema.clustering_column(bounded);
    *out = base;
    return EncodeKeyComponent(bound.value, column.type, column.order, column.name, out);
  };
  std::string first_prefix, last_prefix;
  if (first != nullptr) s = bound_prefix(*first, &first_prefix);
  if (s.ok() && last != nullptr) s = bound_prefix(*last, &last_prefix);
  if (!s.ok()) return s;

  range->start = base;
  if (first != nullptr) {
    // Inclusive: from the bound's own keys; exclusive: after all of them.
    range->start = first_prefix;
    if (!first->inclusive && !PrefixSuccessor(first_prefix, &range->start)) {
      range->start = range->limit = first_prefix;  // nothing sorts after it: empty range
      range->limit_unbounded = false;
      return Status::OK();
    }
  }
  if (last == nullptr) {
    SetLimitAfter(base, range);
  } else if (last->inclusive) {
    SetLimitAfter(last_prefix, range);
  } else {
    range->limit = last_prefix;
    range->limit_unbounded = false;
  }
  return Status::OK();
}

}  // namespace columnar
