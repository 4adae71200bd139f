#pragma once
// Runs the `waymesh` binary as a user would and captures its exit code and output.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace waymesh::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;  // stdout and stderr, interleaved
};

// Runs `waymesh <args>` through the shell (args are pasted verbatim: quote paths yourself).
CliResult RunCli(const std::string& args);

// The document `waymesh inspect --json MAP` prints; when inspect fails, the test fails and the
// document is null.
nlohmann::json InspectJson(const std::string& map);

// The lines of a text file the CLI wrote (results.csv, trajectories.csv); none when unreadable.
std::vector<std::string> FileLines(const std::string& path);

// A fresh empty directory for one test's files.
std::string TempDir(const std::string& name);

}  // namespace waymesh::testing
