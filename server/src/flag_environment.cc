#include "waymesh/server/flag_environment.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace waymesh::server {
namespace {

std::string Dashed(absl::string_view flag) { return absl::StrReplaceAll(flag, {{"_", "-"}}); }

}  // namespace

std::string EnvironmentName(absl::string_view flag) {
  return absl::StrCat(kEnvPrefix, absl::AsciiStrToUpper(flag));
}

std::vector<std::string> NormalizeFlagArgs(int argc, char** argv) {
  std::vector<std::string> out;
  out.reserve(argc);
  bool flags_done = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (i == 0 || flags_done || arg.size() < 2 || arg[0] != '-') {
      out.push_back(std::move(arg));
      continue;
    }
    if (arg == "--") {
      flags_done = true;
      out.push_back(std::move(arg));
      continue;
    }
    const size_t name_begin = arg[1] == '-' ? 2 : 1;
    const size_t name_end = std::min(arg.find('='), arg.size());
    for (size_t k = name_begin; k < name_end; ++k) {
      if (arg[k] == '-') arg[k] = '_';
    }
    out.push_back(std::move(arg));
  }
  return out;
}

absl::Status ApplyEnvironmentOverrides(std::span<const absl::string_view> flags,
                                       const std::function<const char*(const char*)>& getenv) {
  for (absl::string_view name : flags) {
    const std::string var = EnvironmentName(name);
    const char* value = getenv ? getenv(var.c_str()) : std::getenv(var.c_str());
    if (value == nullptr) continue;
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr) return absl::InternalError(absl::StrCat("no flag named ", name));
    std::string error;
    if (!flag->ParseFrom(value, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("environment variable ", var, "='", value, "': ", error));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFlagArgs(const std::vector<std::string>& args) {
  // Flags abseil defines and handles itself.
  static constexpr absl::string_view kAbseilFlags[] = {
      "help",    "helpfull",   "helpshort", "helppackage", "version",
      "flagfile", "fromenv", "tryfromenv", "undefok",     "only_check_args"};
  for (size_t i = 1; i < args.size(); ++i) {
    const absl::string_view arg = args[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;  // a positional argument
    absl::string_view name = arg.substr(arg[1] == '-' ? 2 : 1);
    std::optional<absl::string_view> value;
    if (const size_t eq = name.find('='); eq != absl::string_view::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (std::find(std::begin(kAbseilFlags), std::end(kAbseilFlags), name) !=
        std::end(kAbseilFlags)) {
      continue;
    }
    absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr && absl::StartsWith(name, "no") && !value) {  // --noflag for booleans
      const absl::CommandLineFlag* negated = absl::FindCommandLineFlag(name.substr(2));
      if (negated != nullptr && negated->IsOfType<bool>()) continue;
    }
    if (flag == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", Dashed(name)));
    }
    if (!value) {
      if (flag->IsOfType<bool>()) continue;
      if (i + 1 == args.size()) {
        return absl::InvalidArgumentError(absl::StrCat("--", Dashed(name), " needs a value"));
      }
      value = args[++i];
    }
    std::string error;
    if (!flag->ParseFrom(*value, &error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--", Dashed(name), "='", *value, "': ", error));
    }
  }
  return absl::OkStatus();
}

std::string FlagsHelp(absl::string_view summary, std::span<const absl::string_view> flags) {
  std::string out = absl::StrCat(summary,
                                 "\n\nFlags (each also settable as an environment "
                                 "variable; the command line wins):\n");
  for (absl::string_view name : flags) {
    const absl::CommandLineFlag* flag = absl::FindCommandLineFlag(name);
    if (flag == nullptr) continue;
    std::string def = flag->DefaultValue();
    if (def.empty()) def = "\"\"";
    absl::StrAppend(&out, "  --", Dashed(name), "  (env ", EnvironmentName(name), ", default ", def,
                    ")\n      ", flag->Help(), "\n");
  }
  return out;
}

bool WantsHelp(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (arg == "--") return false;
    if (arg == "--help" || arg == "-h" || arg == "-help" || arg == "--helpshort") return true;
  }
  return false;
}

}  // namespace waymesh::server
