#include "db_bench_ext/number_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace columnar {
namespace bench {
namespace {

std::string Printf(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

// Decimal places that leave 3 significant digits (none at or above 100).
int DecimalsFor3Digits(double magnitude) {
  if (magnitude >= 100 || magnitude == 0) return 0;
  if (magnitude >= 10) return 1;
  return 2 - static_cast<int>(std::floor(std::log10(magnitude)));
}

// Rounds to 3 significant digits, then trims trailing zeros of the fraction.
std::string ThreeSignificant(double value) {
  const double magnitude = std::fabs(value);
  std::string text =
      Printf(("%." + std::to_string(DecimalsFor3Digits(magnitude)) + "f").c_str(), value);
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  return text;
}

}  // namespace

std::string FormatCount(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

std::string FormatFigure(double value) {
  if (!std::isfinite(value)) return "n/a";
  if (std::fabs(value) >= 999.5) {
    const std::string count = FormatCount(static_cast<uint64_t>(std::llround(std::fabs(value))));
    return value < 0 ? "-" + count : count;
  }
  const std::string text = ThreeSignificant(value);
  return text == "-0" ? "0" : text;
}

std::string FormatSi(double value) {
  static const char* const kPrefixes[] = {"", "k", "M", "G", "T", "P"};
  if (!std::isfinite(value)) return "n/a";
  int prefix = 0;
  double scaled = value;
  while (std::fabs(scaled) >= 999.5 && prefix < 5) {
    scaled /= 1000;
    ++prefix;
  }
  return ThreeSignificant(scaled) + kPrefixes[prefix];
}

std::string FormatBytes(double bytes) {
  static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
  if (!std::isfinite(bytes)) return "n/a";
  int unit = 0;
  double scaled = bytes;
  while (std::fabs(scaled) >= 999.5 && unit < 5) {
    scaled /= 1000;
    ++unit;
  }
  return ThreeSignificant(scaled) + " " + kUnits[unit];
}

std::string FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const uint64_t total = static_cast<uint64_t>(std::llround(seconds));
  char buffer[48];
  if (total >= 3600) {
    std::snprintf(buffer, sizeof(buffer), "%llu:%02llu:%02llu",
                  static_cast<unsigned long long>(total / 3600),
                  static_cast<unsigned long long>(total / 60 % 60),
                  static_cast<unsigned long long>(total % 60));
  } else {
    std::snprintf(buffer, sizeof(buffer), "%llu:%02llu",
                  static_cast<unsigned long long>(total / 60),
                  static_cast<unsigned long long>(total % 60));
  }
  return buffer;
}

std::string FormatRatio(double ratio) {
  if (!std::isfinite(ratio)) return "n/a";
  return Printf("%.2fx", ratio);
}

std::string FormatJsonNumber(double value) {
  if (!std::isfinite(value)) return "null";
  // Plain notation where it reads better (500000, not 5e+05); still the shortest round trip.
  const double magnitude = std::fabs(value);
  const bool plain = magnitude == 0 || (magnitude >= 1e-4 && magnitude < 1e15);
  char buffer[400];
  const auto result =
      plain ? std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::fixed)
            : std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

}  // namespace bench
}  // namespace columnar
