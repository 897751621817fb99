#include "db_bench_ext/results_markdown.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "db_bench_ext/correctness_gate.h"
#include "db_bench_ext/number_format.h"
#include "db_bench_ext/query_rounds.h"

namespace columnar {
namespace bench {
namespace {

using Figure = std::function<double(const ConfigResult&)>;

bool UsableBaseline(std::optional<double> baseline) {
  return baseline.has_value() && std::isfinite(*baseline) && *baseline > 0;
}

// " (0.40x)", or empty without a usable baseline.
std::string RatioSuffix(double value, std::optional<double> baseline) {
  if (!UsableBaseline(baseline) || !std::isfinite(value)) return "";
  return " (" + FormatRatio(value / *baseline) + ")";
}

std::string Row(const std::vector<std::string>& cells) {
  std::string row = "|";
  for (const std::string& cell : cells) row += " " + cell + " |";
  return row + "\n";
}

// Header row plus the alignment row: first column left, figures right.
std::string Header(const std::vector<std::string>& cells) {
  std::string align = "|";
  for (size_t i = 0; i < cells.size(); ++i) align += i == 0 ? "---|" : "---:|";
  return Row(cells) + align + "\n";
}

// The ratio of a configuration's figure against A's; empty for A itself.
std::string RatioAgainstA(const WorkloadResult& workload, const ConfigResult& config,
                          const Figure& figure) {
  const ConfigResult* baseline = workload.FindConfig(kBaselineConfig);
  if (baseline == nullptr || baseline == &config) return "";
  return RatioSuffix(figure(config), figure(*baseline));
}

// The figure of a configuration with its ratio against A.
std::string Cell(const WorkloadResult& workload, const ConfigResult& config, const Figure& figure) {
  return FormatFigure(figure(config)) + RatioAgainstA(workload, config, figure);
}

std::string StorageSection(const WorkloadResult& w) {
  const ConfigResult* baseline = w.FindConfig(kBaselineConfig);
  const std::string per_row = "bytes/" + w.row_noun;
  std::string md = "### Storage after flush and compaction\n\n";
  md += Header({"config", "SST bytes", per_row, "vs A", "data", "index", "filter", "properties",
                "other", "peak during load"});
  for (const ConfigResult& c : w.configs) {
    std::string comparison = "baseline";
    if (baseline != &c) {
      comparison =
          StorageComparison(static_cast<double>(c.sst_bytes),
                            baseline ? std::optional<double>(baseline->sst_bytes) : std::nullopt);
    }
    md += Row({c.config, FormatBytes(c.sst_bytes),
               Cell(w, c, [](const ConfigResult& r) { return r.bytes_per_row; }), comparison,
               FormatBytes(c.storage.data_bytes), FormatBytes(c.storage.index_bytes),
               FormatBytes(c.storage.filter_bytes), FormatBytes(c.storage.properties_bytes),
               FormatBytes(c.storage.other_bytes),
               c.loaded ? FormatBytes(c.peak_sst_bytes) +
                              RatioAgainstA(w, c,
                                            [](const ConfigResult& r) {
                                              return r.loaded ? r.peak_sst_bytes : std::nan("");
                                            })
                        : std::string("n/a (existing database)")});
  }
  return md + "\n";
}

// Bytes per row of each column, one column of the table per configuration.
std::string ColumnSection(const WorkloadResult& w) {
  std::vector<std::string> columns;
  for (const ConfigResult& c : w.configs) {
    for (const auto& [column, bytes] : c.column_bytes) {
      if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
        columns.push_back(column);
      }
    }
  }
  if (columns.empty()) return "";
  // The entropy estimate of the last configuration that has one (the data is the same for
  // every configuration; only file boundaries differ).
  const ConfigResult* estimated = nullptr;
  for (const ConfigResult& c : w.configs) {
    if (!c.column_entropy_bits.empty()) estimated = &c;
  }
  std::string md = "### Storage by column (bytes/" + w.row_noun + ")\n\n";
  std::vector<std::string> header = {"column"};
  for (const ConfigResult& c : w.configs) header.push_back(c.config);
  if (estimated != nullptr) header.push_back("entropy est. (" + estimated->config + ")");
  md += Header(header);
  for (const std::string& column : columns) {
    auto bytes_per_row = [&column](const ConfigResult& c) {
      for (const auto& [name, bytes] : c.column_bytes) {
        if (name == column) return c.rows == 0 ? 0.0 : double(bytes) / c.rows;
      }
      return std::nan("");
    };
    std::vector<std::string> row = {column};
    for (const ConfigResult& c : w.configs) row.push_back(Cell(w, c, bytes_per_row));
    if (estimated != nullptr) {
      const auto it = estimated->column_entropy_bits.find(column);
      row.push_back(it == estimated->column_entropy_bits.end() || estimated->rows == 0
                        ? std::string("n/a")
                        : FormatFigure(it->second / 8 / estimated->rows));
    }
    md += Row(row);
  }
  return md + "\n";
}

std::string IngestionSection(const WorkloadResult& w) {
  std::string md = "### Ingestion\n\n";
  md += Header({"config", w.row_noun + "s/s", "CPU-s / M " + w.row_noun + "s", "busy cores",
                "write p50 ms", "p99 ms", "p99.9 ms", "max ms", "compaction read",
                "compaction written"});
  for (const ConfigResult& c : w.configs) {
    auto ms = [](double LatencySummary::*field) {
      return [field](const ConfigResult& r) { return r.write_latency.*field / kMicrosPerMilli; };
    };
    md += Row({c.config, Cell(w, c, [](const ConfigResult& r) { return r.ingest_rows_per_sec; }),
               Cell(w, c, [](const ConfigResult& r) { return r.cpu_seconds_per_million_rows; }),
               Cell(w, c, [](const ConfigResult& r) { return r.busy_cores; }),
               Cell(w, c, ms(&LatencySummary::p50_us)), Cell(w, c, ms(&LatencySummary::p99_us)),
               Cell(w, c, ms(&LatencySummary::p999_us)), Cell(w, c, ms(&LatencySummary::max_us)),
               c.loaded ? FormatBytes(c.compaction_bytes_read) : "n/a",
               c.loaded ? FormatBytes(c.compaction_bytes_written) : "n/a"});
  }
  return md + "\n";
}

std::string CorrectnessLine(const WorkloadResult& w, const std::string& query,
                            const std::vector<QueryMismatch>& mismatches) {
  for (const QueryMismatch& mismatch : mismatches) {
    if (mismatch.workload == w.workload && mismatch.query == query)
      return "Correctness: **MISMATCH** — " + mismatch.detail + "\n";
  }
  const QueryResult* reference = w.configs.front().FindQuery(query);
  if (reference == nullptr) return "Correctness: not run.\n";
  return "Correctness: " + FormatCount(reference->rows) + " rows, hash `" + reference->result_hash +
         "` — identical across configs.\n";
}

std::string CountersLine(const WorkloadResult& w, const std::string& query) {
  std::string line;
  for (const ConfigResult& c : w.configs) {
    const QueryResult* q = c.FindQuery(query);
    if (q == nullptr || q->counters.empty()) continue;
    line += (line.empty() ? "" : "; ") + c.config + ":";
    for (const auto& [name, value] : q->counters) line += " " + name + "=" + FormatFigure(value);
  }
  return line.empty() ? "" : "Counters: " + line + "\n";
}

// The rounds' throughputs of a query at `readers`; nullptr unless measured in rounds.
const std::vector<double>* QpsRounds(const ConfigResult& c, const std::string& query, int readers) {
  const QueryResult* q = c.FindQuery(query);
  if (q == nullptr) return nullptr;
  auto it = q->qps_rounds_by_concurrency.find(readers);
  return it == q->qps_rounds_by_concurrency.end() ? nullptr : &it->second;
}

// A query's throughput at `readers` with its ratio against A. Measured in rounds by both (each
// round measures the configurations in turn), the ratio is the median of the rounds' ratios,
// followed by their range: "81k (1.05x, 0.97x-1.12x)".
std::string ThroughputCell(const WorkloadResult& w, const ConfigResult& c, const std::string& query,
                           int readers) {
  const Figure qps = [&query, readers](const ConfigResult& r) {
    const QueryResult* q = r.FindQuery(query);
    if (q == nullptr) return std::nan("");
    auto it = q->qps_by_concurrency.find(readers);
    return it == q->qps_by_concurrency.end() ? std::nan("") : it->second;
  };
  const ConfigResult* baseline = w.FindConfig(kBaselineConfig);
  const std::vector<double>* rounds = QpsRounds(c, query, readers);
  const std::vector<double>* baseline_rounds =
      baseline == nullptr ? nullptr : QpsRounds(*baseline, query, readers);
  if (baseline == &c || rounds == nullptr || baseline_rounds == nullptr ||
      rounds->size() != baseline_rounds->size()) {
    return Cell(w, c, qps);
  }
  std::vector<double> ratios;
  for (size_t i = 0; i < rounds->size(); i++) {
    if ((*baseline_rounds)[i] > 0) ratios.push_back((*rounds)[i] / (*baseline_rounds)[i]);
  }
  if (ratios.empty()) return Cell(w, c, qps);
  const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
  return FormatFigure(qps(c)) + " (" + FormatRatio(Median(ratios)) + ", " + FormatRatio(*low) +
         "-" + FormatRatio(*high) + ")";
}

std::string QuerySection(const WorkloadResult& w, const std::string& query,
                         const std::vector<QueryMismatch>& mismatches) {
  std::string md = "#### " + query + "\n\n";
  for (const ConfigResult& c : w.configs) {
    const QueryResult* q = c.FindQuery(query);
    if (q != nullptr && !q->description.empty()) {
      md += "`" + q->description + "`\n\n";
      break;
    }
  }
  const std::vector<int> concurrencies = w.Concurrencies();
  std::vector<std::string> header = {"config", "p50 ms", "p99 ms"};
  for (int readers : concurrencies)
    header.push_back("qps, " + std::to_string(readers) + " readers");
  md += Header(header);
  for (const ConfigResult& c : w.configs) {
    if (c.FindQuery(query) == nullptr) {
      md += Row({c.config, "not run"});
      continue;
    }
    auto figure = [&query](const std::function<double(const QueryResult&)>& of) {
      return [&query, of](const ConfigResult& r) {
        const QueryResult* q = r.FindQuery(query);
        return q == nullptr ? std::nan("") : of(*q);
      };
    };
    std::vector<std::string> row = {
        c.config,
        Cell(w, c, figure([](const QueryResult& q) { return q.p50_us / kMicrosPerMilli; })),
        Cell(w, c, figure([](const QueryResult& q) { return q.p99_us / kMicrosPerMilli; }))};
    for (int readers : concurrencies) row.push_back(ThroughputCell(w, c, query, readers));
    md += Row(row);
  }
  md += "\n" + CorrectnessLine(w, query, mismatches) + CountersLine(w, query) + "\n";
  return md;
}

std::string ChartLinks(const WorkloadResult& w, const std::vector<ChartFile>& charts) {
  std::string md;
  for (const ChartFile& chart : charts) {
    if (chart.workload != w.workload) continue;
    md += "- [" + chart.title + "](charts/" + chart.file_name + ")\n";
  }
  return md.empty() ? "" : "### Charts\n\n" + md + "\n";
}

std::string MetadataSection(const RunMetadata& metadata) {
  std::string md = "Preset `" + metadata.preset + "`, " + metadata.date + ", " +
                   std::to_string(metadata.machine.cores) + " cores (" +
                   metadata.machine.cpu_model + "), " + FormatBytes(metadata.machine.memory_bytes) +
                   " memory.";
  if (!metadata.parameters.empty()) {
    md += " Parameters:";
    for (size_t i = 0; i < metadata.parameters.size(); ++i) {
      md += (i == 0 ? " " : ", ") + metadata.parameters[i].first + "=" +
            metadata.parameters[i].second;
    }
    md += ".";
  }
  const bool measured_in_rounds =
      std::any_of(metadata.parameters.begin(), metadata.parameters.end(),
                  [](const auto& parameter) { return parameter.first == "query_rounds"; });
  return md +
         "\n\nRatios are against configuration A of the same run (value / A); for storage the "
         "comparison reads \"N x smaller\". Latencies at concurrency 1, after warm-up." +
         (measured_in_rounds ? " Queries were measured in rounds (query_rounds), the "
                               "configurations taking turns: their figures are the rounds' "
                               "medians; a throughput's ratio is the median of the rounds' "
                               "ratios against A, followed by their range."
                             : "") +
         "\n\n";
}

std::string CorrectnessSummary(const std::vector<QueryMismatch>& mismatches) {
  if (mismatches.empty()) {
    return "**Correctness:** every query returned identical rows and hashes in every "
           "configuration.\n\n";
  }
  std::string md = "**Correctness: MISMATCH** — these queries differ between configurations:\n\n";
  for (const QueryMismatch& mismatch : mismatches) md += "- " + DescribeMismatch(mismatch) + "\n";
  return md + "\n";
}

}  // namespace

std::string FigureWithRatio(double value, std::optional<double> baseline) {
  return FormatFigure(value) + RatioSuffix(value, baseline);
}

std::string StorageComparison(double value, std::optional<double> baseline) {
  if (!UsableBaseline(baseline) || !(value > 0) || !std::isfinite(value)) return "";
  const double ratio = *baseline / value;
  if (FormatRatio(ratio) == "1.00x") return "same size";
  return ratio > 1 ? FormatRatio(ratio) + " smaller" : FormatRatio(1 / ratio) + " larger";
}

std::string RenderResultsMarkdown(const BenchmarkResults& results,
                                  const std::vector<ChartFile>& charts) {
  const std::vector<QueryMismatch> mismatches = FindResultMismatches(results);
  std::string md = "# db_bench_ext results\n\n" + MetadataSection(results.metadata) +
                   CorrectnessSummary(mismatches);
  for (const WorkloadResult& w : results.workloads) {
    if (w.configs.empty()) continue;
    md += "## " + w.workload + " (" + FormatCount(w.configs.front().rows) + " " + w.row_noun +
          "s)\n\n";
    md += StorageSection(w) + ColumnSection(w) + IngestionSection(w);
    const std::vector<std::string> queries = w.QueryNames();
    if (!queries.empty()) md += "### Queries\n\n";
    for (const std::string& query : queries) md += QuerySection(w, query, mismatches);
    md += ChartLinks(w, charts);
  }
  return md;
}

}  // namespace bench
}  // namespace columnar
