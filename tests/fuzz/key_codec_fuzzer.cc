// The key codec (table_format/key_codec.h) on arbitrary keys of the fuzz schema (text, date,
// DESC bigint and uuid components). The encoding is canonical and order-preserving: a key
// that decodes must re-encode to the same bytes, its partition must be where
// PartitionKeyLength says, and single components of every type and order decode canonically.
//
// Input: [selector u8] key bytes. selector % (kNumLogicalTypes * 2) picks the type and order
// of the single-component check.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "table_format/key_codec.h"
#include "tests/fuzz/fuzz_schema.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace columnar;
  if (size < 1) return 0;
  const TableSchema& schema = fuzz::FuzzSchema();
  const uint8_t selector = data[0];
  const Slice key(reinterpret_cast<const char*>(data) + 1, size - 1);

  std::vector<Value> partition;
  std::vector<Value> clustering;
  size_t partition_length = 0;
  const bool partition_ok = PartitionKeyLength(schema, key, &partition_length).ok();
  if (DecodeKey(schema, key, &partition, &clustering).ok()) {
    FUZZ_CHECK(partition_ok);
    FUZZ_CHECK(partition.size() == schema.partition_key().size());
    FUZZ_CHECK(clustering.size() == schema.clustering_key().size());
    std::string encoded;
    FUZZ_CHECK(EncodeKey(schema, partition, clustering, &encoded).ok());
    FUZZ_CHECK(Slice(encoded) == key);
    std::string partition_key;
    FUZZ_CHECK(EncodePartitionKey(schema, partition, &partition_key).ok());
    FUZZ_CHECK(partition_key.size() == partition_length);
    FUZZ_CHECK(key.starts_with(partition_key));
    // Every clustering prefix bounds a range that holds the key.
    for (size_t k = 0; k < clustering.size(); k++) {
      const std::vector<Value> prefix(clustering.begin(), clustering.begin() + k);
      KeyRange range;
      FUZZ_CHECK(EncodeClusteringRange(schema, partition, prefix, nullptr, nullptr, &range).ok());
      FUZZ_CHECK(Slice(range.start).compare(key) <= 0);
      FUZZ_CHECK(range.limit_unbounded || key.compare(Slice(range.limit)) < 0);
    }
  }

  const auto type = static_cast<LogicalType>(selector % kNumLogicalTypes);
  const auto order =
      (selector / kNumLogicalTypes) % 2 ? ClusteringOrder::kDesc : ClusteringOrder::kAsc;
  Slice in = key;
  Value value;
  if (DecodeKeyComponent(&in, type, order, &value).ok()) {
    FUZZ_CHECK(value.type() == type);
    std::string encoded;
    FUZZ_CHECK(EncodeKeyComponent(value, type, order, "c", &encoded).ok());
    FUZZ_CHECK(Slice(encoded) == Slice(key.data(), key.size() - in.size()));
    Slice skip = key;
    FUZZ_CHECK(DecodeKeyComponent(&skip, type, order, nullptr).ok());
    FUZZ_CHECK(skip.size() == in.size());
  }

  std::string successor;
  if (PrefixSuccessor(key, &successor)) FUZZ_CHECK(key.compare(Slice(successor)) < 0);
  return 0;
}
