// Randomized differential tests: ColumnarTable against BlockBasedTable under writes, deletes,
// single deletes, merges, range deletions, wide-column entities, write batches, snapshots,
// flushes, compactions and reopens. COLUMNAR_DIFFERENTIAL_OPS overrides the operation count
// (the long run reported in the issue uses 1,000,000).
#include <gtest/gtest.h>
#include <rocksdb/slice_transform.h>

#include <cstdlib>

#include "plugin/columnar_table.h"
#include "tests/plugin/differential_harness.h"

namespace columnar {
namespace {

size_t OperationCount(size_t fallback) {
  const char* env = std::getenv("COLUMNAR_DIFFERENTIAL_OPS");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : fallback;
}

DifferentialOptions ColumnarDifferential(uint64_t seed) {
  DifferentialOptions options;
  options.seed = seed;
  options.operations = OperationCount(6000);
  options.verify_every = std::max<size_t>(1000, options.operations / 20);
  options.configure_test = [](rocksdb::Options* o) {
    ColumnarTableOptions table;
    table.rows_per_group = 16;  // many groups and blocks even in small files
    table.block_size = 2048;
    o->table_factory.reset(NewColumnarTableFactory(table));
  };
  return options;
}

class ColumnarDifferentialTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(ColumnarDifferentialTest, MatchesBlockBasedTable) {
  DifferentialHarness harness("diff", ColumnarDifferential(GetParam()));
  EXPECT_TRUE(harness.Run());
}

INSTANTIATE_TEST_SUITE_P(Seeds, ColumnarDifferentialTest, ::testing::Values(1, 2, 3, 4));

TEST(ColumnarDifferential, CompressionAndColumnOptions) {
  DifferentialOptions options = ColumnarDifferential(11);
  options.configure_both = [](rocksdb::Options* o) {
    o->compression = rocksdb::kZSTD;
    o->compression_opts.max_dict_bytes = 4096;
    o->compression_opts.zstd_max_train_bytes = 64 * 1024;
  };
  options.configure_test = [](rocksdb::Options* o) {
    ColumnarTableOptions table;
    table.rows_per_group = 64;
    table.column_compression = "zstd";
    o->table_factory.reset(NewColumnarTableFactory(table));
  };
  DifferentialHarness harness("diff-zstd", options);
  EXPECT_TRUE(harness.Run());
}

TEST(ColumnarDifferential, PrefixExtractorPartitions) {
  DifferentialOptions options = ColumnarDifferential(21);
  options.configure_both = [](rocksdb::Options* o) {
    o->prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(3));
    o->compression = rocksdb::kLZ4Compression;
  };
  DifferentialHarness harness("diff-prefix", options);
  EXPECT_TRUE(harness.Run());
}

}  // namespace
}  // namespace columnar
