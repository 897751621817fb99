// RowGroupWriteContext::verbatim: the typed layout writes a group it is given as it is only when
// the group decodes alike in the file being written. Anchored chunks (rice_delta_anchored) need
// the file's zone maps to know their anchor, so a group holding one is encoded again when the
// observer cannot anchor the column; the columns are shown to the observer either way.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/row_group.h"
#include "table_format/typed_layout.h"

namespace columnar {
namespace {

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
    RiceValueSettings settings;
    RowGroupWriteContext context;
    context.settings = &settings;
    context.observer = observer;
    context.verbatim = verbatim;
    context.verbatim_written = written;
    std::string bytes;
    EXPECT_TRUE(layout_.WriteRowGroup(entries_.data(), count, context, &bytes).ok());
    return bytes;
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

}  // namespace
}  // namespace columnar
