// A hand-written SVG bar chart: title, subtitle, value axis from zero with gridlines and a unit
// label, one group of bars per category (configuration), a value label on every bar, and a
// legend when a group has several series (e.g. p50 and p99).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace columnar {
namespace bench {

struct BarSeries {
  std::string name;            // legend entry, e.g. "p99"
  std::vector<double> values;  // one per category
};

struct BarChartSpec {
  std::string title;
  std::string subtitle;    // e.g. "ms / lower is better"
  std::string axis_label;  // unit of the value axis, e.g. "ms"
  std::vector<std::string> categories;
  std::vector<BarSeries> series;
  // Top of the value axis; charts that share a scale pass the same value. Bars above it are
  // clipped to the top.
  double axis_max = 1;
  std::string footnote;
};

// Geometry of the plot area, exposed so tests can check bar heights against the scale.
constexpr double kChartPlotTop = 84;
constexpr double kChartPlotHeight = 240;

// The smallest of 1, 2, 2.5, 5 x 10^k at or above max_value (1 for max_value <= 0).
double NiceAxisMax(double max_value);
std::string XmlEscape(std::string_view text);
std::string RenderBarChart(const BarChartSpec& spec);

}  // namespace bench
}  // namespace columnar
