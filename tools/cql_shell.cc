// cql_shell: a command-line shell for the Table API's CQL subset (CREATE TABLE, ALTER TABLE,
// INSERT, SELECT, DELETE) with DESCRIBE, TRACING and SOURCE commands.
//
//   cql_shell --db=PATH [--storage=columnar|block_based] [--format=table|csv|json]
//             [-e STATEMENTS]... [-f FILE]...
//
// See shell_flags.h for the flags and shell_session.h for how input is run. Exit status: 0,
// 1 when a statement failed (with -e, -f or piped input) or the database could not be
// opened, 2 for a usage error.
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "tools/shell_flags.h"
#include "tools/shell_program.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  columnar::ShellFlags flags;
  const columnar::Status s = columnar::ParseShellFlags(args, &flags);
  if (!s.ok()) {
    std::cerr << "cql_shell: " << s.getState() << "\n" << columnar::ShellUsage();
    return columnar::kShellExitUsage;
  }
  if (flags.help) {
    std::cout << columnar::ShellUsage();
    return columnar::kShellExitOk;
  }
  return columnar::RunCqlShell(flags, columnar::DatabaseOptions(), std::cin, isatty(STDIN_FILENO),
                               std::cout, std::cerr);
}
