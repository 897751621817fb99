// Whole-file expiry racing with IngestExternalFile (which pausing background work does not
// stop): a file ingested between DropExpiredFiles' inspection and its deletion, inside an
// expired file's key range, must survive. Deleting by key range once deleted it with the
// expired file; files are now deleted by number.
#include <gtest/gtest.h>
#include <rocksdb/sst_file_writer.h>

#include "table_api/expired_files.h"
#include "table_api/row_writer.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

constexpr int64_t kRaceNowSeconds = 1'700'000'000;

TEST(ExpiredFilesIngestRaceTest, FileIngestedDuringTheDropSurvives) {
  TempDir dir("expired-ingest-race");
  test::ManualClock clock(kRaceNowSeconds * 1'000'000);
  DatabaseOptions options;
  options.now_micros = clock.Function();
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(options, dir.path(), &db).ok());
  Table* table = nullptr;
  ASSERT_TRUE(db->CreateTable("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY ((k), c))",
                              test::ColumnarStorage(), &table)
                  .ok());
  // Rows c = 0, 10, ..., 90 of partition 1, expiring in an hour, in one bottommost file.
  RowWriteOptions expiring;
  expiring.expiry_seconds = kRaceNowSeconds + 3600;
  for (int c = 0; c < 100; c += 10) {
    ASSERT_TRUE(
        table
            ->Insert(
                NamedRow{{"k", Value::Int(1)}, {"c", Value::Int(c)}, {"v", Value::Text("old")}},
                expiring)
            .ok());
  }
  rocksdb::DB* rocks = db->db();
  ASSERT_TRUE(rocks->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
  rocksdb::CompactRangeOptions bottom;
  bottom.change_level = true;
  bottom.target_level = 6;
  bottom.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  ASSERT_TRUE(rocks->CompactRange(bottom, table->column_family(), nullptr, nullptr).ok());
  clock.AdvanceSeconds(7200);

  // The late row c = 55 (no expiry), in an external file inside the expired file's range.
  const RowCodec codec(*table->schema());
  std::string key, value;
  Row row(table->schema()->columns().size());
  row[table->schema()->FindColumn("k")->id] = Value::Int(1);
  row[table->schema()->FindColumn("c")->id] = Value::Int(55);
  row[table->schema()->FindColumn("v")->id] = Value::Text("late");
  RowWriteOptions no_expiry;
  no_expiry.ttl_seconds = 0;
  ASSERT_TRUE(EncodeRowWrite(codec, row, no_expiry, clock.now_micros(), &key, &value).ok());
  const std::string external = dir.Sub("late.sst");
  {
    rocksdb::Options cf_options(rocks->GetDBOptions(), rocks->GetOptions(table->column_family()));
    rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), cf_options);
    ASSERT_TRUE(writer.Open(external).ok());
    ASSERT_TRUE(writer.Put(key, value).ok());
    ASSERT_TRUE(writer.Finish().ok());
  }
  Status ingested;
  auto ingest = [&] {
    ingested = rocks->IngestExternalFile(table->column_family(), {external},
                                         rocksdb::IngestExternalFileOptions());
  };
  ExpiredFilesResult result;
  const Status s =
      DropExpiredFiles(rocks, table->column_family(), clock.now_seconds(), &result, ingest);
  ASSERT_TRUE(s.ok()) << s.ToString();
  ASSERT_TRUE(ingested.ok()) << ingested.ToString();
  EXPECT_EQ(result.files, 1u);  // the expired file, and only it

  SelectQuery query = SelectQuery::ForPartition({Value::Int(1)});
  query.columns = {"c", "v"};
  ResultSet rows;
  ASSERT_TRUE(table->Select(query, &rows).ok());
  EXPECT_EQ(rows.rows, (std::vector<Row>{{Value::Int(55), Value::Text("late")}}));
}

}  // namespace
}  // namespace columnar
