#include "db_bench_ext/svg_chart.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "db_bench_ext/report_charts.h"
#include "tests/db_bench_ext/sample_results.h"

namespace columnar {
namespace bench {
namespace {

// Checks the XML is balanced: every element closed in order, no stray '<' or bare '&'.
::testing::AssertionResult WellFormed(const std::string& xml) {
  std::vector<std::string> open;
  size_t pos = 0;
  while ((pos = xml.find('<', pos)) != std::string::npos) {
    const size_t end = xml.find('>', pos);
    if (end == std::string::npos) return ::testing::AssertionFailure() << "unterminated tag";
    const std::string tag = xml.substr(pos + 1, end - pos - 1);
    if (tag.find('<') != std::string::npos) {
      return ::testing::AssertionFailure() << "'<' inside tag " << tag;
    }
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        return ::testing::AssertionFailure() << "unexpected </" << tag.substr(1) << ">";
      }
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    pos = end + 1;
  }
  if (!open.empty()) return ::testing::AssertionFailure() << "unclosed <" << open.back() << ">";
  for (pos = xml.find('&'); pos != std::string::npos; pos = xml.find('&', pos + 1)) {
    bool entity = false;
    for (const char* name : {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"}) {
      entity |= xml.compare(pos, std::strlen(name), name) == 0;
    }
    if (!entity) return ::testing::AssertionFailure() << "bare & at " << pos;
  }
  return ::testing::AssertionSuccess();
}

struct Bar {
  std::string category, series;
  double value, height;
};

// The value of attribute `name` in the tag starting at `tag_start`.
std::string Attribute(const std::string& svg, size_t tag_start, const std::string& name) {
  const size_t tag_end = svg.find('>', tag_start);
  const size_t at = svg.find(" " + name + "=\"", tag_start);
  if (at == std::string::npos || at > tag_end) return "";
  const size_t value_start = at + name.size() + 3;
  return svg.substr(value_start, svg.find('"', value_start) - value_start);
}

std::vector<Bar> Bars(const std::string& svg) {
  std::vector<Bar> bars;
  const std::string marker = "<rect class=\"bar\"";
  for (size_t at = svg.find(marker); at != std::string::npos; at = svg.find(marker, at + 1)) {
    bars.push_back({Attribute(svg, at, "data-category"), Attribute(svg, at, "data-series"),
                    std::stod(Attribute(svg, at, "data-value")),
                    std::stod(Attribute(svg, at, "height"))});
  }
  return bars;
}

double AxisMax(const std::string& svg) {
  return std::stod(Attribute(svg, svg.find("<svg"), "data-axis-max"));
}

TEST(SvgChartTest, NiceAxisMaximum) {
  EXPECT_EQ(NiceAxisMax(0), 1);
  EXPECT_EQ(NiceAxisMax(0.68), 1);
  EXPECT_EQ(NiceAxisMax(15.5), 20);
  EXPECT_EQ(NiceAxisMax(20), 20);
  EXPECT_EQ(NiceAxisMax(21), 25);
  EXPECT_EQ(NiceAxisMax(50285), 100000);
  EXPECT_EQ(NiceAxisMax(435917), 500000);
  EXPECT_DOUBLE_EQ(NiceAxisMax(0.003), 0.005);
}

TEST(SvgChartTest, RendersWellFormedBarsOnTheGivenScale) {
  BarChartSpec spec;
  spec.title = "latency <p50 & p99>";
  spec.subtitle = "ms / lower is better";
  spec.axis_label = "ms";
  spec.categories = {"A", "A-dict", "B", "C", "C-dict", "D"};
  spec.series = {{"p50", {5.13, 4.14, 1.45, 0.62, 0.69, 0.56}},
                 {"p99", {15, 14.2, 7.67, 1.95, 2.24, 1.56}}};
  spec.axis_max = 20;
  const std::string svg = RenderBarChart(spec);
  EXPECT_TRUE(WellFormed(svg));
  EXPECT_NE(svg.find("latency &lt;p50 &amp; p99&gt;"), std::string::npos);
  EXPECT_NE(svg.find(">15<"), std::string::npos);  // value labels
  EXPECT_NE(svg.find(">C-dict<"), std::string::npos);
  EXPECT_NE(svg.find(">p99<"), std::string::npos);  // legend
  const std::vector<Bar> bars = Bars(svg);
  ASSERT_EQ(bars.size(), 12u);
  for (const Bar& bar : bars) {
    EXPECT_NEAR(bar.height, kChartPlotHeight * bar.value / 20, 0.01) << bar.category;
  }
  spec.axis_max = 10;  // a value above the axis is clipped to the top
  for (const Bar& bar : Bars(RenderBarChart(spec))) EXPECT_LE(bar.height, kChartPlotHeight);
}

TEST(ReportChartsTest, FamiliesShareScalesAndP50P99ShareAnAxis) {
  EXPECT_EQ(ScaleFamily("access16"), "access");
  EXPECT_EQ(ScaleFamily("metrics"), "metrics");
  const BenchmarkResults results = testing::SampleResults();
  const std::vector<ChartFile> charts = BuildCharts(results);
  std::map<std::string, const ChartFile*> by_name;
  for (const ChartFile& chart : charts) {
    EXPECT_TRUE(WellFormed(chart.svg)) << chart.file_name;
    EXPECT_TRUE(by_name.emplace(chart.file_name, &chart).second) << chart.file_name;
  }
  // Per workload: storage, ingest, write latency, CPU, and latency + throughput per query.
  EXPECT_EQ(charts.size(), 3u * (4 + 2 * 2));

  // access16 stores twice access8's bytes per row; both use the access16-sized axis.
  const std::string& storage8 = by_name.at("access8-storage.svg")->svg;
  const std::string& storage16 = by_name.at("access16-storage.svg")->svg;
  EXPECT_EQ(AxisMax(storage8), AxisMax(storage16));
  EXPECT_EQ(AxisMax(storage16), NiceAxisMax(results.workloads[2].configs[0].bytes_per_row));
  const Bar a8 = Bars(storage8)[0], a16 = Bars(storage16)[0];
  EXPECT_NEAR(a16.height, 2 * a8.height, 0.02);
  EXPECT_NE(storage8.find("Same scale for access8, access16"), std::string::npos);
  // metrics is its own family.
  EXPECT_EQ(AxisMax(by_name.at("metrics-storage.svg")->svg),
            NiceAxisMax(results.workloads[0].configs[0].bytes_per_row));

  // The throughput axes follow access16's doubled rate in both widths.
  EXPECT_EQ(AxisMax(by_name.at("access8-last_1h_5xx-qps.svg")->svg), 100000);
  EXPECT_EQ(AxisMax(by_name.at("access16-last_1h_5xx-qps.svg")->svg), 100000);

  // p50 and p99 bars of one chart are drawn against one axis (in ms).
  const std::string& latency = by_name.at("access8-last_1h_5xx-latency.svg")->svg;
  const double axis = AxisMax(latency);
  EXPECT_EQ(axis, 20);
  for (const Bar& bar : Bars(latency)) {
    EXPECT_NEAR(bar.height, kChartPlotHeight * bar.value / axis, 0.01) << bar.series;
  }
}

TEST(ReportChartsTest, IndexPageLinksEveryChart) {
  const BenchmarkResults results = testing::SampleResults();
  const std::vector<ChartFile> charts = BuildCharts(results);
  const std::string html = RenderChartIndexHtml(results, charts, "charts");
  for (const ChartFile& chart : charts) {
    EXPECT_NE(html.find("src=\"charts/" + chart.file_name + "\""), std::string::npos);
  }
  EXPECT_NE(html.find("<h2>access16</h2>"), std::string::npos);
}

}  // namespace
}  // namespace bench
}  // namespace columnar
