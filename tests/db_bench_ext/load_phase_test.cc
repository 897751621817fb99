#include "db_bench_ext/load_phase.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/plugin/test_db.h"

namespace columnar {
namespace bench {
namespace {

TEST(LoadPhaseTest, FullCompactionSplitsIntoAtLeastThreeRanges) {
  // Two would never split under RocksDB 7.8 (one split key forms no subcompaction).
  EXPECT_GE(FullCompactionSubcompactions(), 3u);
  EXPECT_GE(FullCompactionSubcompactions(), std::thread::hardware_concurrency());
}

TEST(LoadPhaseTest, EveryCoreForCompactionsRaisesTheLimitAndRestoresIt) {
  TempDir dir("load-phase");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.max_subcompactions = 1;
  std::unique_ptr<rocksdb::DB> db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  {
    const EveryCoreForCompactions every_core(db.get());
    EXPECT_EQ(db->GetDBOptions().max_subcompactions, FullCompactionSubcompactions());
  }
  EXPECT_EQ(db->GetDBOptions().max_subcompactions, 1u);
}

TEST(LoadPhaseTest, EveryCoreForCompactionsKeepsAHigherLimit) {
  TempDir dir("load-phase-higher");
  rocksdb::Options options;
  options.create_if_missing = true;
  options.max_subcompactions = FullCompactionSubcompactions() + 5;
  std::unique_ptr<rocksdb::DB> db = OpenDb(options, dir.path());
  ASSERT_NE(db, nullptr);
  {
    const EveryCoreForCompactions every_core(db.get());
    EXPECT_EQ(db->GetDBOptions().max_subcompactions, options.max_subcompactions);
  }
  EXPECT_EQ(db->GetDBOptions().max_subcompactions, options.max_subcompactions);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
