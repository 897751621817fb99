// The Parquet writer's building blocks byte for byte (Thrift compact protocol, the RLE /
// bit-packing hybrid, the file frame), and Table::ExportParquet's choices of rows, columns and
// errors. What a real reader makes of the files is tests/export/ (DuckDB).
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <thread>

#include "table_api/parquet/delta_binary_packed.h"
#include "table_api/parquet/parquet_writer.h"
#include "table_api/parquet/rle_hybrid.h"
#include "table_api/parquet/thrift_compact.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

using parquet::ThriftCompactWriter;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(ThriftCompactTest, FieldHeadersDeltasZigZagAndLists) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.I32Field(1, 1);        // delta 1, type i32 (5); zigzag(1) = 2
  w.I64Field(3, -1);       // delta 2, type i64 (6); zigzag(-1) = 1
  w.BinaryField(4, "ab");  // delta 1, binary (8), length 2
  w.I32Field(20, 300);     // delta 16: type byte, then zigzag(20) = 40, zigzag(300) = 600
  w.BoolField(21, true);   // delta 1, true (1)
  w.BeginListField(22, ThriftCompactWriter::kI32, 2);  // delta 1, list (9); 2 << 4 | i32
  w.I32Element(-2);
  w.I32Element(2);
  w.BeginStructField(23);  // nested struct: ids restart
  w.I32Field(1, 0);
  w.EndStruct();
  w.Finish();
  EXPECT_EQ(out, test::BytesOf({0x15, 0x02, 0x26, 0x01, 0x18, 0x02, 'a',  'b',  0x05, 0x28, 0xD8,
                                0x04, 0x11, 0x19, 0x25, 0x03, 0x04, 0x1C, 0x15, 0x00, 0x00, 0x00}));
}

TEST(ThriftCompactTest, LongListsCarryTheirSizeAsAVarint) {
  std::string out;
  ThriftCompactWriter w(&out);
  w.BeginListField(1, ThriftCompactWriter::kStruct, 20);
  EXPECT_EQ(out, test::BytesOf({0x19, 0xFC, 20}));
}

TEST(RleHybridTest, RunsOfEightOrMoreAreRleOthersBitPacked) {
  std::string out;
  parquet::AppendRleBitPacked(std::vector<uint32_t>(10, 1), 1, &out);
  EXPECT_EQ(out, test::BytesOf({20, 0x01}));  // 10 << 1, value 1

  // The Parquet specification's example: 0..7 at bit width 3.
  out.clear();
  parquet::AppendRleBitPacked({0, 1, 2, 3, 4, 5, 6, 7}, 3, &out);
  EXPECT_EQ(out, test::BytesOf({0x03, 0x88, 0xC6, 0xFA}));

  // Literals, then a run, then a padded literal tail.
  out.clear();
  std::vector<uint32_t> values = {1, 0, 1, 0, 1, 0, 1, 0};
  values.insert(values.end(), 9, 1);
  values.push_back(0);
  parquet::AppendRleBitPacked(values, 1, &out);
  EXPECT_EQ(out, test::BytesOf({0x03, 0x55, 18, 0x01, 0x03, 0x00}));
  EXPECT_EQ(parquet::BitWidthFor(0), 0);
  EXPECT_EQ(parquet::BitWidthFor(1), 1);
  EXPECT_EQ(parquet::BitWidthFor(255), 8);
  EXPECT_EQ(parquet::BitWidthFor(256), 9);
}

TEST(DeltaBinaryPackedTest, HeaderBlocksAndMiniblocks) {
  // The specification's first example: 1..5, every delta 1 (min delta 1, bit widths 0).
  std::string out;
  const uint64_t sequential[] = {1, 2, 3, 4, 5};
  parquet::AppendDeltaBinaryPacked(sequential, 5, 64, &out);
  EXPECT_EQ(out, test::BytesOf({0x80, 0x01, 0x04, 0x05, 0x02, 0x02, 0x00, 0x00, 0x00, 0x00}));

  // Deltas 3, -2 (min -2, so 5 and 0 at bit width 3), INT32 wrapping: from INT32_MAX, +1 is
  // INT32_MIN, a delta of 1 at 32 bits.
  out.clear();
  const uint64_t mixed[] = {7, 10, 8};
  parquet::AppendDeltaBinaryPacked(mixed, 3, 64, &out);
  EXPECT_EQ(out, test::BytesOf({0x80, 0x01, 0x04, 0x03, 0x0E, 0x03, 0x03, 0x00, 0x00, 0x00, 0x05,
                                0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}));
  out.clear();
  const uint64_t wrapping[] = {0x7FFFFFFF, 0xFFFFFFFF80000000ull};
  parquet::AppendDeltaBinaryPacked(wrapping, 2, 32, &out);
  EXPECT_EQ(out, test::BytesOf({0x80, 0x01, 0x04, 0x02, 0xFE, 0xFF, 0xFF, 0xFF, 0x0F, 0x02, 0x00,
                                0x00, 0x00, 0x00}));
}

TEST(ParquetWriterTest, FileIsFramedByMagicAndFooterLength) {
  TempDir dir("parquet-writer");
  const std::string path = dir.path() + "/t.parquet";
  std::unique_ptr<parquet::ParquetWriter> writer;
  std::vector<parquet::ColumnSpec> columns = {{"k", LogicalType::kInt, true, false},
                                              {"v", LogicalType::kText, false, false}};
  ASSERT_TRUE(
      parquet::ParquetWriter::Open(path, columns, parquet::ParquetWriterOptions(), &writer).ok());
  ASSERT_TRUE(writer->AddRow({Value::Int(1), Value::Text("a")}).ok());
  ASSERT_TRUE(writer->AddRow({Value::Int(2), Value()}).ok());
  EXPECT_TRUE(writer->AddRow({Value(), Value::Text("a")}).IsInvalidArgument());  // null key
  EXPECT_TRUE(writer->AddRow({Value::Text("x"), Value()}).IsInvalidArgument());  // wrong type
  EXPECT_TRUE(writer->AddRow({Value::Int(3)}).IsInvalidArgument());              // too few
  ASSERT_TRUE(writer->Close().ok());
  EXPECT_EQ(writer->rows_written(), 2u);
  const std::string file = ReadFile(path);
  ASSERT_EQ(file.size(), writer->bytes_written());
  ASSERT_GT(file.size(), 12u);
  EXPECT_EQ(file.substr(0, 4), "PAR1");
  EXPECT_EQ(file.substr(file.size() - 4), "PAR1");
  uint32_t footer = 0;
  for (int b = 0; b < 4; b++) {
    footer |= static_cast<uint32_t>(static_cast<unsigned char>(file[file.size() - 8 + b]))
              << (8 * b);
  }
  EXPECT_LT(footer, file.size() - 12);
  // The footer names the columns and holds the key-value metadata.
  const std::string tail = file.substr(file.size() - 8 - footer, footer);
  EXPECT_NE(tail.find("columnar_rocksdb"), std::string::npos);

  EXPECT_TRUE(parquet::ParquetWriter::Open(path, {}, parquet::ParquetWriterOptions(), &writer)
                  .IsInvalidArgument());
  EXPECT_TRUE(parquet::ParquetWriter::Open(path, {columns[0], columns[0]},
                                           parquet::ParquetWriterOptions(), &writer)
                  .IsInvalidArgument());
  EXPECT_TRUE(parquet::ParquetWriter::Open(dir.path() + "/no/such/dir/t.parquet", columns,
                                           parquet::ParquetWriterOptions(), &writer)
                  .IsIOError());
}

class ExportParquetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.now_micros = clock_.Function();
    ASSERT_TRUE(Database::Open(options_, dir_.path(), &db_).ok());
    ASSERT_TRUE(db_->CreateTable("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))",
                                 TableStorage(), &table_)
                    .ok());
    for (int k = 0; k < 5; k++) {
      for (int c = 0; c < 10; c++) {
        ASSERT_TRUE(table_
                        ->Insert(NamedRow{{"k", Value::Int(k)},
                                          {"c", Value::Int(c)},
                                          {"v", Value::Text("v" + std::to_string(c))}})
                        .ok());
      }
    }
  }

  uint64_t Export(const ExportParquetOptions& options) {
    ExportParquetResult result;
    const Status s = table_->ExportParquet(path_, options, &result);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(result.bytes, std::filesystem::file_size(path_));
    return result.rows;
  }

  test::ManualClock clock_{1'700'000'000'000'000};
  TempDir dir_{"export-parquet"};
  DatabaseOptions options_;
  std::unique_ptr<Database> db_;
  Table* table_ = nullptr;
  std::string path_ = dir_.path() + "/out.parquet";
};

TEST_F(ExportParquetTest, SelectsPartitionsRangesAndTheSnapshot) {
  EXPECT_EQ(Export(ExportParquetOptions()), 50u);

  ExportParquetOptions partitions;
  partitions.partitions = {{Value::Int(3)}, {Value::Int(1)}, {Value::Int(3)}, {Value::Int(9)}};
  EXPECT_EQ(Export(partitions), 20u);  // 1 and 3, each once; 9 is empty

  ExportParquetOptions range;
  range.from_partition = std::vector<Value>{Value::Int(1)};
  range.to_partition = std::vector<Value>{Value::Int(4)};
  EXPECT_EQ(Export(range), 30u);  // 1, 2, 3
  range.to_partition = std::vector<Value>{Value::Int(1)};
  EXPECT_EQ(Export(range), 0u);

  // Deletes are applied, expired rows left out, and a snapshot hides what came after it.
  ASSERT_TRUE(table_->DeletePartition({Value::Int(0)}).ok());
  ASSERT_TRUE(table_->DeleteRow({Value::Int(1)}, {Value::Int(0)}).ok());
  RowWriteOptions ttl;
  ttl.ttl_seconds = 10;
  ASSERT_TRUE(table_->Insert(NamedRow{{"k", Value::Int(2)}, {"c", Value::Int(0)}}, ttl).ok());
  const rocksdb::Snapshot* snapshot = db_->db()->GetSnapshot();
  ASSERT_TRUE(table_->Insert(NamedRow{{"k", Value::Int(7)}, {"c", Value::Int(0)}}).ok());
  clock_.AdvanceSeconds(11);
  ExportParquetOptions at_snapshot;
  at_snapshot.snapshot = snapshot;
  EXPECT_EQ(Export(at_snapshot), 38u);  // 50 - 10 - 1 - 1 expired
  db_->db()->ReleaseSnapshot(snapshot);
  EXPECT_EQ(Export(ExportParquetOptions()), 39u);
}

TEST_F(ExportParquetTest, ProjectionMetaColumnsAndRowGroups) {
  // The CSV export shares the Parquet export's choice of rows and columns: its text shows them.
  clock_.AdvanceSeconds(5);
  RowWriteOptions ttl;
  ttl.ttl_seconds = 100;
  ASSERT_TRUE(
      table_
          ->Insert(
              NamedRow{{"k", Value::Int(3)}, {"c", Value::Int(20)}, {"v", Value::Text("late")}},
              ttl)
          .ok());
  ExportParquetOptions options;
  options.columns = {"v", "c"};  // projection, in this order
  options.partitions = {{Value::Int(3)}};
  options.include_writetime = true;
  options.include_expiry = true;
  const std::string csv = dir_.path() + "/out.csv";
  ExportParquetResult result;
  ASSERT_TRUE(table_->ExportCsv(csv, options, &result).ok());
  EXPECT_EQ(result.rows, 11u);
  std::ifstream in(csv);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 12u);
  EXPECT_EQ(lines[0], "\"v\",\"c\",\"writetime\",\"expiry\"");
  // writetime in microseconds; no TTL: no expiry. The clock stood still while the fixture
  // wrote 50 rows, and the table's server clock is monotonic (max(now, previous + 1)): k = 3,
  // c = 0 is the 31st write.
  EXPECT_EQ(lines[1], "\"v0\",0,1700000000000030,");
  EXPECT_EQ(lines[11], "\"late\",20,1700000005000000,2023-11-14T22:15:05.000Z");

  // Row groups of 4 rows: 11 rows make 3, as the writer reports.
  options.row_group_rows = 4;
  ASSERT_TRUE(table_->ExportParquet(path_, options, &result).ok());
  EXPECT_EQ(result.rows, 11u);
  EXPECT_EQ(result.row_groups, 3u);
}

// Without a snapshot in the options, the export takes one when it starts and reads every
// partition at it: a writer inserting while it runs, at keys scattered over the table, shows
// up as a prefix of its inserts (those before the snapshot), never as an insert missed and a
// later one seen. The export reads 2000 listed partitions (one scan each), so without the
// common snapshot each scan would see the writes made up to its own start. (The CSV export
// reads exactly as the Parquet export does.)
TEST_F(ExportParquetTest, ConcurrentWritesAreInvisibleToARunningExport) {
  constexpr int kInserts = 20000;
  auto key_of = [](int i) { return 100 + (i * 7919) % kInserts; };  // a permutation
  std::vector<int> insert_of(kInserts);
  for (int i = 0; i < kInserts; i++) insert_of[key_of(i) - 100] = i;
  ExportParquetOptions every_tenth;
  for (int k = 100; k < 100 + kInserts; k += 10) every_tenth.partitions.push_back({Value::Int(k)});

  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int i = 0; i < kInserts; i++) {
      ASSERT_TRUE(
          table_
              ->Insert(NamedRow{
                  {"k", Value::Int(key_of(i))}, {"c", Value::Int(0)}, {"v", Value::Text("x")}})
              .ok());
      written.store(i + 1);
    }
  });
  const std::string csv = dir_.path() + "/concurrent.csv";
  for (int target : {2000, 8000, 14000}) {
    while (written.load() < target) std::this_thread::yield();
    ExportParquetResult result;
    ASSERT_TRUE(table_->ExportCsv(csv, every_tenth, &result).ok());
    std::ifstream in(csv);
    std::set<int> seen;  // insert numbers
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      seen.insert(insert_of[std::stoi(line.substr(0, line.find(','))) - 100]);
    }
    EXPECT_EQ(seen.size(), result.rows);
    // The listed partitions' inserts, in insert order: the seen ones come first.
    bool missed = false;
    for (int i = 0; i < kInserts; i++) {
      if ((key_of(i) - 100) % 10 != 0) continue;
      if (!seen.count(i)) {
        missed = true;
      } else {
        EXPECT_FALSE(missed) << "insert " << i << " seen after an earlier insert was missed";
        if (missed) break;
      }
    }
  }
  writer.join();
}

TEST_F(ExportParquetTest, BadOptionsAreInvalidArgumentAndLeaveNoFile) {
  ExportParquetOptions unknown;
  unknown.columns = {"k", "nope"};
  EXPECT_TRUE(table_->ExportParquet(path_, unknown).IsInvalidArgument());
  ExportParquetOptions twice;
  twice.columns = {"v", "v"};
  EXPECT_TRUE(table_->ExportParquet(path_, twice).IsInvalidArgument());
  ExportParquetOptions both;
  both.partitions = {{Value::Int(1)}};
  both.from_partition = std::vector<Value>{Value::Int(0)};
  EXPECT_TRUE(table_->ExportParquet(path_, both).IsInvalidArgument());
  ExportParquetOptions wrong_key;
  wrong_key.partitions = {{Value::Text("x")}};
  EXPECT_TRUE(table_->ExportParquet(path_, wrong_key).IsInvalidArgument());
  ExportParquetOptions zero;
  zero.row_group_rows = 0;
  EXPECT_TRUE(table_->ExportParquet(path_, zero).IsInvalidArgument());
  zero.row_group_rows = 1;
  zero.page_bytes = 0;
  EXPECT_TRUE(table_->ExportParquet(path_, zero).IsInvalidArgument());
  EXPECT_FALSE(std::filesystem::exists(path_));
  EXPECT_TRUE(table_->ExportParquet(dir_.path() + "/missing/out.parquet", ExportParquetOptions())
                  .IsIOError());

  parquet::Compression compression;
  EXPECT_TRUE(ParseParquetCompression("ZSTD", &compression).ok());
  EXPECT_EQ(compression, parquet::Compression::kZstd);
  EXPECT_TRUE(ParseParquetCompression("snappy", &compression).ok());
  EXPECT_EQ(compression, parquet::Compression::kSnappy);
  EXPECT_TRUE(ParseParquetCompression("gzip", &compression).IsInvalidArgument());
}

}  // namespace
}  // namespace columnar
