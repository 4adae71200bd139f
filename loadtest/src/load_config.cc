#include "waymesh/loadtest/load_config.h"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "waymesh/loadtest/go_duration.h"

namespace waymesh::loadtest {
namespace {

using nlohmann::json;

// Bounds that keep a typo from allocating without limit (each call slot holds a context).
constexpr uint64_t kMaxConcurrency = 100000;
constexpr uint64_t kMaxConnections = 1000;
constexpr uintmax_t kMaxJsonFileBytes = uintmax_t{512} << 20;  // config and data files

const ConfigKey* FindKey(absl::string_view name) {
  for (const ConfigKey& key : ConfigKeys()) {
    if (name == key.name) return &key;
  }
  return nullptr;
}

std::string KnownKeys() {
  std::vector<std::string> names;
  for (const ConfigKey& key : ConfigKeys()) names.push_back(key.name);
  return absl::StrJoin(names, ", ");
}

std::string Resolve(const std::string& base_dir, const std::string& path) {
  if (base_dir.empty() || path.empty() || std::filesystem::path(path).is_absolute()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

// A metadata header name as gRPC accepts it: lower case letters, digits, '-', '_', '.'.
bool ValidHeaderName(absl::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    if (!(absl::ascii_islower(c) || absl::ascii_isdigit(c) || c == '-' || c == '_' || c == '.')) {
      return false;
    }
  }
  return name.front() != ':';
}

bool ValidHeaderValue(absl::string_view value) {
  for (unsigned char c : value) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

absl::Status CheckData(const json& value, absl::string_view where, absl::string_view key) {
  const auto bad = [&](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat(where, ": \"", key, "\"", what));
  };
  if (value.is_object()) return absl::OkStatus();
  if (!value.is_array()) {
    return bad(
        absl::StrCat(": must be a JSON object (one request message) or an array of them, got ",
                     value.type_name()));
  }
  if (value.empty()) return bad(": the array of request messages is empty");
  for (size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_object()) {
      return bad(absl::StrCat("[", i, "]: must be a JSON object (a request message), got ",
                              value[i].type_name()));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckValue(const ConfigKey& key, const json& value, absl::string_view where) {
  const auto bad = [&](absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": \"", key.name, "\": ", what, ", got ", value.dump()));
  };
  switch (key.kind) {
    case KeyKind::kString:
    case KeyKind::kPath:
      if (!value.is_string()) return bad("must be a string");
      if (absl::string_view(key.name) == "load-schedule") {
        absl::StatusOr<ScheduleKind> kind = ParseScheduleKind(value.get<std::string>());
        if (!kind.ok()) return bad("must be const, step or line");
      }
      return absl::OkStatus();
    case KeyKind::kPathList:
      if (!value.is_array()) return bad("must be an array of directory paths");
      for (const json& item : value) {
        if (!item.is_string() || item.get<std::string>().empty()) {
          return bad("must be an array of non-empty strings");
        }
      }
      return absl::OkStatus();
    case KeyKind::kBool:
      if (!value.is_boolean()) return bad("must be true or false");
      return absl::OkStatus();
    case KeyKind::kCount: {
      if (!value.is_number_unsigned() || value.get<uint64_t>() == 0) {
        return bad("must be a positive integer");
      }
      const uint64_t n = value.get<uint64_t>();
      if (absl::string_view(key.name) == "concurrency" && n > kMaxConcurrency) {
        return bad(absl::StrCat("must be at most ", kMaxConcurrency));
      }
      if (absl::string_view(key.name) == "connections" && n > kMaxConnections) {
        return bad(absl::StrCat("must be at most ", kMaxConnections));
      }
      if (n > static_cast<uint64_t>(INT64_MAX)) return bad("is too large");
      return absl::OkStatus();
    }
    case KeyKind::kNumber:
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
        return bad("must be a number >= 0");
      }
      return absl::OkStatus();
    case KeyKind::kSignedNumber:
      if (!value.is_number() || !std::isfinite(value.get<double>())) {
        return bad("must be a number");
      }
      return absl::OkStatus();
    case KeyKind::kDuration: {
      if (!value.is_string()) return bad("must be a duration string such as \"10s\" or \"500ms\"");
      absl::StatusOr<absl::Duration> d = ParseGoDuration(value.get<std::string>());
      if (!d.ok()) return bad(d.status().message());
      if (*d <= absl::ZeroDuration()) return bad("must be longer than zero");
      return absl::OkStatus();
    }
    case KeyKind::kData:
      return CheckData(value, where, key.name);
    case KeyKind::kMetadata:
      if (!value.is_object()) return bad("must be an object of header name -> string value");
      for (const auto& [name, header_value] : value.items()) {
        if (!ValidHeaderName(absl::AsciiStrToLower(name))) {
          return bad(absl::StrCat("header name \"", name,
                                  "\" may hold only letters, digits, '-', '_' and '.'"));
        }
        if (!header_value.is_string()) {
          return bad(absl::StrCat("the value of header \"", name, "\" must be a string"));
        }
        if (!ValidHeaderValue(header_value.get<std::string>())) {
          return bad(
              absl::StrCat("the value of header \"", name, "\" may hold only printable ASCII"));
        }
      }
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

absl::StatusOr<json> ReadJsonFile(const std::string& path, absl::string_view what) {
  // A bound before reading: /dev/zero or a runaway file must be an error, not all of memory.
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(path, error);
  if (!error && std::filesystem::exists(status)) {
    if (!std::filesystem::is_regular_file(status)) {
      return absl::InvalidArgumentError(absl::StrCat(what, " ", path, ": not a regular file"));
    }
    const uintmax_t bytes = std::filesystem::file_size(path, error);
    if (!error && bytes > kMaxJsonFileBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          what, " ", path, ": ", bytes, " bytes, more than the limit of ", kMaxJsonFileBytes));
    }
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot read ", what, " ", path, ": ", std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return json::parse(text.str());
  } catch (const json::parse_error& e) {
    // e.what() gives the byte offset and what was expected there.
    return absl::InvalidArgumentError(absl::StrCat(path, ": not valid JSON: ", e.what()));
  }
}

// Keys that name the same thing two ways: setting one on the command line drops the other from
// the file, so an override replaces rather than conflicts.
const std::vector<std::pair<std::string, std::string>>& Alternatives() {
  static const auto* pairs = new std::vector<std::pair<std::string, std::string>>{
      {"data", "data-file"}, {"proto", "protoset"}};
  return *pairs;
}

// The load-* keys of a step or line schedule, or rps alone for const.
absl::Status ResolveSchedule(const json& merged, LoadConfig* config) {
  LoadSchedule& schedule = config->schedule;
  if (merged.contains("load-schedule")) {
    schedule.kind = *ParseScheduleKind(merged["load-schedule"].get<std::string>());
  }
  schedule.rps = config->rps;
  const auto bad = [](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("\"load-schedule\": ", what));
  };
  static constexpr const char* kLoadKeys[] = {"load-start", "load-end", "load-step",
                                              "load-step-duration", "load-max-duration"};
  if (schedule.kind == ScheduleKind::kConst) {
    for (const char* key : kLoadKeys) {
      if (merged.contains(key)) {
        return bad(
            absl::StrCat("\"", key, "\" needs a step or line schedule (const uses \"rps\")"));
      }
    }
    return absl::OkStatus();
  }
  const std::string kind = ScheduleKindName(schedule.kind);
  if (config->rps > 0) {
    return bad(absl::StrCat(kind,
                            " takes its rates from \"load-start\", \"load-step\" and "
                            "\"load-end\", not \"rps\""));
  }
  if (!merged.contains("load-step") || merged["load-step"].get<double>() == 0) {
    return bad(absl::StrCat(kind, " needs a non-zero \"load-step\""));
  }
  schedule.step = merged["load-step"].get<double>();
  if (merged.contains("load-start")) schedule.start = merged["load-start"].get<double>();
  if (merged.contains("load-end")) schedule.end = merged["load-end"].get<double>();
  if (merged.contains("load-max-duration")) {
    schedule.max_duration = *ParseGoDuration(merged["load-max-duration"].get<std::string>());
  }
  if (schedule.kind == ScheduleKind::kStep) {
    if (!merged.contains("load-step-duration")) {
      return bad("step needs \"load-step-duration\" (how long each step lasts)");
    }
    schedule.step_duration = *ParseGoDuration(merged["load-step-duration"].get<std::string>());
  } else if (merged.contains("load-step-duration")) {
    return bad("\"load-step-duration\" is for step schedules (line's load-step is per second)");
  }
  if (schedule.start <= 0 && (schedule.step < 0 || (schedule.end && *schedule.end <= 0))) {
    return bad("this schedule never starts a call (its rate stays at zero)");
  }
  return absl::OkStatus();
}

}  // namespace

const std::vector<ConfigKey>& ConfigKeys() {
  static const auto* keys = new std::vector<ConfigKey>{
      {"name", KeyKind::kString},
      {"proto", KeyKind::kPath},
      {"protoset", KeyKind::kPath},
      {"import-paths", KeyKind::kPathList},
      {"call", KeyKind::kString},
      {"host", KeyKind::kString},
      {"insecure", KeyKind::kBool},
      {"cacert", KeyKind::kPath},
      {"cert", KeyKind::kPath},
      {"key", KeyKind::kPath},
      {"cname", KeyKind::kString},
      {"total", KeyKind::kCount},
      {"duration", KeyKind::kDuration},
      {"concurrency", KeyKind::kCount},
      {"connections", KeyKind::kCount},
      {"rps", KeyKind::kNumber},
      {"timeout", KeyKind::kDuration},
      {"connect-timeout", KeyKind::kDuration},
      {"data", KeyKind::kData},
      {"data-file", KeyKind::kPath},
      {"metadata", KeyKind::kMetadata},
      // ghz's names, spelled as ghz spells them.
      {"skipTLS", KeyKind::kBool},
      {"cpus", KeyKind::kCount},
      {"load-schedule", KeyKind::kString},
      {"load-start", KeyKind::kNumber},
      {"load-end", KeyKind::kNumber},
      {"load-step", KeyKind::kSignedNumber},
      {"load-step-duration", KeyKind::kDuration},
      {"load-max-duration", KeyKind::kDuration},
  };
  return *keys;
}

absl::StatusOr<json> CheckConfigObject(const json& object, absl::string_view where,
                                       const std::string& base_dir) {
  if (!object.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": must be a JSON object of settings, got ", object.type_name()));
  }
  json checked = json::object();
  for (const auto& [name, value] : object.items()) {
    const ConfigKey* key = FindKey(name);
    if (key == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": unknown key \"", name, "\" (known: ", KnownKeys(), ")"));
    }
    if (absl::Status s = CheckValue(*key, value, where); !s.ok()) return s;
    json& out = checked[name] = value;
    if (key->kind == KeyKind::kPath) {
      out = Resolve(base_dir, value.get<std::string>());
    } else if (key->kind == KeyKind::kPathList) {
      for (json& item : out) item = Resolve(base_dir, item.get<std::string>());
    }
  }
  for (const auto& [a, b] : Alternatives()) {
    if (checked.contains(a) && checked.contains(b)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": set either \"", a, "\" or \"", b, "\", not both"));
    }
  }
  return checked;
}

absl::StatusOr<LoadConfig> ResolveConfig(const std::string& config_path, const json& overrides) {
  json merged = json::object();
  if (!config_path.empty()) {
    absl::StatusOr<json> file = ReadJsonFile(config_path, "config file");
    if (!file.ok()) return file.status();
    const std::string dir = std::filesystem::path(config_path).parent_path().string();
    absl::StatusOr<json> checked = CheckConfigObject(*file, config_path, dir.empty() ? "." : dir);
    if (!checked.ok()) return checked.status();
    merged = *std::move(checked);
  }
  for (const auto& [name, value] : overrides.items()) {
    for (const auto& [a, b] : Alternatives()) {
      if (name == a) merged.erase(b);
      if (name == b) merged.erase(a);
    }
    merged[name] = value;
  }

  LoadConfig config;
  const auto str = [&](const char* key, std::string* out) {
    if (merged.contains(key)) *out = merged[key].get<std::string>();
  };
  const auto duration = [&](const char* key, absl::Duration* out) {
    if (merged.contains(key)) *out = *ParseGoDuration(merged[key].get<std::string>());
  };
  str("name", &config.name);
  str("proto", &config.proto);
  str("protoset", &config.protoset);
  if (merged.contains("import-paths")) {
    config.import_paths = merged["import-paths"].get<std::vector<std::string>>();
  }
  str("call", &config.call);
  str("host", &config.host);
  if (merged.contains("insecure")) config.insecure = merged["insecure"].get<bool>();
  str("cacert", &config.cacert);
  str("cert", &config.cert);
  str("key", &config.key);
  str("cname", &config.cname);
  if (merged.contains("total")) config.total = merged["total"].get<uint64_t>();
  duration("duration", &config.duration);
  if (merged.contains("concurrency")) config.concurrency = merged["concurrency"].get<uint32_t>();
  if (merged.contains("connections")) config.connections = merged["connections"].get<uint32_t>();
  if (merged.contains("rps")) config.rps = merged["rps"].get<double>();
  if (merged.contains("skipTLS")) config.skip_tls = merged["skipTLS"].get<bool>();
  if (merged.contains("cpus")) config.cpus = merged["cpus"].get<uint32_t>();
  if (absl::Status s = ResolveSchedule(merged, &config); !s.ok()) return s;
  duration("timeout", &config.timeout);
  duration("connect-timeout", &config.connect_timeout);
  if (merged.contains("data")) config.data = merged["data"];
  str("data-file", &config.data_file);
  if (merged.contains("metadata")) {
    for (const auto& [name, value] : merged["metadata"].items()) {
      config.metadata.emplace_back(absl::AsciiStrToLower(name), value.get<std::string>());
    }
  }

  const auto missing = [](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("missing ", what));
  };
  if (config.call.empty()) {
    return missing("\"call\" (the method to load, e.g. \"waymesh.v1.NavigationService.FindPath\")");
  }
  if (config.proto.empty() && config.protoset.empty()) {
    return missing("\"proto\" (a .proto file) or \"protoset\" (a FileDescriptorSet)");
  }
  if (config.host.empty()) return missing("\"host\" (HOST:PORT of the server)");
  if (config.connections > config.concurrency) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"connections\" (", config.connections, ") must not exceed \"concurrency\" (",
                     config.concurrency, "): each connection needs at least one call in flight"));
  }
  if (config.insecure && config.skip_tls) {
    return absl::InvalidArgumentError(
        "\"insecure\" (plaintext) and \"skipTLS\" (TLS without checking the server's "
        "certificate) exclude each other");
  }
  if (config.cert.empty() != config.key.empty()) {
    return absl::InvalidArgumentError("\"cert\" and \"key\" go together (client certificate)");
  }
  if (!config.data_file.empty()) {
    absl::StatusOr<json> data = ReadJsonFile(config.data_file, "data file");
    if (!data.ok()) return data.status();
    if (absl::Status s = CheckData(*data, config.data_file, "data"); !s.ok()) return s;
    config.data = *std::move(data);
  }
  if (config.total == 0 && config.duration == absl::ZeroDuration()) config.total = kDefaultTotal;
  return config;
}

json ConfigToJson(const LoadConfig& config) {
  json out = json::object();
  const auto opt = [&](const char* key, const std::string& value) {
    if (!value.empty()) out[key] = value;
  };
  opt("name", config.name);
  opt("proto", config.proto);
  opt("protoset", config.protoset);
  out["import-paths"] = config.import_paths;
  out["call"] = config.call;
  out["host"] = config.host;
  out["insecure"] = config.insecure;
  opt("cacert", config.cacert);
  opt("cert", config.cert);
  opt("key", config.key);
  opt("cname", config.cname);
  if (config.total > 0) out["total"] = config.total;
  if (config.duration > absl::ZeroDuration()) out["duration"] = FormatGoDuration(config.duration);
  out["concurrency"] = config.concurrency;
  out["connections"] = config.connections;
  out["rps"] = config.rps;
  if (config.skip_tls) out["skipTLS"] = true;
  if (config.cpus > 0) out["cpus"] = config.cpus;
  const LoadSchedule& schedule = config.schedule;
  if (schedule.kind != ScheduleKind::kConst) {
    out["load-schedule"] = ScheduleKindName(schedule.kind);
    out["load-start"] = schedule.start;
    out["load-step"] = schedule.step;
    if (schedule.end) out["load-end"] = *schedule.end;
    if (schedule.kind == ScheduleKind::kStep) {
      out["load-step-duration"] = FormatGoDuration(schedule.step_duration);
    }
    if (schedule.max_duration > absl::ZeroDuration()) {
      out["load-max-duration"] = FormatGoDuration(schedule.max_duration);
    }
  }
  out["timeout"] = FormatGoDuration(config.timeout);
  out["connect-timeout"] = FormatGoDuration(config.connect_timeout);
  opt("data-file", config.data_file);
  out["data"] = config.data.is_null() ? json::object() : config.data;
  json metadata = json::object();
  // Reports get shared; a bearer token in them would leak the credential.
  for (const auto& [name, value] : config.metadata) {
    metadata[name] = name == "authorization" ? "REDACTED" : value;
  }
  out["metadata"] = metadata;
  return out;
}

}  // namespace waymesh::loadtest
