#pragma once
// Quoting for the command lines tests paste together for the shell.

#include <string>

namespace waymesh::testing {

// `text` as one single-quoted shell word. Test paths (temp dirs, ../shared/data) contain no
// single quote, so no escaping is needed.
inline std::string ShellQuote(const std::string& text) { return "'" + text + "'"; }

}  // namespace waymesh::testing
