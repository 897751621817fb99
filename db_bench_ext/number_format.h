// Human-readable number formatting shared by the progress line and the reports.
#pragma once

#include <cstdint>
#include <string>

namespace columnar {
namespace bench {

// 1234567 -> "1,234,567".
std::string FormatCount(uint64_t value);
// Three significant digits, thousands separators for large values, no exponent:
// 0.68 -> "0.68", 15.5 -> "15.5", 5.123 -> "5.12", 39871.2 -> "39,871", 0 -> "0".
std::string FormatFigure(double value);
// Metric prefix with 3 significant digits: 512300 -> "512k", 1.21e9 -> "1.21G", 42 -> "42".
std::string FormatSi(double value);
// Decimal byte units like the source documents: 8.29e9 -> "8.29 GB", 512 -> "512 B".
std::string FormatBytes(double bytes);
// Elapsed time: 161 -> "2:41", 3723 -> "1:02:03".
std::string FormatDuration(double seconds);
// A ratio with two decimals: 0.4 -> "0.40x".
std::string FormatRatio(double ratio);
// Shortest text that reads back as the same double (for JSON); "null" for NaN and infinities.
std::string FormatJsonNumber(double value);

}  // namespace bench
}  // namespace columnar
