#include "db_bench_ext/report_charts.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>
#include <map>

#include "db_bench_ext/svg_chart.h"

namespace columnar {
namespace bench {
namespace {

// A chart before its shared axis maximum is known.
struct PendingChart {
  ChartFile file;
  BarChartSpec spec;
  std::string scale_key;
};

std::string FileSafe(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
    out.push_back(keep ? c : '_');
  }
  return out;
}

std::vector<std::string> ConfigNames(const WorkloadResult& workload) {
  std::vector<std::string> names;
  for (const ConfigResult& config : workload.configs) names.push_back(config.config);
  return names;
}

// One series with a figure of each configuration.
BarSeries SeriesOf(const WorkloadResult& workload, std::string name,
                   const std::function<double(const ConfigResult&)>& figure) {
  BarSeries series{std::move(name), {}};
  for (const ConfigResult& config : workload.configs) series.values.push_back(figure(config));
  return series;
}

PendingChart MakeChart(const WorkloadResult& workload, const std::string& key,
                       const std::string& title, const std::string& subtitle,
                       const std::string& axis_label, std::vector<BarSeries> series) {
  PendingChart chart;
  chart.file.workload = workload.workload;
  chart.file.file_name = FileSafe(workload.workload + "-" + key) + ".svg";
  chart.file.title = title;
  chart.spec.title = workload.workload + ": " + title;
  chart.spec.subtitle = subtitle;
  chart.spec.axis_label = axis_label;
  chart.spec.categories = ConfigNames(workload);
  chart.spec.series = std::move(series);
  chart.scale_key = ScaleFamily(workload.workload) + "/" + key;
  return chart;
}

void AddIngestionCharts(const WorkloadResult& w, std::vector<PendingChart>* charts) {
  const std::string per_row = "bytes per " + w.row_noun;
  charts->push_back(MakeChart(
      w, "storage", "storage after flush and compaction", per_row + " / lower is better", per_row,
      {SeriesOf(w, per_row, [](const ConfigResult& c) { return c.bytes_per_row; })}));
  charts->push_back(MakeChart(
      w, "ingest", "ingestion throughput", w.row_noun + "s/s / higher is better",
      w.row_noun + "s/s",
      {SeriesOf(w, "rows/s", [](const ConfigResult& c) { return c.ingest_rows_per_sec; })}));
  charts->push_back(MakeChart(
      w, "write_latency", "write latency per batch", "ms / lower is better", "ms",
      {SeriesOf(w, "p99",
                [](const ConfigResult& c) { return c.write_latency.p99_us / kMicrosPerMilli; }),
       SeriesOf(w, "p99.9",
                [](const ConfigResult& c) { return c.write_latency.p999_us / kMicrosPerMilli; })}));
  charts->push_back(MakeChart(
      w, "cpu", "CPU time", "CPU-seconds per million " + w.row_noun + "s / lower is better",
      "CPU-s / M " + w.row_noun + "s",
      {SeriesOf(w, "CPU", [](const ConfigResult& c) { return c.cpu_seconds_per_million_rows; })}));
}

void AddQueryCharts(const WorkloadResult& w, std::vector<PendingChart>* charts) {
  for (const std::string& query : w.QueryNames()) {
    auto latency = [&query](double QueryResult::*field) {
      return [&query, field](const ConfigResult& c) {
        const QueryResult* q = c.FindQuery(query);
        return q == nullptr ? 0 : q->*field / kMicrosPerMilli;
      };
    };
    charts->push_back(MakeChart(w, query + "-latency", query + " latency",
                                "ms / lower is better / concurrency 1", "ms",
                                {SeriesOf(w, "p50", latency(&QueryResult::p50_us)),
                                 SeriesOf(w, "p99", latency(&QueryResult::p99_us))}));
    std::vector<BarSeries> throughput;
    for (int readers : w.Concurrencies()) {
      throughput.push_back(SeriesOf(w, std::to_string(readers) + " readers",
                                    [&query, readers](const ConfigResult& c) {
                                      const QueryResult* q = c.FindQuery(query);
                                      if (q == nullptr) return 0.0;
                                      auto it = q->qps_by_concurrency.find(readers);
                                      return it == q->qps_by_concurrency.end() ? 0.0 : it->second;
                                    }));
    }
    charts->push_back(MakeChart(w, query + "-qps", query + " throughput",
                                "queries/s / higher is better", "queries/s",
                                std::move(throughput)));
  }
}

double LargestValue(const BarChartSpec& spec) {
  double largest = 0;
  for (const BarSeries& series : spec.series) {
    for (double value : series.values) {
      if (std::isfinite(value)) largest = std::max(largest, value);
    }
  }
  return largest;
}

}  // namespace

std::string ScaleFamily(std::string_view workload) {
  size_t end = workload.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(workload[end - 1]))) --end;
  return std::string(workload.substr(0, end));
}

std::vector<ChartFile> BuildCharts(const BenchmarkResults& results) {
  std::vector<PendingChart> pending;
  for (const WorkloadResult& workload : results.workloads) {
    AddIngestionCharts(workload, &pending);
    AddQueryCharts(workload, &pending);
  }
  std::map<std::string, double> largest;
  std::map<std::string, std::vector<std::string>> sharing;
  for (const PendingChart& chart : pending) {
    largest[chart.scale_key] = std::max(largest[chart.scale_key], LargestValue(chart.spec));
    sharing[chart.scale_key].push_back(chart.file.workload);
  }
  std::vector<ChartFile> files;
  for (PendingChart& chart : pending) {
    chart.spec.axis_max = NiceAxisMax(largest[chart.scale_key]);
    const std::vector<std::string>& workloads = sharing[chart.scale_key];
    if (workloads.size() > 1) {
      std::string names;
      for (const std::string& name : workloads) names += (names.empty() ? "" : ", ") + name;
      chart.spec.footnote = "Same scale for " + names + "; axes start at zero.";
    } else {
      chart.spec.footnote = "Axes start at zero.";
    }
    chart.file.svg = RenderBarChart(chart.spec);
    files.push_back(std::move(chart.file));
  }
  return files;
}

std::string RenderChartIndexHtml(const BenchmarkResults& results,
                                 const std::vector<ChartFile>& charts,
                                 const std::string& chart_dir) {
  std::string html =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>db_bench_ext charts</title>\n"
      "<style>body{font-family:sans-serif;margin:2em}img{margin:0.5em;vertical-align:top}"
      "</style></head><body>\n<h1>db_bench_ext charts</h1>\n<p>Preset " +
      XmlEscape(results.metadata.preset) + ", " + XmlEscape(results.metadata.date) +
      ". Details and ratios against configuration A: <a href=\"results.md\">results.md</a>, "
      "<a href=\"results.json\">results.json</a>.</p>\n";
  for (const WorkloadResult& workload : results.workloads) {
    html += "<h2>" + XmlEscape(workload.workload) + "</h2>\n<div>\n";
    for (const ChartFile& chart : charts) {
      if (chart.workload != workload.workload) continue;
      html += "<img src=\"" + XmlEscape(chart_dir + "/" + chart.file_name) + "\" alt=\"" +
              XmlEscape(chart.workload + ": " + chart.title) + "\">\n";
    }
    html += "</div>\n";
  }
  html += "</body></html>\n";
  return html;
}

}  // namespace bench
}  // namespace columnar
