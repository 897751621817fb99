#include "table_api/result_set.h"

#include <cstdint>

namespace columnar {
namespace {

void AppendFixedLittleEndian(uint64_t v, int bytes, std::string* out) {
  for (int i = 0; i < bytes; i++) out->push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

}  // namespace

void ResultSet::Clear() {
  column_names.clear();
  column_types.clear();
  for (Row& row : rows) spare_rows_.push_back(std::move(row));
  rows.clear();
}

Row* ResultSet::AppendRow() {
  if (spare_rows_.empty()) {
    rows.emplace_back();
  } else {
    rows.push_back(std::move(spare_rows_.back()));
    spare_rows_.pop_back();
  }
  return &rows.back();
}

void AppendSerializedRow(const Row& row, std::string* out) {
  for (const Value& value : row) {
    if (value.is_null()) {
      out->push_back(0);
      continue;
    }
    out->push_back(static_cast<char>(1 + static_cast<uint8_t>(value.type())));
    if (IsBytesType(value.type())) {
      AppendFixedLittleEndian(value.bytes().size(), 4, out);
      out->append(value.bytes());
    } else {
      AppendFixedLittleEndian(value.FixedBits(), 8, out);
    }
  }
}

std::string SerializeRows(const ResultSet& result) {
  std::string out;
  AppendFixedLittleEndian(result.rows.size(), 8, &out);
  for (const Row& row : result.rows) AppendSerializedRow(row, &out);
  return out;
}

std::string ResultSetToString(const ResultSet& result) {
  std::string out;
  auto append_line = [&out](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); i++) {
      if (i > 0) out += " | ";
      out += cells[i];
    }
    out += "\n";
  };
  append_line(result.column_names);
  for (const Row& row : result.rows) {
    std::vector<std::string> cells;
    cells.reserve(row.size());
    for (const Value& value : row) cells.push_back(value.ToCqlLiteral());
    append_line(cells);
  }
  return out;
}

}  // namespace columnar
