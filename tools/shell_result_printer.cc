#include "tools/shell_result_printer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "table_api/json_text.h"
#include "table_format/cql_lexer.h"
#include "table_format/frozen_value.h"

namespace columnar {

namespace {

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

// cqlsh's float format: `precision` significant digits (5 for float, 12 for double), more when
// the number has digits left of the point, so %g never switches to an exponent there.
std::string CqlshFloatingPoint(double value, int precision) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (std::fabs(value) > std::numeric_limits<double>::epsilon()) {
    const auto exponent = static_cast<int>(std::log10(std::fabs(value)));  // truncated, as int()
    if (exponent >= -4 && exponent < precision) precision += exponent + 1;
  }
  char text[64];
  std::snprintf(text, sizeof(text), "%.*g", precision, value);
  return text;
}

// A timestamp or date literal ('2024-05-01T10:00:05.000Z', '2024-05-01') without quotes; an
// integer literal (outside years 1..9999) as is.
std::string Unquoted(const std::string& literal) {
  return literal.size() >= 2 && literal.front() == '\'' ? literal.substr(1, literal.size() - 2)
                                                        : literal;
}

// A value as cqlsh shows it: text as is, timestamps as 2024-05-01 10:00:05.000000+0000 (UTC),
// dates as 2024-05-01, booleans as True / False, floats with cqlsh's precision, null as null.
std::string CqlshText(const Value& value);

// An element of a collection or tuple as cqlsh shows it: like a cell, but text, timestamps and
// dates in quotes ('a', '2024-05-01'), so {'a': 1} and ('x', 2) read as CQL.
std::string CqlshElementText(const Value& value) {
  switch (value.type()) {
    case LogicalType::kText:
    case LogicalType::kAscii:
    case LogicalType::kTimestamp:
    case LogicalType::kDate:
      return QuoteCqlString(CqlshText(value));
    default:
      return CqlshText(value);
  }
}

std::string CqlshText(const Value& value) {
  if (value.is_null()) return "null";
  if (IsFrozenType(value.type())) return FormatFrozenValue(value, CqlshElementText);
  switch (value.type()) {
    case LogicalType::kText:
    case LogicalType::kAscii:
      return value.bytes();
    case LogicalType::kBoolean:
      return value.bool_value() ? "True" : "False";
    case LogicalType::kFloat:
      return CqlshFloatingPoint(value.float_value(), 5);
    case LogicalType::kDouble:
      return CqlshFloatingPoint(value.double_value(), 12);
    case LogicalType::kTimestamp: {
      std::string text = Unquoted(value.ToCqlLiteral());
      if (text.size() != 24 || text[10] != 'T') return text;  // out of range: milliseconds
      text[10] = ' ';
      text.pop_back();  // Z
      return text + "000+0000";
    }
    case LogicalType::kDate:
      return Unquoted(value.ToCqlLiteral());
    default:
      return value.ToCqlLiteral();
  }
}

// The cells of `rows` as cqlsh shows them, one line each.
std::vector<std::vector<std::string>> CqlshCells(const ResultSet& result, size_t begin,
                                                 size_t end) {
  std::vector<std::vector<std::string>> cells;
  for (size_t r = begin; r < end; r++) {
    cells.emplace_back();
    for (const Value& value : result.rows[r]) cells.back().push_back(OneLine(CqlshText(value)));
  }
  return cells;
}

// Rows [begin, end) as cqlsh's table: names left-aligned, values right-aligned.
void PrintTableRows(const ResultSet& result, size_t begin, size_t end, std::ostream& out) {
  const size_t columns = result.column_names.size();
  const std::vector<std::vector<std::string>> cells = CqlshCells(result, begin, end);
  std::vector<std::string> header;
  std::vector<size_t> widths(columns);
  for (size_t c = 0; c < columns; c++) {
    header.push_back(OneLine(result.column_names[c]));
    widths[c] = DisplayWidth(header[c]);
    for (const std::vector<std::string>& row : cells) {
      widths[c] = std::max(widths[c], DisplayWidth(row[c]));
    }
  }
  auto print_line = [&](const std::vector<std::string>& line_cells, bool right) {
    std::string line;
    for (size_t c = 0; c < columns; c++) {
      line += c == 0 ? " " : " | ";
      AppendPadded(line_cells[c], widths[c], right, &line);
    }
    if (!right) line.erase(line.find_last_not_of(' ') + 1);
    out << line << "\n";
  };
  print_line(header, /*right=*/false);
  std::string rule;
  for (size_t c = 0; c < columns; c++) {
    rule += (c == 0 ? "" : "+") + std::string(widths[c] + 2, '-');
  }
  out << rule << "\n";
  for (const std::vector<std::string>& row : cells) print_line(row, /*right=*/true);
}

// EXPAND ON: each row as a block of "name | value" lines under "@ Row N".
void PrintExpandedRows(const ResultSet& result, size_t begin, size_t end, std::ostream& out) {
  const std::vector<std::vector<std::string>> cells = CqlshCells(result, begin, end);
  size_t name_width = 0;
  size_t value_width = 0;
  for (const std::string& name : result.column_names) {
    name_width = std::max(name_width, DisplayWidth(OneLine(name)));
  }
  for (const std::vector<std::string>& row : cells) {
    for (const std::string& cell : row) value_width = std::max(value_width, DisplayWidth(cell));
  }
  for (size_t r = 0; r < cells.size(); r++) {
    out << "@ Row " << begin + r + 1 << "\n";
    out << std::string(name_width + 2, '-') << "+" << std::string(value_width + 2, '-') << "\n";
    for (size_t c = 0; c < cells[r].size(); c++) {
      std::string line = " ";
      AppendPadded(OneLine(result.column_names[c]), name_width, /*right=*/false, &line);
      out << line << " | " << cells[r][c] << "\n";
    }
    out << "\n";
  }
}

// cqlsh's layout: a blank line, the rows (a table, or blocks with EXPAND ON), page by page
// with PAGING, then "(N rows)".
void PrintCqlsh(const ResultSet& result, const TablePrintOptions& options, std::ostream& out) {
  const size_t rows = result.rows.size();
  const bool paged = options.page_rows != 0 && options.next_page;
  const size_t page = paged ? options.page_rows : std::max<size_t>(rows, 1);
  out << "\n";
  size_t begin = 0;
  do {
    const size_t end = std::min(rows, begin + page);
    if (options.expand) {
      PrintExpandedRows(result, begin, end, out);
    } else {
      PrintTableRows(result, begin, end, out);
    }
    begin = end;
    if (begin < rows && paged) {
      if (!options.expand) out << "\n";
      out << "---MORE---" << std::flush;
      if (!options.next_page()) break;
      out << "\n";
    }
  } while (begin < rows);
  out << (options.expand ? "" : "\n") << "(" << rows << " rows)\n";
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

void PrintJson(const ResultSet& result, std::ostream& out) {
  for (const Row& row : result.rows) out << JsonObjectText(result.column_names, row) << "\n";
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

void PrintResultSet(const ResultSet& result, OutputFormat format, std::ostream& out,
                    const TablePrintOptions& options) {
  switch (format) {
    case OutputFormat::kTable:
      PrintCqlsh(result, options, out);
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
