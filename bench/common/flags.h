#pragma once
// Command-line parsing shared by the benchmark programs that take flags through CLI11.

#include <cstdlib>

#include "CLI/CLI.hpp"

namespace waymesh::bench {

// Exit code for a bad command line (as the waymesh tools use it).
inline constexpr int kExitUsage = 2;

// Parses the command line into `app`'s options. --help prints the usage and exits 0; a bad or
// out-of-range value, a missing value or an unknown flag prints CLI11's message naming the
// flag and exits kExitUsage.
inline void ParseFlagsOrExit(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    std::exit(app.exit(e));
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    std::exit(kExitUsage);
  }
}

}  // namespace waymesh::bench
