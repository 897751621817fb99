// RecordingObserver: a ColumnObserver that writes down every call it gets, values and nulls
// included, in call order, so that two reports of a row group compare as strings.
#pragma once

#include <string>

#include "table_format/column_values.h"
#include "table_format/row_layout.h"

namespace columnar {
namespace testing_util {

class RecordingObserver : public ColumnObserver {
 public:
  void BeginRowGroup(size_t rows) override { record += "group " + std::to_string(rows) + "\n"; }
  void OnColumn(uint32_t column_id, const ColumnVector& values) override {
    record += "column " + std::to_string(column_id) + Values(values) + "\n";
  }
  void OnExpiry(const ColumnVector& expiry_seconds) override {
    record += "expiry" + Values(expiry_seconds) + "\n";
  }
  void OnTypedRows(size_t typed_rows) override {
    record += "typed " + std::to_string(typed_rows) + "\n";
  }
  std::string record;

 private:
  static std::string Values(const ColumnVector& values) {
    std::string out = " type " + std::to_string(static_cast<int>(values.type())) + ":";
    for (size_t row = 0; row < values.size(); row++) {
      if (values.IsNull(row)) {
        out += " null";
      } else if (values.type() == PhysicalType::kBytes) {
        out += " '" + values.GetBytes(row).ToString() + "'";
      } else {
        out += " " + std::to_string(FixedBitsAt(values, row));
      }
    }
    return out;
  }
};

}  // namespace testing_util
}  // namespace columnar
