// The delta encodings of BYTE_ARRAY values (Parquet). Byte layout:
//
//   DELTA_LENGTH_BYTE_ARRAY  DELTA_BINARY_PACKED (32-bit) of the value lengths, then the values'
//                            bytes concatenated
//   DELTA_BYTE_ARRAY         DELTA_BINARY_PACKED (32-bit) of each value's prefix length shared
//                            with the previous value (0 for the first), then the suffixes
//                            (each value without that prefix) as DELTA_LENGTH_BYTE_ARRAY
//
// Front coding (DELTA_BYTE_ARRAY) wins on sorted or structured strings (paths, URLs, ids with a
// common stem); DELTA_LENGTH_BYTE_ARRAY drops PLAIN's 4-byte length of every value, which a
// general compressor sees as noise between the bytes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace columnar {
namespace parquet {

void AppendDeltaLengthByteArray(const std::vector<std::string_view>& values, std::string* out);
void AppendDeltaByteArray(const std::vector<std::string_view>& values, std::string* out);

}  // namespace parquet
}  // namespace columnar
