// Table::ImportCsv: what ExportCsv writes reads back to equal rows (every type, nulls, NaN,
// -0.0, infinities, empty strings, quotes, commas and line breaks in text, blobs); hand-written
// files with a header, CRLF and cqlsh's forms; and a bad record stops the import at its line
// with every row before it written and none after, whether the record cannot be parsed or the
// table refuses its row, at any batch size.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "table_api/csv_reader.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr char kEveryType[] =
    "CREATE TABLE ks.%s (k int, c bigint, b boolean, f float, d double, ts timestamp, "
    "day date, t text, a ascii, bl blob, u uuid, PRIMARY KEY ((k), c))";

class CsvImportTest : public ::testing::TestWithParam<TableFormat> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(Database::Open(DatabaseOptions(), dir_.path(), &db_).ok());
    source_ = Create("source");
    target_ = Create("target");
  }

  Table* Create(const std::string& name) {
    char cql[512];
    std::snprintf(cql, sizeof(cql), kEveryType, name.c_str());
    TableStorage storage;
    storage.format = GetParam();
    Table* table = nullptr;
    EXPECT_TRUE(db_->CreateTable(cql, storage, &table).ok());
    return table;
  }

  std::string WriteFile(const std::string& name, const std::string& text) {
    const std::string path = dir_.path() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  static std::vector<Row> AllRows(Table* table) {
    ResultSet result;
    SelectQuery query;  // every partition
    EXPECT_TRUE(table->Select(query, &result).ok());
    return result.rows;
  }

  static std::vector<int64_t> ClusteringValues(Table* table) {
    std::vector<int64_t> values;
    for (const Row& row : AllRows(table)) values.push_back(row[1].int64_value());
    return values;
  }

  TempDir dir_{"csv-import"};
  std::unique_ptr<Database> db_;
  Table* source_ = nullptr;
  Table* target_ = nullptr;
};

TEST_P(CsvImportTest, ExportedCsvReadsBackToEqualRows) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<NamedRow> rows = {
      {{"k", Value::Int(1)},
       {"c", Value::BigInt(-5)},
       {"b", Value::Boolean(true)},
       {"f", Value::Float(-0.0f)},
       {"d", Value::Double(0.1)},
       {"ts", Value::Timestamp(1'714'521'600'123)},
       {"day", Value::Date(19844)},
       {"t", Value::Text("comma, \"quote\"\nnew line")},
       {"a", Value::Ascii("")},
       {"bl", Value::Blob(std::string("\x00\xff,\"", 4))},
       {"u", Value::Uuid(std::string("\x12\x3e\x45\x67\xe8\x9b\x12\xd3\xa4\x56\x42\x66\x14\x17"
                                     "\x40\x00",
                                     16))}},
      {{"k", Value::Int(1)},
       {"c", Value::BigInt(7)},
       {"d", Value::Double(nan)},
       {"f", Value::Float(std::numeric_limits<float>::infinity())}},
      {{"k", Value::Int(-2)},
       {"c", Value::BigInt(0)},
       {"d", Value::Double(-inf)},
       {"t", Value::Text("")},
       {"ts", Value::Timestamp(-1)},
       {"day", Value::Date(-3)}},
  };
  ASSERT_TRUE(source_->InsertBatch(rows).ok());
  const std::string path = dir_.path() + "/rows.csv";
  ASSERT_TRUE(source_->ExportCsv(path, ExportParquetOptions()).ok());
  ImportCsvOptions options;
  options.header = true;
  ImportCsvResult result;
  ASSERT_TRUE(target_->ImportCsv(path, options, &result).ok());
  EXPECT_EQ(result.rows, 3u);
  EXPECT_EQ(AllRows(target_), AllRows(source_));
}

TEST_P(CsvImportTest, HeaderCrlfAndCqlshForms) {
  // Columns in the header's order; cqlsh writes blobs as 0x hex, timestamps with a space and
  // an offset, booleans capitalised.
  const std::string path =
      WriteFile("hand.csv",
                "t,c,k,bl,ts,b,d\r\n"
                "plain text,1,5,0xcafe,2024-05-01 10:00:05.250+0000,True,1e3\r\n"
                "\"two\r\nlines\",2,5,,1714557605250,false,NaN\r\n");
  ImportCsvOptions options;
  options.header = true;
  ASSERT_TRUE(target_->ImportCsv(path, options).ok());
  const std::vector<Row> rows = AllRows(target_);
  ASSERT_EQ(rows.size(), 2u);
  const TableSchema& schema = *target_->schema();
  auto value = [&](const Row& row, const char* column) {
    return row[schema.FindColumn(column)->id];
  };
  EXPECT_EQ(value(rows[0], "t"), Value::Text("plain text"));
  EXPECT_EQ(value(rows[0], "bl"), Value::Blob("\xca\xfe"));
  EXPECT_EQ(value(rows[0], "ts"), Value::Timestamp(1'714'557'605'250));
  EXPECT_EQ(value(rows[0], "ts"), value(rows[1], "ts"));
  EXPECT_EQ(value(rows[0], "b"), Value::Boolean(true));
  EXPECT_EQ(value(rows[0], "d"), Value::Double(1000));
  EXPECT_EQ(value(rows[1], "t"), Value::Text("two\r\nlines"));
  EXPECT_TRUE(value(rows[1], "bl").is_null());
  EXPECT_TRUE(std::isnan(value(rows[1], "d").double_value()));
}

// Line 1: the header. Good rows c = 1..5 on lines 2-6, the bad record on line 7, then more.
std::string FileWithBadLine(const std::string& bad) {
  std::string text = "k,c,d\n";
  for (int c = 1; c <= 5; c++) text += "1," + std::to_string(c) + ",0.5\n";
  text += bad + "\n";
  for (int c = 7; c <= 9; c++) text += "1," + std::to_string(c) + ",0.5\n";
  return text;
}

TEST_P(CsvImportTest, ABadRecordStopsAtItsLineWithEveryRowBeforeItWritten) {
  const std::pair<const char*, const char*> kBad[] = {
      {"1,6,not-a-number", "column 'd'"},   // a value its type cannot hold
      {"1,6", "2 fields where 3 columns"},  // too few fields
      {",6,0.5", "partition key"},          // a row the table refuses (null key)
      {"1,6,\"0.5\"x", "after the closing quote"},
  };
  for (size_t batch_rows : {1, 2, 4, 1000}) {
    for (const auto& [bad, reason] : kBad) {
      SCOPED_TRACE(std::string(bad) + ", batches of " + std::to_string(batch_rows));
      ASSERT_TRUE(db_->Execute("TRUNCATE ks.target", nullptr).ok());
      const std::string path = WriteFile("bad.csv", FileWithBadLine(bad));
      ImportCsvOptions options;
      options.header = true;
      options.batch_rows = batch_rows;
      ImportCsvResult result;
      const Status s = target_->ImportCsv(path, options, &result);
      EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
      EXPECT_NE(s.ToString().find("line 7"), std::string::npos) << s.ToString();
      EXPECT_NE(s.ToString().find(reason), std::string::npos) << s.ToString();
      EXPECT_EQ(result.rows, 5u);
      EXPECT_EQ(ClusteringValues(target_), (std::vector<int64_t>{1, 2, 3, 4, 5}));
    }
  }
}

TEST_P(CsvImportTest, RefusesWhatItCannotRead) {
  ImportCsvOptions options;
  EXPECT_TRUE(target_->ImportCsv(dir_.path() + "/missing.csv", options).IsIOError());
  options.columns = {"k", "c", "d"};
  const std::string unclosed = WriteFile("unclosed.csv", "1,1,0.5\n1,2,\"open\n");
  Status s = target_->ImportCsv(unclosed, options);
  EXPECT_NE(s.ToString().find("line 2: a quoted field is not closed"), std::string::npos)
      << s.ToString();
  options.columns = {"k", "nope"};
  s = target_->ImportCsv(unclosed, options);
  EXPECT_NE(s.ToString().find("unknown column 'nope'"), std::string::npos) << s.ToString();
  options.columns = {"k", "k"};
  EXPECT_TRUE(target_->ImportCsv(unclosed, options).IsInvalidArgument());
  options.columns = {"k", "c", "d"};
  options.batch_rows = 0;
  EXPECT_TRUE(target_->ImportCsv(unclosed, options).IsInvalidArgument());
  // The row before the unclosed quote was written.
  EXPECT_EQ(ClusteringValues(target_), std::vector<int64_t>{1});
}

INSTANTIATE_TEST_SUITE_P(BothFormats, CsvImportTest, test::BothFormats(), test::FormatParamName);

}  // namespace
}  // namespace columnar
