// Fixtures shared by the tests that work on whole ColumnarTable files (corruption, external
// file ingestion): options with every optional region turned on, a deterministic mix of
// entries written with SstFileWriter, and byte-level file access (the root block and footer).
#pragma once

#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_writer.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "plugin/columnar_table.h"
#include "table/format.h"
#include "table_format/data_block.h"
#include "table_format/file_root.h"
#include "tests/plugin/differential_harness.h"

namespace columnar {

// Options for ColumnarTable files with many small row groups and blocks, a key filter, a
// partition filter (3-byte prefixes) and, when `compressed`, zstd outer compression with a
// trained dictionary plus per-column zstd.
inline rocksdb::Options ColumnarFileOptions(bool compressed) {
  ColumnarTableOptions table;
  table.rows_per_group = 32;
  table.block_size = 2048;
  rocksdb::Options options;
  options.create_if_missing = true;
  options.merge_operator = std::make_shared<AppendMergeOperator>();
  options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(3));
  options.compression = rocksdb::kNoCompression;
  if (compressed) {
    options.compression = rocksdb::kZSTD;
    options.compression_opts.max_dict_bytes = 4096;
    options.compression_opts.zstd_max_train_bytes = 64 * 1024;
    table.column_compression = "zstd";
  }
  options.table_factory.reset(NewColumnarTableFactory(table));
  return options;
}

// A fresh ColumnarTable factory with the same options: a new, empty row-group cache, so that
// nothing read from an earlier file with the same cache keys can answer for a damaged copy.
// Other factories are left alone.
inline void RenewTableFactory(rocksdb::Options* options) {
  const auto* current = options->table_factory->GetOptions<ColumnarTableOptions>();
  if (current == nullptr) return;
  ColumnarTableOptions table = *current;
  table.cache = nullptr;
  options->table_factory.reset(NewColumnarTableFactory(table));
}

// "p07-000712": 3-byte partitions of 100 keys each.
inline std::string FixtureKey(int i) {
  char buf[32];
  snprintf(buf, sizeof(buf), "p%02d-%06d", i / 100, i);
  return buf;
}

// Values of every shape: empty, binary, long compressible text, short text.
inline std::string FixtureValue(int i) {
  switch (i % 5) {
    case 0:
      return "";
    case 1: {
      std::string value(static_cast<size_t>(i % 61), '\0');
      for (size_t j = 0; j < value.size(); j++)
        value[j] = static_cast<char>((i * 131 + j * 7) % 256);
      return value;
    }
    case 2:
      return std::string(200 + i % 400, static_cast<char>('a' + i % 26)) + std::to_string(i);
    default:
      return "v" + std::to_string(i * 7);
  }
}

// The entries of a fixture file: puts, merges (every 7th key) and deletes (every 11th) of
// keys [first, first + count), and two range deletions.
struct FixtureContents {
  enum class Kind { kPut, kMerge, kDelete };
  struct Point {
    Kind kind;
    std::string key;
    std::string value;
  };
  std::vector<Point> points;  // ascending keys
  std::vector<std::pair<std::string, std::string>> range_deletions;
};

inline FixtureContents MakeFixtureContents(int first, int count) {
  FixtureContents contents;
  using Kind = FixtureContents::Kind;
  for (int i = first; i < first + count; i++) {
    if (i % 11 == 0) {
      contents.points.push_back({Kind::kDelete, FixtureKey(i), ""});
    } else if (i % 7 == 0) {
      contents.points.push_back({Kind::kMerge, FixtureKey(i), "m" + std::to_string(i)});
    } else {
      contents.points.push_back({Kind::kPut, FixtureKey(i), FixtureValue(i)});
    }
  }
  contents.range_deletions = {{FixtureKey(first + 10), FixtureKey(first + 20)},
                              {FixtureKey(first + count / 2), FixtureKey(first + count)}};
  return contents;
}

inline void WriteFixture(const rocksdb::Options& options, const std::string& path,
                         const FixtureContents& contents) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  ASSERT_TRUE(writer.Open(path).ok());
  for (const FixtureContents::Point& point : contents.points) {
    switch (point.kind) {
      case FixtureContents::Kind::kPut:
        ASSERT_TRUE(writer.Put(point.key, point.value).ok());
        break;
      case FixtureContents::Kind::kMerge:
        ASSERT_TRUE(writer.Merge(point.key, point.value).ok());
        break;
      case FixtureContents::Kind::kDelete:
        ASSERT_TRUE(writer.Delete(point.key).ok());
        break;
    }
  }
  for (const auto& [begin, end] : contents.range_deletions) {
    ASSERT_TRUE(writer.DeleteRange(begin, end).ok());
  }
  ASSERT_TRUE(writer.Finish().ok());
}

// Applies `contents`, written as one layer newer than everything in `model` (as an ingested
// file is): its range deletions remove older keys (not its own, which share its sequence
// number), then its points apply; merges use AppendMergeOperator.
inline void ApplyFixture(const FixtureContents& contents,
                         std::map<std::string, std::string>* model) {
  for (const auto& [begin, end] : contents.range_deletions) {
    model->erase(model->lower_bound(begin), model->lower_bound(end));
  }
  for (const FixtureContents::Point& point : contents.points) {
    switch (point.kind) {
      case FixtureContents::Kind::kPut:
        (*model)[point.key] = point.value;
        break;
      case FixtureContents::Kind::kMerge: {
        const auto it = model->find(point.key);
        (*model)[point.key] = it == model->end() ? point.value : it->second + "," + point.value;
        break;
      }
      case FixtureContents::Kind::kDelete:
        model->erase(point.key);
        break;
    }
  }
}

// Writes the fixture of keys [first, first + count) and returns what a reader of that file
// alone sees: key -> value, deleted keys absent.
inline std::map<std::string, std::string> WriteFixtureFile(const rocksdb::Options& options,
                                                           const std::string& path, int count,
                                                           int first = 0) {
  const FixtureContents contents = MakeFixtureContents(first, count);
  WriteFixture(options, path, contents);
  std::map<std::string, std::string> visible;
  ApplyFixture(contents, &visible);
  return visible;
}

// Everything `db` shows equals `model`: a forward and a backward scan (in total order: with
// a prefix extractor, RocksDB defines iteration across prefixes only then), and Get of every
// model key and of keys between them.
inline void ExpectReadsMatch(rocksdb::DB* db, const std::map<std::string, std::string>& model,
                             const std::string& where) {
  rocksdb::ReadOptions total_order;
  total_order.total_order_seek = true;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(total_order));
  auto expected = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++expected) {
    ASSERT_NE(expected, model.end()) << where << ": extra key " << it->key().ToString();
    ASSERT_EQ(it->key().ToString(), expected->first) << where;
    ASSERT_EQ(it->value().ToString(), expected->second) << where << " at " << expected->first;
  }
  ASSERT_TRUE(it->status().ok()) << where << ": " << it->status().ToString();
  ASSERT_EQ(expected, model.end()) << where << ": missing key " << expected->first;
  auto reverse = model.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++reverse) {
    ASSERT_NE(reverse, model.rend()) << where;
    ASSERT_EQ(it->key().ToString(), reverse->first) << where;
  }
  ASSERT_TRUE(it->status().ok()) << where << ": " << it->status().ToString();
  ASSERT_EQ(reverse, model.rend()) << where << ": backward scan missed " << reverse->first;
  for (const auto& [key, value] : model) {
    std::string got;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key, &got).ok()) << where << ": Get " << key;
    ASSERT_EQ(got, value) << where << ": Get " << key;
    ASSERT_TRUE(db->Get(rocksdb::ReadOptions(), key + "+", &got).IsNotFound()) << where;
  }
}

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// Where a ColumnarTable file's root block and footer are, and the root itself (table_file.h).
struct FileRootInFile {
  FileRoot root;
  uint64_t root_offset = 0;
  uint64_t root_size = 0;
  uint64_t footer_offset = 0;
};

inline FileRootInFile ReadFileRoot(const std::string& file) {
  FileRootInFile found;
  found.footer_offset = file.size() - rocksdb::Footer::kNewVersionsEncodedLength;
  rocksdb::Footer footer;
  EXPECT_TRUE(footer
                  .DecodeFrom(rocksdb::Slice(file.data() + found.footer_offset,
                                             rocksdb::Footer::kNewVersionsEncodedLength),
                              found.footer_offset)
                  .ok());
  found.root_offset = footer.index_handle().offset();
  found.root_size = footer.index_handle().size();
  std::string buffer;
  Slice raw;
  EXPECT_TRUE(ReadBlock(Slice(file.data() + found.root_offset, found.root_size), nullptr, true,
                        &buffer, &raw)
                  .ok());
  EXPECT_TRUE(found.root.DecodeFrom(raw, found.root_offset).ok());
  return found;
}

}  // namespace columnar
