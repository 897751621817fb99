// Tables used from several threads while ALTER TABLE runs: writers and readers never fail or
// see a torn schema, and every written row is there afterwards.
#include <gtest/gtest.h>
#include <rocksdb/env.h>

#include <atomic>
#include <thread>

#include "tests/table_api/test_util.h"

namespace columnar {
namespace {

TEST(TableApiConcurrencyTest, WritesAndReadsDuringAlterTable) {
  TempDir dir("table-api-concurrency");
  std::unique_ptr<rocksdb::Env> env(rocksdb::NewMemEnv(rocksdb::Env::Default()));
  DatabaseOptions options;
  options.db_options.env = env.get();
  std::unique_ptr<Database> db;
  ASSERT_TRUE(Database::Open(options, dir.path(), &db).ok());
  Table* table = nullptr;
  ASSERT_TRUE(db->CreateTable("CREATE TABLE ks.t (p int, c int, v text, PRIMARY KEY (p, c))",
                              test::ColumnarStorage(), &table)
                  .ok());
  constexpr int kWriters = 2;
  constexpr int kRowsPerWriter = 400;
  std::atomic<bool> failed{false};
  std::atomic<int> writers_done{0};
  std::vector<std::thread> threads;
  for (int writer = 0; writer < kWriters; writer++) {
    threads.emplace_back([&, writer] {
      for (int c = 0; c < kRowsPerWriter; c++) {
        const NamedRow row{
            {"p", Value::Int(writer)}, {"c", Value::Int(c)}, {"v", Value::Text("x")}};
        if (!table->Insert(row).ok()) failed = true;
      }
      writers_done++;
    });
  }
  threads.emplace_back([&] {
    while (writers_done < kWriters) {
      ResultSet result;
      SelectQuery query = SelectQuery::ForPartition({Value::Int(0)});
      query.limit = 50;
      if (!table->Select(query, &result).ok()) failed = true;
      for (const Row& row : result.rows) {
        if (row.size() != result.column_names.size()) failed = true;
      }
    }
  });
  for (int i = 0; i < 5; i++) {
    ASSERT_TRUE(db->AlterTable("ALTER TABLE ks.t ADD a" + std::to_string(i) + " int").ok());
    ASSERT_TRUE(db->db()->Flush(rocksdb::FlushOptions(), table->column_family()).ok());
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_FALSE(failed);
  EXPECT_EQ(table->schema()->version(), 6u);
  for (int writer = 0; writer < kWriters; writer++) {
    ResultSet result;
    ASSERT_TRUE(table->Select(SelectQuery::ForPartition({Value::Int(writer)}), &result).ok());
    ASSERT_EQ(result.rows.size(), size_t{kRowsPerWriter});
    EXPECT_EQ(result.column_names.size(), 8u);
  }
}

}  // namespace
}  // namespace columnar
