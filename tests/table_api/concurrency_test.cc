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

// Writers racing on the same partitions through the write order's partition locks
// (write_order.h): two threads update different cells of the same rows (read-modify-writes at
// client timestamps), a third deletes another partition and refills it with whole rows, again
// and again. No cell write is lost, and the refilled partition ends as its last round wrote it.
// Runs under ThreadSanitizer (`make tsan`).
TEST(TableApiConcurrencyTest, PartialWritesAndPartitionDeletesOnSharedPartitions) {
  for (const TableStorage& storage : {test::ColumnarStorage(), test::BlockBasedStorage()}) {
    TempDir dir("table-api-cell-concurrency");
    std::unique_ptr<Database> db;
    ASSERT_TRUE(Database::Open(DatabaseOptions(), dir.path(), &db).ok());
    Table* table = nullptr;
    ASSERT_TRUE(db->CreateTable("CREATE TABLE ks.e (s text, ts int, a int, b text, "
                                "PRIMARY KEY (s, ts))",
                                storage, &table)
                    .ok());
    constexpr int kRows = 20;
    constexpr int kRounds = 60;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int column = 0; column < 2; column++) {
      threads.emplace_back([&, column] {
        for (int round = 1; round <= kRounds; round++) {
          for (int row = 0; row < kRows; row++) {
            NamedRow cells{{"s", Value::Text("x")}, {"ts", Value::Int(row)}};
            if (column == 0) cells["a"] = Value::Int(round);
            if (column == 1) cells["b"] = Value::Text(std::to_string(round));
            RowWriteOptions options;
            options.write_time_micros = round;  // each writer's rounds in increasing order
            if (!table->Update(cells, options).ok()) failures++;
          }
        }
      });
    }
    threads.emplace_back([&] {
      for (int round = 1; round <= kRounds; round++) {
        RowWriteOptions deletion;
        deletion.write_time_micros = 1000 * round;
        if (!table->DeletePartition({Value::Text("y")}, deletion).ok()) failures++;
        RowWriteOptions refill;
        refill.write_time_micros = 1000 * round + 1;
        std::vector<NamedRow> rows;
        for (int row = 0; row <= kRounds - round; row++) {
          rows.push_back({{"s", Value::Text("y")},
                          {"ts", Value::Int(row)},
                          {"a", Value::Int(round)},
                          {"b", Value::Text("y")}});
        }
        if (!table->InsertBatch(rows, refill).ok()) failures++;
      }
    });
    for (std::thread& thread : threads) thread.join();
    EXPECT_EQ(failures.load(), 0);
    ResultSet x, y;
    ASSERT_TRUE(table->Select(SelectQuery::ForPartition({Value::Text("x")}), &x).ok());
    ASSERT_EQ(x.rows.size(), static_cast<size_t>(kRows));
    for (const Row& row : x.rows) {
      EXPECT_EQ(row[2], Value::Int(kRounds));
      EXPECT_EQ(row[3], Value::Text(std::to_string(kRounds)));
    }
    ASSERT_TRUE(table->Select(SelectQuery::ForPartition({Value::Text("y")}), &y).ok());
    ASSERT_EQ(y.rows.size(), 1u);  // the last round wrote one row
    EXPECT_EQ(y.rows[0][2], Value::Int(kRounds));
  }
}

}  // namespace
}  // namespace columnar
