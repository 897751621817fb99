// Splits the shell's input, line by line, into CQL statements and shell command lines.
//
// A CQL statement runs from its first character to the ';' that ends it, across lines;
// a ';' inside a string ('...', $$...$$), a quoted name ("...") or a comment (--, //, /* */)
// does not end it, as in the CQL lexer (table_format/cql_lexer.h); nor does a ';' between the
// statements of a BEGIN BATCH (the batch ends with APPLY BATCH and its ';'). A line whose first
// word starts a shell command (IsShellCommandWord) is one command: it ends at the end of the line
// or at a ';'. Blank lines, comments outside statements and lone ';' are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace columnar {

// One piece of input, and where it starts in its source.
struct ShellInput {
  enum class Kind : uint8_t { kCql, kCommand };
  Kind kind = Kind::kCql;
  // The statement with its ';' (when it has one), or the command line; trailing blanks removed.
  std::string text;
  int line = 1;    // 1-based line of the first character
  int column = 1;  // 1-based byte column of the first character
};

class InputSplitter {
 public:
  // Adds one line (without its line break); the pieces it completes are appended to *pieces.
  void AddLine(const std::string& line, std::vector<ShellInput>* pieces);
  // At the end of the input: the unfinished statement (one without its ';'), if there is one.
  bool Finish(ShellInput* piece);
  // Whether a statement, string or comment is still open (the shell then prompts "...> ").
  bool pending() const { return started_ || state_ != State::kNormal; }

 private:
  enum class State : uint8_t { kNormal, kSingleQuote, kDoubleQuote, kDollarQuote, kBlockComment };

  // Handles line[*i] (and perhaps the characters after it) and advances *i. False when the
  // rest of the line is a line comment.
  bool Step(const std::string& line, size_t* i, std::vector<ShellInput>* pieces);
  // Before a piece starts: skips blanks and comments, or starts a piece at line[*i].
  bool StepBetweenPieces(const std::string& line, size_t* i);
  bool StepInQuote(const std::string& line, size_t* i, char quote);
  void StepInDollarQuote(const std::string& line, size_t* i);
  void StepInBlockComment(const std::string& line, size_t* i);
  void Emit(std::vector<ShellInput>* pieces);

  State state_ = State::kNormal;
  bool started_ = false;  // a piece has begun
  ShellInput current_;
  int line_number_ = 0;
};

}  // namespace columnar
