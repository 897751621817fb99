#include "table_format/column_stats.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace columnar {

void ColumnStats::Record(const std::string& column, size_t bytes, Encoding encoding,
                         size_t values) {
  ColumnStat& stat = columns_[column];
  stat.bytes += bytes;
  stat.chunks++;
  stat.values += values;
  stat.encodings[EncodingName(encoding)]++;
}

void ColumnStats::Observe(const std::string& column, const ColumnVector& values) {
  if (!estimate_entropy_) return;
  std::shared_ptr<EntropyEstimator>& estimator = estimators_[column];
  if (estimator == nullptr) estimator = std::make_shared<EntropyEstimator>();
  estimator->Add(values);
}

std::map<std::string, double> ColumnStats::EntropyEstimates() const {
  std::map<std::string, double> bits;
  for (const auto& [name, estimator] : estimators_) bits[name] = estimator->bits();
  return bits;
}

uint64_t ColumnStats::total_bytes() const {
  uint64_t total = 0;
  for (const auto& entry : columns_) total += entry.second.bytes;
  return total;
}

std::string ColumnStats::Serialize() const {
  std::string out;
  for (const auto& [name, stat] : columns_) {
    if (!out.empty()) out.push_back('\n');
    out += name + '\t' + std::to_string(stat.bytes) + '\t' + std::to_string(stat.chunks) + '\t' +
           std::to_string(stat.values) + '\t';
    bool first = true;
    for (const auto& [encoding, count] : stat.encodings) {
      if (!first) out.push_back(',');
      first = false;
      out += encoding + '=' + std::to_string(count);
    }
    const auto estimator = estimators_.find(name);
    if (estimator != estimators_.end()) {
      out += '\t' + std::to_string(std::llround(estimator->second->bits()));
    } else if (stat.entropy_bits >= 0) {
      out += '\t' + std::to_string(std::llround(stat.entropy_bits));
    }
  }
  return out;
}

Status ColumnStats::Parse(const std::string& text, ColumnStats* out) {
  out->columns_.clear();
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string name, bytes, chunks, values, encodings;
    if (!std::getline(fields, name, '\t') || !std::getline(fields, bytes, '\t') ||
        !std::getline(fields, chunks, '\t') || !std::getline(fields, values, '\t')) {
      return Status::Corruption("column stats: malformed entry");
    }
    std::getline(fields, encodings, '\t');
    std::string entropy;
    const bool has_entropy = static_cast<bool>(std::getline(fields, entropy));
    ColumnStat& stat = out->columns_[name];
    if (has_entropy && !entropy.empty()) stat.entropy_bits = std::strtod(entropy.c_str(), nullptr);
    stat.bytes = std::strtoull(bytes.c_str(), nullptr, 10);
    stat.chunks = std::strtoull(chunks.c_str(), nullptr, 10);
    stat.values = std::strtoull(values.c_str(), nullptr, 10);
    std::istringstream items(encodings);
    std::string item;
    while (std::getline(items, item, ',')) {
      const size_t eq = item.find('=');
      if (eq == std::string::npos) return Status::Corruption("column stats: malformed encoding");
      stat.encodings[item.substr(0, eq)] = std::strtoull(item.c_str() + eq + 1, nullptr, 10);
    }
  }
  return Status::OK();
}

}  // namespace columnar
