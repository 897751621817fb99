#include "tools/shell_flags.h"

namespace columnar {

namespace {

bool ParseStorage(const std::string& name, TableFormat* format) {
  if (name == "columnar") {
    *format = TableFormat::kColumnarTable;
  } else if (name == "block_based") {
    *format = TableFormat::kBlockBasedTable;
  } else {
    return false;
  }
  return true;
}

// The value of a flag given as --name=value, or as -x value / --name value (the next
// argument, consumed). False when `arg` is not this flag.
bool FlagValue(const std::vector<std::string>& args, size_t* i, const char* short_name,
               const std::string& long_name, std::string* value, Status* s) {
  const std::string& arg = args[*i];
  const std::string prefix = long_name + "=";
  if (arg.compare(0, prefix.size(), prefix) == 0) {
    *value = arg.substr(prefix.size());
    return true;
  }
  if (arg != long_name && (short_name == nullptr || arg != short_name)) return false;
  if (*i + 1 >= args.size()) {
    *s = Status::InvalidArgument(arg + " needs a value");
  } else {
    *value = args[++*i];
  }
  return true;
}

Status ParseFlag(const std::vector<std::string>& args, size_t* i, ShellFlags* flags) {
  std::string value;
  Status s;
  if (args[*i] == "--help" || args[*i] == "-h") {
    flags->help = true;
  } else if (FlagValue(args, i, nullptr, "--db", &value, &s)) {
    flags->db_path = value;
  } else if (FlagValue(args, i, nullptr, "--storage", &value, &s)) {
    if (s.ok() && !ParseStorage(value, &flags->storage)) {
      s = Status::InvalidArgument("--storage wants columnar or block_based, got '" + value + "'");
    }
  } else if (FlagValue(args, i, nullptr, "--format", &value, &s)) {
    if (s.ok() && !ParseOutputFormat(value, &flags->format)) {
      s = Status::InvalidArgument("--format wants table, csv or json, got '" + value + "'");
    }
  } else if (FlagValue(args, i, "-e", "--execute", &value, &s)) {
    flags->inputs.push_back({/*is_file=*/false, value});
  } else if (FlagValue(args, i, "-f", "--file", &value, &s)) {
    flags->inputs.push_back({/*is_file=*/true, value});
  } else {
    s = Status::InvalidArgument("unknown argument '" + args[*i] + "'");
  }
  return s;
}

}  // namespace

Status ParseShellFlags(const std::vector<std::string>& args, ShellFlags* flags) {
  *flags = ShellFlags();
  for (size_t i = 0; i < args.size(); i++) {
    const Status s = ParseFlag(args, &i, flags);
    if (!s.ok()) return s;
  }
  if (flags->db_path.empty() && !flags->help) {
    return Status::InvalidArgument("--db=PATH is required");
  }
  return Status::OK();
}

const char* ShellUsage() {
  return "usage: cql_shell --db=PATH [options]\n"
         "  --db=PATH                 the database directory (created when missing)\n"
         "  --storage=columnar|block_based\n"
         "                            the format of tables created without an\n"
         "                            sstable_format option (default columnar)\n"
         "  --format=table|csv|json   how SELECT results are printed (default table)\n"
         "  -e, --execute STATEMENTS  run these statements and commands\n"
         "  -f, --file FILE           run the statements and commands of FILE\n"
         "  -h, --help                this text\n"
         "-e and -f may be repeated and run in order; without them the shell reads standard\n"
         "input, interactively on a terminal. Type HELP in the shell for its commands and the\n"
         "CQL it runs. Exit status: 0, or 1 when a statement failed or the database could not\n"
         "be opened, 2 for a usage error.\n";
}

}  // namespace columnar
