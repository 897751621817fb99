// GenericLayout's point-read decoding (DecodeKeys, then DecodeRows of a row range) against
// its whole-group decoding: partitions that change inside the group, several versions of a
// key, deletions with empty values, sequence numbers and value types, each column encoding.
#include <gtest/gtest.h>
#include <rocksdb/slice_transform.h>

#include <algorithm>
#include <string>
#include <vector>

#include "table_format/encoding.h"
#include "table_format/generic_layout.h"
#include "table_format/layout_columns.h"
#include "table_format/row_group.h"
#include "table_format/varint.h"

namespace columnar {
namespace {

class ForcedEncoding : public ColumnWriteSettings {
 public:
  explicit ForcedEncoding(Encoding encoding) : encoding_(encoding) {}
  ChunkWriteOptions For(const std::string&, PhysicalType) const override {
    ChunkWriteOptions options;
    options.encoding = encoding_;
    return options;
  }

 private:
  Encoding encoding_;
};

struct TestGroup {
  std::vector<std::string> keys;
  std::vector<std::string> values;
  std::vector<Entry> entries;
};

// 40 entries in internal-key order: 3-byte partitions "p00".."p03", keys with up to four
// versions (sequence descending), deletions (type 0, empty value) and merges (type 2).
TestGroup MakeGroup() {
  TestGroup group;
  uint64_t sequence = 1000;
  for (int key = 0; group.keys.size() < 40; key++) {
    const int versions = key % 4 == 1 ? 4 : 1;
    for (int v = 0; v < versions && group.keys.size() < 40; v++) {
      group.keys.push_back("p0" + std::to_string(key / 12) + "-key" + std::to_string(100 + key));
      group.values.push_back(key % 5 == 3 ? "" : "value-" + std::to_string(key * 31 + v));
    }
  }
  group.entries.resize(group.keys.size());
  for (size_t i = 0; i < group.keys.size(); i++) {
    Entry& entry = group.entries[i];
    entry.user_key = group.keys[i];
    const bool later_version = i > 0 && group.keys[i] == group.keys[i - 1];
    // Versions of one key: sequence numbers descending.
    sequence = later_version ? sequence - 7 : 1000 + i * 13;
    entry.sequence = sequence;
    entry.value_type = group.values[i].empty() ? 0 : (i % 7 == 2 ? 2 : kPutValueType);
    entry.value = group.values[i];
  }
  return group;
}

std::string InternalKeyOf(const Entry& entry) {
  std::string key(entry.user_key.data(), entry.user_key.size());
  PutFixed64(&key, (entry.sequence << 8) | entry.value_type);
  return key;
}

TEST(GenericLayoutRowsTest, RowRangesEqualTheWholeGroup) {
  const TestGroup group = MakeGroup();
  const GenericLayout prefixed(
      std::shared_ptr<const rocksdb::SliceTransform>(rocksdb::NewFixedPrefixTransform(3)));
  const GenericLayout plain_layout(nullptr);
  // Keys reused from group to group (as a thread's point reads reuse them), across partition
  // shapes and encodings, read as freshly decoded ones do.
  std::unique_ptr<GroupKeys> reused;
  for (const GenericLayout* layout : {&prefixed, &plain_layout}) {
    for (Encoding encoding : {Encoding::kAuto, Encoding::kPlain, Encoding::kFrontCoding,
                              Encoding::kMixedRadix, Encoding::kDictionary, Encoding::kDelta}) {
      SCOPED_TRACE(std::string(layout == &prefixed ? "prefixed " : "") + EncodingName(encoding));
      // Columns the encoding cannot hold fall back to plain.
      ForcedEncoding forced(encoding);
      ForcedEncoding fallback(Encoding::kPlain);
      RowGroupWriteContext context;
      context.settings = &forced;
      std::string bytes;
      Status s = layout->WriteRowGroup(group.entries.data(), group.entries.size(), context, &bytes);
      if (!s.ok()) {
        bytes.clear();
        context.settings = &fallback;
        s = layout->WriteRowGroup(group.entries.data(), group.entries.size(), context, &bytes);
      }
      ASSERT_TRUE(s.ok()) << s.ToString();
      RowGroupView view;
      ASSERT_TRUE(view.Parse(bytes).ok());
      const std::string first_key = InternalKeyOf(group.entries[0]);
      std::unique_ptr<DecodedRowGroup> whole;
      ASSERT_TRUE(layout->DecodeRowGroup(view, first_key, &whole).ok());
      ASSERT_EQ(whole->row_count(), group.entries.size());

      std::unique_ptr<GroupKeys> keys;
      ASSERT_TRUE(layout->DecodeKeys(view, first_key, &keys).ok());
      ASSERT_EQ(keys->row_count(), group.entries.size());
      for (size_t row = 0; row < keys->row_count(); row++) {
        ASSERT_EQ(keys->UserKey(row), whole->user_key(row)) << row;
      }
      const size_t n = group.entries.size();
      for (size_t begin = 0; begin <= n; begin++) {
        for (size_t end = begin; end <= n && end <= begin + 6; end++) {
          const uint64_t* trailers = nullptr;
          ASSERT_TRUE(keys->Trailers(begin, end, &trailers).ok());
          std::unique_ptr<DecodedRowGroup> rows;
          s = layout->DecodeRows(view, *keys, begin, end, &rows);
          ASSERT_TRUE(s.ok()) << s.ToString();
          ASSERT_EQ(rows->row_count(), end - begin);
          for (size_t row = begin; row < end; row++) {
            ASSERT_EQ(trailers[row - begin], whole->trailer(row)) << row;
            ASSERT_EQ(rows->internal_key(row - begin), whole->internal_key(row)) << row;
            ASSERT_EQ(rows->value(row - begin), whole->value(row)) << row;
          }
          // DecodeRows assembles suffixes in the keys' own buffers, as UserKey does: a key
          // read after it, and the rows read before it, still read right.
          if (n > 0) {
            ASSERT_EQ(keys->UserKey(n - 1), whole->user_key(n - 1));
          }
          if (begin < end) {
            ASSERT_EQ(rows->internal_key(0), whole->internal_key(begin));
          }
        }
      }
      ASSERT_TRUE(layout->DecodeKeys(view, first_key, &reused).ok());
      ASSERT_EQ(reused->row_count(), n);
      for (size_t row = 0; row < n; row++) {
        ASSERT_EQ(reused->UserKey(row), whole->user_key(row)) << row;
        size_t bound = 0;
        if (reused->BytewiseLowerBound(whole->user_key(row), &bound)) {
          ASSERT_EQ(bound, std::lower_bound(group.keys.begin(), group.keys.end(),
                                            whole->user_key(row).ToString()) -
                               group.keys.begin())
              << row;
        }
        const uint64_t* trailer = nullptr;
        ASSERT_TRUE(reused->Trailers(row, row + 1, &trailer).ok());
        ASSERT_EQ(*trailer, whole->trailer(row)) << row;
        std::unique_ptr<DecodedRowGroup> one;
        ASSERT_TRUE(layout->DecodeRows(view, *reused, row, row + 1, &one).ok());
        ASSERT_EQ(one->internal_key(0), whole->internal_key(row)) << row;
        ASSERT_EQ(one->value(0), whole->value(row)) << row;
      }
      std::unique_ptr<DecodedRowGroup> rows;
      EXPECT_TRUE(layout->DecodeRows(view, *keys, 3, n + 1, &rows).IsInvalidArgument());
      EXPECT_TRUE(layout->DecodeRows(view, *keys, 3, 2, &rows).IsInvalidArgument());
    }
  }
}

// DecodeLastPartition (layout_columns.h) reads slot 0 alone: for every group length, in groups
// lying in one partition (no slot 0) or in several, it must give the partition of the group's
// last row.
TEST(GenericLayoutRowsTest, DecodeLastPartitionGivesTheLastRowsPartition) {
  const TestGroup group = MakeGroup();
  const GenericLayout prefixed(
      std::shared_ptr<const rocksdb::SliceTransform>(rocksdb::NewFixedPrefixTransform(3)));
  for (Encoding encoding : {Encoding::kPlain, Encoding::kDictionary, Encoding::kFrontCoding}) {
    ForcedEncoding forced(encoding);
    for (size_t count = 1; count <= group.entries.size(); count++) {
      SCOPED_TRACE(std::string(EncodingName(encoding)) + ", " + std::to_string(count) + " rows");
      RowGroupWriteContext context;
      context.settings = &forced;
      std::string bytes;
      ASSERT_TRUE(prefixed.WriteRowGroup(group.entries.data(), count, context, &bytes).ok());
      RowGroupView view;
      ASSERT_TRUE(view.Parse(bytes).ok());
      const Slice first_user_key = group.entries[0].user_key;
      ColumnVector changes(PhysicalType::kBytes);
      Slice last;
      ASSERT_TRUE(DecodeLastPartition(view, first_user_key, &changes, &last).ok());
      EXPECT_EQ(last.ToString(), group.keys[count - 1].substr(0, 3));
      EXPECT_EQ(view.HasSlot(kPartitionSlot), group.keys[count - 1][2] != '0');
      // A first key shorter than the group's first partition is corrupt.
      EXPECT_TRUE(DecodeLastPartition(view, Slice(first_user_key.data(), 2), &changes, &last)
                      .IsCorruption());
    }
  }
}

// The index's first key must be the group's: its user key is checked when the keys are
// decoded, its trailer when row 0 is (a point read of other rows never reads row 0's).
TEST(GenericLayoutRowsTest, FirstKeyDifferingFromTheIndexIsCorruption) {
  const TestGroup group = MakeGroup();
  const GenericLayout layout(nullptr);
  ForcedEncoding settings(Encoding::kAuto);
  RowGroupWriteContext context;
  context.settings = &settings;
  std::string bytes;
  ASSERT_TRUE(
      layout.WriteRowGroup(group.entries.data(), group.entries.size(), context, &bytes).ok());
  RowGroupView view;
  ASSERT_TRUE(view.Parse(bytes).ok());
  std::unique_ptr<GroupKeys> keys;
  std::unique_ptr<DecodedRowGroup> rows;

  Entry other_user_key = group.entries[0];
  other_user_key.user_key = "p00-key099";
  EXPECT_TRUE(layout.DecodeKeys(view, InternalKeyOf(other_user_key), &keys).IsCorruption());
  EXPECT_TRUE(layout.DecodeRowGroup(view, InternalKeyOf(other_user_key), &rows).IsCorruption());

  Entry other_sequence = group.entries[0];
  other_sequence.sequence++;
  const std::string wrong_trailer = InternalKeyOf(other_sequence);
  ASSERT_TRUE(layout.DecodeKeys(view, wrong_trailer, &keys).ok());
  EXPECT_TRUE(layout.DecodeRows(view, *keys, 0, 1, &rows).IsCorruption());
  EXPECT_TRUE(layout.DecodeRows(view, *keys, 1, 3, &rows).ok());
  EXPECT_TRUE(layout.DecodeRowGroup(view, wrong_trailer, &rows).IsCorruption());
  EXPECT_TRUE(layout.DecodeKeys(view, Slice("short"), &keys).IsCorruption());
}

// Key columns are searched by every point read: auto never gives them template, whose decode
// parses each distinct template (db_bench's keys, an 8-byte big-endian number then "00000000",
// made it 70% of a point read). The same suffixes in a column that is not searched do get
// template, so the test sees the exclusion itself. With memos too (the builder's path).
TEST(GenericLayoutRowsTest, KeyColumnsAreNotTemplateEncoded) {
  std::vector<std::string> keys;
  for (uint64_t i = 0; i < 128; i++) {
    std::string key(8, '\0');
    const uint64_t number = 70000 + i * 7;
    for (int b = 0; b < 8; b++) key[b] = static_cast<char>(number >> (56 - 8 * b));
    keys.push_back(key + "00000000");
  }
  ColumnVector suffixes(PhysicalType::kBytes);
  for (const std::string& key : keys) suffixes.AppendBytes(Slice(key.data() + 6, key.size() - 6));
  std::string body;
  Encoding unsearched;
  ASSERT_TRUE(EncodeWithBestEncoding(Encoding::kAuto, suffixes, &body, &unsearched).ok());
  ASSERT_EQ(unsearched, Encoding::kTemplate);

  std::vector<Entry> entries(keys.size());
  for (size_t i = 0; i < keys.size(); i++) {
    entries[i].user_key = keys[i];
    entries[i].sequence = 1 + i;
    entries[i].value = "v";
  }
  const GenericLayout layout(nullptr);
  ForcedEncoding settings(Encoding::kAuto);
  for (bool memos : {false, true}) {
    EncodingMemos memo_set;
    RowGroupWriteContext context;
    context.settings = &settings;
    if (memos) context.memos = &memo_set;
    for (int group = 0; group < 3; group++) {
      std::string bytes;
      ASSERT_TRUE(layout.WriteRowGroup(entries.data(), entries.size(), context, &bytes).ok());
      RowGroupView view;
      ASSERT_TRUE(view.Parse(bytes).ok());
      ChunkHeader header;
      ASSERT_TRUE(ParseChunkHeader(view.ChunkOf(kFirstLayoutSlot), &header, view.row_count()).ok());
      EXPECT_NE(header.encoding, Encoding::kTemplate) << memos << " " << group;
    }
  }
}

}  // namespace
}  // namespace columnar
