// encoding_bench: size and speed of every column encoding on the workloads' typical columns,
// and raw bit-unpacking speed.
//
// Each dataset is 65,536 deterministic values, encoded as independent chunks of 1,024 values
// and, separately, of 128 values (the row-group size of the real table files): EncodeValues /
// DecodeValues on one chunk's values at a time, as a row group would. Benchmarks are named
// <encoding>/<dataset>/<values per chunk>; `auto` is EncodeWithBestEncoding(kAuto), decoded
// with the encoding it chose; `file_huffman` codes every chunk with one table made from the whole
// dataset (as a table file keeps it in the column's file dictionary). Counters:
//   bits_per_value            encoded body bits / values (bodies only, no chunk envelope)
//   chunk_bits_per_value      bits / values of the whole chunks as table files store them
//                             (WriteChunk, no checksum, no compression): envelope included
//   encode_values_per_second  values encoded per second of encode time (thread CPU time)
//   decode_values_per_second  values decoded per second of decode time (thread CPU time)
// bitunpack/<width> unpacks 65,536 packed values 1,024 at a time into a cache-resident buffer
// (uint32 output for widths up to 32, uint64 for wider ones) and reports values_per_second.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "db_bench_ext/cpu_usage.h"
#include "db_bench_ext/random_distributions.h"
#include "table_format/bit_packing.h"
#include "table_format/chunk.h"
#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/encodings/file_huffman.h"

namespace columnar {
namespace {

constexpr size_t kDatasetValues = 65536;
// Values per chunk: the historical 1,024 and the table files' row group of 128.
constexpr size_t kChunkSizes[] = {1024, 128};
// bitunpack's block.
constexpr size_t kUnpackValues = 1024;

struct Dataset {
  std::string name;
  PhysicalType type;
  std::function<void(bench::Random*, ColumnVector*)> generate;
};

std::string Path(size_t rank) {
  static const char* kPrefixes[] = {"/api/v1/users/",    "/api/v1/orders/", "/static/js/app.",
                                    "/api/v2/search?q=", "/health",         "/assets/img/"};
  const char* prefix = kPrefixes[rank % 6];
  if (rank % 6 == 4) return std::string(prefix) + (rank % 12 == 4 ? "" : "z");
  return std::string(prefix) + std::to_string(rank * 7919 % 100003);
}

const std::vector<Dataset>& Datasets() {
  static const std::vector<Dataset> datasets = {
      {"regular_timestamps", PhysicalType::kInt64,
       [](bench::Random*, ColumnVector* c) {
         for (size_t i = 0; i < kDatasetValues; i++) c->Append<int64_t>(1700000000 + 5 * i);
       }},
      {"jittered_timestamps", PhysicalType::kInt64,
       [](bench::Random* rng, ColumnVector* c) {
         for (size_t i = 0; i < kDatasetValues; i++) {
           c->Append<int64_t>(1700000000000 + 5000 * static_cast<int64_t>(i) +
                              rng->UniformInRange(0, 100));
         }
       }},
      {"float32_random_walk", PhysicalType::kFloat32,
       [](bench::Random* rng, ColumnVector* c) {
         float v = static_cast<float>(10 + 90 * rng->UniformDouble());
         for (size_t i = 0; i < kDatasetValues; i++) {
           v += static_cast<float>(0.1 * rng->Normal());
           c->Append<float>(v);
         }
       }},
      {"decimal_gauges", PhysicalType::kFloat64,
       [](bench::Random* rng, ColumnVector* c) {
         int64_t cents = 5000;
         for (size_t i = 0; i < kDatasetValues; i++) {
           cents = std::max<int64_t>(0, cents + rng->UniformInRange(-50, 50));
           c->Append<double>(static_cast<double>(cents) / 100);
         }
       }},
      {"monotone_counters", PhysicalType::kInt64,
       [](bench::Random* rng, ColumnVector* c) {
         int64_t v = 1000000;
         for (size_t i = 0; i < kDatasetValues; i++) {
           v += rng->UniformInRange(0, 100);
           c->Append<int64_t>(v);
         }
       }},
      {"write_time_jitter", PhysicalType::kInt64,
       [](bench::Random* rng, ColumnVector* c) {
         // The metrics workload's write time stored as its jitter: uniform in [0, 100 ms] in us.
         for (size_t i = 0; i < kDatasetValues; i++)
           c->Append<int64_t>(rng->UniformInRange(0, 100000));
       }},
      {"constant_ttl", PhysicalType::kInt64,
       [](bench::Random*, ColumnVector* c) {
         for (size_t i = 0; i < kDatasetValues; i++) c->Append<int64_t>(2592000);
       }},
      {"http_methods", PhysicalType::kBytes,
       [](bench::Random* rng, ColumnVector* c) {
         static const char* kMethods[] = {"GET", "POST", "PUT", "DELETE", "PATCH"};
         const bench::WeightedChoice choice({70, 20, 5, 3, 2});
         for (size_t i = 0; i < kDatasetValues; i++) c->AppendBytes(kMethods[choice.Sample(rng)]);
       }},
      {"http_statuses", PhysicalType::kInt32,
       [](bench::Random* rng, ColumnVector* c) {
         // The access workload's 14 statuses, 200 in 87.8% of the rows (huffman's case).
         static const int32_t kStatuses[] = {200, 201, 204, 301, 302, 304, 400,
                                             401, 403, 404, 429, 500, 502, 503};
         const bench::WeightedChoice choice(
             {87.8, 2.0, 1.0, 0.3, 0.8, 3.0, 0.8, 0.9, 0.3, 1.5, 0.3, 0.6, 0.3, 0.4});
         for (size_t i = 0; i < kDatasetValues; i++)
           c->Append<int32_t>(kStatuses[choice.Sample(rng)]);
       }},
      {"lognormal_latencies", PhysicalType::kInt32,
       [](bench::Random* rng, ColumnVector* c) {
         // The access workload's latencies: log-normal, median 40 ms, sigma 1.4 (rice's case).
         for (size_t i = 0; i < kDatasetValues; i++) {
           const double ms = rng->LogNormal(std::log(40.0), 1.4);
           c->Append<int32_t>(static_cast<int32_t>(std::clamp(std::round(ms), 1.0, 60000.0)));
         }
       }},
      {"zipf_paths", PhysicalType::kBytes,
       [](bench::Random* rng, ColumnVector* c) {
         const bench::ZipfDistribution zipf(200, 1.1);
         for (size_t i = 0; i < kDatasetValues; i++) c->AppendBytes(Path(zipf.Sample(rng)));
       }},
      {"hex_ids", PhysicalType::kBytes,
       [](bench::Random* rng, ColumnVector* c) {
         for (size_t i = 0; i < kDatasetValues; i++) c->AppendBytes(rng->Hex(32));
       }},
      {"id_paths", PhysicalType::kBytes,
       [](bench::Random* rng, ColumnVector* c) {
         // Access-log paths: 40 routes (Zipf), most with a numeric id, some fingerprinted.
         const bench::ZipfDistribution zipf(40, 1.1);
         for (size_t i = 0; i < kDatasetValues; i++) {
           const uint64_t route = zipf.Sample(rng);
           std::string path = "/api/v1/resource" + std::to_string(route);
           if (route % 4 == 3) {
             path = "/static/js/bundle" + std::to_string(route) + "." + rng->Hex(8) + ".js";
           } else if (route % 4 != 0) {
             path += "/" + std::to_string(rng->UniformInRange(1, 999999));
           }
           c->AppendBytes(path);
         }
       }},
      {"prefixed_user_ids", PhysicalType::kBytes,
       [](bench::Random* rng, ColumnVector* c) {
         // Access-log user ids: "u" + org (2 digits) + user (5 digits, zero-padded).
         char buf[16];
         for (size_t i = 0; i < kDatasetValues; i++) {
           std::snprintf(buf, sizeof(buf), "u%02d%05d", static_cast<int>(rng->Uniform(10) + 1),
                         static_cast<int>(rng->Uniform(100000)));
           c->AppendBytes(buf);
         }
       }},
      {"ipv4_addresses", PhysicalType::kBytes,
       [](bench::Random* rng, ColumnVector* c) {
         for (size_t i = 0; i < kDatasetValues; i++) {
           c->AppendBytes(std::to_string(rng->UniformInRange(1, 223)) + "." +
                          std::to_string(rng->UniformInRange(0, 255)) + "." +
                          std::to_string(rng->UniformInRange(0, 255)) + "." +
                          std::to_string(rng->UniformInRange(1, 254)));
         }
       }},
      {"trace_ids", PhysicalType::kBytes,
       [](bench::Random* rng, ColumnVector* c) {
         // One trace id over 1-5 consecutive log lines.
         std::string id;
         int64_t left = 0;
         for (size_t i = 0; i < kDatasetValues; i++) {
           if (left == 0) {
             id = rng->Hex(32);
             left = rng->UniformInRange(1, 5);
           }
           left--;
           c->AppendBytes(id);
         }
       }},
  };
  return datasets;
}

// The dataset's values (the same for every chunk size).
const ColumnVector& AllValues(const Dataset& dataset) {
  static std::map<std::string, ColumnVector> cache;
  auto it = cache.find(dataset.name);
  if (it != cache.end()) return it->second;
  bench::Random rng(bench::MixSeed(20240601, std::hash<std::string>{}(dataset.name)));
  ColumnVector all(dataset.type);
  dataset.generate(&rng, &all);
  return cache[dataset.name] = std::move(all);
}

// The dataset split into chunks of `chunk_values`.
const std::vector<ColumnVector>& Chunks(const Dataset& dataset, size_t chunk_values) {
  static std::map<std::pair<std::string, size_t>, std::vector<ColumnVector>> cache;
  const auto key = std::make_pair(dataset.name, chunk_values);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const ColumnVector& all = AllValues(dataset);
  std::vector<ColumnVector> chunks;
  for (size_t start = 0; start < all.size(); start += chunk_values) {
    ColumnVector chunk(dataset.type);
    for (size_t i = start; i < start + chunk_values && i < all.size(); i++) {
      chunk.AppendFrom(all, i);
    }
    chunks.push_back(std::move(chunk));
  }
  return cache[key] = std::move(chunks);
}

// Bytes of the chunks as a table file stores them: WriteChunk without checksum or compression.
size_t StoredChunkBytes(Encoding encoding, const std::vector<ColumnVector>& chunks) {
  ChunkWriteOptions options;
  options.encoding = encoding;
  options.checksum = false;
  size_t bytes = 0;
  for (const ColumnVector& chunk : chunks) {
    std::string stored;
    if (!WriteChunk(chunk, options, &stored).ok()) return 0;
    bytes += stored.size();
  }
  return bytes;
}

void BenchEncoding(benchmark::State& state, Encoding encoding, const Dataset* dataset,
                   size_t chunk_values) {
  const std::vector<ColumnVector>& chunks = Chunks(*dataset, chunk_values);
  std::vector<std::string> bodies(chunks.size());
  std::vector<Encoding> chosen(chunks.size(), encoding);
  ColumnVector decoded(dataset->type);
  // file_huffman: the dataset's table, as the file dictionary's entry 1.
  FileHuffmanTable table;
  ColumnVector entries(PhysicalType::kBytes);
  if (encoding == Encoding::kFileHuffman) {
    std::map<int64_t, uint64_t> counts;
    for (const ColumnVector& chunk : chunks) {
      for (size_t i = 0; i < chunk.size(); i++) {
        counts[dataset->type == PhysicalType::kInt32 ? chunk.Get<int32_t>(i)
                                                     : chunk.Get<int64_t>(i)]++;
      }
    }
    if (!FileHuffmanTable::Build({counts.begin(), counts.end()}, 0, &table)) {
      state.SkipWithError("no table");
      return;
    }
    entries.AppendBytes(table.Serialize());
  }
  auto encode = [&](size_t c) {
    if (encoding == Encoding::kFileHuffman) {
      table.Encode(1, chunks[c], &bodies[c]);
      return Status::OK();
    }
    return encoding == Encoding::kAuto
               ? EncodeWithBestEncoding(encoding, chunks[c], &bodies[c], &chosen[c])
               : EncodeValues(encoding, chunks[c], &bodies[c]);
  };
  auto decode = [&](size_t c) {
    return encoding == Encoding::kFileHuffman
               ? DecodeFileHuffmanBody(bodies[c], chunks[c].size(), entries, dataset->type,
                                       &decoded)
               : DecodeValues(chosen[c], dataset->type, bodies[c], chunks[c].size(), &decoded);
  };
  double encode_seconds = 0;
  double decode_seconds = 0;
  size_t body_bytes = 0;
  for (auto _ : state) {
    const double t0 = bench::ThreadCpuSeconds();
    for (size_t c = 0; c < chunks.size(); c++) {
      bodies[c].clear();
      Status s = encode(c);
      if (!s.ok()) {
        state.SkipWithError(s.ToString().c_str());
        return;
      }
    }
    const double t1 = bench::ThreadCpuSeconds();
    for (size_t c = 0; c < chunks.size(); c++) {
      decoded.Clear();
      Status s = decode(c);
      if (!s.ok()) {
        state.SkipWithError(s.ToString().c_str());
        return;
      }
      benchmark::DoNotOptimize(decoded.size());
    }
    const double t2 = bench::ThreadCpuSeconds();
    encode_seconds += t1 - t0;
    decode_seconds += t2 - t1;
  }
  body_bytes = 0;
  for (const auto& b : bodies) body_bytes += b.size();
  // Every chunk must come back exactly.
  for (size_t c = 0; c < chunks.size(); c++) {
    decoded.Clear();
    if (!decode(c).ok() || !decoded.Equals(chunks[c])) {
      state.SkipWithError("round trip mismatch");
      return;
    }
  }
  const double values = static_cast<double>(kDatasetValues) * state.iterations();
  state.counters["bits_per_value"] = 8.0 * body_bytes / kDatasetValues;
  if (encoding != Encoding::kFileHuffman) {  // WriteChunk cannot make it without a file
    state.counters["chunk_bits_per_value"] =
        8.0 * StoredChunkBytes(encoding, chunks) / kDatasetValues;
  }
  state.counters["encode_values_per_second"] = values / encode_seconds;
  state.counters["decode_values_per_second"] = values / decode_seconds;
  if (encoding == Encoding::kAuto) {
    std::map<std::string, int> picks;
    for (Encoding e : chosen) picks[EncodingName(e)]++;
    std::string label;
    for (const auto& [name, count] : picks) {
      label += (label.empty() ? "" : ",") + name + ":" + std::to_string(count);
    }
    state.SetLabel(label);
  }
  state.SetItemsProcessed(static_cast<int64_t>(values));
}

void BenchBitUnpack(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  bench::Random rng(width);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  std::vector<uint64_t> values(kDatasetValues);
  for (auto& v : values) v = rng.Next() & mask;
  std::vector<char> packed(PackedSize(kDatasetValues, width));
  PackBits(values.data(), kDatasetValues, width, packed.data());
  const size_t block_bytes = PackedSize(kUnpackValues, width);
  std::vector<uint32_t> out32(kUnpackValues);
  std::vector<uint64_t> out64(kUnpackValues);
  for (auto _ : state) {
    for (size_t c = 0; c < kDatasetValues / kUnpackValues; c++) {
      const char* in = packed.data() + c * block_bytes;
      if (width <= 32) {
        UnpackBits32(in, kUnpackValues, width, out32.data());
        benchmark::DoNotOptimize(out32.data());
      } else {
        UnpackBits(in, kUnpackValues, width, out64.data());
        benchmark::DoNotOptimize(out64.data());
      }
      benchmark::ClobberMemory();
    }
  }
  const double unpacked = static_cast<double>(kDatasetValues) * state.iterations();
  state.counters["values_per_second"] = benchmark::Counter(unpacked, benchmark::Counter::kIsRate);
}

void RegisterAll() {
  for (const Dataset& dataset : Datasets()) {
    std::vector<Encoding> encodings = CandidateEncodings(Encoding::kAuto, dataset.type);
    encodings.push_back(Encoding::kAuto);
    if (dataset.type == PhysicalType::kInt32) encodings.push_back(Encoding::kFileHuffman);
    for (Encoding encoding : encodings) {
      if (encoding == Encoding::kHex && dataset.name != "hex_ids" && dataset.name != "trace_ids") {
        continue;  // not hex
      }
      for (size_t chunk_values : kChunkSizes) {
        const std::string name = std::string(EncodingName(encoding)) + "/" + dataset.name + "/" +
                                 std::to_string(chunk_values);
        benchmark::RegisterBenchmark(name.c_str(), BenchEncoding, encoding, &dataset, chunk_values)
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
  auto* unpack = benchmark::RegisterBenchmark("bitunpack", BenchBitUnpack);
  for (int width = 1; width <= 32; width++) unpack->Arg(width);
  for (int width : {40, 48, 56, 64}) unpack->Arg(width);
  unpack->Unit(benchmark::kMicrosecond);
}

}  // namespace
}  // namespace columnar

int main(int argc, char** argv) {
  columnar::RegisterAll();
  benchmark::AddCustomContext("datasets",
                              "65,536 deterministic values each, encoded as independent chunks of "
                              "1,024 (<name>/1024) or 128 (<name>/128) values");
  benchmark::AddCustomContext("bits_per_value", "encoded body bits / values (no chunk envelope)");
  benchmark::AddCustomContext("chunk_bits_per_value",
                              "WriteChunk bits / values (envelope, no checksum, no compression)");
  benchmark::AddCustomContext("values_per_second", "per second of thread CPU time");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
