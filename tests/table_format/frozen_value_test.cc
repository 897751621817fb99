// Frozen collections and tuples in the format layer: the CQL type parser and the names schemas
// store, the canonical cell encoding (fixed expected bytes), the key codec component, literals
// and their errors, and a property test that memcmp order of the encodings is Cassandra's
// order of frozen values (checked against an independent model comparator).
#include "table_format/frozen_value.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "table_format/cql_parser.h"
#include "table_format/key_codec.h"
#include "table_format/schema.h"

namespace columnar {
namespace {

LogicalType TypeOf(const std::string& name) {
  LogicalType type = LogicalType::kBoolean;
  const Status s = ParseCqlTypeName(name, &type);
  EXPECT_TRUE(s.ok()) << name << ": " << s.ToString();
  return type;
}

Value Literal(LogicalType type, const std::string& literal) {
  Value value;
  const Status s = Value::FromCqlLiteral(type, literal, &value);
  EXPECT_TRUE(s.ok()) << literal << ": " << s.ToString();
  return value;
}

std::string SpacedHex(const std::string& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string ErrorOf(LogicalType type, const std::string& literal) {
  Value value;
  const Status s = Value::FromCqlLiteral(type, literal, &value);
  EXPECT_FALSE(s.ok()) << literal << " parsed as " << value.ToCqlLiteral();
  return s.ToString();
}

TEST(FrozenTypeTest, TypeNamesParseToCanonicalNamesAndOneHandlePerType) {
  EXPECT_STREQ(LogicalTypeName(TypeOf("frozen<list<int>>")), "frozen<list<int>>");
  EXPECT_STREQ(LogicalTypeName(TypeOf("FROZEN<Map<varchar,list<int>>>")),
               "frozen<map<text, frozen<list<int>>>>");
  EXPECT_EQ(TypeOf("frozen<map<text, list<int>>>"), TypeOf("frozen<map<text, frozen<list<int>>>>"));
  EXPECT_EQ(TypeOf("tuple<int, text>"), TypeOf("frozen<tuple<int,text>>"));
  EXPECT_STREQ(LogicalTypeName(TypeOf("tuple<int, text>")), "frozen<tuple<int, text>>");
  EXPECT_NE(TypeOf("frozen<list<int>>"), TypeOf("frozen<set<int>>"));
  EXPECT_TRUE(IsBytesType(TypeOf("frozen<set<uuid>>")));
  EXPECT_EQ(PhysicalTypeOfLogical(TypeOf("frozen<set<uuid>>")), PhysicalType::kBytes);
  const FrozenType& map = FrozenTypeOf(TypeOf("frozen<map<text, frozen<set<int>>>>"));
  EXPECT_EQ(map.kind, FrozenKind::kMap);
  EXPECT_EQ(map.elements[0], LogicalType::kText);
  EXPECT_EQ(map.elements[1], TypeOf("frozen<set<int>>"));
  EXPECT_EQ(map.depth, 2);
  // Scalars keep their fast path and their enum values.
  EXPECT_EQ(TypeOf("bigint"), LogicalType::kBigInt);
  EXPECT_FALSE(IsFrozenType(LogicalType::kUuid));
}

TEST(FrozenTypeTest, BadTypeNamesAreRefused) {
  LogicalType type;
  for (const char* name : {"list<int>", "frozen<int>", "frozen<list<int>", "frozen<list<int, int>>",
                           "frozen<map<int>>", "tuple<>", "frozen<list<counter>>",
                           "frozen<list<integer>>", "frozen<list<int>> x"}) {
    EXPECT_FALSE(ParseCqlTypeName(name, &type).ok()) << name;
  }
  std::string deep = "int";
  for (int i = 0; i < kMaxFrozenTypeDepth + 1; i++) deep = "frozen<list<" + deep + ">>";
  const Status s = ParseCqlTypeName(deep, &type);
  EXPECT_NE(s.ToString().find("nest at most 16 levels"), std::string::npos) << s.ToString();
}

TEST(FrozenTypeTest, SchemasWithFrozenColumnsRoundTripThroughSerializeAndCql) {
  CreateTableStatement statement;
  const Status s = ParseCreateTable(
      "CREATE TABLE ks.t (k frozen<tuple<int, text>>, c frozen<list<int>>, "
      "m frozen<map<text, frozen<set<int>>>>, t tuple<int, frozen<list<text>>>, "
      "PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)",
      &statement);
  ASSERT_TRUE(s.ok()) << s.ToString();
  const TableSchema& schema = statement.schema;
  TableSchema read;
  ASSERT_TRUE(TableSchema::Deserialize(schema.Serialize(), &read).ok()) << schema.Serialize();
  EXPECT_EQ(read, schema);
  EXPECT_EQ(read.FindColumn("m")->type, TypeOf("frozen<map<text, frozen<set<int>>>>"));
  EXPECT_NE(schema.ToCql().find("    m frozen<map<text, frozen<set<int>>>>,\n"), std::string::npos)
      << schema.ToCql();
  EXPECT_NE(schema.ToCql().find("    t frozen<tuple<int, frozen<list<text>>>>,\n"),
            std::string::npos)
      << schema.ToCql();
  CreateTableStatement again;
  ASSERT_TRUE(ParseCreateTable(schema.ToCql(), &again).ok()) << schema.ToCql();
  EXPECT_EQ(again.schema.Serialize(), schema.Serialize());
}

TEST(FrozenValueTest, CanonicalBytesAreTheDocumentedLayout) {
  // frozen_value.h's example.
  EXPECT_EQ(SpacedHex(Literal(TypeOf("frozen<map<text, int>>"), "{'b': 2, 'a': 1}").bytes()),
            "01 61 00 01 80 00 00 01 01 62 00 01 80 00 00 02 00");
  EXPECT_EQ(SpacedHex(Literal(TypeOf("frozen<list<int>>"), "[2, 1, 2]").bytes()),
            "01 80 00 00 02 01 80 00 00 01 01 80 00 00 02 00");
  // Sets sorted and deduplicated.
  EXPECT_EQ(SpacedHex(Literal(TypeOf("frozen<set<text>>"), "{'b', 'a', 'b'}").bytes()),
            "01 61 00 01 01 62 00 01 00");
  // Tuples: all fields, null first; a short literal fills trailing nulls.
  EXPECT_EQ(SpacedHex(Literal(TypeOf("tuple<int, text, boolean>"), "(-1, null)").bytes()),
            "01 7f ff ff ff 00 00");
  // Empty collections are values (one end byte), not null.
  const Value empty = Literal(TypeOf("frozen<list<int>>"), "[]");
  EXPECT_FALSE(empty.is_null());
  EXPECT_EQ(SpacedHex(empty.bytes()), "00");
  EXPECT_EQ(SpacedHex(Literal(TypeOf("frozen<list<frozen<set<int>>>>"), "[{}, {1}]").bytes()),
            "01 00 01 01 80 00 00 01 00 00");
  // A repeated map key keeps its last value.
  EXPECT_EQ(Literal(TypeOf("frozen<map<int, text>>"), "{1: 'x', 1: 'y'}").ToCqlLiteral(),
            "{1: 'y'}");
}

TEST(FrozenValueTest, KeyComponentIsTheCanonicalBytesEscapedLikeABlob) {
  const Value list = Literal(TypeOf("frozen<list<int>>"), "[1]");
  ASSERT_EQ(SpacedHex(list.bytes()), "01 80 00 00 01 00");
  std::string asc, desc;
  ASSERT_TRUE(EncodeKeyComponent(list, list.type(), ClusteringOrder::kAsc, "c", &asc).ok());
  ASSERT_TRUE(EncodeKeyComponent(list, list.type(), ClusteringOrder::kDesc, "c", &desc).ok());
  // 01 | 80 00 00 01 | 00, each 00 escaped as 00 ff, then the terminator 00 01.
  EXPECT_EQ(SpacedHex(asc), "01 80 00 ff 00 ff 01 00 ff 00 01");
  EXPECT_EQ(SpacedHex(desc), "fe 7f ff 00 ff 00 fe ff 00 ff fe");
  for (const std::string* encoded : {&asc, &desc}) {
    Slice in(*encoded);
    Value decoded;
    const ClusteringOrder order = encoded == &asc ? ClusteringOrder::kAsc : ClusteringOrder::kDesc;
    ASSERT_TRUE(DecodeKeyComponent(&in, list.type(), order, &decoded).ok());
    EXPECT_TRUE(in.empty());
    EXPECT_EQ(decoded, list);
  }
  // Skipping a component (value == nullptr, as PartitionKeyLength does) checks it too.
  Slice skip(asc);
  EXPECT_TRUE(DecodeKeyComponent(&skip, list.type(), ClusteringOrder::kAsc, nullptr).ok());
  EXPECT_TRUE(skip.empty());
  // A non-canonical value (set out of order) is refused on the way in and on the way out.
  const LogicalType set = TypeOf("frozen<set<int>>");
  const Value unsorted =
      Value::FromBytes(set, std::string("\x01\x80\0\0\x02\x01\x80\0\0\x01\0", 11));
  std::string out;
  EXPECT_TRUE(
      EncodeKeyComponent(unsorted, set, ClusteringOrder::kAsc, "c", &out).IsInvalidArgument());
  EXPECT_FALSE(IsCanonicalFrozenValue(set, unsorted.bytes()));
}

TEST(FrozenValueTest, LiteralsPrintAndParseBack) {
  const std::pair<const char*, const char*> cases[] = {
      {"frozen<list<int>>", "[1, -2, 3]"},
      {"frozen<set<text>>", "{'a', 'it''s'}"},
      {"frozen<map<text, double>>", "{'a': 1.5, 'b': -Infinity}"},
      {"tuple<int, text, boolean>", "(1, 'x', null)"},
      {"frozen<map<frozen<list<int>>, frozen<set<text>>>>", "{[]: {}, [1, 2]: {'a'}}"},
      {"frozen<list<timestamp>>", "['2024-05-01T10:00:05.000Z']"},
      {"frozen<set<uuid>>", "{123e4567-e89b-12d3-a456-426614174000}"},
      {"frozen<list<blob>>", "[0xcafe, 0x]"},
      {"tuple<date, frozen<tuple<int, int>>>", "('2024-05-01', (1, null))"},
  };
  for (const auto& [type_name, literal] : cases) {
    const LogicalType type = TypeOf(type_name);
    const Value value = Literal(type, literal);
    EXPECT_EQ(value.ToCqlLiteral(), literal) << type_name;
    EXPECT_EQ(Literal(type, value.ToCqlLiteral()), value) << type_name;
  }
  // Whitespace, element order and duplicates do not matter; null is null.
  EXPECT_EQ(Literal(TypeOf("frozen<set<int>>"), " { 3,1 , 2,1 } ").ToCqlLiteral(), "{1, 2, 3}");
  EXPECT_TRUE(Literal(TypeOf("frozen<set<int>>"), "null").is_null());
}

TEST(FrozenValueTest, BadLiteralsNameTheTypeAndTheElement) {
  const LogicalType list = TypeOf("frozen<list<int>>");
  EXPECT_EQ(ErrorOf(list, "[1, 'a']"),
            "Invalid argument: invalid frozen<list<int>> literal [1, 'a']: element 2: invalid int "
            "literal 'a': expected a 32-bit integer (near string 'a')");
  EXPECT_NE(ErrorOf(list, "[1, null]").find("element 2: null is not allowed inside a collection"),
            std::string::npos);
  EXPECT_NE(ErrorOf(list, "{1}").find("expected '[' in a frozen<list<int>> literal"),
            std::string::npos);
  EXPECT_NE(ErrorOf(list, "[1, 2")
                .find("expected ',' or ']' after element 2 of a "
                      "frozen<list<int>> literal (at the end"),
            std::string::npos);
  EXPECT_NE(ErrorOf(list, "[1] [2]").find("after the end of the value"), std::string::npos);
  EXPECT_NE(ErrorOf(list, "[[1]]").find("element 1: expected a int value"), std::string::npos);
  const LogicalType map = TypeOf("frozen<map<text, frozen<list<int>>>>");
  EXPECT_NE(ErrorOf(map, "{'a': [1, 2.5]}").find("value 1, element 2: invalid int literal 2.5"),
            std::string::npos);
  EXPECT_NE(ErrorOf(map, "{'a', 'b'}").find("key 1: expected ':'"), std::string::npos);
  const LogicalType tuple = TypeOf("tuple<int, text>");
  EXPECT_NE(ErrorOf(tuple, "(1, 'a', 2)").find("frozen<tuple<int, text>> has only 2 fields"),
            std::string::npos);
  EXPECT_NE(ErrorOf(tuple, "('a', 1)").find("field 1: invalid int literal 'a'"), std::string::npos);
}

TEST(FrozenValueTest, EncodeRefusesElementsOfTheWrongType) {
  Value out;
  EXPECT_TRUE(
      EncodeFrozenValue(TypeOf("frozen<list<int>>"), {Value::Int(1), Value::Text("x")}, &out)
          .IsInvalidArgument());
  EXPECT_TRUE(EncodeFrozenValue(TypeOf("frozen<set<int>>"), {Value()}, &out).IsInvalidArgument());
  EXPECT_TRUE(EncodeFrozenValue(TypeOf("frozen<map<int, int>>"), {Value::Int(1)}, &out)
                  .IsInvalidArgument());
  ASSERT_TRUE(
      EncodeFrozenValue(TypeOf("frozen<set<int>>"), {Value::Int(2), Value::Int(1)}, &out).ok());
  FrozenElements elements;
  ASSERT_TRUE(DecodeFrozenValue(out.type(), out.bytes(), &elements).ok());
  EXPECT_EQ(elements, (FrozenElements{Value::Int(1), Value::Int(2)}));
  // Truncated or trailing bytes are corruption, never a crash.
  for (size_t n = 0; n < out.bytes().size(); n++) {
    EXPECT_TRUE(
        DecodeFrozenValue(out.type(), Slice(out.bytes().data(), n), &elements).IsCorruption());
  }
  EXPECT_TRUE(DecodeFrozenValue(out.type(), out.bytes() + "x", &elements).IsCorruption());
}

// ---- order property ----

// Cassandra's comparison of frozen values on decoded elements (ListType / SetType / MapType /
// TupleType compare), written independently of the encoding: element by element, then the
// shorter first; maps key then value; tuples field by field with null first.
int ModelCompare(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return static_cast<int>(!a.is_null()) - !b.is_null();
  if (!IsFrozenType(a.type())) return CompareValues(a, b);
  FrozenElements x, y;
  EXPECT_TRUE(DecodeFrozenValue(a.type(), a.bytes(), &x).ok());
  EXPECT_TRUE(DecodeFrozenValue(b.type(), b.bytes(), &y).ok());
  for (size_t i = 0; i < x.size() && i < y.size(); i++) {
    const int c = ModelCompare(x[i], y[i]);
    if (c != 0) return c;
  }
  return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
}

class RandomFrozen {
 public:
  explicit RandomFrozen(uint32_t seed) : rng_(seed) {}

  Value Of(LogicalType type) {
    if (!IsFrozenType(type)) return Scalar(type);
    const FrozenType& frozen = FrozenTypeOf(type);
    FrozenElements elements;
    if (frozen.kind == FrozenKind::kTuple) {
      for (LogicalType field : frozen.elements) {
        elements.push_back(Pick(4) == 0 ? Value() : Of(field));
      }
    } else {
      const int n = Pick(4);
      for (int i = 0; i < n; i++) {
        for (LogicalType element : frozen.elements) elements.push_back(Of(element));
      }
    }
    Value out;
    EXPECT_TRUE(EncodeFrozenValue(type, elements, &out).ok());
    return out;
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  Value Scalar(LogicalType type) {
    switch (type) {
      case LogicalType::kInt:
        return Value::Int(Pick(5) - 2);
      case LogicalType::kDouble: {
        static const double kDoubles[] = {-1.5, -0.0, 0.0, 2.0, -1e300};
        return Value::Double(kDoubles[Pick(5)]);
      }
      default: {
        static const char* const kTexts[] = {"", "a", "ab", "b"};
        std::string text = kTexts[Pick(4)];
        if (Pick(5) == 0) text.push_back('\0');
        return Value::Text(text);
      }
    }
  }

  std::mt19937 rng_;
};

TEST(FrozenValueTest, MemcmpOrderOfCellAndKeyEncodingsIsCassandrasOrder) {
  const char* const type_names[] = {
      "frozen<list<int>>",
      "frozen<set<text>>",
      "frozen<map<text, double>>",
      "tuple<int, text>",
      "frozen<list<frozen<set<int>>>>",
      "frozen<map<frozen<list<text>>, frozen<tuple<int, double>>>>",
      "frozen<set<frozen<tuple<text, int>>>>",
  };
  RandomFrozen random(20261202);
  for (const char* type_name : type_names) {
    const LogicalType type = TypeOf(type_name);
    std::vector<Value> values;
    for (int i = 0; i < 150; i++) values.push_back(random.Of(type));
    for (const Value& a : values) {
      // Canonical: sets and map keys strictly ascending under the model order.
      FrozenElements elements;
      ASSERT_TRUE(DecodeFrozenValue(type, a.bytes(), &elements).ok());
      const FrozenKind kind = FrozenTypeOf(type).kind;
      const size_t step = kind == FrozenKind::kMap ? 2 : 1;
      for (size_t i = step;
           kind != FrozenKind::kList && kind != FrozenKind::kTuple && i < elements.size();
           i += step) {
        EXPECT_LT(ModelCompare(elements[i - step], elements[i]), 0) << a.ToCqlLiteral();
      }
    }
    for (size_t i = 0; i < values.size(); i++) {
      for (size_t j = 0; j < values.size(); j += 7) {
        const Value& a = values[i];
        const Value& b = values[j];
        const int model = ModelCompare(a, b);
        const auto sign = [](int c) { return (c > 0) - (c < 0); };
        EXPECT_EQ(sign(Slice(a.bytes()).compare(b.bytes())), sign(model))
            << type_name << ": " << a.ToCqlLiteral() << " vs " << b.ToCqlLiteral();
        EXPECT_EQ(sign(CompareValues(a, b)), sign(model));
        for (ClusteringOrder order : {ClusteringOrder::kAsc, ClusteringOrder::kDesc}) {
          std::string ka, kb;
          ASSERT_TRUE(EncodeKeyComponent(a, type, order, "c", &ka).ok());
          ASSERT_TRUE(EncodeKeyComponent(b, type, order, "c", &kb).ok());
          const int expected = order == ClusteringOrder::kAsc ? sign(model) : -sign(model);
          EXPECT_EQ(sign(Slice(ka).compare(kb)), expected)
              << type_name << ": " << a.ToCqlLiteral() << " vs " << b.ToCqlLiteral();
        }
      }
    }
  }
}

}  // namespace
}  // namespace columnar
