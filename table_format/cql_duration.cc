#include "table_format/cql_duration.h"

#include <cctype>

namespace columnar {

namespace {

struct DurationUnit {
  const char* name;
  int64_t nanoseconds;  // 0: no fixed length
};

// Longer names first: "ms" before "m", "mo" before "m".
constexpr DurationUnit kUnits[] = {
    {"ns", 1},
    {"us", 1000},
    {"\xC2\xB5s", 1000},  // µs
    {"ms", 1000000},
    {"mo", 0},
    {"s", 1000000000},
    {"m", int64_t{60} * 1000000000},
    {"h", int64_t{3600} * 1000000000},
    {"d", int64_t{86400} * 1000000000},
    {"w", int64_t{7} * 86400 * 1000000000},
    {"y", 0},
};

Status Invalid(const std::string& text, const std::string& why) {
  return Status::InvalidArgument("duration '" + text + "': " + why);
}

}  // namespace

Status ParseFixedDuration(const std::string& text, int64_t* nanoseconds) {
  int64_t total = 0;
  size_t pos = 0;
  if (text.empty()) return Invalid(text, "empty");
  while (pos < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[pos]))) {
      return Invalid(text,
                     "expected a number of units, e.g. 1h30m (ISO 8601 forms are not "
                     "supported)");
    }
    int64_t amount = 0;
    for (; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); pos++) {
      if (amount > (INT64_MAX - 9) / 10) return Invalid(text, "too long");
      amount = amount * 10 + (text[pos] - '0');
    }
    const DurationUnit* unit = nullptr;
    for (const DurationUnit& candidate : kUnits) {
      const std::string name = candidate.name;
      if (text.compare(pos, name.size(), name) == 0) {
        unit = &candidate;
        break;
      }
    }
    if (unit == nullptr) return Invalid(text, "expected a unit (ns, us, ms, s, m, h, d or w)");
    if (unit->nanoseconds == 0) {
      return Invalid(text, "months and years have no fixed length (use d or w)");
    }
    pos += std::string(unit->name).size();
    if (amount > (INT64_MAX - total) / unit->nanoseconds) return Invalid(text, "too long");
    total += amount * unit->nanoseconds;
  }
  if (total == 0) return Invalid(text, "must be positive");
  *nanoseconds = total;
  return Status::OK();
}

}  // namespace columnar
