// The shell's own commands (not CQL), case-insensitive, each on one line, with or without ';':
//
//   HELP
//   DESCRIBE TABLES | DESC TABLES
//   DESCRIBE TABLE [ks.]name | DESC TABLE [ks.]name
//   DESCRIBE KEYSPACES | DESCRIBE KEYSPACE [name]   (DESC too)
//   CONSISTENCY [level]
//   TRACING ON | TRACING OFF
//   FLUSH [[ks.]name]
//   COMPACT [[ks.]name]
//   SOURCE 'file'
//   EXIT | QUIT
#pragma once

#include <cstdint>
#include <string>

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
    kFlush,
    kCompact,
    kSource,
    kExit
  };
  Kind kind = Kind::kHelp;
  std::string table;        // DESCRIBE TABLE, FLUSH, COMPACT (empty: every table)
  bool tracing = false;     // TRACING ON
  std::string path;         // SOURCE
  std::string keyspace;     // DESCRIBE KEYSPACE (empty: the current one)
  std::string consistency;  // CONSISTENCY: the level in upper case (empty: show it)
};

// Whether a line starting with `lower_word` is a shell command.
bool IsShellCommandWord(const std::string& lower_word);

// Parses a command piece. InvalidArgument with its source position when it is malformed.
Status ParseShellCommand(const ShellInput& input, ShellCommand* command);

}  // namespace columnar
