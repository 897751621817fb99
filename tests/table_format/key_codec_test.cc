#include "table_format/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "tests/table_format/random_values.h"

namespace columnar {
namespace {

int Sign(int v) { return (v > 0) - (v < 0); }

struct KeyTuple {
  std::vector<Value> partition;
  std::vector<Value> clustering;
};

KeyTuple RandomTuple(test::RandomValues* random, const TableSchema& schema) {
  KeyTuple tuple;
  for (size_t i = 0; i < schema.partition_key().size(); i++) {
    tuple.partition.push_back(random->Of(schema.partition_column(i).type));
  }
  for (size_t i = 0; i < schema.clustering_key().size(); i++) {
    tuple.clustering.push_back(random->Of(schema.clustering_column(i).type));
  }
  return tuple;
}

// Typed order of full keys: partition then clustering, DESC columns reversed.
int CompareTuples(const TableSchema& schema, const KeyTuple& a, const KeyTuple& b) {
  for (size_t i = 0; i < a.partition.size(); i++) {
    const int c = CompareValues(a.partition[i], b.partition[i]);
    if (c != 0) return c;
  }
  for (size_t i = 0; i < a.clustering.size(); i++) {
    const int c = CompareValues(a.clustering[i], b.clustering[i]);
    if (c != 0) return schema.clustering_column(i).order == ClusteringOrder::kDesc ? -c : c;
  }
  return 0;
}

std::string Encode(const TableSchema& schema, const KeyTuple& tuple) {
  std::string key;
  Status s = EncodeKey(schema, tuple.partition, tuple.clustering, &key);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return key;
}

TableSchema SingleColumnSchema(LogicalType type, ClusteringOrder order) {
  TableSchema schema;
  Status s = TableSchemaBuilder("ks", "t")
                 .AddColumn("p", LogicalType::kInt)
                 .AddColumn("c", type)
                 .SetPartitionKey({"p"})
                 .AddClusteringColumn("c", order)
                 .Build(&schema);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return schema;
}

// For every type and order: sorting by encoded bytes == sorting by the typed rule, and
// decoding gives back the same bits.
TEST(KeyCodecTest, SingleColumnOrderAndRoundTripForEveryType) {
  test::RandomValues random(1);
  for (LogicalType type : test::kAllLogicalTypes) {
    for (ClusteringOrder order : {ClusteringOrder::kAsc, ClusteringOrder::kDesc}) {
      const TableSchema schema = SingleColumnSchema(type, order);
      std::vector<std::pair<std::string, KeyTuple>> keys;
      for (int i = 0; i < 2000; i++) {
        KeyTuple tuple{{Value::Int(0)}, {random.Of(type)}};
        keys.emplace_back(Encode(schema, tuple), tuple);
      }
      std::sort(keys.begin(), keys.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (size_t i = 0; i + 1 < keys.size(); i++) {
        const int bytes = Sign(Slice(keys[i].first).compare(keys[i + 1].first));
        const int typed = Sign(CompareTuples(schema, keys[i].second, keys[i + 1].second));
        ASSERT_EQ(bytes, typed) << LogicalTypeName(type) << " "
                                << keys[i].second.clustering[0].ToCqlLiteral() << " vs "
                                << keys[i + 1].second.clustering[0].ToCqlLiteral();
        // Equal encodings only for bit-identical values.
        ASSERT_EQ(bytes == 0, keys[i].second.clustering[0] == keys[i + 1].second.clustering[0]);
      }
      for (const auto& [key, tuple] : keys) {
        std::vector<Value> partition, clustering;
        ASSERT_TRUE(DecodeKey(schema, key, &partition, &clustering).ok());
        ASSERT_EQ(clustering[0], tuple.clustering[0]) << LogicalTypeName(type);
      }
    }
  }
}

// Random composite keys over random schemas.
TEST(KeyCodecTest, CompositeKeysSortDecodeAndSplit) {
  test::RandomValues random(2);
  for (int round = 0; round < 60; round++) {
    const TableSchema schema = test::RandomSchema(&random, 0);
    ASSERT_FALSE(schema.partition_key().empty());
    std::vector<KeyTuple> tuples;
    std::vector<std::string> keys;
    for (int i = 0; i < 300; i++) {
      tuples.push_back(RandomTuple(&random, schema));
      // Duplicate prefixes so later columns decide the order.
      if (i > 0 && random.OneIn(3)) tuples.back().partition = tuples[i - 1].partition;
      keys.push_back(Encode(schema, tuples.back()));
    }
    for (int i = 0; i < 2000; i++) {
      const size_t a = random.Uniform(keys.size()), b = random.Uniform(keys.size());
      ASSERT_EQ(Sign(Slice(keys[a]).compare(keys[b])),
                Sign(CompareTuples(schema, tuples[a], tuples[b])));
    }
    for (size_t i = 0; i < keys.size(); i++) {
      KeyTuple decoded;
      ASSERT_TRUE(DecodeKey(schema, keys[i], &decoded.partition, &decoded.clustering).ok());
      ASSERT_EQ(decoded.partition, tuples[i].partition);
      ASSERT_EQ(decoded.clustering, tuples[i].clustering);
      std::string partition_key;
      ASSERT_TRUE(EncodePartitionKey(schema, tuples[i].partition, &partition_key).ok());
      size_t length = 0;
      ASSERT_TRUE(PartitionKeyLength(schema, keys[i], &length).ok());
      ASSERT_EQ(length, partition_key.size());
      ASSERT_EQ(keys[i].compare(0, length, partition_key), 0);
    }
  }
}

// The writer's fast paths: PartitionKeyLengthAfter (answered from the previous partition),
// DecodeFixedKeyComponent and Append/WriteFixedKeyComponent (no Value) must agree with the general
// functions on every key, including keys whose bytes only partly match the previous partition.
TEST(KeyCodecTest, FastPathsAgreeWithTheGeneralDecoder) {
  test::RandomValues random(7);
  for (int round = 0; round < 60; round++) {
    const TableSchema schema = test::RandomSchema(&random, 0);
    std::string previous;
    bool any_previous = false;
    for (int i = 0; i < 300; i++) {
      KeyTuple tuple = RandomTuple(&random, schema);
      const std::string key = Encode(schema, tuple);
      size_t expected = 0;
      ASSERT_TRUE(PartitionKeyLength(schema, key, &expected).ok());
      const Slice previous_slice(previous);
      size_t length = 0;
      ASSERT_TRUE(
          PartitionKeyLengthAfter(schema, key, any_previous ? &previous_slice : nullptr, &length)
              .ok());
      ASSERT_EQ(length, expected) << "round " << round << " key " << i;
      // The next key: half the time in the same partition.
      if (!random.OneIn(2)) {
        previous = key.substr(0, length);
        any_previous = true;
      }
      // Fixed-width clustering components without a Value.
      Slice rest(key.data() + length, key.size() - length);
      for (size_t k = 0; k < schema.clustering_key().size(); k++) {
        const ColumnDef& column = schema.clustering_column(k);
        Slice general = rest;
        Value value;
        ASSERT_TRUE(DecodeKeyComponent(&general, column.type, column.order, &value).ok());
        if (!IsBytesType(column.type)) {
          uint64_t bits = 0;
          ASSERT_TRUE(DecodeFixedKeyComponent(&rest, column.type, column.order, &bits).ok());
          ASSERT_EQ(bits, value.FixedBits());
          std::string fast, slow;
          AppendFixedKeyComponent(bits, column.type, column.order, &fast);
          ASSERT_TRUE(
              EncodeKeyComponent(value, column.type, column.order, column.name, &slow).ok());
          ASSERT_EQ(fast, slow);
          // The staged form: the same bytes at a pointer, nothing written past them.
          char staged[2 * kMaxFixedKeyComponentBytes];
          std::memset(staged, 0x5A, sizeof(staged));
          const size_t written = WriteFixedKeyComponent(bits, column.type, column.order, staged);
          ASSERT_EQ(std::string(staged, written), slow);
          for (size_t b = written; b < sizeof(staged); b++) {
            ASSERT_EQ(staged[b], 0x5A);
          }
        }
        rest = general;
      }
      ASSERT_TRUE(rest.empty());
    }
  }
}

// A key in another partition whose first bytes match the previous partition's (a text value
// that extends the previous one) is walked, not answered from the prefix.
TEST(KeyCodecTest, PartitionKeyLengthAfterNeedsTheWholePreviousPartition) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("p", LogicalType::kText)
                  .AddColumn("c", LogicalType::kInt)
                  .SetPartitionKey({"p"})
                  .AddClusteringColumn("c", ClusteringOrder::kAsc)
                  .Build(&schema)
                  .ok());
  std::string first, second;
  ASSERT_TRUE(EncodeKey(schema, {Value::Text("ab")}, {Value::Int(1)}, &first).ok());
  ASSERT_TRUE(EncodeKey(schema, {Value::Text("abc")}, {Value::Int(1)}, &second).ok());
  size_t length = 0;
  ASSERT_TRUE(PartitionKeyLength(schema, first, &length).ok());
  const std::string partition = first.substr(0, length);  // "ab" 00 01
  // "ab" without its terminator is a prefix of the second key's partition.
  const Slice cut(partition.data(), partition.size() - 2);
  ASSERT_TRUE(Slice(second).starts_with(cut));
  size_t after = 0;
  const Slice whole(partition);
  ASSERT_TRUE(PartitionKeyLengthAfter(schema, second, &whole, &after).ok());
  EXPECT_EQ(after, 5u);  // "abc" 00 01
  ASSERT_TRUE(PartitionKeyLengthAfter(schema, first, &whole, &after).ok());
  EXPECT_EQ(after, partition.size());
}

TEST(KeyCodecTest, TruncatedKeysAreCorruption) {
  test::RandomValues random(3);
  for (int round = 0; round < 40; round++) {
    const TableSchema schema = test::RandomSchema(&random, 0);
    const std::string key = Encode(schema, RandomTuple(&random, schema));
    for (size_t length = 0; length < key.size(); length++) {
      std::vector<Value> partition, clustering;
      Status s = DecodeKey(schema, Slice(key.data(), length), &partition, &clustering);
      ASSERT_TRUE(s.IsCorruption()) << length << " of " << key.size();
    }
    std::vector<Value> partition, clustering;
    EXPECT_TRUE(DecodeKey(schema, key + "x", &partition, &clustering).IsCorruption());
  }
}

// Any byte string either fails to decode or is the encoding of what it decodes to.
TEST(KeyCodecTest, GarbageDecodesOnlyToCanonicalKeys) {
  test::RandomValues random(4);
  size_t accepted = 0;
  for (int round = 0; round < 20000; round++) {
    const TableSchema schema = test::RandomSchema(&random, 0);
    std::string bytes;
    if (random.OneIn(2)) {
      bytes = Encode(schema, RandomTuple(&random, schema));
      for (int flips = 1 + random.Uniform(3); flips > 0 && !bytes.empty(); flips--) {
        bytes[random.Uniform(bytes.size())] ^= static_cast<char>(1 << random.Uniform(8));
      }
    } else {
      for (size_t n = random.Uniform(40); n > 0; n--)
        bytes.push_back("\x00\x01\xff\x80"[random.Uniform(4)]);
    }
    KeyTuple decoded;
    Status s = DecodeKey(schema, bytes, &decoded.partition, &decoded.clustering);
    if (!s.ok()) {
      ASSERT_TRUE(s.IsCorruption());
      continue;
    }
    accepted++;
    ASSERT_EQ(Encode(schema, decoded), bytes);
  }
  EXPECT_GT(accepted, 1000u);
}

TEST(KeyCodecTest, ComponentLayouts) {
  auto encode = [](const Value& v, ClusteringOrder order) {
    std::string out;
    EXPECT_TRUE(EncodeKeyComponent(v, v.type(), order, "c", &out).ok());
    return out;
  };
  EXPECT_EQ(encode(Value::Int(0), ClusteringOrder::kAsc), std::string("\x80\x00\x00\x00", 4));
  EXPECT_EQ(encode(Value::Int(-1), ClusteringOrder::kAsc), std::string("\x7f\xff\xff\xff", 4));
  EXPECT_EQ(encode(Value::Int(-1), ClusteringOrder::kDesc), std::string("\x80\x00\x00\x00", 4));
  EXPECT_EQ(encode(Value::Float(-0.0f), ClusteringOrder::kAsc), std::string("\x7f\xff\xff\xff", 4));
  EXPECT_EQ(encode(Value::Float(0.0f), ClusteringOrder::kAsc), std::string("\x80\x00\x00\x00", 4));
  EXPECT_EQ(encode(Value::Boolean(true), ClusteringOrder::kAsc), "\x01");
  EXPECT_EQ(encode(Value::Text(std::string("a\0b", 3)), ClusteringOrder::kAsc),
            std::string("a\x00\xff"
                        "b\x00\x01",
                        6));
  EXPECT_EQ(encode(Value::Blob(""), ClusteringOrder::kDesc), "\xff\xfe");
}

TEST(KeyCodecTest, RejectsWrongValues) {
  TableSchema schema;
  ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                  .AddColumn("org", LogicalType::kText)
                  .AddColumn("time", LogicalType::kTimestamp)
                  .AddColumn("code", LogicalType::kAscii)
                  .SetPartitionKey({"org"})
                  .AddClusteringColumn("time", ClusteringOrder::kDesc)
                  .AddClusteringColumn("code")
                  .Build(&schema)
                  .ok());
  std::string key;
  Status s = EncodeKey(schema, {Value::Text("a")}, {Value::BigInt(1), Value::Ascii("x")}, &key);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("'time'"), std::string::npos) << s.ToString();
  s = EncodeKey(schema, {Value()}, {Value::Timestamp(1), Value::Ascii("x")}, &key);
  EXPECT_NE(s.ToString().find("'org'"), std::string::npos) << s.ToString();
  s = EncodeKey(schema, {Value::Text("a")}, {Value::Timestamp(1), Value::Ascii("\xe9")}, &key);
  EXPECT_NE(s.ToString().find("'code'"), std::string::npos) << s.ToString();
  EXPECT_TRUE(
      EncodeKey(schema, {Value::Text("a")}, {Value::Timestamp(1)}, &key).IsInvalidArgument());
  EXPECT_TRUE(EncodePartitionKey(schema, {}, &key).IsInvalidArgument());
  EXPECT_TRUE(EncodeClusteringPrefix(schema, {Value::Text("a")},
                                     {Value::Timestamp(1), Value::Ascii("x"), Value::Int(1)}, &key)
                  .IsInvalidArgument());
  // A non-ASCII byte decoded from an ascii column is corruption.
  const std::string bad(
      "a\x00\x01"
      "\x7f\xff\xff\xff\xff\xff\xff\xfe"
      "\xe9\x00\x01",
      14);
  std::vector<Value> partition, clustering;
  EXPECT_TRUE(DecodeKey(schema, bad, &partition, &clustering).IsCorruption());
}

TEST(KeyCodecTest, PrefixSuccessor) {
  std::string out;
  EXPECT_TRUE(PrefixSuccessor("ab", &out));
  EXPECT_EQ(out, "ac");
  EXPECT_TRUE(PrefixSuccessor(std::string("a\xff\xff", 3), &out));
  EXPECT_EQ(out, "b");
  EXPECT_FALSE(PrefixSuccessor(std::string("\xff\xff", 2), &out));
  EXPECT_FALSE(PrefixSuccessor("", &out));
}

struct RangeCase {
  const char* name;
  bool has_lower, lower_inclusive, has_upper, upper_inclusive;
  int lower, upper;
};

// Keys of one (sorted) table; every range must select exactly the matching rows of its
// partition and clustering prefix.
TEST(KeyCodecTest, ClusteringRangesSelectExactlyTheMatchingKeys) {
  for (ClusteringOrder order : {ClusteringOrder::kAsc, ClusteringOrder::kDesc}) {
    TableSchema schema;
    ASSERT_TRUE(TableSchemaBuilder("ks", "t")
                    .AddColumn("p", LogicalType::kBigInt)
                    .AddColumn("day", LogicalType::kText)
                    .AddColumn("time", LogicalType::kInt)
                    .SetPartitionKey({"p"})
                    .AddClusteringColumn("day")
                    .AddClusteringColumn("time", order)
                    .Build(&schema)
                    .ok());
    struct Row {
      int64_t p;
      std::string day;
      int time;
      std::string key;
    };
    std::vector<Row> rows;
    for (int64_t p : {INT64_MIN, int64_t{-1}, int64_t{0}, INT64_MAX}) {
      for (const char* day : {"", "a", "a\xff", "b"}) {
        for (int time = -6; time <= 6; time++) {
          rows.push_back({p, day, time, ""});
          EncodeKey(schema, {Value::BigInt(p)}, {Value::Text(day), Value::Int(time)},
                    &rows.back().key);
        }
      }
    }
    const RangeCase cases[] = {
        {"all", false, false, false, false, 0, 0},
        {"time > -2", true, false, false, false, -2, 0},
        {"time >= -2", true, true, false, false, -2, 0},
        {"time < 3", false, false, true, false, 0, 3},
        {"time <= 3", false, false, true, true, 0, 3},
        {"time > -2 AND time <= 3", true, false, true, true, -2, 3},
        {"time >= -2 AND time < 3", true, true, true, false, -2, 3},
        {"time > 3 AND time < 3", true, false, true, false, 3, 3},
        {"time >= 3 AND time <= 3", true, true, true, true, 3, 3},
    };
    for (int64_t p : {INT64_MIN, int64_t{0}, INT64_MAX}) {
      for (const char* day : {"a", "b"}) {
        for (const RangeCase& c : cases) {
          ClusteringBound lower{Value::Int(c.lower), c.lower_inclusive};
          ClusteringBound upper{Value::Int(c.upper), c.upper_inclusive};
          KeyRange range;
          ASSERT_TRUE(EncodeClusteringRange(schema, {Value::BigInt(p)}, {Value::Text(day)},
                                            c.has_lower ? &lower : nullptr,
                                            c.has_upper ? &upper : nullptr, &range)
                          .ok());
          for (const Row& row : rows) {
            const bool in_range =
                row.key >= range.start && (range.limit_unbounded || row.key < range.limit);
            const bool matches =
                row.p == p && row.day == day &&
                (!c.has_lower || row.time > c.lower ||
                 (c.lower_inclusive && row.time == c.lower)) &&
                (!c.has_upper || row.time < c.upper || (c.upper_inclusive && row.time == c.upper));
            ASSERT_EQ(in_range, matches) << c.name << " p=" << p << " day=" << day
                                         << " row time=" << row.time << " day=" << row.day;
          }
        }
      }
      // The whole partition.
      KeyRange range;
      ASSERT_TRUE(
          EncodeClusteringRange(schema, {Value::BigInt(p)}, {}, nullptr, nullptr, &range).ok());
      EXPECT_EQ(range.limit_unbounded, p == INT64_MAX);  // its partition key is all 0xFF
      for (const Row& row : rows) {
        const bool in_range =
            row.key >= range.start && (range.limit_unbounded || row.key < range.limit);
        ASSERT_EQ(in_range, row.p == p);
      }
    }
  }
}

TEST(KeyCodecTest, RangeBoundNeedsAClusteringColumn) {
  const TableSchema schema = SingleColumnSchema(LogicalType::kInt, ClusteringOrder::kAsc);
  ClusteringBound bound{Value::Int(1), true};
  KeyRange range;
  EXPECT_TRUE(
      EncodeClusteringRange(schema, {Value::Int(0)}, {Value::Int(1)}, &bound, nullptr, &range)
          .IsInvalidArgument());
  ClusteringBound wrong_type{Value::Text("x"), true};
  EXPECT_TRUE(EncodeClusteringRange(schema, {Value::Int(0)}, {}, &wrong_type, nullptr, &range)
                  .IsInvalidArgument());
}

}  // namespace
}  // namespace columnar
