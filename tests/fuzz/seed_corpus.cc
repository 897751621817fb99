// Writes the seed corpora of the fuzz targets from valid inputs:
//
//   fuzz_seed_corpus <corpus dir>     (tests/fuzz/corpus; one sub-directory per target)
//
// Each seed is a small, well-formed input of its target (encoded chunks of every encoding and
// type, row groups of both layouts, rows, keys, CQL, whole SST files, ...), so the fuzzers
// start from inputs that reach deep into the decoders. Re-run it when a format changes.
#include <rocksdb/env.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_writer.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "filter/zone_map.h"
#include "filter/zone_map_set.h"
#include "plugin/columnar_table.h"
#include "plugin/range_deletions.h"
#include "plugin/zone_map_collector.h"
#include "table_format/chunk.h"
#include "table_format/data_block.h"
#include "table_format/file_dictionary.h"
#include "table_format/file_root.h"
#include "table_format/generic_layout.h"
#include "table_format/key_codec.h"
#include "table_format/row_codec.h"
#include "table_format/row_group.h"
#include "table_format/row_group_index.h"
#include "table_format/typed_layout.h"
#include "table_format/varint.h"
#include "tests/fuzz/fuzz_schema.h"

namespace columnar {
namespace {

namespace fs = std::filesystem;

class Corpus {
 public:
  Corpus(const fs::path& root, const std::string& target) : dir_(root / target) {
    fs::create_directories(dir_);
  }
  void Add(const std::string& bytes) {
    char name[32];
    snprintf(name, sizeof(name), "seed-%03d", count_++);
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
  }

 private:
  fs::path dir_;
  int count_ = 0;
};

std::string Byte(int b) { return std::string(1, static_cast<char>(b)); }

// 64 values of `type` with some structure (runs, a trend, repeats), every 9th null.
ColumnVector SampleColumn(PhysicalType type, bool nulls) {
  ColumnVector v(type);
  for (int i = 0; i < 64; i++) {
    if (nulls && i % 9 == 4) {
      v.AppendNull();
      continue;
    }
    switch (type) {
      case PhysicalType::kInt32:
        v.Append<int32_t>(1000 + i * 3 + (i % 5));
        break;
      case PhysicalType::kInt64:
        v.Append<int64_t>(1700000000000 + i * 1000);
        break;
      case PhysicalType::kFloat32:
        v.Append<float>(20.5f + static_cast<float>(i % 7) * 0.25f);
        break;
      case PhysicalType::kFloat64:
        v.Append<double>(0.1 * i + 3.25);
        break;
      case PhysicalType::kBytes: {
        static const char* kWords[] = {"GET", "POST", "0badc0ffee", "deadbeef", "user-17"};
        v.AppendBytes(std::string(kWords[i % 5]) + (i % 3 == 0 ? std::to_string(i) : ""));
        break;
      }
    }
  }
  return v;
}

void ChunkSeeds(const fs::path& root) {
  Corpus corpus(root, "chunk");
  for (int t = 0; t < kNumPhysicalTypes; t++) {
    const auto type = static_cast<PhysicalType>(t);
    for (int e = 0; e <= static_cast<int>(Encoding::kConstant); e++) {
      const auto encoding = static_cast<Encoding>(e);
      if (!EncodingSupports(encoding, type)) continue;
      ColumnVector values = SampleColumn(type, false);
      if (encoding == Encoding::kConstant) {
        ColumnVector constant(type);
        for (int i = 0; i < 10; i++) constant.AppendFrom(values, 0);
        values = constant;
      }
      ChunkWriteOptions write;
      write.encoding = encoding;
      write.checksum = false;
      std::string chunk;
      if (!WriteChunk(values, write, &chunk).ok()) continue;
      // Whole-chunk mode (mode 0).
      corpus.Add(Byte(t) + Byte(0) + chunk);
      // Body mode: the body behind a header the target builds (mode 1).
      ChunkHeader header;
      FUZZ_CHECK(ParseChunkHeader(chunk, &header).ok());
      if (!header.compressed && !header.has_nulls) {
        const uint32_t count = header.value_count;
        corpus.Add(Byte(t) + Byte(1) + Byte(e) + Byte(count & 0xff) + Byte(count >> 8) +
                   chunk.substr(header.header_size));
      }
    }
    // Nulls, zstd and a checksum.
    ChunkWriteOptions write;
    write.compression = ColumnCompression::kZstd;
    std::string chunk;
    FUZZ_CHECK(WriteChunk(SampleColumn(type, true), write, &chunk).ok());
    corpus.Add(Byte(t) + Byte(2) + chunk);
  }
}

std::vector<Value> SampleKeyValues(int i, std::vector<Value>* clustering) {
  std::string uuid(16, '\0');
  for (int b = 0; b < 16; b++) uuid[b] = static_cast<char>(i * 17 + b);
  *clustering = {Value::BigInt(1700000000 - i * 10), Value::Uuid(uuid)};
  return {Value::Text(i % 2 ? "org-a" : std::string("org\0b", 5)), Value::Date(19000 + i / 4)};
}

Row SampleRow(const TableSchema& schema, int i) {
  Row row(schema.next_column_id());
  auto set = [&](const char* name, Value v) {
    const ColumnDef* column = schema.FindColumn(name);
    if (column != nullptr) row[column->id] = std::move(v);
  };
  set("flag", Value::Boolean(i % 2));
  set("count", Value::Int(i * 3));
  if (i % 3) set("total", Value::BigInt(int64_t{1} << (i % 50)));
  set("value", Value::Double(20.0 + i * 0.5));
  set("seen", Value::Timestamp(1700000000000 + i));
  set("born", Value::Date(-i));
  set("name", Value::Text(i % 4 ? "GET" : "POST"));
  set("code", Value::Ascii("a1"));
  set("payload", Value::Blob(std::string("\x00\xff", 2)));
  set("ref", Value::Uuid(std::string(16, static_cast<char>(i))));
  if (i % 2) set("extra", Value::Int(-i));
  return row;
}

void KeyAndRowSeeds(const fs::path& root) {
  const TableSchema& schema = fuzz::FuzzSchema();
  Corpus keys(root, "key_codec");
  Corpus rows(root, "row_codec");
  const RowCodec codec(schema);
  for (int i = 0; i < 6; i++) {
    std::vector<Value> clustering;
    const std::vector<Value> partition = SampleKeyValues(i, &clustering);
    std::string key;
    FUZZ_CHECK(EncodeKey(schema, partition, clustering, &key).ok());
    keys.Add(Byte(i * 5) + key);
    RowMetadata meta;
    meta.schema_version = schema.version();
    meta.has_write_time = i % 2 == 0;
    meta.write_time_micros = 1700000000000000 + i;
    meta.has_expiry = i % 3 == 0;
    meta.expiry_seconds = 1800000000;
    std::string value;
    FUZZ_CHECK(codec.EncodeRow(meta, SampleRow(schema, i), &value).ok());
    rows.Add(value);
  }
}

class DefaultSettings : public ColumnWriteSettings {
 public:
  ChunkWriteOptions For(const std::string&, PhysicalType) const override {
    return ChunkWriteOptions();
  }
};

// Typed rows, a deletion and an opaque value, in internal-key order.
struct SampleEntries {
  std::vector<std::string> keys;
  std::vector<std::string> values;
  std::vector<Entry> entries;
};

SampleEntries TypedEntries(int count) {
  const TableSchema& schema = fuzz::FuzzSchema();
  SampleEntries out;
  for (int i = 0; i < count; i++) {
    std::vector<Value> clustering;
    std::vector<Value> partition = SampleKeyValues(0, &clustering);
    clustering[0] = Value::BigInt(1700000000 - i * 10);  // DESC: ascending keys
    std::string key;
    FUZZ_CHECK(EncodeKey(schema, partition, clustering, &key).ok());
    out.keys.push_back(key);
    std::string value;
    RowMetadata meta;
    meta.schema_version = schema.version();
    FUZZ_CHECK(EncodeRow(schema, meta, SampleRow(schema, i), &value).ok());
    out.values.push_back(i == 3 ? std::string("opaque") : value);
  }
  for (int i = 0; i < count; i++) {
    Entry e;
    e.user_key = out.keys[i];
    e.sequence = 100 + i;
    e.value_type = i == 5 ? 0x0 /* deletion */ : kPutValueType;
    e.value = i == 5 ? Slice() : Slice(out.values[i]);
    out.entries.push_back(e);
  }
  return out;
}

std::string InternalKey(const Entry& e) {
  std::string key = e.user_key.ToString();
  PutFixed64(&key, (e.sequence << 8) | e.value_type);
  return key;
}

void RowGroupSeeds(const fs::path& root) {
  Corpus corpus(root, "row_group");
  DefaultSettings settings;
  RowGroupWriteContext context;
  context.settings = &settings;
  const TypedLayout typed(fuzz::FuzzSchema());
  const GenericLayout generic(
      std::shared_ptr<const rocksdb::SliceTransform>(rocksdb::NewFixedPrefixTransform(3)));
  for (int count : {1, 8, 20}) {
    SampleEntries sample = TypedEntries(count);
    std::string group;
    FUZZ_CHECK(typed.WriteRowGroup(sample.entries.data(), count, context, &group).ok());
    const std::string first = InternalKey(sample.entries[0]);
    corpus.Add(Byte(count == 8 ? 5 : 1) + Byte(first.size()) + first + group);
    group.clear();
    FUZZ_CHECK(generic.WriteRowGroup(sample.entries.data(), count, context, &group).ok());
    corpus.Add(Byte(2) + Byte(first.size()) + first + group);
  }
}

void WriteSst(const std::string& path, const rocksdb::Options& options, bool typed) {
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  FUZZ_CHECK(writer.Open(path).ok());
  if (typed) {
    SampleEntries sample = TypedEntries(40);
    for (int i = 0; i < 40; i++) {
      if (i == 5) continue;
      FUZZ_CHECK(writer.Put(sample.keys[i], sample.values[i]).ok());
    }
  } else {
    char key[16];
    for (int i = 0; i < 150; i++) {
      snprintf(key, sizeof(key), "p%02d-%04d", i / 50, i);
      if (i % 11 == 0) {
        FUZZ_CHECK(writer.Delete(key).ok());
      } else if (i % 7 == 0) {
        FUZZ_CHECK(writer.Merge(key, "m").ok());
      } else {
        FUZZ_CHECK(writer.Put(key, std::string(i % 37, static_cast<char>('a' + i % 26))).ok());
      }
    }
    FUZZ_CHECK(writer.DeleteRange("p02-0120", "p02-0130").ok());
  }
  FUZZ_CHECK(writer.Finish().ok());
}

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void SstSeeds(const fs::path& root) {
  Corpus corpus(root, "sst_file");
  const std::string path = (fs::temp_directory_path() / "columnar_fuzz_seed.sst").string();
  struct Variant {
    bool typed, prefix, compressed;
    int flags;
    uint32_t max_inline_value_bytes = 256u << 20;
  };
  // The last variant stores its longer values outside the row groups (oversized values).
  for (const Variant& v : {Variant{false, true, false, 2}, Variant{false, false, true, 4},
                           Variant{true, false, false, 1}, Variant{true, false, true, 5},
                           Variant{false, false, false, 4, 30}}) {
    ColumnarTableOptions table;
    table.rows_per_group = 16;
    table.block_size = 1024;
    table.max_inline_value_bytes = v.max_inline_value_bytes;
    if (v.typed) table.schema = fuzz::FuzzSchema().Serialize();
    if (v.compressed) table.column_compression = "zstd";
    rocksdb::Options options;
    if (v.prefix) options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(3));
    options.compression = v.compressed ? rocksdb::kZSTD : rocksdb::kNoCompression;
    options.table_factory.reset(NewColumnarTableFactory(table));
    WriteSst(path, options, v.typed);
    corpus.Add(Byte(v.flags) + ReadWholeFile(path));
  }
  fs::remove(path);
}

void FilePartSeeds(const fs::path& root) {
  Corpus corpus(root, "file_parts");
  // 0: row group index of two blocks.
  RowGroupIndexBuilder index;
  index.AddRowGroup("apple", 0x101, 0);
  index.AddRowGroup("banana", 0x201, 300);
  index.SetBlockHandle(index.CloseBlock(), 0, 700);
  index.AddRowGroup("cherry", 0x301, 0);
  index.SetBlockHandle(index.CloseBlock(), 700, 400);
  std::string raw;
  FUZZ_CHECK(index.Finish(&raw).ok());
  corpus.Add(Byte(0) + raw);
  // 1: file root.
  FileRoot file_root;
  for (size_t i = 0; i < file_root.blocks.size(); i++) file_root.blocks[i] = {100 * i, 50};
  file_root.layout_id = 1;
  raw.clear();
  file_root.EncodeTo(&raw);
  corpus.Add(Byte(1) + raw);
  // 2: data blocks, stored plain, lz4 and zstd.
  const std::string payload = std::string(300, 'x') + "payload" + std::string(100, '\0');
  for (BlockCodec codec : {BlockCodec::kNone, BlockCodec::kLz4, BlockCodec::kZstd}) {
    BlockCompressor compressor;
    compressor.codec = codec;
    raw.clear();
    FUZZ_CHECK(WriteBlock(payload, compressor, &raw).ok());
    corpus.Add(Byte(2) + raw);
  }
  // 3: file dictionaries of one column (values seen twice are admitted).
  FileDictionaryWriters dictionaries;
  ColumnVector words = SampleColumn(PhysicalType::kBytes, false);
  std::string body;
  for (int round = 0; round < 3; round++) {
    body.clear();
    dictionaries.For("name")->TryEncode(words, 1 << 20, &body);
  }
  raw.clear();
  FUZZ_CHECK(dictionaries.Finish(ChunkWriteOptions(), &raw).ok());
  corpus.Add(Byte(3) + raw);
  // 4: zone map block of two row groups; 6: one zone map set.
  ZoneMapCollector collector;
  ZoneMapSet set;
  for (int group = 0; group < 2; group++) {
    collector.BeginRowGroup(64);
    for (int t = 0; t < kNumPhysicalTypes; t++) {
      ColumnVector column = SampleColumn(static_cast<PhysicalType>(t), group == 1);
      collector.OnColumn(static_cast<uint32_t>(t), column);
      set.Set(static_cast<uint32_t>(t), BuildZoneMap(column));
    }
    ColumnVector expiry(PhysicalType::kInt64);
    for (int i = 0; i < 64; i++) expiry.AppendNull();
    collector.OnExpiry(expiry);
    collector.OnTypedRows(64);
    collector.EndRowGroup(group == 0);
  }
  raw.clear();
  collector.Finish(&raw);
  corpus.Add(Byte(4) + Byte(2) + raw);
  raw.clear();
  set.EncodeTo(&raw);
  corpus.Add(Byte(6) + raw);
  // 5: range deletions.
  std::string start = "apple";
  PutFixed64(&start, (uint64_t{7} << 8) | 0xf);
  std::string start2 = "kiwi";
  PutFixed64(&start2, (uint64_t{9} << 8) | 0xf);
  raw.clear();
  EncodeRangeDeletions({{start, "banana"}, {start2, "lime"}}, &raw);
  corpus.Add(Byte(5) + raw);
}

void TextSeeds(const fs::path& root) {
  Corpus cql(root, "cql_parser");
  cql.Add(fuzz::kFuzzCreateTable);
  cql.Add(
      "CREATE TABLE IF NOT EXISTS metrics (org text, time int, value float, tags blob, "
      "PRIMARY KEY (org, time)) WITH default_time_to_live = 86400 AND "
      "compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_size': 1} AND "
      "column_compression = {'default': 'zstd', 'value': 'none'};");
  cql.Add("create table t (\"Quoted \"\"id\" uuid primary key, d date, ts timestamp, x double)");
  cql.Add("ALTER TABLE ks.fuzzed ADD (a1 ascii, b2 boolean)");
  cql.Add("ALTER TABLE ks.fuzzed DROP (name, code);");
  cql.Add("ALTER TABLE fuzzed WITH default_time_to_live = 0 AND comment = 'it''s'");
  cql.Add(fuzz::FuzzSchema().Serialize());
  cql.Add(
      "CREATE TABLE ks.f (k frozen<tuple<int, text>>, c frozen<list<int>>, "
      "m frozen<map<text, frozen<set<uuid>>>>, t tuple<double, list<blob>>, "
      "PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)");

  Corpus binder(root, "statement_binder");
  binder.Add(
      "INSERT INTO ks.fuzzed (org, day, time, id, flag, count, value, seen, name, code, payload, "
      "ref, extra) VALUES ('o', '2024-05-01', 1700000000, 123e4567-e89b-12d3-a456-426614174000, "
      "true, -4, 1.5e3, '2024-05-01T12:00:00.000Z', 'GET', 'abc', 0xcafe, "
      "123e4567-e89b-12d3-a456-426614174001, 7) USING TTL 3600 AND TIMESTAMP 1700000000000000;");
  binder.Add(
      "SELECT org, WRITETIME(value), TTL(name) FROM fuzzed WHERE org = 'o' AND day = 19000 AND "
      "time > 10 AND time <= 99 ORDER BY time ASC LIMIT 10");
  binder.Add(
      "SELECT * FROM ks.fuzzed WHERE org = 'o' AND day IN (1, 2) AND time = 5 AND "
      "id >= 123e4567-e89b-12d3-a456-426614174000 AND value > NaN AND count IN (1, 2, 3) "
      "ALLOW FILTERING");
  binder.Add("DELETE FROM fuzzed WHERE org = 'o' AND day = 0");
  binder.Add(
      "DELETE FROM fuzzed WHERE org = 'o' AND day = 0 AND time = -Infinity AND "
      "id = 123e4567-e89b-12d3-a456-426614174000;");

  Corpus options(root, "table_options");
  options.Add("rows_per_group=64;block_size=4096;column_compression=zstd");
  options.Add(
      "column_encodings=value:alp,name:dictionary;column_compression=default:zstd,name:none");
  options.Add(
      "bloom_bits_per_key=0;whole_key_filter=false;partition_filter=true;cache_size=1048576");
  options.Add("schema=" + fuzz::FuzzSchema().Serialize());
  options.Add("group_target_bytes=512;column_compression_level=19;rows_per_group=7");
  options.Add("max_inline_value_bytes=16;rows_per_group=8");

  // The predicate target reads its bytes through FuzzedDataProvider: any bytes are valid.
  Corpus predicate(root, "predicate_binder");
  for (int seed = 0; seed < 4; seed++) {
    std::string bytes;
    for (int i = 0; i < 64; i++) bytes.push_back(static_cast<char>((seed * 97 + i * 31) % 251));
    predicate.Add(bytes);
  }
}

}  // namespace
}  // namespace columnar

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <corpus dir>\n", argv[0]);
    return 2;
  }
  const std::filesystem::path root(argv[1]);
  columnar::ChunkSeeds(root);
  columnar::KeyAndRowSeeds(root);
  columnar::RowGroupSeeds(root);
  columnar::SstSeeds(root);
  columnar::FilePartSeeds(root);
  columnar::TextSeeds(root);
  return 0;
}
