// The row evaluator's semantics: CQL ALLOW FILTERING with nulls, total order on floats and
// unsigned bytes.
#include "filter/row_matcher.h"

#include <gtest/gtest.h>

#include <limits>

#include "tests/filter/filter_test_util.h"

namespace columnar {
namespace {

class RowMatcherTest : public ::testing::Test {
 protected:
  bool Eval(const Predicate& p, const Row& row) { return Matches(test::MustBind(schema_, p), row); }
  // A row with only column `name` set.
  Row With(const char* name, Value v) {
    Row row(schema_.columns().size());
    row[schema_.FindColumn(name)->id] = std::move(v);
    return row;
  }

  TableSchema schema_ = test::AllTypesSchema();
};

TEST_F(RowMatcherTest, NullCellFailsEveryComparisonAndIn) {
  const Row row = With("c_text", Value::Text("x"));
  for (CompareOp op : kAllCompareOps) {
    EXPECT_FALSE(Eval(Predicate::Compare("c_int", op, Value::Int(1)), row)) << CompareOpSymbol(op);
  }
  EXPECT_FALSE(Eval(Predicate::In("c_int", {Value::Int(0), Value::Int(1)}), row));
  EXPECT_TRUE(Eval(Predicate::IsNull("c_int"), row));
  EXPECT_FALSE(Eval(Predicate::IsNotNull("c_int"), row));
  EXPECT_TRUE(Eval(Predicate::IsNotNull("c_text"), row));
  // A short row: the missing columns are null.
  EXPECT_TRUE(Eval(Predicate::IsNull("c_uuid"), Row{}));
}

TEST_F(RowMatcherTest, FloatsUseTotalOrder) {
  const Value nan = Value::FromFixedBits(LogicalType::kDouble, 0x7ff8000000000000);
  const Value neg_nan = Value::FromFixedBits(LogicalType::kDouble, 0xfff8000000000000);
  const Value inf = Value::Double(std::numeric_limits<double>::infinity());
  const Row nan_row = With("c_double", nan);
  EXPECT_TRUE(Eval(Predicate::Compare("c_double", CompareOp::kGt, inf), nan_row));
  EXPECT_TRUE(Eval(Predicate::Compare("c_double", CompareOp::kEq, nan), nan_row));
  EXPECT_FALSE(Eval(Predicate::Compare("c_double", CompareOp::kNe, nan), nan_row));
  const Value neg_inf = Value::Double(-std::numeric_limits<double>::infinity());
  EXPECT_TRUE(
      Eval(Predicate::Compare("c_double", CompareOp::kLt, neg_inf), With("c_double", neg_nan)));
  const Row neg_zero = With("c_double", Value::Double(-0.0));
  EXPECT_TRUE(Eval(Predicate::Compare("c_double", CompareOp::kLt, Value::Double(0.0)), neg_zero));
  EXPECT_FALSE(Eval(Predicate::Compare("c_double", CompareOp::kEq, Value::Double(0.0)), neg_zero));
}

TEST_F(RowMatcherTest, BytesCompareUnsigned) {
  const Row row = With("c_blob", Value::Blob("\xff"));
  EXPECT_TRUE(Eval(Predicate::Compare("c_blob", CompareOp::kGt, Value::Blob("\x7f")), row));
  EXPECT_TRUE(Eval(Predicate::Compare("c_blob", CompareOp::kGt, Value::Blob("")), row));
  EXPECT_TRUE(Eval(
      Predicate::Compare("c_blob", CompareOp::kLt, Value::Blob(std::string("\xff\x00", 2))), row));
}

TEST_F(RowMatcherTest, AndOrAndEmptyNodes) {
  const Row row = With("c_int", Value::Int(5));
  const Predicate five = Predicate::Compare("c_int", CompareOp::kEq, Value::Int(5));
  const Predicate six = Predicate::Compare("c_int", CompareOp::kEq, Value::Int(6));
  EXPECT_TRUE(Eval(Predicate::Or({six, five}), row));
  EXPECT_FALSE(Eval(Predicate::And({six, five}), row));
  EXPECT_TRUE(Eval(Predicate::And({}), row));
  EXPECT_FALSE(Eval(Predicate::Or({}), row));
  EXPECT_FALSE(Eval(Predicate::In("c_int", {}), row));
}

}  // namespace
}  // namespace columnar
