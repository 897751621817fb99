// SELECT results as an aligned table, CSV and JSON lines, for every column type, nulls, and
// values that need quoting or escaping.
#include "tools/shell_result_printer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

namespace columnar {
namespace {

std::string Print(const ResultSet& result, OutputFormat format) {
  std::ostringstream out;
  PrintResultSet(result, format, out);
  return out.str();
}

// One column of each type; the first row has a value in every column, the second only nulls.
ResultSet EveryType() {
  ResultSet result;
  result.column_names = {"t", "a", "i", "b", "f", "d", "ts", "day", "ok", "bin", "id"};
  result.column_types = {LogicalType::kText,      LogicalType::kAscii, LogicalType::kInt,
                         LogicalType::kBigInt,    LogicalType::kFloat, LogicalType::kDouble,
                         LogicalType::kTimestamp, LogicalType::kDate,  LogicalType::kBoolean,
                         LogicalType::kBlob,      LogicalType::kUuid};
  result.rows.push_back({Value::Text("a,\"b\"\nc"), Value::Ascii("it's"), Value::Int(-7),
                         Value::BigInt(9000000000), Value::Float(1.5f),
                         Value::Double(-std::numeric_limits<double>::infinity()),
                         Value::Timestamp(1714557600000), Value::Date(19844), Value::Boolean(true),
                         Value::Blob(std::string("\x01\xff", 2)),
                         Value::Uuid(std::string("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56"
                                                 "\x42\x66\x14\x17\x40\x00",
                                                 16))});
  result.rows.push_back(Row(result.column_names.size()));
  return result;
}

TEST(ShellResultPrinterTest, Table) {
  EXPECT_EQ(
      Print(EveryType(), OutputFormat::kTable),
      "\n"
      " t        | a    | i    | b          | f    | d         | ts                              | "
      "day        | ok   | bin    | id\n"
      "----------+------+------+------------+------+-----------+---------------------------------+-"
      "-----------+------+--------+--------------------------------------\n"
      " a,\"b\"\\nc | it's |   -7 | 9000000000 |  1.5 | -Infinity | 2024-05-01 "
      "10:00:00.000000+0000 | 2024-05-01 | True | 0x01ff | 123e4567-e89b-12d3-a456-426614174000\n"
      "     null | null | null |       null | null |      null |                            null | "
      "      null | null |   null |                                 null\n"
      "\n"
      "(2 rows)\n");
}

// cqlsh's float format: 5 (float) or 12 (double) significant digits plus the digits left of
// the point, %g beyond that range.
TEST(ShellResultPrinterTest, FloatingPointAsCqlshShowsIt) {
  ResultSet result;
  result.column_names = {"f", "d"};
  result.column_types = {LogicalType::kFloat, LogicalType::kDouble};
  result.rows = {{Value::Float(0.1f), Value::Double(47.833333333333336)},
                 {Value::Float(123456.7f), Value::Double(1e-5)},
                 {Value::Float(-0.0f), Value::Double(1e300)},
                 {Value::Float(std::nanf("")), Value::Double(123456789.0)}};
  EXPECT_EQ(Print(result, OutputFormat::kTable),
            "\n"
            " f          | d\n"
            "------------+-----------------\n"
            "        0.1 | 47.833333333333\n"
            " 1.2346e+05 |           1e-05\n"  // as cqlsh: 6 integer digits > 5 for a float
            "         -0 |          1e+300\n"
            "        NaN |       123456789\n"
            "\n"
            "(4 rows)\n");
}

TEST(ShellResultPrinterTest, Csv) {
  EXPECT_EQ(Print(EveryType(), OutputFormat::kCsv),
            "t,a,i,b,f,d,ts,day,ok,bin,id\n"
            "\"a,\"\"b\"\"\nc\",it's,-7,9000000000,1.5,-Infinity,2024-05-01T10:00:00.000Z,"
            "2024-05-01,true,0x01ff,123e4567-e89b-12d3-a456-426614174000\n"
            ",,,,,,,,,,\n");
  ResultSet empty_text;
  empty_text.column_names = {"v"};
  empty_text.column_types = {LogicalType::kText};
  empty_text.rows = {{Value::Text("")}, {Value()}};
  EXPECT_EQ(Print(empty_text, OutputFormat::kCsv), "v\n\"\"\n\n");  // "" is not null
}

TEST(ShellResultPrinterTest, JsonLines) {
  EXPECT_EQ(
      Print(EveryType(), OutputFormat::kJson),
      "{\"t\": \"a,\\\"b\\\"\\nc\", \"a\": \"it's\", \"i\": -7, \"b\": 9000000000, \"f\": 1.5, "
      "\"d\": \"-Infinity\", \"ts\": \"2024-05-01 10:00:00.000Z\", \"day\": \"2024-05-01\", "
      "\"ok\": true, \"bin\": \"0x01ff\", \"id\": \"123e4567-e89b-12d3-a456-426614174000\"}\n"
      "{\"t\": null, \"a\": null, \"i\": null, \"b\": null, \"f\": null, \"d\": null, \"ts\": "
      "null, \"day\": null, \"ok\": null, \"bin\": null, \"id\": null}\n");
  ResultSet odd;
  odd.column_names = {"v", "n", "when"};
  odd.column_types = {LogicalType::kText, LogicalType::kDouble, LogicalType::kTimestamp};
  odd.rows = {{Value::Text(std::string("\t\x01\\", 3)), Value::Double(std::nan("")),
               Value::Timestamp(-400000000000000)}};  // a timestamp outside years 1..9999
  EXPECT_EQ(Print(odd, OutputFormat::kJson),
            "{\"v\": \"\\t\\u0001\\\\\", \"n\": \"NaN\", \"when\": -400000000000000}\n");
}

TEST(ShellResultPrinterTest, FormatNames) {
  OutputFormat format = OutputFormat::kTable;
  EXPECT_TRUE(ParseOutputFormat("csv", &format));
  EXPECT_EQ(format, OutputFormat::kCsv);
  EXPECT_TRUE(ParseOutputFormat("json", &format));
  EXPECT_EQ(format, OutputFormat::kJson);
  EXPECT_TRUE(ParseOutputFormat("table", &format));
  EXPECT_EQ(format, OutputFormat::kTable);
  EXPECT_FALSE(ParseOutputFormat("xml", &format));
}

}  // namespace
}  // namespace columnar
