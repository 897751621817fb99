// Binder: column resolution, literal typing (widening, ascii/text), IN normalisation and the
// errors for unknown columns, mismatched types and mixed IN lists.
#include "filter/binder.h"

#include <gtest/gtest.h>

#include "tests/filter/filter_test_util.h"

namespace columnar {
namespace {

using test::AllTypesSchema;

Status BindStatus(const Predicate& p) {
  BoundPredicate bound;
  return Bind(AllTypesSchema(), p, &bound);
}

void ExpectError(const Predicate& p, const std::vector<std::string>& fragments) {
  const Status s = BindStatus(p);
  ASSERT_TRUE(s.IsInvalidArgument()) << p.ToString() << ": " << s.ToString();
  for (const std::string& fragment : fragments) {
    EXPECT_NE(s.ToString().find(fragment), std::string::npos)
        << "'" << fragment << "' missing from: " << s.ToString();
  }
}

TEST(BinderTest, ResolvesEveryColumnRole) {
  const TableSchema schema = AllTypesSchema();
  const BoundPredicate bound = test::MustBind(
      schema, Predicate::And({Predicate::Compare("pk", CompareOp::kEq, Value::Text("a")),
                              Predicate::Compare("ck", CompareOp::kGt, Value::Int(3)),
                              Predicate::IsNull("c_double")}));
  ASSERT_EQ(bound.children.size(), 3u);
  EXPECT_EQ(bound.children[0].column_id, schema.FindColumn("pk")->id);
  EXPECT_EQ(bound.children[1].column_id, schema.FindColumn("ck")->id);
  EXPECT_EQ(bound.children[2].column_id, schema.FindColumn("c_double")->id);
  EXPECT_EQ(bound.children[2].physical_type, PhysicalType::kFloat64);
  EXPECT_EQ(bound.ReferencedColumns(),
            (std::vector<uint32_t>{schema.FindColumn("pk")->id, schema.FindColumn("ck")->id,
                                   schema.FindColumn("c_double")->id}));
}

TEST(BinderTest, PhysicalConstants) {
  const TableSchema schema = AllTypesSchema();
  const auto constant = [&](const char* column, Value v) {
    return test::MustBind(schema, Predicate::Compare(column, CompareOp::kEq, v)).constant;
  };
  EXPECT_EQ(constant("c_boolean", Value::Boolean(true)), Datum::Fixed(PhysicalType::kInt32, 1));
  EXPECT_EQ(constant("c_date", Value::Date(-3)),
            Datum::Fixed(PhysicalType::kInt32, static_cast<uint32_t>(-3)));
  EXPECT_EQ(constant("c_timestamp", Value::Timestamp(-5)),
            Datum::Fixed(PhysicalType::kInt64, static_cast<uint64_t>(-5)));
  EXPECT_EQ(constant("c_float", Value::FromFixedBits(LogicalType::kFloat, 0x7fc00001)),
            Datum::Fixed(PhysicalType::kFloat32, 0x7fc00001));
  EXPECT_EQ(constant("c_blob", Value::Blob(std::string("\0\xff", 2))),
            Datum::Bytes(std::string("\0\xff", 2)));
}

TEST(BinderTest, WidensIntToBigint) {
  const BoundPredicate bound = test::MustBind(
      AllTypesSchema(), Predicate::Compare("c_bigint", CompareOp::kLt, Value::Int(-7)));
  EXPECT_EQ(bound.literal, Value::BigInt(-7));
  EXPECT_EQ(bound.constant, Datum::Fixed(PhysicalType::kInt64, static_cast<uint64_t>(-7)));
}

TEST(BinderTest, TextAndAsciiLiteralsInterchange) {
  const TableSchema schema = AllTypesSchema();
  EXPECT_EQ(test::MustBind(schema, Predicate::Compare("c_ascii", CompareOp::kEq, Value::Text("x")))
                .literal,
            Value::Ascii("x"));
  EXPECT_EQ(test::MustBind(schema, Predicate::Compare("c_text", CompareOp::kEq, Value::Ascii("y")))
                .literal,
            Value::Text("y"));
  ExpectError(Predicate::Compare("c_ascii", CompareOp::kEq, Value::Text("caf\xc3\xa9")),
              {"'c_ascii'", "ascii", "well-formed"});
}

TEST(BinderTest, InListIsSortedAndDeduplicated) {
  const BoundPredicate bound = test::MustBind(
      AllTypesSchema(), Predicate::In("c_bigint", {Value::BigInt(5), Value::Int(-1),
                                                   Value::BigInt(5), Value::Int(3)}));
  EXPECT_EQ(bound.in_values,
            (std::vector<Value>{Value::BigInt(-1), Value::BigInt(3), Value::BigInt(5)}));
  ASSERT_EQ(bound.in_datums.size(), 3u);
  EXPECT_EQ(bound.in_datums[0], Datum::Fixed(PhysicalType::kInt64, static_cast<uint64_t>(-1)));
}

TEST(BinderTest, InListKeepsDistinctNaNsAndZeros) {
  const BoundPredicate bound = test::MustBind(
      AllTypesSchema(),
      Predicate::In("c_double", {Value::Double(0.0), Value::Double(-0.0),
                                 Value::FromFixedBits(LogicalType::kDouble, 0x7ff8000000000000),
                                 Value::FromFixedBits(LogicalType::kDouble, 0x7ff8000000000001),
                                 Value::Double(0.0)}));
  ASSERT_EQ(bound.in_values.size(), 4u);
  EXPECT_EQ(bound.in_values[0], Value::Double(-0.0));
  EXPECT_EQ(bound.in_values[1], Value::Double(0.0));
}

TEST(BinderTest, UnknownColumn) {
  ExpectError(Predicate::Compare("nope", CompareOp::kEq, Value::Int(1)),
              {"unknown column 'nope'", "ks.filtered"});
  ExpectError(Predicate::Or({Predicate::IsNull("c_int"), Predicate::IsNotNull("missing")}),
              {"unknown column 'missing'"});
}

TEST(BinderTest, TypeMismatchNamesColumnAndTypes) {
  ExpectError(Predicate::Compare("c_int", CompareOp::kEq, Value::Text("abc")),
              {"'c_int'", "is int", "'abc'", "is text"});
  ExpectError(Predicate::Compare("c_text", CompareOp::kEq, Value::Int(3)),
              {"'c_text'", "is text", "is int"});
  ExpectError(Predicate::Compare("c_int", CompareOp::kEq, Value::BigInt(3)),
              {"'c_int'", "is int", "is bigint"});
  ExpectError(Predicate::Compare("c_float", CompareOp::kEq, Value::Double(3)), {"'c_float'"});
  ExpectError(Predicate::Compare("c_blob", CompareOp::kEq, Value::Text("x")), {"'c_blob'"});
  ExpectError(Predicate::Compare("c_timestamp", CompareOp::kEq, Value::BigInt(1)),
              {"'c_timestamp'"});
}

TEST(BinderTest, MalformedUuidLiteral) {
  ExpectError(
      Predicate::Compare("c_uuid", CompareOp::kEq, Value::FromBytes(LogicalType::kUuid, "short")),
      {"'c_uuid'", "uuid"});
}

TEST(BinderTest, InListWithMixedTypes) {
  ExpectError(Predicate::In("c_int", {Value::Int(1), Value::Text("two"), Value::Int(3)}),
              {"IN list", "'c_int'", "is int", "'two'", "is text"});
  ExpectError(Predicate::In("c_text", {Value::Text("a"), Value::Blob("b")}),
              {"IN list", "'c_text'", "is blob"});
}

TEST(BinderTest, NullLiteralsRejected) {
  ExpectError(Predicate::Compare("c_int", CompareOp::kNe, Value()), {"'c_int'", "IS NULL"});
  ExpectError(Predicate::In("c_int", {Value::Int(1), Value()}), {"IN list", "'c_int'"});
}

TEST(BinderTest, DroppedColumnIsUnknown) {
  TableSchema altered;
  TableAlteration alteration;
  alteration.dropped_columns = {"c_int"};
  ASSERT_TRUE(AllTypesSchema().Alter(alteration, &altered).ok());
  BoundPredicate bound;
  const Status s =
      Bind(altered, Predicate::Compare("c_int", CompareOp::kEq, Value::Int(1)), &bound);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

TEST(BinderTest, DepthLimit) {
  Predicate p = Predicate::IsNull("c_int");
  for (int i = 0; i < kMaxPredicateDepth; i++) p = Predicate::And({p});
  ExpectError(p, {"nested deeper"});
}

TEST(BinderTest, FailedBindLeavesOutputUntouched) {
  BoundPredicate bound = test::MustBind(AllTypesSchema(), Predicate::IsNull("c_int"));
  const Status s = Bind(AllTypesSchema(), Predicate::IsNull("nope"), &bound);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(bound.kind, BoundPredicate::Kind::kIsNull);
  EXPECT_EQ(bound.column_name, "c_int");
}

TEST(BinderTest, ToStringReadsLikeCql) {
  const Predicate p = Predicate::And(
      {Predicate::Compare("status", CompareOp::kGe, Value::Int(500)),
       Predicate::Or({Predicate::Compare("method", CompareOp::kEq, Value::Text("GET")),
                      Predicate::IsNull("user_id")}),
       Predicate::In("c", {Value::Int(1), Value::Int(2)})});
  EXPECT_EQ(p.ToString(), "status >= 500 AND (method = 'GET' OR user_id IS NULL) AND c IN (1, 2)");
  EXPECT_EQ(Predicate::And({}).ToString(), "TRUE");
  EXPECT_EQ(Predicate::Or({}).ToString(), "FALSE");
}

}  // namespace
}  // namespace columnar
