// The statement of the report (an option value nesting '{' 50,000 deep) through every entry
// point that parses CQL: an InvalidArgument status, nothing written, the process alive.
#include <gtest/gtest.h>
#include <rocksdb/convenience.h>
#include <rocksdb/table.h>

#include "plugin/columnar_table.h"
#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

std::string NestedMaps(int depth) {
  std::string text;
  for (int i = 0; i < depth; i++) text += "{'k': ";
  text += "'v'";
  for (int i = 0; i < depth; i++) text += "}";
  return text;
}

TEST(NestingLimitTest, DeepOptionValuesAreRefusedEverywhere) {
  TempDir dir("nesting-limit");
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(DatabaseOptions(), dir.path(), &db).ok());
  ASSERT_TRUE(db->Execute("CREATE TABLE ks.t (a int PRIMARY KEY)", nullptr).ok());
  const std::string before = test::DatabaseFingerprint(db.get());

  const std::string braces(50'000, '{');
  Status s =
      db->Execute("CREATE TABLE ks.u (a int PRIMARY KEY) WITH compaction = " + braces, nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db->CreateTable("CREATE TABLE ks.u (a int PRIMARY KEY) WITH compaction = " + braces,
                      test::ColumnarStorage());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db->AlterTable("ALTER TABLE ks.t WITH compaction = " + NestedMaps(50'000));
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  s = db->Execute("ALTER TABLE ks.t WITH compaction = " + braces, nullptr);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_EQ(test::DatabaseFingerprint(db.get()), before);

  // A factory's schema option is CQL text too (RocksDB's option parser only counts braces).
  std::shared_ptr<rocksdb::TableFactory> factory;
  s = rocksdb::TableFactory::CreateFromString(
      rocksdb::ConfigOptions(),
      "id=ColumnarTable;schema={CREATE TABLE ks.t (a int PRIMARY KEY) WITH compaction = " +
          NestedMaps(50'000) + "}",
      &factory);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
}

}  // namespace
}  // namespace columnar
