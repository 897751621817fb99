#include "tools/shell_input_splitter.h"

#include <cctype>

#include "tools/shell_command.h"

namespace columnar {

namespace {

bool IsBlank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

bool StartsLineComment(char c, char next) {
  return (c == '-' && next == '-') || (c == '/' && next == '/');
}

// Whether the word at line[start] names a shell command.
bool StartsShellCommand(const std::string& line, size_t start) {
  size_t end = start;
  while (end < line.size() && std::isalpha(static_cast<unsigned char>(line[end]))) end++;
  if (end < line.size() &&
      (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) {
    return false;
  }
  std::string word = line.substr(start, end - start);
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return IsShellCommandWord(word);
}

void TrimTrailingBlanks(std::string* text) {
  while (!text->empty() && IsBlank(text->back())) text->pop_back();
}

// The word of `text` that ends at `end` (exclusive; blanks before `end` skipped), lower case;
// *start is where it begins.
std::string LowerWordBefore(const std::string& text, size_t end, size_t* start) {
  while (end > 0 && IsBlank(text[end - 1])) end--;
  size_t begin = end;
  while (begin > 0 && std::isalpha(static_cast<unsigned char>(text[begin - 1]))) begin--;
  std::string word = text.substr(begin, end - begin);
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  *start = begin;
  return word;
}

// Whether a ';' after `text` (a CQL piece so far) is inside a BEGIN BATCH, i.e. ends one of its
// statements rather than the batch: the piece starts with BEGIN and does not end with APPLY
// BATCH.
bool SemicolonInsideBatch(const std::string& text) {
  size_t first = 0;
  while (first < text.size() && std::isalpha(static_cast<unsigned char>(text[first]))) first++;
  std::string verb = text.substr(0, first);
  for (char& c : verb) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (verb != "begin") return false;
  size_t start = 0;
  if (LowerWordBefore(text, text.size(), &start) != "batch") return true;
  return LowerWordBefore(text, start, &start) != "apply";
}

}  // namespace

void InputSplitter::AddLine(const std::string& line, std::vector<ShellInput>* pieces) {
  line_number_++;
  size_t i = 0;
  while (i < line.size() && Step(line, &i, pieces)) {
  }
  if (started_ && current_.kind == ShellInput::Kind::kCommand) {
    Emit(pieces);  // a command ends with its line
  } else if (started_) {
    current_.text += '\n';
  }
}

bool InputSplitter::Finish(ShellInput* piece) {
  const bool started = started_;
  if (started) {
    TrimTrailingBlanks(&current_.text);
    *piece = current_;
  }
  started_ = false;
  state_ = State::kNormal;
  current_ = ShellInput();
  return started;
}

bool InputSplitter::Step(const std::string& line, size_t* i, std::vector<ShellInput>* pieces) {
  switch (state_) {
    case State::kSingleQuote:
      return StepInQuote(line, i, '\'');
    case State::kDoubleQuote:
      return StepInQuote(line, i, '"');
    case State::kDollarQuote:
      StepInDollarQuote(line, i);
      return true;
    case State::kBlockComment:
      StepInBlockComment(line, i);
      return true;
    case State::kNormal:
      break;
  }
  if (!started_) return StepBetweenPieces(line, i);
  const char c = line[*i];
  const char next = *i + 1 < line.size() ? line[*i + 1] : '\0';
  if (c == ';') {
    const bool inside_batch =
        current_.kind == ShellInput::Kind::kCql && SemicolonInsideBatch(current_.text);
    current_.text += c;
    ++*i;
    if (!inside_batch) Emit(pieces);
    return true;
  }
  if (StartsLineComment(c, next)) {
    current_.text.append(line, *i, std::string::npos);
    return false;
  }
  if ((c == '/' && next == '*') || (c == '$' && next == '$')) {
    state_ = c == '/' ? State::kBlockComment : State::kDollarQuote;
    current_.text.append(line, *i, 2);
    *i += 2;
    return true;
  }
  if (c == '\'') state_ = State::kSingleQuote;
  if (c == '"') state_ = State::kDoubleQuote;
  current_.text += c;
  ++*i;
  return true;
}

bool InputSplitter::StepBetweenPieces(const std::string& line, size_t* i) {
  const char c = line[*i];
  const char next = *i + 1 < line.size() ? line[*i + 1] : '\0';
  if (IsBlank(c) || c == ';') {
    ++*i;
    return true;
  }
  if (StartsLineComment(c, next)) return false;
  if (c == '/' && next == '*') {
    state_ = State::kBlockComment;
    *i += 2;
    return true;
  }
  started_ = true;
  current_ = ShellInput();
  current_.line = line_number_;
  current_.column = static_cast<int>(*i) + 1;
  current_.kind =
      StartsShellCommand(line, *i) ? ShellInput::Kind::kCommand : ShellInput::Kind::kCql;
  return true;  // line[*i] is handled as the piece's first character
}

bool InputSplitter::StepInQuote(const std::string& line, size_t* i, char quote) {
  const char c = line[*i];
  current_.text += c;
  ++*i;
  if (c != quote) return true;
  if (*i < line.size() && line[*i] == quote) {  // a doubled quote stands for itself
    current_.text += quote;
    ++*i;
  } else {
    state_ = State::kNormal;
  }
  return true;
}

void InputSplitter::StepInDollarQuote(const std::string& line, size_t* i) {
  if (line[*i] == '$' && *i + 1 < line.size() && line[*i + 1] == '$') {
    current_.text += "$$";
    *i += 2;
    state_ = State::kNormal;
    return;
  }
  current_.text += line[*i];
  ++*i;
}

void InputSplitter::StepInBlockComment(const std::string& line, size_t* i) {
  if (line[*i] == '*' && *i + 1 < line.size() && line[*i + 1] == '/') {
    if (started_) current_.text += "*/";
    *i += 2;
    state_ = State::kNormal;
    return;
  }
  if (started_) current_.text += line[*i];
  ++*i;
}

void InputSplitter::Emit(std::vector<ShellInput>* pieces) {
  TrimTrailingBlanks(&current_.text);
  pieces->push_back(std::move(current_));
  current_ = ShellInput();
  started_ = false;
  state_ = State::kNormal;
}

}  // namespace columnar
