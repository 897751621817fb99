// cql_shell's command line:
//
//   cql_shell --db=PATH [--storage=columnar|block_based] [--format=table|csv|json]
//             [-e STATEMENTS | --execute=STATEMENTS]... [-f FILE | --file=FILE]...
//
// -e and -f may be repeated; they run in the order given. Without either the shell reads
// standard input (interactively when it is a terminal).
#pragma once

#include <string>
#include <vector>

#include "table_api/table_storage.h"
#include "tools/shell_result_printer.h"

namespace columnar {

struct ShellFlags {
  struct Input {
    bool is_file = false;
    std::string text;  // the statements of -e, or the path of -f
  };

  std::string db_path;
  // The format of tables created without an sstable_format option.
  TableFormat storage = TableFormat::kColumnarTable;
  OutputFormat format = OutputFormat::kTable;
  std::vector<Input> inputs;
  bool help = false;
};

// Parses the arguments after the program name. InvalidArgument naming the problem for an
// unknown flag, a flag without its value, a bad value or a missing --db (unless --help).
Status ParseShellFlags(const std::vector<std::string>& args, ShellFlags* flags);

// The usage text (--help).
const char* ShellUsage();

}  // namespace columnar
