// The benchmark's table configurations (BENCHMARKS.md, "Configurations"): the source
// documents' six compression combinations, plus T (tiered), as Table API storage settings.
//
//   A       BlockBasedTable, zstd, 16 KiB blocks
//   A-dict  BlockBasedTable, zstd with a trained dictionary (64 KiB from 10 MiB of samples)
//   B       ColumnarTable, outer zstd, per-column zstd
//   C       ColumnarTable, outer zstd, no per-column compression
//   C-dict  ColumnarTable, outer zstd with a trained dictionary, no per-column compression
//   D       ColumnarTable, no outer compression, per-column zstd
//   T       TieredTable: flush output BlockBasedTable + LZ4, compaction output ColumnarTable as C
//
// Every configuration shares the LSM settings (memtables, levels, file sizes) and the cache
// budget (BlockBasedTable's block cache, ColumnarTable's block and row-group cache). Flush
// output (L0) uses LZ4 where the configuration compresses, compaction output its compressor.
#pragma once

#include <string>
#include <vector>

#include "table_api/table_storage.h"

namespace columnar {
namespace bench {

struct ConfigSettings {
  size_t cache_bytes = 256 << 20;
  size_t write_buffer_bytes = 64 << 20;
  size_t target_file_bytes = 64 << 20;
  // ColumnarTableOptions::copy_row_groups of the columnar configurations.
  bool copy_row_groups = true;
};

const std::vector<std::string>& AllConfigNames();

// The storage of configuration `name`; InvalidArgument for an unknown name.
Status StorageForConfig(const std::string& name, const ConfigSettings& settings,
                        TableStorage* storage);

}  // namespace bench
}  // namespace columnar
