// The text of the shell's HELP command: its commands and the CQL subset it runs.
#pragma once

namespace columnar {

const char* ShellHelpText();

}  // namespace columnar
