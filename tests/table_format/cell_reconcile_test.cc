// Cassandra's cell reconciliation, tested from the rules in shared/notes/cassandra-semantics.md
// (not from the code): higher timestamp wins; tie: deletion wins; tie both live: expiring beats
// non-expiring, later expiry, larger TTL, then the greater serialized value.
#include "table_format/cell_reconcile.h"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>

namespace columnar {
namespace {

CellCandidate Int(int64_t time, int32_t value, std::optional<uint64_t> expiry = std::nullopt,
                  int64_t ttl = 0) {
  CellCandidate c;
  c.version.state = CellState::kLive;
  c.version.write_time_micros = time;
  c.version.has_expiry = expiry.has_value();
  c.version.expiry_seconds = expiry.value_or(0);
  c.value.type = LogicalType::kInt;
  c.value.present = true;
  c.value.fixed_bits = static_cast<uint32_t>(value);
  c.ttl_seconds = ttl;
  return c;
}

CellCandidate Deletion(int64_t time) {
  CellCandidate c;
  c.version.state = CellState::kDeleted;
  c.version.write_time_micros = time;
  c.value.type = LogicalType::kInt;
  return c;
}

// `a` wins over `b` in both argument orders (the rule does not depend on arrival order).
::testing::AssertionResult Beats(const CellCandidate& a, const CellCandidate& b) {
  const int ab = CompareCellVersions(a, b);
  const int ba = CompareCellVersions(b, a);
  if (ab > 0 && ba < 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "compare(a, b) = " << ab << ", compare(b, a) = " << ba;
}

TEST(CellReconcileTest, HigherTimestampWinsWhateverElse) {
  EXPECT_TRUE(Beats(Int(5, 1), Int(4, 100)));
  EXPECT_TRUE(Beats(Int(5, 1), Deletion(4)));            // a later write over an older delete
  EXPECT_TRUE(Beats(Deletion(5), Int(4, 100, 9999)));    // a later delete over an expiring cell
  EXPECT_TRUE(Beats(Int(5, 1), Int(4, 100, 9999, 50)));  // expiry only breaks ties
  EXPECT_TRUE(Beats(Int(-1, 0), Int(-2, 7)));
}

TEST(CellReconcileTest, EqualTimestampsDeletionWins) {
  EXPECT_TRUE(Beats(Deletion(7), Int(7, 100)));
  EXPECT_TRUE(Beats(Deletion(7), Int(7, 100, 9999, 60)));
}

// This store's choice for two deletions of one timestamp (deletions with a TTL expire): the one
// that lasts longer wins, whatever the order.
TEST(CellReconcileTest, EqualTimestampsTwoDeletionsTheLongerLastingWins) {
  CellCandidate expiring = Deletion(7);
  expiring.version.has_expiry = true;
  expiring.version.expiry_seconds = 100;
  EXPECT_TRUE(Beats(Deletion(7), expiring));
  CellCandidate later = expiring;
  later.version.expiry_seconds = 200;
  EXPECT_TRUE(Beats(later, expiring));
}

TEST(CellReconcileTest, EqualTimestampsBothLiveExpiringBeatsNonExpiring) {
  EXPECT_TRUE(Beats(Int(7, 1, 1000), Int(7, 100)));  // even with the smaller value
}

TEST(CellReconcileTest, EqualTimestampsBothExpiringLaterExpiryThenLargerTtl) {
  EXPECT_TRUE(Beats(Int(7, 1, 2000), Int(7, 100, 1000)));
  EXPECT_TRUE(Beats(Int(7, 1, 2000, 60), Int(7, 100, 2000, 30)));
}

TEST(CellReconcileTest, ValueComparedLastAsSerializedBytes) {
  EXPECT_TRUE(Beats(Int(7, 2), Int(7, 1)));
  // Serialized big-endian two's complement: -1 is 0xffffffff, greater than 1 as bytes.
  EXPECT_TRUE(Beats(Int(7, -1), Int(7, 1)));
  EXPECT_TRUE(Beats(Int(7, 2, 1000, 60), Int(7, 1, 1000, 60)));
  CellCandidate short_text, long_text;
  for (CellCandidate* c : {&short_text, &long_text}) {
    c->version.state = CellState::kLive;
    c->version.write_time_micros = 7;
    c->value.type = LogicalType::kText;
    c->value.present = true;
  }
  short_text.value.bytes = Slice("b");
  long_text.value.bytes = Slice("abc");
  EXPECT_TRUE(Beats(short_text, long_text));  // bytes compare before lengths
  long_text.value.bytes = Slice("bc");
  EXPECT_TRUE(Beats(long_text, short_text));  // a longer string with the same prefix
  EXPECT_EQ(CompareCellVersions(Int(7, 3), Int(7, 3)), 0);
}

TEST(CellReconcileTest, AnyCellBeatsNoCell) {
  CellCandidate none;
  none.value.type = LogicalType::kInt;
  EXPECT_TRUE(Beats(Deletion(INT64_MIN), none));
  EXPECT_TRUE(Beats(Int(INT64_MIN, 0), none));
  EXPECT_EQ(CompareCellVersions(none, none), 0);
}

TEST(CellReconcileTest, LivenessHigherTimestampThenExpiring) {
  EXPECT_GT(CompareLiveness({5, false, 0}, {4, true, 99}), 0);
  EXPECT_GT(CompareLiveness({5, true, 10}, {5, false, 0}), 0);
  EXPECT_GT(CompareLiveness({5, true, 11}, {5, true, 10}), 0);
  EXPECT_EQ(CompareLiveness({5, true, 11}, {5, true, 11}), 0);
}

// Rows over a schema (a int, b int): per cell the winner, the later deletion hides what is at
// or below it, and the result does not depend on the order of the arguments.
class RowMergeTest : public ::testing::Test {
 protected:
  RowMergeTest() {
    TableSchema schema;
    EXPECT_TRUE(TableSchemaBuilder("ks", "t")
                    .AddColumn("p", LogicalType::kText)
                    .AddColumn("a", LogicalType::kInt)
                    .AddColumn("b", LogicalType::kInt)
                    .SetPartitionKey({"p"})
                    .Build(&schema)
                    .ok());
    codec_ = std::make_unique<RowCodec>(schema);
  }
  static RowVersions Row2(const CellCandidate& a, const CellCandidate& b) {
    RowVersions row;
    row.cells = {a.value, b.value};
    row.cells[0].column_id = 1;
    row.cells[1].column_id = 2;
    row.versions = {a.version, b.version};
    return row;
  }
  RowVersions MergeBothWays(const RowVersions& x, const RowVersions& y) {
    RowVersions xy, yx;
    EXPECT_TRUE(MergeRowVersions(x, y, &xy).ok());
    EXPECT_TRUE(MergeRowVersions(y, x, &yx).ok());
    std::string ex, ey;
    EXPECT_TRUE(codec_->EncodeVersions(xy, &ex).ok());
    EXPECT_TRUE(codec_->EncodeVersions(yx, &ey).ok());
    EXPECT_EQ(ex, ey);
    return xy;
  }
  std::unique_ptr<RowCodec> codec_;
};

TEST_F(RowMergeTest, PartialWriteKeepsOtherCells) {
  CellCandidate none;
  none.value.type = LogicalType::kInt;
  RowVersions stored = Row2(Int(100, 10), Int(100, 20));
  stored.has_liveness = true;
  stored.liveness.write_time_micros = 100;
  RowVersions update = Row2(Int(200, 11), none);  // UPDATE t SET a = 11
  const RowVersions merged = MergeBothWays(stored, update);
  EXPECT_EQ(ValueFromCell(merged.cells[0]), Value::Int(11));
  EXPECT_EQ(ValueFromCell(merged.cells[1]), Value::Int(20));
  EXPECT_EQ(merged.versions[0].write_time_micros, 200);
  EXPECT_EQ(merged.versions[1].write_time_micros, 100);
  EXPECT_TRUE(merged.has_liveness);
  EXPECT_EQ(merged.liveness.write_time_micros, 100);  // an UPDATE writes no liveness

  // An older write arriving later loses.
  const RowVersions late = MergeBothWays(merged, Row2(Int(150, 99), Int(150, 98)));
  EXPECT_EQ(ValueFromCell(late.cells[0]), Value::Int(11));
  EXPECT_EQ(ValueFromCell(late.cells[1]), Value::Int(98));
}

TEST_F(RowMergeTest, RowDeletionHidesOnlyWhatIsAtOrBelowIt) {
  CellCandidate none;
  none.value.type = LogicalType::kInt;
  RowVersions stored = Row2(Int(100, 10), Int(300, 20));
  stored.has_liveness = true;
  stored.liveness.write_time_micros = 100;
  RowVersions deletion = Row2(none, none);
  deletion.has_deletion = true;
  deletion.deletion_time_micros = 200;
  const RowVersions merged = MergeBothWays(stored, deletion);
  EXPECT_FALSE(merged.has_liveness);
  EXPECT_EQ(merged.versions[0].state, CellState::kAbsent);
  EXPECT_EQ(merged.versions[1].state, CellState::kLive);  // written at 300 > 200
  EXPECT_TRUE(RowVisibleAt(merged, codec_->schema(), 0));
  // A write at the deletion's time arriving later stays hidden; one after it shows.
  RowVersions at = MergeBothWays(merged, Row2(Int(200, 5), none));
  EXPECT_EQ(at.versions[0].state, CellState::kAbsent);
  RowVersions after = MergeBothWays(merged, Row2(Int(201, 5), none));
  EXPECT_EQ(ValueFromCell(after.cells[0]), Value::Int(5));
}

TEST_F(RowMergeTest, RowWithoutLivenessDisappearsWithItsCells) {
  CellCandidate none;
  none.value.type = LogicalType::kInt;
  const RowVersions updated = Row2(Int(100, 1), none);  // created by an UPDATE
  EXPECT_TRUE(RowVisibleAt(updated, codec_->schema(), 0));
  const RowVersions deleted = MergeBothWays(updated, Row2(Deletion(150), none));  // DELETE a
  EXPECT_FALSE(RowVisibleAt(deleted, codec_->schema(), 0));
  RowVersions inserted = Row2(none, none);  // INSERT of the key only: liveness
  inserted.has_liveness = true;
  inserted.liveness.write_time_micros = 100;
  EXPECT_TRUE(
      RowVisibleAt(MergeBothWays(inserted, Row2(Deletion(150), none)), codec_->schema(), 0));
  // An expiring cell: gone once expired.
  const RowVersions expiring = Row2(Int(100, 1, 50), none);
  EXPECT_TRUE(RowVisibleAt(expiring, codec_->schema(), 49));
  EXPECT_FALSE(RowVisibleAt(expiring, codec_->schema(), 50));
  // A cell of a dropped column keeps no row: it went with the column.
  TableSchema dropped;
  TableAlteration drop_a;
  drop_a.dropped_columns = {"a"};
  ASSERT_TRUE(codec_->schema().Alter(drop_a, &dropped).ok());
  EXPECT_FALSE(RowVisibleAt(updated, dropped, 0));
  EXPECT_TRUE(RowVisibleAt(Row2(none, Int(100, 1)), dropped, 0));
}

}  // namespace
}  // namespace columnar
