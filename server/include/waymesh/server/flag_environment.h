#pragma once
// Glue between abseil flags and how operators spell them: flags are documented and accepted
// with dashes (--maps-dir) as well as abseil's underscores (--maps_dir), every flag can be set
// from the environment as WAYMESH_<NAME> (WAYMESH_MAPS_DIR), and --help lists exactly the
// program's own flags with their environment names. Precedence: command line > environment >
// default.

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace waymesh::server {

// Prefix of every environment override.
inline constexpr absl::string_view kEnvPrefix = "WAYMESH_";

// "maps_dir" -> "WAYMESH_MAPS_DIR".
std::string EnvironmentName(absl::string_view flag);

// argv with every "--some-flag[=v]" / "-some-flag[=v]" name spelled "--some_flag[=v]" (values
// and everything after a bare "--" are kept as they are).
std::vector<std::string> NormalizeFlagArgs(int argc, char** argv);

// Sets each flag in `flags` (abseil names, underscores) whose WAYMESH_<NAME> variable is set,
// through abseil's own parser. `getenv` is injectable for tests. InvalidArgument naming the
// variable when a value does not parse; Internal when a name is not a registered flag.
absl::Status ApplyEnvironmentOverrides(
    std::span<const absl::string_view> flags,
    const std::function<const char*(const char*)>& getenv = nullptr);

// Checks the flags of `args` (as NormalizeFlagArgs returns them) before abseil parses them,
// because abseil's parser exits with code 1 on an unknown flag or a value that does not parse,
// where waymesh-server promises 2 for bad flags. InvalidArgument naming the flag and the
// problem; abseil's own flags (--help, --flagfile, ...) are left to it.
absl::Status CheckFlagArgs(const std::vector<std::string>& args);

// Usage text: `summary`, then each flag as --dashed-name, its environment variable, default
// and help text.
std::string FlagsHelp(absl::string_view summary, std::span<const absl::string_view> flags);

// True when the arguments ask for help (--help, -h, --helpshort; not --helpfull).
bool WantsHelp(int argc, char** argv);

}  // namespace waymesh::server
