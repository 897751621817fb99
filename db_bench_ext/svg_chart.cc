#include "db_bench_ext/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "db_bench_ext/number_format.h"

namespace columnar {
namespace bench {
namespace {

constexpr double kPlotLeft = 84;
constexpr double kPlotRightMargin = 24;
constexpr double kBottomMargin = 64;
constexpr double kBarWidth = 36;
constexpr double kGroupGap = 26;
constexpr double kMinWidth = 520;
constexpr int kTicks = 5;
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                    "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};
constexpr size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

std::string Number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.2f", value);
  return buffer;
}

// Compact labels so neighbouring bars' values do not run into each other: 79,742 -> "79.7k".
std::string Label(double value) {
  return std::fabs(value) >= 10000 ? FormatSi(value) : FormatFigure(value);
}

std::string Text(double x, double y, const std::string& css_class, const std::string& anchor,
                 std::string_view text, const std::string& extra = "") {
  return "<text class=\"" + css_class + "\" x=\"" + Number(x) + "\" y=\"" + Number(y) +
         "\" text-anchor=\"" + anchor + "\"" + extra + ">" + XmlEscape(text) + "</text>\n";
}

}  // namespace

double NiceAxisMax(double max_value) {
  if (!(max_value > 0) || !std::isfinite(max_value)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(max_value)));
  for (double step : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    // Tolerate rounding in pow: 3e-3 must not become 5e-3.
    if (step * power >= max_value * (1 - 1e-12)) return step * power;
  }
  return 10 * power;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out.push_back(c);
    }
  }
  return out;
}

std::string RenderBarChart(const BarChartSpec& spec) {
  const size_t series_count = std::max<size_t>(1, spec.series.size());
  const double group_width = series_count * kBarWidth + kGroupGap;
  const double width =
      std::max(kMinWidth, kPlotLeft + spec.categories.size() * group_width + kPlotRightMargin);
  const double height = kChartPlotTop + kChartPlotHeight + kBottomMargin;
  const double plot_bottom = kChartPlotTop + kChartPlotHeight;
  const double plot_width = width - kPlotLeft - kPlotRightMargin;
  const double axis_max = spec.axis_max > 0 ? spec.axis_max : 1;

  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Number(width) +
                    "\" height=\"" + Number(height) + "\" viewBox=\"0 0 " + Number(width) + " " +
                    Number(height) + "\" data-axis-max=\"" + FormatJsonNumber(axis_max) + "\">\n";
  svg +=
      "<style>text{font-family:sans-serif;fill:#222}.title{font-size:15px;font-weight:bold}"
      ".subtitle,.axis,.legend{font-size:11px;fill:#555}.value{font-size:10px}"
      ".category{font-size:12px}.footnote{font-size:10px;fill:#777}"
      ".grid{stroke:#ddd;stroke-width:1}.baseline{stroke:#333;stroke-width:1}</style>\n";
  svg += "<rect x=\"0\" y=\"0\" width=\"" + Number(width) + "\" height=\"" + Number(height) +
         "\" fill=\"white\"/>\n";
  svg += Text(12, 22, "title", "start", spec.title);
  svg += Text(12, 40, "subtitle", "start", spec.subtitle);

  // Value axis: gridlines and labels from zero to axis_max.
  for (int tick = 0; tick <= kTicks; ++tick) {
    const double value = axis_max * tick / kTicks;
    const double y = plot_bottom - kChartPlotHeight * tick / kTicks;
    svg += "<line class=\"" + std::string(tick == 0 ? "baseline" : "grid") + "\" x1=\"" +
           Number(kPlotLeft) + "\" y1=\"" + Number(y) + "\" x2=\"" +
           Number(kPlotLeft + plot_width) + "\" y2=\"" + Number(y) + "\"/>\n";
    svg += Text(kPlotLeft - 6, y + 4, "axis", "end", Label(value));
  }
  const double axis_label_y = kChartPlotTop + kChartPlotHeight / 2;
  svg += Text(16, axis_label_y, "axis", "middle", spec.axis_label,
              " transform=\"rotate(-90 16 " + Number(axis_label_y) + ")\"");

  // Bars: one group per category, centred; colour by series, or by category with one series.
  const double groups_left =
      kPlotLeft + (plot_width - spec.categories.size() * group_width) / 2 + kGroupGap / 2;
  for (size_t c = 0; c < spec.categories.size(); ++c) {
    const double group_x = groups_left + c * group_width;
    for (size_t s = 0; s < spec.series.size(); ++s) {
      const BarSeries& series = spec.series[s];
      const double value = c < series.values.size() ? series.values[c] : 0;
      const double shown = std::clamp(std::isfinite(value) ? value : 0, 0.0, axis_max);
      const double bar_height = kChartPlotHeight * shown / axis_max;
      const double x = group_x + s * kBarWidth;
      const char* colour = kPalette[(spec.series.size() > 1 ? s : c) % kPaletteSize];
      svg += "<rect class=\"bar\" x=\"" + Number(x + 2) + "\" y=\"" +
             Number(plot_bottom - bar_height) + "\" width=\"" + Number(kBarWidth - 4) +
             "\" height=\"" + Number(bar_height) + "\" fill=\"" + colour + "\" data-category=\"" +
             XmlEscape(spec.categories[c]) + "\" data-series=\"" + XmlEscape(series.name) +
             "\" data-value=\"" + FormatJsonNumber(value) + "\"><title>" +
             XmlEscape(spec.categories[c] + " " + series.name + ": " + FormatFigure(value)) +
             "</title></rect>\n";
      svg += Text(x + kBarWidth / 2, plot_bottom - bar_height - 4, "value", "middle", Label(value));
    }
    svg += Text(group_x + series_count * kBarWidth / 2, plot_bottom + 18, "category", "middle",
                spec.categories[c]);
  }

  if (spec.series.size() > 1) {
    double legend_x = width - kPlotRightMargin;
    for (size_t s = spec.series.size(); s-- > 0;) {
      const double text_width = 7.0 * spec.series[s].name.size();
      legend_x -= text_width;
      svg += Text(legend_x, 58, "legend", "start", spec.series[s].name);
      svg += "<rect x=\"" + Number(legend_x - 14) +
             "\" y=\"49\" width=\"10\" height=\"10\" fill=\"" + kPalette[s % kPaletteSize] +
             "\"/>\n";
      legend_x -= 26;
    }
  }
  if (!spec.footnote.empty()) svg += Text(12, height - 12, "footnote", "start", spec.footnote);
  svg += "</svg>\n";
  return svg;
}

}  // namespace bench
}  // namespace columnar
