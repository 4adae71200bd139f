#include "waymesh/loadtest/command_line.h"

#include <map>
#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "waymesh/loadtest/load_config.h"

namespace waymesh::loadtest {
namespace {

using nlohmann::json;

// ghz's one-letter flags.
const std::map<std::string, std::string>& ShortNames() {
  static const auto* names = new std::map<std::string, std::string>{
      {"n", "total"},  {"c", "concurrency"}, {"z", "duration"}, {"t", "timeout"},
      {"d", "data"},   {"D", "data-file"},   {"m", "metadata"}, {"i", "import-paths"},
      {"O", "format"}, {"o", "output"},      {"r", "rps"},      {"h", "help"}};
  return *names;
}

const ConfigKey* FindKey(const std::string& name) {
  for (const ConfigKey& key : ConfigKeys()) {
    if (name == key.name) return &key;
  }
  return nullptr;
}

bool IsBoolFlag(const std::string& name) {
  const ConfigKey* key = FindKey(name);
  return name == "allow-remote" || name == "help" || (key && key->kind == KeyKind::kBool);
}

absl::StatusOr<bool> ParseBool(const std::string& flag, const std::string& text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return absl::InvalidArgumentError(
      absl::StrCat(flag, ": expected true or false, got \"", text, "\""));
}

// A flag's text as the JSON value its config key takes; CheckConfigObject then checks it.
absl::StatusOr<json> FlagValue(const std::string& flag, const ConfigKey& key,
                               const std::string& text) {
  switch (key.kind) {
    case KeyKind::kBool: {
      absl::StatusOr<bool> b = ParseBool(flag, text);
      if (!b.ok()) return b.status();
      return json(*b);
    }
    case KeyKind::kCount: {
      uint64_t n;
      if (!absl::SimpleAtoi(text, &n) ||
          text.find_first_not_of("0123456789") != std::string::npos) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, ": expected a positive integer, got \"", text, "\""));
      }
      return json(n);
    }
    case KeyKind::kNumber:
    case KeyKind::kSignedNumber: {
      double x;
      if (!absl::SimpleAtod(text, &x)) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, ": expected a number, got \"", text, "\""));
      }
      return json(x);
    }
    case KeyKind::kPathList: {
      json list = json::array();
      for (absl::string_view part : absl::StrSplit(text, ',', absl::SkipEmpty())) {
        list.push_back(std::string(part));
      }
      return list;
    }
    case KeyKind::kData:
    case KeyKind::kMetadata: {
      json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (parsed.is_discarded()) {
        return absl::InvalidArgumentError(
            absl::StrCat(flag, ": not valid JSON: ", text.substr(0, 200)));
      }
      return parsed;
    }
    case KeyKind::kString:
    case KeyKind::kPath:
    case KeyKind::kDuration:
      return json(text);
  }
  return json(text);
}

}  // namespace

absl::StatusOr<ReportFormat> ParseReportFormat(absl::string_view name) {
  if (name == "summary") return ReportFormat::kSummary;
  if (name == "json") return ReportFormat::kJson;
  if (name == "csv") return ReportFormat::kCsv;
  if (name == "html") return ReportFormat::kHtml;
  return absl::InvalidArgumentError(
      absl::StrCat("--format: expected summary, json, csv or html, got \"", name, "\""));
}

absl::StatusOr<CommandLine> ParseCommandLine(const std::vector<std::string>& args) {
  CommandLine out;
  json overrides = json::object();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {
      // ghz takes the host as its one positional argument.
      if (overrides.contains("host")) {
        return absl::InvalidArgumentError(absl::StrCat("unexpected argument \"", arg, "\""));
      }
      overrides["host"] = arg;
      continue;
    }
    absl::string_view body = arg;
    if (!absl::ConsumePrefix(&body, "--")) absl::ConsumePrefix(&body, "-");
    std::string name(body.substr(0, body.find('=')));
    std::optional<std::string> value;
    if (body.find('=') != absl::string_view::npos)
      value = std::string(body.substr(body.find('=') + 1));
    if (auto it = ShortNames().find(name); it != ShortNames().end()) name = it->second;
    const std::string flag = "--" + name;
    const ConfigKey* key = FindKey(name);
    const bool known = key != nullptr || name == "config" || name == "format" || name == "output" ||
                       name == "allow-remote" || name == "help";
    if (!known) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag \"", arg, "\" (see --help)"));
    }
    if (!value.has_value()) {
      if (IsBoolFlag(name)) {
        value = "true";
      } else if (i + 1 < args.size()) {
        value = args[++i];
      } else {
        return absl::InvalidArgumentError(absl::StrCat(flag, ": needs a value"));
      }
    }
    if (name == "config") {
      out.config_path = *value;
    } else if (name == "format") {
      absl::StatusOr<ReportFormat> format = ParseReportFormat(*value);
      if (!format.ok()) return format.status();
      out.format = *format;
    } else if (name == "output") {
      out.output_path = *value;
    } else if (name == "allow-remote" || name == "help") {
      absl::StatusOr<bool> b = ParseBool(flag, *value);
      if (!b.ok()) return b.status();
      (name == "help" ? out.help : out.allow_remote) = *b;
    } else {
      absl::StatusOr<json> v = FlagValue(flag, *key, *value);
      if (!v.ok()) return v.status();
      overrides[name] = *std::move(v);
    }
  }
  absl::StatusOr<json> checked = CheckConfigObject(overrides, "command line", "");
  if (!checked.ok()) return checked.status();
  out.overrides = *std::move(checked);
  return out;
}

std::string UsageText() {
  return R"(waymesh-load: a ghz-compatible gRPC load generator (unary calls, loopback only).

  waymesh-load --config FILE [flags]
  waymesh-load --proto FILE --call pkg.Service.Method [flags] HOST:PORT

Every config key is also a flag and overrides the config file:
  --config FILE          ghz JSON config; relative paths in it are relative to its directory
  --proto FILE           .proto file, parsed at run time (imports: --import-paths, its own
                         directory, /usr/share/grpc-proto, /usr/include)
  --protoset FILE        binary FileDescriptorSet (protoc --descriptor_set_out --include_imports)
  -i, --import-paths A,B extra import directories for --proto
  --call NAME            method, e.g. waymesh.v1.NavigationService.FindPath
  --host HOST:PORT       server (also the positional argument); loopback only
  --insecure             plaintext (otherwise TLS: --cacert, --cert, --key, --cname)
  --skipTLS              TLS without checking the server's certificate
  -n, --total N          calls to make (default 200 when no --duration)
  -z, --duration D       stop starting calls after D (Go duration: 10s, 500ms, 1m)
  -c, --concurrency N    calls in flight in total (default 50)
  --connections N        separate connections the calls are spread over (default 1)
  -r, --rps R            start at most R calls per second overall (default 0: no pacing)
  --load-schedule S      const (default: --rps), step or line:
    --load-start R         rate at the start (calls/s)
    --load-step R          step: added every --load-step-duration; line: added per second
    --load-step-duration D step: length of each step
    --load-end R           the rate stops changing here
    --load-max-duration D  ... or after this long
  --cpus N               run on N of the cores this process may use (default: all)
  -t, --timeout D        each call's deadline (default 20s)
  --connect-timeout D    to open each connection before the run (default 10s)
  -d, --data JSON        request message, or array of messages sent round-robin
  -D, --data-file FILE   JSON file holding the same
  -m, --metadata JSON    request headers, e.g. '{"authorization":"Bearer x"}'
  --name TEXT            name copied into the report
Output:
  -O, --format F         summary (default), json (ghz's JSON report), csv (one line per
                         call: duration (ms),status,error) or html (a self-contained page)
  -o, --output FILE      write the report to FILE instead of standard output
  --allow-remote         allow a host that is not loopback (127.0.0.0/8, localhost, [::1])
  -h, --help             this text
Exit code: 0 after a run (whatever the calls returned), 1 when the run could not start
(no connection within --connect-timeout, unwritable output), 2 for a bad config or arguments.
)";
}

}  // namespace waymesh::loadtest
