// Pruning never lies: on random row groups (hard-cut string bounds, value sets or not) and
// random predicates, kNoRowMatches only when no row matches and kAllRowsMatch only when every
// row does; the same over a file's merged column statistics. Plus the verdicts that must
// come out decisive.
#include "filter/prune.h"

#include <gtest/gtest.h>

#include <limits>

#include "filter/file_column_stats.h"
#include "filter/row_matcher.h"
#include "filter/zone_map.h"
#include "tests/filter/filter_test_util.h"

namespace columnar {
namespace {

struct Group {
  std::vector<Row> rows;
  ZoneMapSet zone_maps;
};

Group RandomGroup(const TableSchema& schema, const std::vector<std::vector<Value>>& pools,
                  test::RandomValues* random) {
  const size_t rows = random->OneIn(5) ? random->Uniform(4) : random->Uniform(80);
  std::vector<std::vector<Value>> cells;
  Group group;
  for (const ColumnDef& column : schema.columns()) {
    cells.push_back(test::RandomCells(column.type, rows, test::kAllNullPatterns[random->Uniform(4)],
                                      pools[column.id], random));
    const ZoneMapOptions options{1 + random->Uniform(6), random->Uniform(10), 64};
    // Now and then a column goes without zone map.
    if (!random->OneIn(10)) {
      group.zone_maps.Set(column.id,
                          BuildZoneMap(test::ToColumnVector(column.type, cells.back()), options));
    }
  }
  group.rows = test::ToRows(cells, rows);
  return group;
}

size_t CountMatches(const BoundPredicate& bound, const std::vector<Row>& rows) {
  size_t count = 0;
  for (const Row& row : rows) count += Matches(bound, row);
  return count;
}

void ExpectSound(PruneResult verdict, size_t matches, size_t rows, const std::string& context) {
  if (verdict == PruneResult::kNoRowMatches) {
    ASSERT_EQ(matches, 0u) << context;
  }
  if (verdict == PruneResult::kAllRowsMatch) {
    ASSERT_EQ(matches, rows) << context;
  }
}

class PruneProperty : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const ColumnDef& column : schema_.columns()) {
      // Small pools: value sets and tight bounds make decisive verdicts common.
      pools_.push_back(test::ValuePool(column.type, 3, &random_));
    }
  }

  TableSchema schema_ = test::AllTypesSchema();
  test::RandomValues random_{31337};
  std::vector<std::vector<Value>> pools_;
};

TEST_F(PruneProperty, RowGroupVerdictsAreSound) {
  test::RandomPredicates predicates(schema_, pools_, &random_);
  size_t decisive[3] = {0, 0, 0};
  for (int round = 0; round < 3000; round++) {
    const Group group = RandomGroup(schema_, pools_, &random_);
    for (int q = 0; q < 4; q++) {
      const Predicate predicate = q == 0 ? predicates.Leaf() : predicates.Tree(3);
      const BoundPredicate bound = test::MustBind(schema_, predicate);
      const PruneResult verdict = Prune(bound, group.zone_maps);
      decisive[static_cast<int>(verdict)]++;
      ExpectSound(verdict, CountMatches(bound, group.rows), group.rows.size(),
                  predicate.ToString() + " -> " + PruneResultName(verdict));
    }
  }
  // The property would hold trivially for a pruner that always says maybe.
  EXPECT_GT(decisive[static_cast<int>(PruneResult::kNoRowMatches)], 1000u);
  EXPECT_GT(decisive[static_cast<int>(PruneResult::kAllRowsMatch)], 500u);
}

TEST_F(PruneProperty, FileVerdictsAreSound) {
  test::RandomPredicates predicates(schema_, pools_, &random_);
  for (int round = 0; round < 500; round++) {
    FileColumnStatsBuilder builder(random_.Uniform(10));
    std::vector<Row> all_rows;
    for (size_t groups = 1 + random_.Uniform(5); groups > 0; groups--) {
      Group group = RandomGroup(schema_, pools_, &random_);
      builder.AddRowGroup(group.zone_maps);
      all_rows.insert(all_rows.end(), group.rows.begin(), group.rows.end());
    }
    ZoneMapSet stats;
    ASSERT_TRUE(ParseFileColumnStats(builder.Serialize(), &stats).ok());
    for (int q = 0; q < 4; q++) {
      const Predicate predicate = predicates.Tree(3);
      const BoundPredicate bound = test::MustBind(schema_, predicate);
      const PruneResult verdict = Prune(bound, stats);
      ExpectSound(verdict, CountMatches(bound, all_rows), all_rows.size(),
                  predicate.ToString() + " -> " + PruneResultName(verdict));
    }
  }
}

class PruneCases : public ::testing::Test {
 protected:
  PruneResult Verdict(const Predicate& p) const {
    return Prune(test::MustBind(schema_, p), zone_maps_);
  }
  void AddColumn(const char* name, const ColumnVector& column, ZoneMapOptions options = {}) {
    zone_maps_.Set(schema_.FindColumn(name)->id, BuildZoneMap(column, options));
  }

  TableSchema schema_ = test::AllTypesSchema();
  ZoneMapSet zone_maps_;
};

TEST_F(PruneCases, RangesAgainstBounds) {
  ColumnVector status(PhysicalType::kInt32);
  for (int i = 0; i < 128; i++) status.Append<int32_t>(200 + (i % 40) * 5);  // 200..395
  AddColumn("c_int", status);
  const auto cmp = [](CompareOp op, int v) {
    return Predicate::Compare("c_int", op, Value::Int(v));
  };
  EXPECT_EQ(Verdict(cmp(CompareOp::kGe, 500)), PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(cmp(CompareOp::kGt, 395)), PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(cmp(CompareOp::kGe, 395)), PruneResult::kMaybe);
  EXPECT_EQ(Verdict(cmp(CompareOp::kLt, 200)), PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(cmp(CompareOp::kGe, 200)), PruneResult::kAllRowsMatch);
  EXPECT_EQ(Verdict(cmp(CompareOp::kEq, 100)), PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(cmp(CompareOp::kNe, 100)), PruneResult::kAllRowsMatch);
  EXPECT_EQ(Verdict(cmp(CompareOp::kEq, 300)), PruneResult::kMaybe);
  EXPECT_EQ(Verdict(Predicate::In("c_int", {Value::Int(1), Value::Int(999)})),
            PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(Predicate::IsNull("c_int")), PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(Predicate::IsNotNull("c_int")), PruneResult::kAllRowsMatch);
  EXPECT_EQ(Verdict(Predicate::And({cmp(CompareOp::kGe, 200), cmp(CompareOp::kGe, 500)})),
            PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(Predicate::Or({cmp(CompareOp::kGe, 200), cmp(CompareOp::kGe, 500)})),
            PruneResult::kAllRowsMatch);
  // No zone map for the column: nothing is known.
  EXPECT_EQ(Verdict(Predicate::IsNull("c_bigint")), PruneResult::kMaybe);
}

TEST_F(PruneCases, ValueSetsDecideExactly) {
  ColumnVector protocol(PhysicalType::kBytes);
  for (int i = 0; i < 100; i++) protocol.AppendBytes(i % 3 == 0 ? "HTTP/1.1" : "HTTP/2");
  AddColumn("c_text", protocol);
  const auto eq = [](const char* v) {
    return Predicate::Compare("c_text", CompareOp::kEq, Value::Text(v));
  };
  EXPECT_EQ(Verdict(eq("HTTP/1.0")), PruneResult::kNoRowMatches);  // inside the bounds
  EXPECT_EQ(Verdict(eq("HTTP/2")), PruneResult::kMaybe);
  EXPECT_EQ(Verdict(Predicate::Or({eq("HTTP/2"), eq("HTTP/1.1")})), PruneResult::kAllRowsMatch);
  EXPECT_EQ(Verdict(Predicate::In("c_text", {Value::Text("HTTP/1.1"), Value::Text("HTTP/2")})),
            PruneResult::kAllRowsMatch);
}

TEST_F(PruneCases, NullsKeepComparisonsFromMatchingEverywhere) {
  ColumnVector column(PhysicalType::kInt32);
  column.Append<int32_t>(7);
  column.AppendNull();
  AddColumn("c_int", column, ZoneMapOptions{32, 0, 64});  // bounds only
  EXPECT_EQ(Verdict(Predicate::Compare("c_int", CompareOp::kEq, Value::Int(7))),
            PruneResult::kMaybe);
  EXPECT_EQ(Verdict(Predicate::Compare("c_int", CompareOp::kNe, Value::Int(7))),
            PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(Predicate::IsNull("c_int")), PruneResult::kMaybe);
}

TEST_F(PruneCases, NaNIsAboveInfinity) {
  AddColumn("c_double",
            test::ToColumnVector(LogicalType::kDouble,
                                 {Value::Double(1.0),
                                  Value::FromFixedBits(LogicalType::kDouble, 0x7ff8000000000000)}),
            ZoneMapOptions{32, 0, 64});
  const Value inf = Value::Double(std::numeric_limits<double>::infinity());
  EXPECT_EQ(Verdict(Predicate::Compare("c_double", CompareOp::kGt, inf)), PruneResult::kMaybe);
  EXPECT_EQ(Verdict(Predicate::Compare("c_double", CompareOp::kLt, Value::Double(-0.0))),
            PruneResult::kNoRowMatches);
}

TEST_F(PruneCases, CutStringBoundsStayCorrect) {
  ColumnVector column(PhysicalType::kBytes);
  column.AppendBytes("abcdef");
  column.AppendBytes("abzzzz");
  AddColumn("c_text", column, ZoneMapOptions{2, 0, 64});  // min "ab" (cut), max "ac" (rounded)
  const auto cmp = [](CompareOp op, const char* v) {
    return Predicate::Compare("c_text", op, Value::Text(v));
  };
  EXPECT_EQ(Verdict(cmp(CompareOp::kEq, "ab")), PruneResult::kNoRowMatches);  // cut min is strict
  EXPECT_EQ(Verdict(cmp(CompareOp::kGt, "ab")), PruneResult::kAllRowsMatch);
  EXPECT_EQ(Verdict(cmp(CompareOp::kGe, "ac")),
            PruneResult::kNoRowMatches);  // rounded max is strict
  EXPECT_EQ(Verdict(cmp(CompareOp::kLt, "ac")), PruneResult::kAllRowsMatch);
  EXPECT_EQ(Verdict(cmp(CompareOp::kEq, "abzzzz")), PruneResult::kMaybe);
}

TEST_F(PruneCases, EmptyRunMatchesNothing) {
  AddColumn("c_int", ColumnVector(PhysicalType::kInt32));
  EXPECT_EQ(Verdict(Predicate::IsNull("c_int")), PruneResult::kNoRowMatches);
  EXPECT_EQ(Verdict(Predicate::Compare("c_int", CompareOp::kNe, Value::Int(1))),
            PruneResult::kNoRowMatches);
}

}  // namespace
}  // namespace columnar
