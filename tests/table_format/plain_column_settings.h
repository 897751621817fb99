// Shared by the layout tests: column settings that write every chunk plain, without checksums
// and with the row group's implied value count, so that tests can forge and read exact bytes.
#pragma once

#include <string>

#include "table_format/column_settings.h"

namespace columnar {
namespace testing_util {

class PlainSettings : public ColumnWriteSettings {
 public:
  ChunkWriteOptions For(const std::string&, PhysicalType) const override {
    ChunkWriteOptions options;
    options.encoding = Encoding::kPlain;
    options.checksum = false;
    options.implied_value_count = true;
    return options;
  }
};

}  // namespace testing_util
}  // namespace columnar
