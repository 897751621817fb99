// The row-group evaluator against the row evaluator on random tables and random AND / OR
// predicates, with columns in plain and dictionary form, with and without zone maps, at every
// SIMD level; plus lazy fetching, unavailable columns and bad column data.
#include "filter/evaluator.h"

#include <gtest/gtest.h>

#include <memory>

#include "filter/row_matcher.h"
#include "filter/zone_map.h"
#include "filter/zone_map_set.h"
#include "tests/filter/filter_test_util.h"

namespace columnar {
namespace {

// A random row group over the all-types schema, in every form the evaluator takes.
struct RowGroup {
  size_t rows = 0;
  std::vector<std::vector<Value>> cells;  // by column id
  std::vector<ColumnVector> vectors;
  std::vector<test::DictionaryColumn> dictionaries;
  ZoneMapSet zone_maps;

  std::vector<Row> AsRows() const { return test::ToRows(cells, rows); }
};

RowGroup RandomRowGroup(const TableSchema& schema, const std::vector<std::vector<Value>>& pools,
                        size_t rows, test::RandomValues* random) {
  RowGroup group;
  group.rows = rows;
  for (const ColumnDef& column : schema.columns()) {
    const test::NullPattern pattern = test::kAllNullPatterns[random->Uniform(4)];
    group.cells.push_back(test::RandomCells(column.type, rows, pattern, pools[column.id], random));
    group.vectors.push_back(test::ToColumnVector(column.type, group.cells.back()));
    group.dictionaries.push_back(test::ToDictionaryColumn(group.vectors.back()));
    ZoneMapOptions options;
    options.max_bound_bytes = 1 + random->Uniform(6);
    group.zone_maps.Set(column.id, BuildZoneMap(group.vectors.back(), options));
  }
  return group;
}

enum class Form { kPlain, kDictionary, kMixed };

MemoryColumnSource SourceFor(const RowGroup& group, Form form, test::RandomValues* random) {
  MemoryColumnSource source;
  for (size_t id = 0; id < group.vectors.size(); id++) {
    const bool dictionary = form == Form::kDictionary || (form == Form::kMixed && random->OneIn(2));
    source.Add(static_cast<uint32_t>(id),
               dictionary ? group.dictionaries[id].Data() : ColumnData::Plain(&group.vectors[id]));
  }
  return source;
}

void ExpectSameAsRowEvaluator(const BoundPredicate& bound, const RowGroup& group,
                              const EvaluationResult& result, const std::string& context) {
  ASSERT_TRUE(result.exact) << context;
  ASSERT_EQ(result.selection.size(), group.rows) << context;
  const std::vector<Row> rows = group.AsRows();
  for (size_t r = 0; r < group.rows; r++) {
    ASSERT_EQ(result.selection.Get(r), Matches(bound, rows[r])) << context << " row " << r;
  }
  // Only predicate columns are fetched, each once.
  const std::vector<uint32_t> referenced = bound.ReferencedColumns();
  std::vector<uint32_t> fetched = result.fetched_columns;
  std::sort(fetched.begin(), fetched.end());
  ASSERT_TRUE(std::adjacent_find(fetched.begin(), fetched.end()) == fetched.end()) << context;
  ASSERT_TRUE(std::includes(referenced.begin(), referenced.end(), fetched.begin(), fetched.end()))
      << context;
}

TEST(EvaluatorTest, RandomPredicatesMatchRowEvaluator) {
  const TableSchema schema = test::AllTypesSchema();
  test::RandomValues random(4242);
  std::vector<std::vector<Value>> pools;
  for (const ColumnDef& column : schema.columns()) {
    pools.push_back(test::ValuePool(column.type, 4, &random));
  }
  test::RandomPredicates predicates(schema, pools, &random);
  const SimdLevel levels[] = {SimdLevel::kScalar, SimdLevel::kBest};
  int mixed = 0;  // evaluations selecting some rows but not all: the test has teeth
  int total = 0;
  for (int round = 0; round < 400; round++) {
    const size_t rows = random.OneIn(10) ? random.Uniform(3) : random.Uniform(301);
    const RowGroup group = RandomRowGroup(schema, pools, rows, &random);
    for (int q = 0; q < 5; q++) {
      const Predicate predicate = predicates.Tree(3);
      const BoundPredicate bound = test::MustBind(schema, predicate);
      for (SimdLevel level : levels) {
        const FilterEvaluator evaluator(bound, level);
        for (Form form : {Form::kPlain, Form::kDictionary, Form::kMixed}) {
          for (bool with_zone_maps : {false, true}) {
            MemoryColumnSource source = SourceFor(group, form, &random);
            EvaluationResult result;
            const Status s = evaluator.Evaluate(rows, &source, &result,
                                                with_zone_maps ? &group.zone_maps : nullptr);
            ASSERT_TRUE(s.ok()) << s.ToString();
            ExpectSameAsRowEvaluator(bound, group, result,
                                     predicate.ToString() + " plan " + evaluator.plan().ToString() +
                                         " form " + std::to_string(static_cast<int>(form)) +
                                         (with_zone_maps ? " zone maps" : "") + " rows " +
                                         std::to_string(rows));
            total++;
            mixed += !result.selection.None() && !result.selection.All();
          }
        }
      }
    }
  }
  EXPECT_GT(mixed, total / 5) << mixed << " of " << total;
}

// A column whose source counts its fetches.
class CountingSource : public MemoryColumnSource {
 public:
  Status Fetch(uint32_t column_id, ColumnData* data) override {
    fetches_++;
    return MemoryColumnSource::Fetch(column_id, data);
  }
  int fetches() const { return fetches_; }

 private:
  int fetches_ = 0;
};

class EvaluatorFixture : public ::testing::Test {
 protected:
  uint32_t Id(const char* name) const { return schema_.FindColumn(name)->id; }
  BoundPredicate BindOrDie(const Predicate& p) const { return test::MustBind(schema_, p); }

  TableSchema schema_ = test::AllTypesSchema();
};

TEST_F(EvaluatorFixture, ConjunctionStopsFetchingOnceNoRowIsLeft) {
  ColumnVector ints(PhysicalType::kInt32);
  ColumnVector texts(PhysicalType::kBytes);
  for (int i = 0; i < 128; i++) {
    ints.Append<int32_t>(200);
    texts.AppendBytes("GET");
  }
  CountingSource source;
  source.Add(Id("c_int"), ColumnData::Plain(&ints));
  source.Add(Id("c_text"), ColumnData::Plain(&texts));
  // The int comparison runs first (cheaper) and leaves no row: the text column is never read.
  const FilterEvaluator evaluator(
      BindOrDie(Predicate::And({Predicate::Compare("c_text", CompareOp::kEq, Value::Text("GET")),
                                Predicate::Compare("c_int", CompareOp::kGe, Value::Int(500))})));
  EvaluationResult result;
  ASSERT_TRUE(evaluator.Evaluate(128, &source, &result).ok());
  EXPECT_TRUE(result.selection.None());
  EXPECT_EQ(result.fetched_columns, std::vector<uint32_t>{Id("c_int")});
  EXPECT_EQ(source.fetches(), 1);
}

TEST_F(EvaluatorFixture, DisjunctionStopsOnceEveryRowIsSelected) {
  ColumnVector ints(PhysicalType::kInt32);
  ColumnVector doubles(PhysicalType::kFloat64);
  for (int i = 0; i < 100; i++) {
    ints.Append<int32_t>(i);
    doubles.Append<double>(i);
  }
  MemoryColumnSource source;
  source.Add(Id("c_int"), ColumnData::Plain(&ints));
  source.Add(Id("c_double"), ColumnData::Plain(&doubles));
  const FilterEvaluator evaluator(
      BindOrDie(Predicate::Or({Predicate::Compare("c_int", CompareOp::kNe, Value::Int(-1)),
                               Predicate::Compare("c_double", CompareOp::kEq, Value::Double(3))})));
  EvaluationResult result;
  ASSERT_TRUE(evaluator.Evaluate(100, &source, &result).ok());
  EXPECT_TRUE(result.selection.All());
  EXPECT_EQ(result.fetched_columns.size(), 1u);
}

TEST_F(EvaluatorFixture, SiblingsOnOneColumnFetchItOnce) {
  ColumnVector ints(PhysicalType::kInt32);
  for (int i = 0; i < 300; i++) ints.Append<int32_t>(i);
  CountingSource source;
  source.Add(Id("c_int"), ColumnData::Plain(&ints));
  const FilterEvaluator evaluator(BindOrDie(Predicate::And(
      {Predicate::Compare("c_int", CompareOp::kGe, Value::Int(10)),
       Predicate::Or({Predicate::Compare("c_int", CompareOp::kLt, Value::Int(20)),
                      Predicate::Compare("c_int", CompareOp::kEq, Value::Int(250))})})));
  EXPECT_TRUE(evaluator.plan().single_column) << evaluator.plan().ToString();
  EvaluationResult result;
  ASSERT_TRUE(evaluator.Evaluate(300, &source, &result).ok());
  EXPECT_EQ(result.selection.Count(), 11u);
  EXPECT_EQ(source.fetches(), 1);
}

TEST_F(EvaluatorFixture, ZoneMapsSettleNodesWithoutFetching) {
  ColumnVector ints(PhysicalType::kInt32);
  for (int i = 0; i < 64; i++) ints.Append<int32_t>(200 + i % 3);
  ZoneMapSet zone_maps;
  zone_maps.Set(Id("c_int"), BuildZoneMap(ints));
  CountingSource source;
  source.Add(Id("c_int"), ColumnData::Plain(&ints));
  EvaluationResult result;
  const FilterEvaluator none(
      BindOrDie(Predicate::Compare("c_int", CompareOp::kGe, Value::Int(500))));
  ASSERT_TRUE(none.Evaluate(64, &source, &result, &zone_maps).ok());
  EXPECT_TRUE(result.selection.None());
  const FilterEvaluator all(
      BindOrDie(Predicate::Compare("c_int", CompareOp::kLt, Value::Int(500))));
  ASSERT_TRUE(all.Evaluate(64, &source, &result, &zone_maps).ok());
  EXPECT_TRUE(result.selection.All());
  EXPECT_EQ(source.fetches(), 0);
}

TEST_F(EvaluatorFixture, UnavailableColumnSelectsPossibleMatches) {
  ColumnVector ints(PhysicalType::kInt32);
  for (int i = 0; i < 10; i++) ints.Append<int32_t>(i);
  MemoryColumnSource source;
  source.Add(Id("c_int"), ColumnData::Plain(&ints));
  const FilterEvaluator evaluator(
      BindOrDie(Predicate::And({Predicate::Compare("c_int", CompareOp::kLt, Value::Int(4)),
                                Predicate::Compare("pk", CompareOp::kEq, Value::Text("x"))})));
  EvaluationResult result;
  ASSERT_TRUE(evaluator.Evaluate(10, &source, &result).ok());
  EXPECT_FALSE(result.exact);
  EXPECT_EQ(result.selection.SelectedRows(), (std::vector<uint32_t>{0, 1, 2, 3}));
}

TEST_F(EvaluatorFixture, DictionaryNullRowsFollowThePredicate) {
  ColumnVector texts(PhysicalType::kBytes);
  for (int i = 0; i < 70; i++) {
    if (i % 3 == 0) {
      texts.AppendNull();
    } else {
      texts.AppendBytes(i % 3 == 1 ? "HTTP/1.1" : "HTTP/2");
    }
  }
  const test::DictionaryColumn dictionary = test::ToDictionaryColumn(texts);
  ASSERT_EQ(dictionary.dictionary.size(), 2u);
  MemoryColumnSource source;
  source.Add(Id("c_text"), dictionary.Data());
  const FilterEvaluator evaluator(BindOrDie(
      Predicate::Or({Predicate::IsNull("c_text"),
                     Predicate::Compare("c_text", CompareOp::kEq, Value::Text("HTTP/2"))})));
  EvaluationResult result;
  ASSERT_TRUE(evaluator.Evaluate(70, &source, &result).ok());
  for (size_t row = 0; row < 70; row++) EXPECT_EQ(result.selection.Get(row), row % 3 != 1) << row;
}

TEST_F(EvaluatorFixture, BadColumnDataIsAnError) {
  ColumnVector ints(PhysicalType::kInt32);
  for (int i = 0; i < 10; i++) ints.Append<int32_t>(i);
  ColumnVector bigints(PhysicalType::kInt64);
  bigints.Append<int64_t>(1);
  const FilterEvaluator evaluator(
      BindOrDie(Predicate::Compare("c_int", CompareOp::kEq, Value::Int(1))));
  EvaluationResult result;

  MemoryColumnSource wrong_type;
  wrong_type.Add(Id("c_int"), ColumnData::Plain(&bigints));
  Status s = evaluator.Evaluate(1, &wrong_type, &result);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("'c_int'"), std::string::npos) << s.ToString();

  MemoryColumnSource wrong_size;
  wrong_size.Add(Id("c_int"), ColumnData::Plain(&ints));
  s = evaluator.Evaluate(11, &wrong_size, &result);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();

  ColumnVector dictionary(PhysicalType::kInt32);
  dictionary.Append<int32_t>(1);
  const std::vector<uint32_t> bad_codes = {0, 1, 0};
  MemoryColumnSource bad_code;
  bad_code.Add(Id("c_int"), ColumnData::Dictionary(&dictionary, bad_codes.data(), 3, Slice()));
  s = evaluator.Evaluate(3, &bad_code, &result);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();

  MemoryColumnSource short_codes;
  short_codes.Add(Id("c_int"), ColumnData::Dictionary(&dictionary, bad_codes.data(), 1, "\x07"));
  s = evaluator.Evaluate(3, &short_codes, &result);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();

  MemoryColumnSource short_bitmap;
  short_bitmap.Add(Id("c_int"), ColumnData::Dictionary(&dictionary, bad_codes.data(), 1, "\x01"));
  s = evaluator.Evaluate(9, &short_bitmap, &result);
  EXPECT_TRUE(s.IsCorruption()) << s.ToString();

  class FailingSource : public ColumnSource {
    Status Fetch(uint32_t, ColumnData*) override { return Status::IOError("disk on fire"); }
  } failing;
  s = evaluator.Evaluate(3, &failing, &result);
  EXPECT_TRUE(s.IsIOError()) << s.ToString();
}

TEST_F(EvaluatorFixture, EmptyRowGroupFetchesNothing) {
  CountingSource source;
  const FilterEvaluator evaluator(BindOrDie(Predicate::IsNull("c_int")));
  EvaluationResult result;
  ASSERT_TRUE(evaluator.Evaluate(0, &source, &result).ok());
  EXPECT_EQ(result.selection.size(), 0u);
  EXPECT_EQ(source.fetches(), 0);
}

TEST_F(EvaluatorFixture, PlanOrdersCheapDecisiveConjunctsFirst) {
  const FilterEvaluator evaluator(BindOrDie(
      Predicate::And({Predicate::Compare("c_text", CompareOp::kEq, Value::Text("HTTP/1.1")),
                      Predicate::Compare("c_int", CompareOp::kGe, Value::Int(500)),
                      Predicate::Compare("c_bigint", CompareOp::kGt, Value::BigInt(1000))})));
  const PlanNode& plan = evaluator.plan();
  ASSERT_EQ(plan.children.size(), 3u);
  EXPECT_EQ(plan.children.back().column_id, Id("c_text")) << plan.ToString();
}

}  // namespace
}  // namespace columnar
