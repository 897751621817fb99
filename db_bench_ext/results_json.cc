#include "db_bench_ext/results_json.h"

#include "db_bench_ext/correctness_gate.h"
#include "db_bench_ext/json_writer.h"

namespace columnar {
namespace bench {
namespace {

void WriteMetadata(const RunMetadata& metadata, JsonWriter* json) {
  json->BeginObject();
  json->Key("preset");
  json->String(metadata.preset);
  json->Key("date");
  json->String(metadata.date);
  json->Key("machine");
  json->BeginObject();
  json->Key("cores");
  json->Integer(metadata.machine.cores);
  json->Key("cpu_model");
  json->String(metadata.machine.cpu_model);
  json->Key("memory_bytes");
  json->Unsigned(metadata.machine.memory_bytes);
  json->EndObject();
  json->Key("parameters");
  json->BeginObject();
  for (const auto& [name, value] : metadata.parameters) {
    json->Key(name);
    json->String(value);
  }
  json->EndObject();
  json->EndObject();
}

void WriteQuery(const QueryResult& query, JsonWriter* json) {
  json->BeginObject();
  json->Key("name");
  json->String(query.name);
  json->Key("description");
  json->String(query.description);
  json->Key("p50_us");
  json->Number(query.p50_us);
  json->Key("p99_us");
  json->Number(query.p99_us);
  json->Key("qps");
  json->BeginObject();
  for (const auto& [concurrency, qps] : query.qps_by_concurrency) {
    json->Key(std::to_string(concurrency));
    json->Number(qps);
  }
  json->EndObject();
  if (!query.qps_rounds_by_concurrency.empty()) {
    json->Key("qps_rounds");
    json->BeginObject();
    for (const auto& [concurrency, rounds] : query.qps_rounds_by_concurrency) {
      json->Key(std::to_string(concurrency));
      json->BeginArray();
      for (double qps : rounds) json->Number(qps);
      json->EndArray();
    }
    json->EndObject();
  }
  json->Key("rows");
  json->Unsigned(query.rows);
  json->Key("result_hash");
  json->String(query.result_hash);
  json->Key("counters");
  json->BeginObject();
  for (const auto& [name, value] : query.counters) {
    json->Key(name);
    json->Number(value);
  }
  json->EndObject();
  json->EndObject();
}

void WriteStorage(const StorageBreakdown& storage, JsonWriter* json) {
  json->BeginObject();
  json->Key("data");
  json->Unsigned(storage.data_bytes);
  json->Key("index");
  json->Unsigned(storage.index_bytes);
  json->Key("filter");
  json->Unsigned(storage.filter_bytes);
  json->Key("properties");
  json->Unsigned(storage.properties_bytes);
  json->Key("other");
  json->Unsigned(storage.other_bytes);
  json->EndObject();
}

void WriteLatency(const LatencySummary& latency, JsonWriter* json) {
  json->BeginObject();
  json->Key("p50");
  json->Number(latency.p50_us);
  json->Key("p99");
  json->Number(latency.p99_us);
  json->Key("p999");
  json->Number(latency.p999_us);
  json->Key("max");
  json->Number(latency.max_us);
  json->EndObject();
}

void WriteConfig(const ConfigResult& config, JsonWriter* json) {
  json->BeginObject();
  json->Key("config");
  json->String(config.config);
  json->Key("rows");
  json->Unsigned(config.rows);
  json->Key("sst_bytes");
  json->Unsigned(config.sst_bytes);
  json->Key("bytes_per_row");
  json->Number(config.bytes_per_row);
  json->Key("sst_breakdown");
  WriteStorage(config.storage, json);
  json->Key("column_bytes");
  json->BeginObject();
  for (const auto& [column, bytes] : config.column_bytes) {
    json->Key(column);
    json->Unsigned(bytes);
  }
  json->EndObject();
  json->Key("column_entropy_bits");
  json->BeginObject();
  for (const auto& [column, bits] : config.column_entropy_bits) {
    json->Key(column);
    json->Number(bits);
  }
  json->EndObject();
  json->Key("loaded");
  json->Bool(config.loaded);
  json->Key("peak_sst_bytes");
  json->Unsigned(config.peak_sst_bytes);
  json->Key("ingest_rows_per_sec");
  json->Number(config.ingest_rows_per_sec);
  json->Key("cpu_seconds_per_million_rows");
  json->Number(config.cpu_seconds_per_million_rows);
  json->Key("busy_cores");
  json->Number(config.busy_cores);
  json->Key("probe_ms");
  json->BeginArray();
  json->Number(config.probe_before_ms);
  json->Number(config.probe_after_ms);
  json->EndArray();
  json->Key("write_latency_us");
  WriteLatency(config.write_latency, json);
  json->Key("compaction_bytes_read");
  json->Unsigned(config.compaction_bytes_read);
  json->Key("compaction_bytes_written");
  json->Unsigned(config.compaction_bytes_written);
  json->Key("queries");
  json->BeginArray();
  for (const QueryResult& query : config.queries) WriteQuery(query, json);
  json->EndArray();
  json->EndObject();
}

void WriteCorrectness(const BenchmarkResults& results, JsonWriter* json) {
  const std::vector<QueryMismatch> mismatches = FindResultMismatches(results);
  json->BeginObject();
  json->Key("identical_across_configs");
  json->Bool(mismatches.empty());
  json->Key("mismatches");
  json->BeginArray();
  for (const QueryMismatch& mismatch : mismatches) {
    json->BeginObject();
    json->Key("workload");
    json->String(mismatch.workload);
    json->Key("query");
    json->String(mismatch.query);
    json->Key("detail");
    json->String(mismatch.detail);
    json->EndObject();
  }
  json->EndArray();
  json->EndObject();
}

}  // namespace

std::string ResultsToJson(const BenchmarkResults& results) {
  JsonWriter json;
  json.BeginObject();
  json.Key("metadata");
  WriteMetadata(results.metadata, &json);
  json.Key("workloads");
  json.BeginArray();
  for (const WorkloadResult& workload : results.workloads) {
    json.BeginObject();
    json.Key("workload");
    json.String(workload.workload);
    json.Key("row_noun");
    json.String(workload.row_noun);
    json.Key("configs");
    json.BeginArray();
    for (const ConfigResult& config : workload.configs) WriteConfig(config, &json);
    json.EndArray();
    json.EndObject();
  }
  json.EndArray();
  json.Key("correctness");
  WriteCorrectness(results, &json);
  json.EndObject();
  return json.Finish();
}

}  // namespace bench
}  // namespace columnar
