#include "table_api/parquet/delta_byte_array.h"

#include <algorithm>
#include <cstdint>

#include "table_api/parquet/delta_binary_packed.h"

namespace columnar {
namespace parquet {

void AppendDeltaLengthByteArray(const std::vector<std::string_view>& values, std::string* out) {
  std::vector<uint64_t> lengths(values.size());
  for (size_t i = 0; i < values.size(); i++) lengths[i] = values[i].size();
  AppendDeltaBinaryPacked(lengths.data(), lengths.size(), 32, out);
  for (std::string_view value : values) out->append(value.data(), value.size());
}

void AppendDeltaByteArray(const std::vector<std::string_view>& values, std::string* out) {
  std::vector<uint64_t> prefixes(values.size());
  std::vector<std::string_view> suffixes(values.size());
  for (size_t i = 0; i < values.size(); i++) {
    size_t prefix = 0;
    if (i > 0) {
      const size_t limit = std::min(values[i].size(), values[i - 1].size());
      while (prefix < limit && values[i][prefix] == values[i - 1][prefix]) prefix++;
    }
    prefixes[i] = prefix;
    suffixes[i] = values[i].substr(prefix);
  }
  AppendDeltaBinaryPacked(prefixes.data(), prefixes.size(), 32, out);
  AppendDeltaLengthByteArray(suffixes, out);
}

}  // namespace parquet
}  // namespace columnar
