// filter_bench: rows per second of the filter evaluator. Compares the SIMD comparison kernels
// with the scalar loop on 128-row and 4096-row vectors of every fixed-width type, byte-string
// equality on plain and dictionary columns, and a three-conjunct access-log filter.
//
//   filter_bench --benchmark_filter=Compare   (items_per_second = rows/s)
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "filter/binder.h"
#include "filter/compare_kernels.h"
#include "filter/evaluator.h"
#include "filter/leaf_evaluator.h"
#include "filter/selection_bitmap.h"
#include "filter/single_column_evaluator.h"
#include "table_format/column_vector.h"
#include "table_format/encoding.h"
#include "table_format/encodings/dictionary.h"
#include "table_format/schema.h"

namespace columnar {
namespace {

constexpr SimdLevel kLevels[] = {SimdLevel::kScalar, SimdLevel::kSse2, SimdLevel::kAvx2,
                                 SimdLevel::kAvx512};

// Random bit patterns of `width` bytes: comparisons split about evenly.
std::vector<char> RandomFixed(size_t rows, size_t width) {
  std::mt19937_64 rng(rows * 31 + width);
  std::vector<char> bytes(rows * width);
  for (size_t i = 0; i < rows; i++) {
    const uint64_t v = rng();
    std::memcpy(bytes.data() + i * width, &v, width);
  }
  return bytes;
}

void CompareFixed(benchmark::State& state, PhysicalType type) {
  const size_t rows = static_cast<size_t>(state.range(0));
  const SimdLevel level = kLevels[state.range(1)];
  if (!SimdLevelAvailable(level)) {
    state.SkipWithError("instruction set not available");
    return;
  }
  const std::vector<char> values = RandomFixed(rows, FixedWidth(type));
  std::vector<uint64_t> out(WordsForRows(rows));
  for (auto _ : state) {
    CompareFixedValues(type, values.data(), rows, CompareOp::kGe, 0x12345678, out.data(), level);
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
  state.SetLabel(SimdLevelName(level));
}

void BM_CompareInt32(benchmark::State& state) { CompareFixed(state, PhysicalType::kInt32); }
void BM_CompareInt64(benchmark::State& state) { CompareFixed(state, PhysicalType::kInt64); }
void BM_CompareFloat32(benchmark::State& state) { CompareFixed(state, PhysicalType::kFloat32); }
void BM_CompareFloat64(benchmark::State& state) { CompareFixed(state, PhysicalType::kFloat64); }

void CompareArgs(benchmark::internal::Benchmark* b) {
  for (int64_t rows : {128, 4096}) {
    for (int64_t level = 0; level < 4; level++) b->Args({rows, level});
  }
}
BENCHMARK(BM_CompareInt32)->Apply(CompareArgs);
BENCHMARK(BM_CompareInt64)->Apply(CompareArgs);
BENCHMARK(BM_CompareFloat32)->Apply(CompareArgs);
BENCHMARK(BM_CompareFloat64)->Apply(CompareArgs);

// An access-log-like table: protocol (3 values), status (mostly 200), latency_ms.
struct AccessLog {
  TableSchema schema;
  ColumnVector protocol{PhysicalType::kBytes};
  ColumnVector status{PhysicalType::kInt32};
  ColumnVector latency{PhysicalType::kInt32};
  ColumnVector protocol_dictionary;
  std::vector<uint32_t> protocol_codes;

  explicit AccessLog(size_t rows) {
    TableSchemaBuilder("logs", "access")
        .AddColumn("id", LogicalType::kBigInt)
        .AddColumn("protocol", LogicalType::kAscii)
        .AddColumn("status", LogicalType::kInt)
        .AddColumn("latency_ms", LogicalType::kInt)
        .SetPartitionKey({"id"})
        .Build(&schema);
    std::mt19937_64 rng(rows);
    const char* protocols[] = {"HTTP/2", "HTTP/1.1", "HTTP/3"};
    for (size_t i = 0; i < rows; i++) {
      const uint64_t r = rng() % 1000;
      protocol.AppendBytes(protocols[r < 550 ? 0 : (r < 900 ? 1 : 2)]);
      status.Append<int32_t>(rng() % 100 < 2 ? 503 : 200);
      latency.Append<int32_t>(static_cast<int32_t>(rng() % 1100));
    }
    std::string body;
    EncodeValues(Encoding::kDictionary, protocol, &body);
    DecodeDictionary(PhysicalType::kBytes, body, rows, &protocol_dictionary, &protocol_codes);
  }

  BoundPredicate Bind(const Predicate& p) const {
    BoundPredicate bound;
    columnar::Bind(schema, p, &bound);
    return bound;
  }
};

void BM_BytesEquality(benchmark::State& state) {
  const size_t rows = static_cast<size_t>(state.range(0));
  const bool dictionary = state.range(1) != 0;
  const AccessLog log(rows);
  const BoundPredicate bound =
      log.Bind(Predicate::Compare("protocol", CompareOp::kEq, Value::Ascii("HTTP/1.1")));
  const ColumnData data =
      ColumnData::Dictionary(&log.protocol_dictionary, log.protocol_codes.data(), rows, Slice());
  const SelectionBitmap care(rows, true);
  SelectionBitmap out;
  for (auto _ : state) {
    if (dictionary) {
      EvaluateOnDictionary(bound, data, rows, SimdLevel::kBest, &out);
    } else {
      EvaluateLeaf(bound, log.protocol, care, SimdLevel::kBest, &out);
    }
    benchmark::DoNotOptimize(out.words());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
  state.SetLabel(dictionary ? "dictionary" : "plain");
}
BENCHMARK(BM_BytesEquality)->ArgsProduct({{128, 4096}, {0, 1}});

// protocol = 'HTTP/1.1' AND status >= 500 AND latency_ms > 1000 over one row group.
void BM_AccessLogFilter(benchmark::State& state) {
  const size_t rows = static_cast<size_t>(state.range(0));
  const SimdLevel level = kLevels[state.range(1)];
  if (!SimdLevelAvailable(level)) {
    state.SkipWithError("instruction set not available");
    return;
  }
  const AccessLog log(rows);
  const FilterEvaluator evaluator(
      log.Bind(
          Predicate::And({Predicate::Compare("protocol", CompareOp::kEq, Value::Ascii("HTTP/1.1")),
                          Predicate::Compare("status", CompareOp::kGe, Value::Int(500)),
                          Predicate::Compare("latency_ms", CompareOp::kGt, Value::Int(1000))})),
      level);
  MemoryColumnSource source;
  source.Add(1, ColumnData::Dictionary(&log.protocol_dictionary, log.protocol_codes.data(), rows,
                                       Slice()));
  source.Add(2, ColumnData::Plain(&log.status));
  source.Add(3, ColumnData::Plain(&log.latency));
  EvaluationResult result;
  for (auto _ : state) {
    evaluator.Evaluate(rows, &source, &result);
    benchmark::DoNotOptimize(result.selection.words());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * rows));
  state.SetLabel(SimdLevelName(level));
}
BENCHMARK(BM_AccessLogFilter)->Apply(CompareArgs);

}  // namespace
}  // namespace columnar

BENCHMARK_MAIN();
