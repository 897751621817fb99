#include "tools/shell_session.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include "tools/shell_command.h"
#include "tools/shell_cql.h"
#include "tools/shell_help.h"
#include "tools/shell_tracing.h"

namespace columnar {

namespace {

// SOURCE inside sourced files, at most this deep (a file that sources itself stops here).
constexpr int kMaxSourceDepth = 16;

int64_t SteadyNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

Status FlushTable(Table* table) {
  return table->db()->Flush(rocksdb::FlushOptions(), table->column_family());
}

// Into the last level, forced: rows there get sequence number 0, which lets ColumnarTable
// readers leave out non-matching rows and prune row groups and files (plugin/pushdown.h).
Status CompactTable(Table* table) {
  rocksdb::CompactRangeOptions options;
  options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  return table->db()->CompactRange(options, table->column_family(), nullptr, nullptr);
}

}  // namespace

ShellOptions::ShellOptions() : monotonic_nanos(SteadyNanos) {}

Shell::Shell(Database* db, ShellOptions options, std::ostream& out, std::ostream& err)
    : db_(db), session_(db), options_(std::move(options)), out_(out), err_(err) {}

std::string Shell::Prompt(bool continuing) const {
  if (continuing) return "...> ";
  return session_.keyspace().empty() ? "cql> " : "cql:" + session_.keyspace() + "> ";
}

void Shell::Run(std::istream& in, const std::string& source, bool prompt) {
  std::istream* const outer_terminal = terminal_;
  if (prompt) terminal_ = &in;
  InputSplitter splitter;
  std::vector<ShellInput> pieces;
  std::string line;
  while (!exit_requested_) {
    if (prompt) out_ << Prompt(splitter.pending()) << std::flush;
    if (!std::getline(in, line)) {
      if (prompt) out_ << "\n";  // end of input (Ctrl-D) leaves the prompt's line
      break;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    pieces.clear();
    splitter.AddLine(line, &pieces);
    for (const ShellInput& piece : pieces) {
      if (exit_requested_) break;
      RunPiece(piece, source);
    }
  }
  ShellInput rest;
  if (splitter.Finish(&rest) && !exit_requested_) RunPiece(rest, source);
  terminal_ = outer_terminal;
}

void Shell::RunText(const std::string& text, const std::string& source) {
  std::istringstream in(text);
  Run(in, source, /*prompt=*/false);
}

Status Shell::RunFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return Status::IOError("cannot read " + path + ": " + std::strerror(errno));
  Run(in, path, /*prompt=*/false);
  if (in.bad()) return Status::IOError("error reading " + path);
  return Status::OK();
}

void Shell::RunPiece(const ShellInput& piece, const std::string& source) {
  const Status s = piece.kind == ShellInput::Kind::kCommand ? RunCommand(piece) : RunCql(piece);
  if (s.ok()) return;
  failures_++;
  err_ << source << ":" << piece.line << ":" << piece.column << ": " << s.ToString() << "\n";
}

Status Shell::RunCql(const ShellInput& piece) {
  CqlOutcome outcome;
  const int64_t start = options_.monotonic_nanos();
  const Status s = RunCqlStatement(&session_, db_, piece, &outcome);
  const int64_t elapsed = options_.monotonic_nanos() - start;
  if (s.ok() && !outcome.note.empty()) out_ << outcome.note << "\n";
  if (!s.ok() || !outcome.is_select) return s;
  PrintResultSet(outcome.rows, options_.format, out_, PrintOptions());
  if (tracing_) {
    out_ << FormatTracing(outcome.table, outcome.table_format, outcome.stats, elapsed);
  }
  return Status::OK();
}

Status Shell::RunCommand(const ShellInput& piece) {
  ShellCommand command;
  const Status s = ParseShellCommand(piece, &command);
  if (!s.ok()) return s;
  switch (command.kind) {
    case ShellCommand::Kind::kHelp:
      out_ << ShellHelpText();
      return Status::OK();
    case ShellCommand::Kind::kDescribeTables:
      return DescribeTables();
    case ShellCommand::Kind::kDescribeTable:
      return DescribeTable(command.table);
    case ShellCommand::Kind::kDescribeKeyspaces:
      return DescribeKeyspaces();
    case ShellCommand::Kind::kDescribeKeyspace:
      return DescribeKeyspace(command.keyspace);
    case ShellCommand::Kind::kConsistency:
      Consistency(command.consistency);
      return Status::OK();
    case ShellCommand::Kind::kExpand:
      Expand(command);
      return Status::OK();
    case ShellCommand::Kind::kPaging:
      Paging(command);
      return Status::OK();
    case ShellCommand::Kind::kTracing:
      tracing_ = command.tracing;
      out_ << "Tracing is " << (tracing_ ? "on" : "off") << ".\n";
      return Status::OK();
    case ShellCommand::Kind::kFlush:
      return ForTables(command.table, FlushTable);
    case ShellCommand::Kind::kCompact:
      return ForTables(command.table, CompactTable);
    case ShellCommand::Kind::kSource:
      return Source(command.path);
    case ShellCommand::Kind::kCopy:
      return Copy(command);
    case ShellCommand::Kind::kExit:
      exit_requested_ = true;
      return Status::OK();
  }
  return Status::OK();
}

// The tables of the current keyspace, or of the database without one.
Status Shell::DescribeTables() {
  const std::vector<std::string> names = session_.keyspace().empty()
                                             ? db_->ListTables()
                                             : db_->ListTablesOfKeyspace(session_.keyspace());
  if (names.empty()) out_ << "(no tables)\n";
  for (const std::string& name : names) out_ << name << "\n";
  return Status::OK();
}

Status Shell::DescribeTable(const std::string& name) {
  Table* table = nullptr;
  const Status s = session_.GetTable(name, &table);
  if (!s.ok()) return s;
  out_ << columnar::DescribeTable(*table) << "\n";
  return Status::OK();
}

Status Shell::DescribeKeyspaces() {
  const std::vector<std::string> names = db_->ListKeyspaces();
  if (names.empty()) out_ << "(no keyspaces)\n";
  for (const std::string& name : names) out_ << name << "\n";
  return Status::OK();
}

Status Shell::DescribeKeyspace(const std::string& name) {
  const std::string& keyspace = name.empty() ? session_.keyspace() : name;
  if (keyspace.empty()) {
    return Status::InvalidArgument("DESCRIBE KEYSPACE needs a name: no keyspace is in use");
  }
  std::string cql;
  const Status s = db_->DescribeKeyspace(keyspace, &cql);
  if (s.ok()) out_ << cql << "\n";
  return s;
}

// cqlsh's CONSISTENCY: one node has one copy of each row, so every level reads and writes the
// same copy; the level is accepted and changes nothing.
void Shell::Consistency(const std::string& level) {
  if (level.empty()) {
    out_ << "Current consistency level is ONE.\n";
    return;
  }
  out_ << "Consistency level set to " << level
       << ". Note: this database is one node, so every level reads and writes its single copy "
          "of each row; the level is ignored.\n";
}

// cqlsh's EXPAND and its messages.
void Shell::Expand(const ShellCommand& command) {
  if (!command.switch_on) {
    out_ << (expand_ ? "Expanded output is currently enabled. Use EXPAND OFF to disable\n"
                     : "Expanded output is currently disabled. Use EXPAND ON to enable.\n");
    return;
  }
  expand_ = *command.switch_on;
  out_ << (expand_ ? "Now Expanded output is enabled\n" : "Disabled Expanded output.\n");
}

// cqlsh's PAGING and its messages. Pages are shown only while a terminal is read: scripts,
// files and pipes get every row at once.
void Shell::Paging(const ShellCommand& command) {
  if (!command.switch_on) {
    if (paging_) {
      out_ << "Query paging is currently enabled. Use PAGING OFF to disable\nPage size: "
           << page_size_ << "\n";
    } else {
      out_ << "Query paging is currently disabled. Use PAGING ON to enable.\n";
    }
    return;
  }
  paging_ = *command.switch_on;
  if (command.page_size != 0) {
    page_size_ = command.page_size;
    out_ << "Page size: " << page_size_ << "\n";
  } else if (paging_) {
    out_ << "Now Query paging is enabled\nPage size: " << page_size_ << "\n";
  } else {
    out_ << "Disabled Query paging.\n";
  }
}

TablePrintOptions Shell::PrintOptions() const {
  TablePrintOptions options;
  options.expand = expand_;
  if (paging_ && terminal_ != nullptr) {
    options.page_rows = page_size_;
    std::istream* const in = terminal_;
    options.next_page = [in]() {
      std::string line;
      return static_cast<bool>(std::getline(*in, line)) && line != "q" && line != "Q";
    };
  }
  return options;
}

Status Shell::ForTables(const std::string& name, const std::function<Status(Table*)>& action) {
  if (!name.empty()) {
    Table* table = nullptr;
    const Status s = session_.GetTable(name, &table);
    return s.ok() ? action(table) : s;
  }
  for (const std::string& qualified : db_->ListTables()) {
    Table* table = nullptr;
    Status s = db_->GetTable(qualified, &table);
    if (s.ok()) s = action(table);
    if (!s.ok()) return s;
  }
  return Status::OK();
}

// COPY ... FROM: Table::ImportCsv in batches, a progress line on the error stream every
// kProgressRows rows, and a closing line like cqlsh's.
Status Shell::CopyFrom(Table* table, const ShellCommand& command) {
  constexpr uint64_t kProgressRows = 100000;
  ImportCsvOptions options;
  options.columns = command.columns;
  options.header = command.header.value_or(false);
  uint64_t reported = 0;
  options.progress = [&](uint64_t rows) {
    if (rows / kProgressRows == reported / kProgressRows) return;
    reported = rows;
    err_ << "Processed: " << rows << " rows\n";
  };
  ImportCsvResult result;
  const int64_t start = options_.monotonic_nanos();
  const Status s = table->ImportCsv(command.path, options, &result);
  const double seconds = (options_.monotonic_nanos() - start) / 1e9;
  out_ << result.rows << " rows imported from " << command.path;
  if (seconds > 0) out_ << " (" << static_cast<uint64_t>(result.rows / seconds) << " rows/s)";
  out_ << "\n";
  return s;
}

Status Shell::Copy(const ShellCommand& command) {
  Table* table = nullptr;
  Status s = db_->GetTable(command.table, &table);
  if (s.ok() && command.copy_from) return CopyFrom(table, command);
  ExportParquetOptions options;
  options.columns = command.columns;
  options.csv_header = command.header.value_or(true);
  if (s.ok()) s = ParseParquetCompression(command.compression, &options.compression);
  if (!s.ok()) return s;
  ExportParquetResult result;
  const int64_t start = options_.monotonic_nanos();
  s = command.format == "csv" ? table->ExportCsv(command.path, options, &result)
                              : table->ExportParquet(command.path, options, &result);
  if (!s.ok()) return s;
  const double seconds = (options_.monotonic_nanos() - start) / 1e9;
  out_ << result.rows << " rows exported to " << command.path << " (" << command.format << ", "
       << result.bytes << " bytes";
  if (seconds > 0) out_ << ", " << static_cast<uint64_t>(result.rows / seconds) << " rows/s";
  out_ << ")\n";
  return Status::OK();
}

Status Shell::Source(const std::string& path) {
  if (source_depth_ >= kMaxSourceDepth) {
    return Status::InvalidArgument("SOURCE nested more than " + std::to_string(kMaxSourceDepth) +
                                   " files deep (does a file source itself?)");
  }
  source_depth_++;
  const Status s = RunFile(path);
  source_depth_--;
  return s;
}

}  // namespace columnar
