// The shell's own commands (not CQL), case-insensitive, each on one line, with or without ';':
//
//   HELP
//   DESCRIBE TABLES | DESC TABLES
//   DESCRIBE TABLE [ks.]name | DESC TABLE [ks.]name
//   DESCRIBE KEYSPACES | DESCRIBE KEYSPACE [name]   (DESC too)
//   CONSISTENCY [level]
//   TRACING ON | TRACING OFF
//   EXPAND [ON | OFF]
//   PAGING [ON | OFF | page size]
//   FLUSH [[ks.]name]
//   COMPACT [[ks.]name]
//   SOURCE 'file'
//   COPY [ks.]name [(col, ...)] TO 'file' [WITH FORMAT = 'parquet' | 'csv'
//       [AND COMPRESSION = 'zstd' | 'snappy' | 'none'] [AND HEADER = true | false]]
//       (format from the extension otherwise; HEADER: CSV only, default true)
//   COPY [ks.]name [(col, ...)] FROM 'file.csv' [WITH HEADER = true | false]
//   EXIT | QUIT
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "table_format/types.h"
#include "tools/shell_input_splitter.h"

namespace columnar {

struct ShellCommand {
  enum class Kind : uint8_t {
    kHelp,
    kDescribeTables,
    kDescribeTable,
    kDescribeKeyspaces,
    kDescribeKeyspace,
    kConsistency,
    kTracing,
    kExpand,
    kPaging,
    kFlush,
    kCompact,
    kSource,
    kCopy,
    kExit
  };
  Kind kind = Kind::kHelp;
  std::string table;     // DESCRIBE TABLE, FLUSH, COMPACT (empty: every table)
  bool tracing = false;  // TRACING ON
  // EXPAND / PAGING: ON (true) or OFF (false); unset: show the setting.
  std::optional<bool> switch_on;
  uint64_t page_size = 0;   // PAGING n
  std::string path;         // SOURCE, COPY
  std::string keyspace;     // DESCRIBE KEYSPACE (empty: the current one)
  std::string consistency;  // CONSISTENCY: the level in upper case (empty: show it)
  // COPY: the columns (empty: all), TO: "parquet" or "csv", the Parquet compression;
  // HEADER: whether the CSV file's first line names the columns (unset: FROM no, as cqlsh;
  // TO yes, so that what COPY TO writes describes itself).
  std::vector<std::string> columns;
  bool copy_from = false;
  std::string format;
  std::string compression = "zstd";
  std::optional<bool> header;
};

// Whether a line starting with `lower_word` is a shell command.
bool IsShellCommandWord(const std::string& lower_word);

// Parses a command piece. InvalidArgument with its source position when it is malformed.
Status ParseShellCommand(const ShellInput& input, ShellCommand* command);

}  // namespace columnar
