// RowGroupWriteContext::verbatim: the typed layout writes a group it is given as it is only when
// the group decodes alike in the file being written. Anchored chunks (rice_delta_anchored) need
// the file's zone maps to know their anchor, so a group holding one is encoded again when the
// observer cannot anchor the column; the columns are shown to the observer either way. A group
// decoded for a copy (DecodeRowGroupForCopy) keeps the columns its writer showed the observer,
// and a copy shows those instead of splitting the entries again: exactly what the split shows.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"
#include "table_format/varint.h"
#include "tests/table_format/recording_observer.h"

namespace columnar {
namespace verbatim_test {
namespace {

using testing_util::RecordingObserver;

TableSchema SeriesSchema() {
  CreateTableStatement statement;
  EXPECT_TRUE(ParseCreateTable("CREATE TABLE m.v (id text, time int, value float, "
                               "PRIMARY KEY ((id), time))",
                               &statement)
                  .ok());
  return statement.schema;
}

// rice_delta for the float column (which an anchor turns into rice_delta_anchored), plain for
// the others.
class RiceValueSettings : public ColumnWriteSettings {
 public:
  ChunkWriteOptions For(const std::string& column, PhysicalType) const override {
    ChunkWriteOptions options;
    options.encoding = column == "value" ? Encoding::kRiceDelta : Encoding::kPlain;
    options.implied_value_count = true;
    return options;
  }
};

// Writes `count` entries as one group (RiceValueSettings), offering `verbatim` and the rows
// decoded for it; *written says whether the copy was taken.
std::string WriteOffering(const TypedLayout& layout, const Entry* entries, size_t count,
                          ColumnObserver* observer, const RowGroupView* verbatim,
                          const DecodedRowGroup* verbatim_rows, bool* written,
                          uint32_t* layout_id = nullptr) {
  RiceValueSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  context.observer = observer;
  context.verbatim = verbatim;
  context.verbatim_written = written;
  context.verbatim_rows = verbatim_rows;
  context.file_layout_id = layout_id;
  std::string bytes;
  EXPECT_TRUE(layout.WriteRowGroup(entries, count, context, &bytes).ok());
  return bytes;
}

// Anchors the float column (when `anchors`) to the bits of the group's first value, as a zone
// map anchors it to the group's minimum; counts the groups it was shown.
class FirstValueObserver : public ColumnObserver {
 public:
  FirstValueObserver(uint32_t column, bool anchors) : column_(column), anchors_(anchors) {}
  void BeginRowGroup(size_t /*rows*/) override { groups++; }
  void OnColumn(uint32_t column_id, const ColumnVector& values) override {
    if (column_id != column_ || values.IsNull(0)) return;
    const float first = values.Get<float>(0);
    uint32_t bits;
    std::memcpy(&bits, &first, sizeof(bits));
    bits_ = bits;
  }
  void OnExpiry(const ColumnVector& /*expiry_seconds*/) override {}
  void OnTypedRows(size_t /*typed_rows*/) override {}
  bool Anchor(uint32_t column_id, uint64_t* anchor) const override {
    if (!anchors_ || column_id != column_) return false;
    *anchor = bits_;
    return true;
  }
  uint64_t bits() const { return bits_; }
  int groups = 0;

 private:
  uint32_t column_;
  bool anchors_;
  uint64_t bits_ = 0;
};

class TypedLayoutVerbatimTest : public testing::Test {
 protected:
  TypedLayoutVerbatimTest() : layout_(SeriesSchema()) {
    const RowCodec codec(layout_.schema());
    value_column_ = layout_.schema().FindColumn("value")->id;
    float value = 20;
    for (int i = 0; i < 64; i++) {
      std::string key;
      EXPECT_TRUE(EncodeKey(layout_.schema(), {Value::Text("a")}, {Value::Int(i)}, &key).ok());
      RowMetadata meta;
      meta.schema_version = layout_.schema().version();
      Row row(layout_.schema().next_column_id());
      value += static_cast<float>((i * 7919) % 13) / 8.0f - 0.75f;
      row[value_column_] = Value::Float(value);
      std::string encoded;
      EXPECT_TRUE(codec.EncodeRow(meta, row, &encoded).ok());
      keys_.push_back(key);
      values_.push_back(encoded);
    }
    for (size_t i = 0; i < keys_.size(); i++) {
      Entry entry;
      entry.user_key = keys_[i];
      entry.value = values_[i];
      entry.value_type = kPutValueType;
      entries_.push_back(entry);
    }
  }

  // Writes the entries, offering `verbatim`; *written says whether it was taken.
  std::string Write(ColumnObserver* observer, const RowGroupView* verbatim, bool* written,
                    size_t count = 64) {
    return WriteOffering(layout_, entries_.data(), count, observer, verbatim, nullptr, written);
  }

  TypedLayout layout_;
  uint32_t value_column_ = 0;
  std::vector<std::string> keys_, values_;
  std::vector<Entry> entries_;
};

TEST_F(TypedLayoutVerbatimTest, AnchoredGroupIsCopiedOnlyWhereTheColumnIsAnchored) {
  FirstValueObserver anchoring(value_column_, true);
  bool written = false;
  const std::string original = Write(&anchoring, nullptr, &written);
  EXPECT_FALSE(written);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(original).ok());
  ASSERT_EQ(view.anchored_count(), 1u);  // the case this test is about

  // A file that anchors the column takes the bytes as they are, and still sees the columns.
  FirstValueObserver again(value_column_, true);
  written = false;
  EXPECT_EQ(Write(&again, &view, &written), original);
  EXPECT_TRUE(written);
  EXPECT_EQ(again.groups, 1);

  // One that does not (its zone maps leave the column out, or not yet decided) encodes anew.
  FirstValueObserver unanchored(value_column_, false);
  written = false;
  const std::string encoded = Write(&unanchored, &view, &written);
  EXPECT_FALSE(written);
  EXPECT_NE(encoded, original);
  RowGroupView reencoded;
  ASSERT_TRUE(reencoded.Parse(encoded).ok());
  EXPECT_EQ(reencoded.anchored_count(), 0u);
  EXPECT_EQ(unanchored.groups, 1);

  // Without an observer nothing can be anchored.
  written = false;
  Write(nullptr, &view, &written);
  EXPECT_FALSE(written);
}

TEST_F(TypedLayoutVerbatimTest, GroupOfOtherRowsIsNotCopied) {
  bool written = false;
  const std::string original = Write(nullptr, nullptr, &written);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(original).ok());
  ASSERT_EQ(view.anchored_count(), 0u);
  EXPECT_EQ(Write(nullptr, &view, &written), original);
  EXPECT_TRUE(written);
  // Fewer entries than the group holds.
  written = false;
  const std::string shorter = Write(nullptr, &view, &written, 40);
  EXPECT_FALSE(written);
  RowGroupView shorter_view;
  ASSERT_TRUE(shorter_view.Parse(shorter).ok());
  EXPECT_EQ(shorter_view.row_count(), 40u);
}

constexpr uint8_t kDeletionType = 0x0;  // RocksDB's kTypeDeletion

// Rows of every kind a group holds: typed rows with and without write times and TTLs, nulls,
// INSERTs naming some columns and cells updated later (cell exceptions), deletions, a value
// that does not decode and a key of no clustering of the schema (both kept opaque).
class ObservedColumnsTest : public testing::Test {
 protected:
  ObservedColumnsTest()
      : layout_(Schema()),
        reader_(Schema(), nullptr, TypedLayout::kIdWithCellExceptions),
        codec_(layout_.schema()) {
    std::mt19937 random(7);
    for (int i = 0; i < 200; i++) AddRow(i, random);
    for (size_t i = 0; i < keys_.size(); i++) {
      Entry entry;
      entry.user_key = keys_[i];
      entry.value = values_[i];
      entry.value_type = types_[i];
      entry.sequence = 1000 + i;
      entries_.push_back(entry);
    }
    first_internal_key_ = keys_[0];
    PutFixed64(&first_internal_key_, (uint64_t{1000} << 8) | types_[0]);
  }

  static TableSchema Schema() {
    CreateTableStatement statement;
    EXPECT_TRUE(ParseCreateTable("CREATE TABLE m.w (id text, time bigint, a int, b text, "
                                 "value float, d bigint, PRIMARY KEY ((id), time))",
                                 &statement)
                    .ok());
    return statement.schema;
  }

  void AddRow(int i, std::mt19937& random) {
    const TableSchema& schema = layout_.schema();
    std::string key;
    EXPECT_TRUE(EncodeKey(schema, {Value::Text(i < 120 ? "h1" : "h2")},
                          {Value::BigInt(TimeMillis(i))}, &key)
                    .ok());
    const int kind = static_cast<int>(random() % 10);
    uint8_t type = kPutValueType;
    std::string value;
    if (kind == 0) {
      type = kDeletionType;
    } else if (kind == 1) {
      value = "\xff\xfe not a row";
    } else if (kind == 2) {
      key += "tail";  // not a key of the schema's clustering
      // (without metadata, which it would have to store as it is: it has no clustering time)
      value = TypedRow(i, random, /*metadata=*/false);
    } else if (kind <= 4) {
      value = RowWithCellExceptions(i, random);
    } else {
      value = TypedRow(i, random);
    }
    keys_.push_back(key);
    values_.push_back(value);
    types_.push_back(type);
  }

  // The clustering time: a point every 10 s, in milliseconds. Write times and expiries follow
  // it, so the group stores them against it (metadata_transform.h).
  static int64_t TimeMillis(int i) { return 1700000000000 + int64_t{i} * 10000; }

  std::string TypedRow(int i, std::mt19937& random, bool metadata = true) {
    RowMetadata meta;
    meta.schema_version = layout_.schema().version();
    meta.has_write_time = metadata && random() % 4 != 0;
    meta.write_time_micros = TimeMillis(i) * 1000 + random() % 3;
    meta.has_expiry = metadata && random() % 3 == 0;
    meta.expiry_seconds = TimeMillis(i) / 1000 + 86400 + random() % 2;  // a day's TTL
    Row row(layout_.schema().next_column_id());
    Set(&row, "a", random() % 5 == 0 ? Value() : Value::Int(static_cast<int32_t>(random() % 90)));
    Set(&row, "b", random() % 4 == 0 ? Value() : Value::Text("tag" + std::to_string(random() % 3)));
    Set(&row, "value", Value::Float(0.5f * static_cast<float>(random() % 100)));
    Set(&row, "d", random() % 6 == 0 ? Value() : Value::BigInt(int64_t{i} * 7));
    std::string out;
    EXPECT_TRUE(codec_.EncodeRow(meta, row, &out).ok());
    return out;
  }

  // An INSERT naming some columns (the others "no cell"), some cells updated later.
  std::string RowWithCellExceptions(int i, std::mt19937& random) {
    const TableSchema& schema = layout_.schema();
    RowVersions row;
    row.schema_version = schema.version();
    row.has_liveness = true;
    row.liveness.write_time_micros = TimeMillis(i) * 1000 + 7;
    std::vector<Value> values(4);  // the cells point into them (CellFromValue)
    const char* names[] = {"a", "b", "value", "d"};
    for (size_t k = 0; k < values.size(); k++) {
      const ColumnDef& column = *schema.FindColumn(names[k]);
      CellVersion version;
      Value& value = values[k];
      if (random() % 3 != 0) {
        version.state = CellState::kLive;
        version.write_time_micros = row.liveness.write_time_micros + (random() % 4 == 0 ? 5 : 0);
        value = column.type == LogicalType::kText    ? Value::Text("p")
                : column.type == LogicalType::kFloat ? Value::Float(1.5f)
                : column.type == LogicalType::kInt   ? Value::Int(i)
                                                     : Value::BigInt(i);
      }
      row.versions.push_back(version);
      row.cells.push_back(CellFromValue(column.id, column.type, value));
    }
    std::string out;
    EXPECT_TRUE(codec_.EncodeVersions(row, &out).ok());
    return out;
  }

  void Set(Row* row, const char* name, Value value) const {
    (*row)[layout_.schema().FindColumn(name)->id] = std::move(value);
  }

  // Writes every entry as one group, offering `verbatim` (and the rows decoded for it).
  std::string Write(ColumnObserver* observer, const RowGroupView* verbatim,
                    const DecodedRowGroup* verbatim_rows, bool* written, uint32_t* layout_id) {
    return WriteOffering(layout_, entries_.data(), entries_.size(), observer, verbatim,
                         verbatim_rows, written, layout_id);
  }

  TypedLayout layout_;  // writes
  TypedLayout reader_;  // reads what it writes (cell exceptions)
  RowCodec codec_;
  std::vector<std::string> keys_, values_;
  std::vector<uint8_t> types_;
  std::vector<Entry> entries_;
  std::string first_internal_key_;
};

TEST_F(ObservedColumnsTest, ACopyShowsTheObserverWhatSplittingTheEntriesShows) {
  RecordingObserver split;
  bool written = false;
  uint32_t layout_id = TypedLayout::kId;
  const std::string original = Write(&split, nullptr, nullptr, &written, &layout_id);
  ASSERT_FALSE(written);
  ASSERT_EQ(layout_id, TypedLayout::kIdWithCellExceptions);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(original).ok());

  std::unique_ptr<DecodedRowGroup> for_copy;
  Status s = reader_.DecodeRowGroupForCopy(view, first_internal_key_, &for_copy);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::unique_ptr<DecodedRowGroup> plain;
  ASSERT_TRUE(reader_.DecodeRowGroup(view, first_internal_key_, &plain).ok());
  // The rows are the entries either way; the kept columns only cost memory.
  ASSERT_EQ(for_copy->row_count(), entries_.size());
  for (size_t i = 0; i < entries_.size(); i++) {
    EXPECT_EQ(for_copy->value(i), values_[i]) << i;
    EXPECT_EQ(for_copy->user_key(i), keys_[i]) << i;
  }
  EXPECT_GT(for_copy->MemoryUsage(), plain->MemoryUsage());

  for (const DecodedRowGroup* rows : {for_copy.get(), plain.get()}) {
    RecordingObserver copied;
    written = false;
    layout_id = TypedLayout::kId;
    EXPECT_EQ(Write(&copied, &view, rows, &written, &layout_id), original);
    EXPECT_TRUE(written);
    EXPECT_EQ(layout_id, TypedLayout::kIdWithCellExceptions);
    EXPECT_EQ(copied.record, split.record) << (rows == plain.get() ? "split" : "kept");
  }

  // The kept columns are shown instead of splitting the entries: given other entries (which a
  // caller never does), the copy still shows the group's, and without them the entries'.
  for (size_t i = 0; i < entries_.size(); i++) entries_[i].value = Slice("\xff not a row");
  RecordingObserver kept, resplit;
  EXPECT_EQ(Write(&kept, &view, for_copy.get(), &written, &layout_id), original);
  EXPECT_EQ(kept.record, split.record);
  EXPECT_EQ(Write(&resplit, &view, plain.get(), &written, &layout_id), original);
  EXPECT_NE(resplit.record, split.record);
}

TEST_F(ObservedColumnsTest, ARefusedCopyIsEncodedAgainAndShownOnce) {
  // The float column is anchored where the group was written, not where it is copied to.
  const uint32_t c = layout_.schema().FindColumn("value")->id;
  FirstValueObserver anchoring(c, true);
  bool written = false;
  uint32_t layout_id = TypedLayout::kId;
  const std::string original = Write(&anchoring, nullptr, nullptr, &written, &layout_id);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(original).ok());
  ASSERT_EQ(view.anchored_count(), 1u);
  view.SetAnchor(view.anchored_slot(0), anchoring.bits());  // as the zone maps give it
  std::unique_ptr<DecodedRowGroup> for_copy;
  ASSERT_TRUE(reader_.DecodeRowGroupForCopy(view, first_internal_key_, &for_copy).ok());

  FirstValueObserver unanchored(c, false);
  written = false;
  const std::string encoded = Write(&unanchored, &view, for_copy.get(), &written, &layout_id);
  EXPECT_FALSE(written);
  EXPECT_EQ(unanchored.groups, 1);
  FirstValueObserver fresh(c, false);
  EXPECT_EQ(encoded, Write(&fresh, nullptr, nullptr, &written, &layout_id));
}

TEST_F(ObservedColumnsTest, KeptColumnsOfOtherRowsAreNotShown) {
  RecordingObserver split;
  bool written = false;
  uint32_t layout_id = TypedLayout::kId;
  const std::string original = Write(&split, nullptr, nullptr, &written, &layout_id);
  RowGroupView view;
  ASSERT_TRUE(view.Parse(original).ok());
  // A group of the first 100 entries, decoded for a copy, offered with the whole group's bytes:
  // its columns do not fit the view (the caller's mistake), so the entries are split.
  std::vector<Entry> all = entries_;
  entries_.resize(100);
  written = false;
  std::string shorter_bytes = Write(nullptr, nullptr, nullptr, &written, &layout_id);
  entries_ = all;
  RowGroupView shorter;
  ASSERT_TRUE(shorter.Parse(shorter_bytes).ok());
  std::unique_ptr<DecodedRowGroup> shorter_rows;
  ASSERT_TRUE(reader_.DecodeRowGroupForCopy(shorter, first_internal_key_, &shorter_rows).ok());
  RecordingObserver copied;
  written = false;
  EXPECT_EQ(Write(&copied, &view, shorter_rows.get(), &written, &layout_id), original);
  EXPECT_TRUE(written);
  EXPECT_EQ(copied.record, split.record);
}

}  // namespace
}  // namespace verbatim_test
}  // namespace columnar
