// SELECT JSON of frozen collections and tuples (json_text.h), as Cassandra's toJson writes
// them: lists, sets and tuples as arrays, maps as objects whose keys are JSON strings even
// when the key type is not text.
#include <gtest/gtest.h>

#include "table_api/json_text.h"
#include "table_format/cql_parser.h"

namespace columnar {
namespace {

std::string Json(const std::string& type_name, const std::string& literal) {
  LogicalType type;
  EXPECT_TRUE(ParseCqlTypeName(type_name, &type).ok()) << type_name;
  Value value;
  const Status s = Value::FromCqlLiteral(type, literal, &value);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return JsonValueText(value);
}

TEST(FrozenJsonTest, ArraysAndObjectsWithStringKeys) {
  EXPECT_EQ(Json("frozen<list<int>>", "[2, 1]"), "[2, 1]");
  EXPECT_EQ(Json("frozen<set<text>>", "{'b', 'a\"'}"), "[\"a\\\"\", \"b\"]");
  EXPECT_EQ(Json("frozen<map<int, text>>", "{2: 'x', -1: 'y'}"), "{\"-1\": \"y\", \"2\": \"x\"}");
  EXPECT_EQ(Json("frozen<map<text, double>>", "{'n': NaN}"), "{\"n\": \"NaN\"}");
  EXPECT_EQ(Json("frozen<map<frozen<list<int>>, boolean>>", "{[1, 2]: true}"),
            "{\"[1, 2]\": true}");
  EXPECT_EQ(Json("tuple<int, text, date>", "(1, null, '2024-05-01')"), "[1, null, \"2024-05-01\"]");
  EXPECT_EQ(Json("frozen<list<frozen<set<int>>>>", "[{}, {3}]"), "[[], [3]]");
  EXPECT_EQ(Json("frozen<list<int>>", "null"), "null");
}

}  // namespace
}  // namespace columnar
