#include "table_format/value.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "tests/table_format/random_values.h"

namespace columnar {
namespace {

Value FloatFromBits(uint32_t bits) { return Value::FromFixedBits(LogicalType::kFloat, bits); }
Value DoubleFromBits(uint64_t bits) { return Value::FromFixedBits(LogicalType::kDouble, bits); }

Value Parse(LogicalType type, const std::string& literal) {
  Value v;
  Status s = Value::FromCqlLiteral(type, literal, &v);
  EXPECT_TRUE(s.ok()) << literal << ": " << s.ToString();
  return v;
}

TEST(LogicalTypeTest, NamesRoundTrip) {
  for (LogicalType type : test::kAllLogicalTypes) {
    LogicalType parsed;
    ASSERT_TRUE(ParseLogicalTypeName(LogicalTypeName(type), &parsed));
    EXPECT_EQ(parsed, type);
  }
  LogicalType parsed;
  EXPECT_TRUE(ParseLogicalTypeName("VarChar", &parsed));
  EXPECT_EQ(parsed, LogicalType::kText);
  EXPECT_TRUE(ParseLogicalTypeName("BIGINT", &parsed));
  EXPECT_EQ(parsed, LogicalType::kBigInt);
  EXPECT_FALSE(ParseLogicalTypeName("counter", &parsed));
  EXPECT_FALSE(ParseLogicalTypeName("", &parsed));
  EXPECT_EQ(PhysicalTypeOfLogical(LogicalType::kTimestamp), PhysicalType::kInt64);
  EXPECT_EQ(PhysicalTypeOfLogical(LogicalType::kDate), PhysicalType::kInt32);
  EXPECT_EQ(PhysicalTypeOfLogical(LogicalType::kFloat), PhysicalType::kFloat32);
  EXPECT_EQ(PhysicalTypeOfLogical(LogicalType::kUuid), PhysicalType::kBytes);
}

TEST(ValueTest, AccessorsKeepBits) {
  EXPECT_TRUE(Value().is_null());
  EXPECT_EQ(Value::Int(-5).int32_value(), -5);
  EXPECT_EQ(Value::BigInt(INT64_MIN).int64_value(), INT64_MIN);
  EXPECT_EQ(Value::Date(-1).int32_value(), -1);
  EXPECT_TRUE(std::signbit(Value::Float(-0.0f).float_value()));
  EXPECT_EQ(FloatFromBits(0x7f800123).FixedBits(), 0x7f800123u);
  EXPECT_EQ(DoubleFromBits(0xfff0000000000042).FixedBits(), 0xfff0000000000042u);
  EXPECT_EQ(Value::Text(std::string("a\0b", 3)).bytes().size(), 3u);
}

// The in-place assignments give what the constructors give, whatever the value held before,
// and a value may take bytes of its own string (a part of it, or all of it).
TEST(ValueTest, AssignmentsReuseTheValue) {
  Value v = Value::Text(std::string(40, 'x'));
  v.AssignBytes(LogicalType::kBlob, Slice("ab\0c", 4));
  EXPECT_EQ(v, Value::Blob(std::string("ab\0c", 4)));
  v.AssignNull();
  EXPECT_EQ(v, Value());
  v.AssignBytes(LogicalType::kText, Slice(std::string(100, 'y')));
  EXPECT_EQ(v, Value::Text(std::string(100, 'y')));
  v.AssignFixedBits(LogicalType::kInt, 7);
  EXPECT_EQ(v, Value::Int(7));
  v.AssignBytes(LogicalType::kText, Slice());
  EXPECT_EQ(v, Value::Text(""));

  v.AssignBytes(LogicalType::kText, Slice("hello world"));
  v.AssignBytes(LogicalType::kText, Slice(v.bytes().data() + 6, 5));
  EXPECT_EQ(v, Value::Text("world"));
  v.AssignBytes(LogicalType::kAscii, Slice(v.bytes()));
  EXPECT_EQ(v, Value::Ascii("world"));
  v.AssignBytes(LogicalType::kAscii, Slice(v.bytes().data(), 2));
  EXPECT_EQ(v, Value::Ascii("wo"));
}

TEST(ValueTest, EqualityIsBitwise) {
  EXPECT_EQ(Value(), Value());
  EXPECT_NE(Value(), Value::Int(0));
  EXPECT_NE(Value::Int(0), Value::Date(0));
  EXPECT_NE(Value::Float(0.0f), Value::Float(-0.0f));
  EXPECT_EQ(FloatFromBits(0x7fc00001), FloatFromBits(0x7fc00001));
  EXPECT_NE(FloatFromBits(0x7fc00001), FloatFromBits(0x7fc00002));
  EXPECT_NE(Value::Text("a"), Value::Blob("a"));
}

// The stated rule: -NaN < -inf < negatives < -0.0 < +0.0 < positives < +inf < +NaN.
TEST(ValueTest, FloatOrderRule) {
  const uint32_t ascending[] = {
      0xffffffff,  // -NaN, largest payload
      0xffc00000,  // -NaN (quiet)
      0xff800001,  // -NaN, smallest payload
      0xff800000,  // -inf
      0xff7fffff,  // -FLT_MAX
      0xbf800000,  // -1
      0x80000001,  // -smallest subnormal
      0x80000000,  // -0.0
      0x00000000,  // +0.0
      0x00000001,  // smallest subnormal
      0x3f800000,  // 1
      0x7f7fffff,  // FLT_MAX
      0x7f800000,  // +inf
      0x7f800001,  // +NaN, smallest payload
      0x7fc00000,  // +NaN (quiet)
      0x7fffffff,  // +NaN, largest payload
  };
  for (size_t i = 0; i < std::size(ascending); i++) {
    for (size_t j = 0; j < std::size(ascending); j++) {
      const int expected = i < j ? -1 : (i > j ? 1 : 0);
      EXPECT_EQ(CompareValues(FloatFromBits(ascending[i]), FloatFromBits(ascending[j])), expected)
          << std::hex << ascending[i] << " vs " << ascending[j];
    }
  }
  const uint64_t doubles[] = {
      0xfff8000000000000, 0xfff0000000000000, 0xbff0000000000000, 0x8000000000000000, 0,
      0x3ff0000000000000, 0x7ff0000000000000, 0x7ff8000000000000};
  for (size_t i = 0; i + 1 < std::size(doubles); i++) {
    EXPECT_LT(CompareValues(DoubleFromBits(doubles[i]), DoubleFromBits(doubles[i + 1])), 0) << i;
  }
}

TEST(ValueTest, OrderAgreesWithNativeOrderOffNaN) {
  test::RandomValues random(7);
  for (int i = 0; i < 5000; i++) {
    const Value a = random.Of(LogicalType::kDouble), b = random.Of(LogicalType::kDouble);
    const double x = a.double_value(), y = b.double_value();
    if (std::isnan(x) || std::isnan(y) || (x == 0 && y == 0)) continue;
    EXPECT_EQ(CompareValues(a, b), x < y ? -1 : (x > y ? 1 : 0)) << x << " " << y;
  }
  EXPECT_LT(CompareValues(Value(), Value::Boolean(false)), 0);
  EXPECT_LT(CompareValues(Value::Boolean(false), Value::Boolean(true)), 0);
  EXPECT_LT(CompareValues(Value::Int(INT32_MIN), Value::Int(-1)), 0);
  EXPECT_LT(CompareValues(Value::Timestamp(-1), Value::Timestamp(0)), 0);
  EXPECT_LT(CompareValues(Value::Blob(""), Value::Blob(std::string(1, '\0'))), 0);
  EXPECT_LT(CompareValues(Value::Blob("\x7f"), Value::Blob("\x80")), 0);  // unsigned
  EXPECT_LT(CompareValues(Value::Text("ab"), Value::Text("b")), 0);
}

TEST(ValueTest, LiteralsRoundTripForEveryType) {
  test::RandomValues random(11);
  for (LogicalType type : test::kAllLogicalTypes) {
    for (int i = 0; i < 500; i++) {
      const Value v = random.Of(type);
      const std::string literal = v.ToCqlLiteral();
      Value parsed;
      Status s = Value::FromCqlLiteral(type, literal, &parsed);
      ASSERT_TRUE(s.ok()) << LogicalTypeName(type) << " " << literal << ": " << s.ToString();
      if (type == LogicalType::kFloat && std::isnan(v.float_value())) {
        EXPECT_TRUE(std::isnan(parsed.float_value()));  // payloads are not printable
      } else if (type == LogicalType::kDouble && std::isnan(v.double_value())) {
        EXPECT_TRUE(std::isnan(parsed.double_value()));
      } else {
        EXPECT_EQ(parsed, v) << LogicalTypeName(type) << " " << literal;
      }
    }
  }
}

TEST(ValueTest, PrintsCqlLiterals) {
  EXPECT_EQ(Value().ToCqlLiteral(), "null");
  EXPECT_EQ(Value::Boolean(true).ToCqlLiteral(), "true");
  EXPECT_EQ(Value::Int(-42).ToCqlLiteral(), "-42");
  EXPECT_EQ(Value::Float(1.5f).ToCqlLiteral(), "1.5");
  EXPECT_EQ(Value::Float(0.1f).ToCqlLiteral(), "0.1");  // shortest round-trip form
  EXPECT_EQ(Value::Double(-std::numeric_limits<double>::infinity()).ToCqlLiteral(), "-Infinity");
  EXPECT_EQ(Value::Double(std::nan("")).ToCqlLiteral(), "NaN");
  EXPECT_EQ(Value::Text("it's").ToCqlLiteral(), "'it''s'");
  EXPECT_EQ(Value::Blob("\xca\xfe").ToCqlLiteral(), "0xcafe");
  EXPECT_EQ(Value::Timestamp(1714564800123).ToCqlLiteral(), "'2024-05-01T12:00:00.123Z'");
  EXPECT_EQ(Value::Timestamp(-1).ToCqlLiteral(), "'1969-12-31T23:59:59.999Z'");
  EXPECT_EQ(Value::Timestamp(INT64_MAX).ToCqlLiteral(), "9223372036854775807");
  EXPECT_EQ(Value::Date(0).ToCqlLiteral(), "'1970-01-01'");
  EXPECT_EQ(Value::Date(INT32_MIN).ToCqlLiteral(), "-2147483648");
  EXPECT_EQ(Value::Uuid(std::string("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17"
                                    "\x40\x00",
                                    16))
                .ToCqlLiteral(),
            "123e4567-e89b-12d3-a456-426614174000");
}

TEST(ValueTest, ParsesCqlLiterals) {
  EXPECT_TRUE(Parse(LogicalType::kInt, "NULL").is_null());
  EXPECT_EQ(Parse(LogicalType::kBoolean, "TRUE"), Value::Boolean(true));
  EXPECT_EQ(Parse(LogicalType::kInt, "-2147483648"), Value::Int(INT32_MIN));
  EXPECT_EQ(Parse(LogicalType::kBigInt, "9223372036854775807"), Value::BigInt(INT64_MAX));
  EXPECT_EQ(Parse(LogicalType::kFloat, "42"), Value::Float(42.0f));
  EXPECT_EQ(Parse(LogicalType::kDouble, "-1.25e-3"), Value::Double(-1.25e-3));
  EXPECT_EQ(Parse(LogicalType::kDouble, "-0"), Value::Double(-0.0));
  EXPECT_EQ(Parse(LogicalType::kFloat, "-infinity"),
            Value::Float(-std::numeric_limits<float>::infinity()));
  EXPECT_EQ(Parse(LogicalType::kText, "'a''b'"), Value::Text("a'b"));
  EXPECT_EQ(Parse(LogicalType::kText, "''"), Value::Text(""));
  EXPECT_EQ(Parse(LogicalType::kBlob, "0xCAFE"), Value::Blob("\xca\xfe"));
  EXPECT_EQ(Parse(LogicalType::kBlob, "0x"), Value::Blob(""));
  EXPECT_EQ(Parse(LogicalType::kTimestamp, "1714564800123"), Value::Timestamp(1714564800123));
  EXPECT_EQ(Parse(LogicalType::kTimestamp, "'2024-05-01'"), Value::Timestamp(1714521600000));
  EXPECT_EQ(Parse(LogicalType::kTimestamp, "'2024-05-01 12:00'"), Value::Timestamp(1714564800000));
  EXPECT_EQ(Parse(LogicalType::kTimestamp, "'2024-05-01T14:00:00.5+0200'"),
            Value::Timestamp(1714564800500));
  EXPECT_EQ(Parse(LogicalType::kTimestamp, "'2024-05-01T11:30:00-00:30'"),
            Value::Timestamp(1714564800000));
  EXPECT_EQ(Parse(LogicalType::kDate, "'2024-02-29'"), Value::Date(19782));
  EXPECT_EQ(Parse(LogicalType::kDate, "'1969-12-31'"), Value::Date(-1));
  EXPECT_EQ(Parse(LogicalType::kDate, "-5"), Value::Date(-5));
}

TEST(ValueTest, RejectsMalformedLiterals) {
  const std::pair<LogicalType, const char*> bad[] = {
      {LogicalType::kBoolean, "yes"},
      {LogicalType::kInt, "2147483648"},
      {LogicalType::kInt, "1.5"},
      {LogicalType::kInt, "+1"},
      {LogicalType::kInt, "'1'"},
      {LogicalType::kBigInt, "9223372036854775808"},
      {LogicalType::kFloat, "1e39"},
      {LogicalType::kFloat, "inf"},
      {LogicalType::kDouble, "0x10"},
      {LogicalType::kDouble, "1."},
      {LogicalType::kDouble, ""},
      {LogicalType::kText, "abc"},
      {LogicalType::kText, "'a'b'"},
      {LogicalType::kText, "'unterminated"},
      {LogicalType::kAscii, "'caf\xc3\xa9'"},
      {LogicalType::kBlob, "0xabc"},
      {LogicalType::kBlob, "cafe"},
      {LogicalType::kUuid, "123e4567-e89b-12d3-a456-42661417400"},
      {LogicalType::kUuid, "123e4567e89b-12d3-a456-4266141740000"},
      {LogicalType::kUuid, "g23e4567-e89b-12d3-a456-426614174000"},
      {LogicalType::kTimestamp, "'2024-13-01'"},
      {LogicalType::kTimestamp, "'2023-02-29'"},
      {LogicalType::kTimestamp, "'2024-05-01T24:00'"},
      {LogicalType::kTimestamp, "'2024-05-01T12:00:00.'"},
      {LogicalType::kTimestamp, "'2024-05-01T12:00Z junk'"},
      {LogicalType::kTimestamp, "'yesterday'"},
      {LogicalType::kDate, "'2024-05-01T00:00'"},
      {LogicalType::kDate, "2147483648"},
  };
  for (const auto& [type, literal] : bad) {
    Value v;
    Status s = Value::FromCqlLiteral(type, literal, &v);
    EXPECT_TRUE(s.IsInvalidArgument()) << LogicalTypeName(type) << " " << literal;
    EXPECT_NE(s.ToString().find(LogicalTypeName(type)), std::string::npos) << s.ToString();
  }
}

TEST(ValueTest, CheckValueForColumnNamesTheColumn) {
  EXPECT_TRUE(CheckValueForColumn(Value::Int(1), LogicalType::kInt, "status").ok());
  Status s = CheckValueForColumn(Value::Text("x"), LogicalType::kInt, "status");
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("'status'"), std::string::npos);
  EXPECT_TRUE(CheckValueForColumn(Value(), LogicalType::kInt, "status").IsInvalidArgument());
  EXPECT_TRUE(
      CheckValueForColumn(Value::Ascii("\xff"), LogicalType::kAscii, "m").IsInvalidArgument());
  EXPECT_TRUE(
      CheckValueForColumn(Value::Uuid("short"), LogicalType::kUuid, "u").IsInvalidArgument());
}

}  // namespace
}  // namespace columnar

namespace columnar {
namespace {

// Ascii values are checked eight bytes at a time, then byte by byte: a byte with its high bit
// set is found at every position of every length, in the words and in the tail.
TEST(ValueTest, AsciiCheckFindsAHighByteAnywhere) {
  for (size_t length = 0; length <= 40; length++) {
    const std::string clean(length, '\x7f');
    EXPECT_TRUE(IsWellFormedBytes(LogicalType::kAscii, clean)) << length;
    for (size_t at = 0; at < length; at++) {
      for (const char high : {'\x80', '\xff', '\xc3'}) {
        std::string bad = clean;
        bad[at] = high;
        EXPECT_FALSE(IsWellFormedBytes(LogicalType::kAscii, bad)) << length << " " << at;
      }
    }
  }
  EXPECT_TRUE(IsWellFormedBytes(LogicalType::kText, std::string("\xc3\xa9", 2)));
}

}  // namespace
}  // namespace columnar
