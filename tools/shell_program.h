// cql_shell's whole run after its flags are parsed: opens the database, runs the -e and -f
// inputs in order (or standard input), and returns the exit status.
#pragma once

#include <istream>
#include <ostream>

#include "table_api/database.h"
#include "tools/shell_flags.h"

namespace columnar {

inline constexpr int kShellExitOk = 0;
inline constexpr int kShellExitFailure = 1;  // a statement failed, or the database did not open
inline constexpr int kShellExitUsage = 2;

// `options` is the base of the database's options (flags.storage sets its default storage).
// Without -e and -f, `in` is read; `interactive` (a terminal) adds a greeting and prompts, and
// then failed statements do not change the exit status.
int RunCqlShell(const ShellFlags& flags, DatabaseOptions options, std::istream& in,
                bool interactive, std::ostream& out, std::ostream& err);

}  // namespace columnar
