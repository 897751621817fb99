// Public API of the ColumnarTable plugin: a RocksDB TableFactory whose SST files use a PAX
// layout (row groups, one encoded chunk per column). Select it like any table factory:
//
//   options.table_factory.reset(columnar::NewColumnarTableFactory());
//
// or by name, once the plugin library is loaded (it registers itself in RocksDB's
// ObjectLibrary):
//
//   TableFactory::CreateFromString(config, "id=ColumnarTable;rows_per_group=128", &factory);
//   [CFOptions "default"] table_factory=ColumnarTable   (OPTIONS file)
#pragma once

#include <rocksdb/cache.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/object_registry.h>

#include <cstdint>
#include <memory>
#include <string>

namespace columnar {

struct ColumnarTableOptions {
  static const char* kName() { return "ColumnarTableOptions"; }

  // Rows per row group, and the encoded size at which a group is closed early.
  uint32_t rows_per_group = 128;
  uint32_t group_target_bytes = 64 * 1024;
  // Uncompressed size target of a data block (the unit of outer compression and I/O); whole
  // row groups are packed into blocks.
  uint32_t block_size = 16 * 1024;
  // Values larger than this are stored outside the row groups, each on its own in the file
  // (plugin/oversized_values.h): a chunk holds at most 1 GiB, RocksDB's values up to 4 GiB.
  // In [1, 256 MiB].
  uint32_t max_inline_value_bytes = 256u << 20;

  // Per-column encodings, "column:encoding,..." (encodings: auto, plain, rle, dictionary,
  // delta, for, delta_of_delta, gorilla, alp, alp_rd, float_delta, front_coding, hex).
  // Columns not listed use auto.
  std::string column_encodings;
  // Per-column compression, "default:zstd,column:none,..." or just "zstd" / "none".
  std::string column_compression = "none";
  int column_compression_level = 3;

  // A table schema (TableSchema::Serialize form, or CQL CREATE TABLE text); empty means the
  // schema-less generic layout.
  std::string schema;

  // Bloom filters, built with RocksDB's own filter policy, bits per key (0 disables both):
  // on whole user keys, for Get; and on partitions (the schema's partition key, or the prefix
  // extractor's prefix), for Get and for scans confined to one partition (iterate bounds
  // inside it, or prefix_same_as_start).
  double bloom_bits_per_key = 10.0;
  bool whole_key_filter = true;
  bool partition_filter = true;

  // Compactions copy the row groups of their input files that come through unchanged instead
  // of encoding them again (files of the same options and schema; columnar_table_builder.h).
  // Off, every compaction encodes every row anew.
  bool copy_row_groups = true;

  // Capacity of the cache of decompressed blocks and decoded row groups, shared by every file
  // read through this factory. Ignored when `cache` is set. RocksDB's block-cache DB
  // properties (rocksdb.block-cache-capacity, -usage, -pinned-usage, -entry-stats) report it.
  uint64_t cache_size = 64 << 20;
  std::shared_ptr<rocksdb::Cache> cache;
};

// Column families whose comparator has user-defined timestamps (timestamp_size() > 0) are
// refused with NotSupported (at DB open / column family creation, and by the builder and
// reader): ColumnarTable compares and hashes user keys whole.

// The factory's registry name and the OPTIONS-file id.
inline constexpr const char* kColumnarTableName = "ColumnarTable";

rocksdb::TableFactory* NewColumnarTableFactory(
    const ColumnarTableOptions& options = ColumnarTableOptions());

// Makes files that `factory` (a ColumnarTable factory) builds from now on use `schema`
// (serialized TableSchema or CREATE TABLE text): how the Table API applies ALTER TABLE to a
// live column family. Files already written keep their own schema, which travels in their
// properties. InvalidArgument for other factories or an invalid schema (nothing changes).
rocksdb::Status UpdateColumnarTableSchema(rocksdb::TableFactory* factory,
                                          const std::string& schema);

// Registers ColumnarTable (and the plugin's other factories) in `library`; returns how many.
// Each call adds the factories again: use the overload below for the default library.
int RegisterColumnarTableFactories(rocksdb::ObjectLibrary& library, const std::string& arg);

// Registers the plugin's factories in rocksdb::ObjectLibrary::Default(), once per process
// (thread-safe; later calls do nothing). The shared plugin library calls it when loaded and
// Database::Open calls it; a program that links the static plugin library and creates tables
// by name (OPTIONS files, TableFactory::CreateFromString) without the Table API calls it
// before opening its database, so no --whole-archive linking is needed:
//
//   columnar::RegisterColumnarTableFactories();
//   rocksdb::DB::Open(options, path, &db);   // OPTIONS naming ColumnarTable now load
void RegisterColumnarTableFactories();

}  // namespace columnar
