#include "tools/shell_result_printer.h"

#include <algorithm>
#include <vector>

namespace columnar {

namespace {

bool IsNumeric(LogicalType type) {
  switch (type) {
    case LogicalType::kInt:
    case LogicalType::kBigInt:
    case LogicalType::kFloat:
    case LogicalType::kDouble:
      return true;
    default:
      return false;
  }
}

// Characters on screen: UTF-8 continuation bytes take no column of their own.
size_t DisplayWidth(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// Control characters would break the table's lines: shown as \n, \t, \r or \xNN.
std::string OneLine(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += std::string("\\x") + kHex[byte >> 4] + kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out;
}

void AppendPadded(const std::string& cell, size_t width, bool right, std::string* line) {
  const std::string padding(width - DisplayWidth(cell), ' ');
  *line += right ? padding + cell : cell + padding;
}

void PrintTable(const ResultSet& result, std::ostream& out) {
  const size_t columns = result.column_names.size();
  std::vector<std::vector<std::string>> cells(result.rows.size());
  std::vector<size_t> widths(columns);
  std::vector<std::string> header;
  for (size_t c = 0; c < columns; c++) {
    header.push_back(OneLine(result.column_names[c]));
    widths[c] = DisplayWidth(header[c]);
  }
  for (size_t r = 0; r < result.rows.size(); r++) {
    for (size_t c = 0; c < columns; c++) {
      cells[r].push_back(OneLine(result.rows[r][c].ToCqlLiteral()));
      widths[c] = std::max(widths[c], DisplayWidth(cells[r][c]));
    }
  }
  auto print_line = [&](const std::vector<std::string>& line_cells) {
    std::string line;
    for (size_t c = 0; c < columns; c++) {
      line += c == 0 ? " " : " | ";
      AppendPadded(line_cells[c], widths[c], IsNumeric(result.column_types[c]), &line);
    }
    line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  };
  print_line(header);
  std::string rule;
  for (size_t c = 0; c < columns; c++)
    rule += (c == 0 ? "" : "+") + std::string(widths[c] + 2, '-');
  out << rule << "\n";
  for (const std::vector<std::string>& row : cells) print_line(row);
  out << "\n(" << result.rows.size() << " rows)\n";
}

// Timestamps and dates print as 'iso' or as an integer out of the ISO range.
std::string Unquoted(const std::string& literal) {
  return literal.size() >= 2 && literal.front() == '\'' ? literal.substr(1, literal.size() - 2)
                                                        : literal;
}

// The value without CQL quoting: text as is, timestamps and dates in ISO form.
std::string PlainText(const Value& value) {
  switch (value.type()) {
    case LogicalType::kText:
    case LogicalType::kAscii:
      return value.bytes();
    case LogicalType::kTimestamp:
    case LogicalType::kDate:
      return Unquoted(value.ToCqlLiteral());
    default:
      return value.ToCqlLiteral();
  }
}

std::string CsvField(const std::string& text) {
  if (!text.empty() && text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void PrintCsv(const ResultSet& result, std::ostream& out) {
  for (size_t c = 0; c < result.column_names.size(); c++) {
    out << (c == 0 ? "" : ",") << CsvField(result.column_names[c]);
  }
  out << "\n";
  for (const Row& row : result.rows) {
    for (size_t c = 0; c < row.size(); c++) {
      out << (c == 0 ? "" : ",") << (row[c].is_null() ? "" : CsvField(PlainText(row[c])));
    }
    out << "\n";
  }
}

std::string JsonString(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += std::string("\\u00") + kHex[byte >> 4] + kHex[byte & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string JsonValue(const Value& value) {
  if (value.is_null()) return "null";
  const std::string text = PlainText(value);
  if (value.type() == LogicalType::kBoolean) return text;
  if (IsNumeric(value.type())) {
    const bool finite = text.find_first_of("NI") == std::string::npos;  // NaN, Infinity
    return finite ? text : JsonString(text);
  }
  const bool integer_form =
      (value.type() == LogicalType::kTimestamp || value.type() == LogicalType::kDate) &&
      value.ToCqlLiteral().front() != '\'';
  return integer_form ? text : JsonString(text);
}

void PrintJson(const ResultSet& result, std::ostream& out) {
  for (const Row& row : result.rows) {
    std::string line = "{";
    for (size_t c = 0; c < row.size(); c++) {
      line += (c == 0 ? "" : ",") + JsonString(result.column_names[c]) + ":" + JsonValue(row[c]);
    }
    out << line << "}\n";
  }
}

}  // namespace

bool ParseOutputFormat(const std::string& name, OutputFormat* format) {
  if (name == "table") {
    *format = OutputFormat::kTable;
  } else if (name == "csv") {
    *format = OutputFormat::kCsv;
  } else if (name == "json") {
    *format = OutputFormat::kJson;
  } else {
    return false;
  }
  return true;
}

void PrintResultSet(const ResultSet& result, OutputFormat format, std::ostream& out) {
  switch (format) {
    case OutputFormat::kTable:
      PrintTable(result, out);
      return;
    case OutputFormat::kCsv:
      PrintCsv(result, out);
      return;
    case OutputFormat::kJson:
      PrintJson(result, out);
      return;
  }
}

}  // namespace columnar
