// The CQL shell's session: runs CQL statements (shell_cql.h) and shell commands
// (shell_command.h) read from streams, scripts or files, prints SELECT results
// (shell_result_printer.h) and, with TRACING ON, the pushdown counters (shell_tracing.h).
//
// Results and command output go to `out`; each failed statement or command prints
// "<source>:<line>:<column>: <error>" to `err` (the position of the statement; messages of
// CQL errors add the position of the problem) and is counted, and the session goes on with
// the next one. EXIT or QUIT ends the session: nothing more is run.
//
//   Shell shell(db, ShellOptions(), std::cout, std::cerr);
//   shell.RunText("SELECT * FROM logs.access16 WHERE ...;", "-e");
//   return shell.failures() == 0 ? 0 : 1;
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <string>

#include "table_api/cql_session.h"
#include "table_api/database.h"
#include "tools/shell_input_splitter.h"
#include "tools/shell_result_printer.h"

namespace columnar {

struct ShellCommand;

struct ShellOptions {
  ShellOptions();

  OutputFormat format = OutputFormat::kTable;
  // A monotonic clock in nanoseconds, for the elapsed time TRACING prints.
  std::function<int64_t()> monotonic_nanos;
};

class Shell {
 public:
  Shell(Database* db, ShellOptions options, std::ostream& out, std::ostream& err);
  Shell(const Shell&) = delete;
  Shell& operator=(const Shell&) = delete;

  // Runs what `in` holds, line by line, until its end or EXIT; `source` names it in errors.
  // With `prompt` (an interactive terminal), "cql> " ("cql:ks> " after USE ks) is shown
  // before each statement and "...> " before each line that continues one, and long results
  // are shown a page at a time (PAGING), a line of `in` read between pages ("q" stops).
  void Run(std::istream& in, const std::string& source, bool prompt);
  void RunText(const std::string& text, const std::string& source);
  // What SOURCE does. An error when the file cannot be read (failed statements in it are
  // reported and counted, as anywhere else).
  Status RunFile(const std::string& path);

  bool exit_requested() const { return exit_requested_; }
  // Statements and commands that failed so far.
  uint64_t failures() const { return failures_; }
  bool tracing() const { return tracing_; }
  // The keyspace USE selected (empty: none).
  const std::string& keyspace() const { return session_.keyspace(); }

 private:
  void RunPiece(const ShellInput& piece, const std::string& source);
  Status RunCql(const ShellInput& piece);
  Status RunCommand(const ShellInput& piece);
  Status DescribeTables();
  Status DescribeTable(const std::string& name);
  Status DescribeKeyspaces();
  Status DescribeKeyspace(const std::string& name);
  void Consistency(const std::string& level);
  void Expand(const ShellCommand& command);
  void Paging(const ShellCommand& command);
  // How SELECT results are laid out: EXPAND, and PAGING while a terminal is being read.
  TablePrintOptions PrintOptions() const;
  std::string Prompt(bool continuing) const;
  // FLUSH and COMPACT: runs `action` on the named table, or on every table.
  Status ForTables(const std::string& name, const std::function<Status(Table*)>& action);
  Status Source(const std::string& path);
  // COPY ... TO: Table::ExportParquet or Table::ExportCsv; COPY ... FROM: CopyFrom.
  Status Copy(const ShellCommand& command);
  // COPY ... FROM: Table::ImportCsv.
  Status CopyFrom(Table* table, const ShellCommand& command);

  Database* const db_;
  CqlSession session_;  // the current keyspace (USE)
  const ShellOptions options_;
  std::ostream& out_;
  std::ostream& err_;
  bool tracing_ = false;
  bool expand_ = false;
  bool paging_ = true;                // cqlsh's default; pages only while reading a terminal
  uint64_t page_size_ = 100;          // cqlsh's default
  std::istream* terminal_ = nullptr;  // the interactive input being run, for ---MORE---
  bool exit_requested_ = false;
  uint64_t failures_ = 0;
  int source_depth_ = 0;  // files being run by SOURCE
};

}  // namespace columnar
