#include "db_bench_ext/bench_configs.h"

#include <rocksdb/cache.h>

#include "plugin/tiered_table_factory.h"

namespace columnar {
namespace bench {

namespace {

constexpr int kLevels = 7;

struct Combination {
  bool columnar;
  bool outer_compression;
  bool dictionary;
  bool column_zstd;
  bool tiered;
};

bool FindCombination(const std::string& name, Combination* c) {
  if (name == "A") {
    *c = {false, true, false, false, false};
  } else if (name == "A-dict") {
    *c = {false, true, true, false, false};
  } else if (name == "B") {
    *c = {true, true, false, true, false};
  } else if (name == "C") {
    *c = {true, true, false, false, false};
  } else if (name == "C-dict") {
    *c = {true, true, true, false, false};
  } else if (name == "D") {
    *c = {true, false, false, true, false};
  } else if (name == "T") {
    *c = {true, true, false, false, true};
  } else {
    return false;
  }
  return true;
}

void ApplyLsmSettings(const ConfigSettings& settings, const Combination& c,
                      rocksdb::ColumnFamilyOptions* options) {
  options->write_buffer_size = settings.write_buffer_bytes;
  options->max_write_buffer_number = 4;
  options->target_file_size_base = settings.target_file_bytes;
  options->max_bytes_for_level_base = 4 * settings.target_file_bytes;
  options->level_compaction_dynamic_level_bytes = true;
  options->num_levels = kLevels;
  // Flush output LZ4, compaction output the configuration's compressor.
  const rocksdb::CompressionType deeper =
      c.outer_compression ? rocksdb::kZSTD : rocksdb::kNoCompression;
  options->compression = deeper;
  options->compression_per_level.assign(kLevels, deeper);
  options->compression_per_level[0] =
      c.outer_compression ? rocksdb::kLZ4Compression : rocksdb::kNoCompression;
  if (c.dictionary) {
    options->compression_opts.max_dict_bytes = 64 * 1024;
    options->compression_opts.zstd_max_train_bytes = 10 * 1024 * 1024;
  }
}

}  // namespace

const std::vector<std::string>& AllConfigNames() {
  static const std::vector<std::string> names = {"A", "A-dict", "B", "C", "C-dict", "D", "T"};
  return names;
}

Status StorageForConfig(const std::string& name, const ConfigSettings& settings,
                        TableStorage* storage) {
  Combination c;
  if (!FindCombination(name, &c)) {
    return Status::InvalidArgument("unknown configuration '" + name +
                                   "' (A, A-dict, B, C, C-dict, D, T)");
  }
  *storage = TableStorage();
  storage->block_based.block_size = 16 * 1024;
  storage->block_based.block_cache = rocksdb::NewLRUCache(settings.cache_bytes);
  // T is created as a ColumnarTable table whose factory the adjustment below wraps in a
  // TieredTable (row tier as A, columnar tier as C).
  storage->format = c.columnar ? TableFormat::kColumnarTable : TableFormat::kBlockBasedTable;
  ColumnarTableOptions& columnar = storage->columnar;
  columnar.rows_per_group = 128;
  columnar.block_size = 16 * 1024;
  columnar.cache_size = settings.cache_bytes;
  columnar.column_compression = c.column_zstd ? "zstd" : "none";
  // Queries read by partition: a partition filter, no whole-key filter (BlockBasedTable's
  // defaults have neither).
  columnar.whole_key_filter = false;
  columnar.partition_filter = true;
  columnar.copy_row_groups = settings.copy_row_groups;
  const rocksdb::BlockBasedTableOptions row_tier = storage->block_based;
  storage->adjust_column_family = [settings, c, row_tier](rocksdb::ColumnFamilyOptions* options) {
    ApplyLsmSettings(settings, c, options);
    if (c.tiered) {
      TieredTableOptions tiered;
      tiered.columnar_from_level = 1;
      tiered.row_table.reset(rocksdb::NewBlockBasedTableFactory(row_tier));
      tiered.columnar_table = options->table_factory;  // ColumnarTable with the table's schema
      options->table_factory.reset(NewTieredTableFactory(tiered));
    }
  };
  return Status::OK();
}

}  // namespace bench
}  // namespace columnar
