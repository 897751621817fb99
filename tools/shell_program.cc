#include "tools/shell_program.h"

#include <memory>
#include <utility>

#include "tools/shell_session.h"

namespace columnar {

namespace {

// False when a -f file could not be read (the inputs after it are not run).
bool RunInputs(const ShellFlags& flags, Shell* shell, std::ostream& err) {
  for (const ShellFlags::Input& input : flags.inputs) {
    if (shell->exit_requested()) return true;
    if (!input.is_file) {
      shell->RunText(input.text, "-e");
      continue;
    }
    const Status s = shell->RunFile(input.text);
    if (!s.ok()) {
      err << "cql_shell: " << s.ToString() << "\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int RunCqlShell(const ShellFlags& flags, DatabaseOptions options, std::istream& in,
                bool interactive, std::ostream& out, std::ostream& err) {
  options.default_storage.format = flags.storage;
  std::unique_ptr<Database> db;
  const Status s = Database::Open(options, flags.db_path, &db);
  if (!s.ok()) {
    err << "cql_shell: cannot open the database " << flags.db_path << ": " << s.ToString() << "\n";
    return kShellExitFailure;
  }
  ShellOptions shell_options;
  shell_options.format = flags.format;
  Shell shell(db.get(), std::move(shell_options), out, err);
  if (!flags.inputs.empty()) {
    const bool read = RunInputs(flags, &shell, err);
    return read && shell.failures() == 0 ? kShellExitOk : kShellExitFailure;
  }
  if (!interactive) {
    shell.Run(in, "<stdin>", /*prompt=*/false);
    return shell.failures() == 0 ? kShellExitOk : kShellExitFailure;
  }
  out << "Connected to " << flags.db_path << " (new tables: " << TableFormatName(flags.storage)
      << "). HELP for help, EXIT to leave.\n";
  shell.Run(in, "<stdin>", /*prompt=*/true);
  return kShellExitOk;
}

}  // namespace columnar
