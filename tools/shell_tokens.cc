#include "tools/shell_tokens.h"

#include <string>

namespace columnar {

Status TokenizeShellInput(const ShellInput& input, std::vector<Token>* tokens) {
  Status s = TokenizeCql(input.text, tokens);
  if (!s.ok()) {
    // Rare: lex again behind padding that puts the text where it is in its source, so the
    // lexer's own message names the source position.
    const std::string padded =
        std::string(input.line - 1, '\n') + std::string(input.column - 1, ' ') + input.text;
    std::vector<Token> ignored;
    const Status positioned = TokenizeCql(padded, &ignored);
    return positioned.ok() ? s : positioned;
  }
  for (Token& token : *tokens) {
    if (token.line == 1) token.column += input.column - 1;
    token.line += input.line - 1;
  }
  return Status::OK();
}

}  // namespace columnar
