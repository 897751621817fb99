// Tokens of one piece of shell input, positioned in its source: errors of the lexer, the
// parsers and the statement binding then name the line and column of the whole script or
// file, not of the statement alone.
#pragma once

#include <vector>

#include "table_format/cql_lexer.h"
#include "tools/shell_input_splitter.h"

namespace columnar {

// Tokenizes input.text as if it started at input.line and input.column of its source.
// InvalidArgument (with the source position) when the text does not lex.
Status TokenizeShellInput(const ShellInput& input, std::vector<Token>* tokens);

}  // namespace columnar
