#pragma once
// The settings of one load run, read from a ghz JSON config file with command-line overrides.
// Keys keep ghz's names ("import-paths", "data-file", ...) so ghz configs run unchanged.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "waymesh/loadtest/load_schedule.h"

namespace waymesh::loadtest {

// Calls when the config sets neither "total" nor "duration" (ghz's default), so a run always ends.
inline constexpr uint64_t kDefaultTotal = 200;

struct LoadConfig {
  std::string name;      // free text copied into the report
  std::string proto;     // .proto file parsed at run time
  std::string protoset;  // binary FileDescriptorSet (protoc --descriptor_set_out --include_imports)
  std::vector<std::string> import_paths;
  std::string call;       // "package.Service.Method" (or "package.Service/Method")
  std::string host;       // "HOST:PORT"
  bool insecure = false;  // plaintext; otherwise TLS with cacert (or the system roots)
  bool skip_tls = false;  // TLS without checking the server's certificate (ghz's skipTLS)
  std::string cacert, cert, key, cname;
  uint64_t total = 0;                              // calls to make; 0 = no count limit
  absl::Duration duration = absl::ZeroDuration();  // run time; zero = no time limit
  uint32_t concurrency = 50;                       // calls in flight, over all connections
  uint32_t connections = 1;                        // separate channels (TCP connections)
  double rps = 0;                                  // overall start rate; 0 = as fast as possible
  LoadSchedule schedule;  // the start rate over time (const = rps; step, line: load-* keys)
  uint32_t cpus = 0;      // cores the generator may run on; 0 = all it was given
  absl::Duration timeout = absl::Seconds(20);          // each call's deadline
  absl::Duration connect_timeout = absl::Seconds(10);  // to open each connection before the run
  nlohmann::json data;    // null, one message or an array of messages (protobuf JSON)
  std::string data_file;  // where `data` came from, if from a file
  std::vector<std::pair<std::string, std::string>> metadata;  // header (lower case) -> value
};

// Checks one JSON object of config keys (a config file's, or the command line's overrides) and
// returns it with its relative paths made relative to `base_dir` (empty: left as they are).
// `where` names the source in error messages ("town.json", "command line").
absl::StatusOr<nlohmann::json> CheckConfigObject(const nlohmann::json& object,
                                                 absl::string_view where,
                                                 const std::string& base_dir);

// The effective config: the file at `config_path` (may be empty: no file) overlaid with
// `overrides` (already checked), the data file loaded, defaults applied, and cross-key rules
// checked (a call, a descriptor source, connections <= concurrency, ...).
absl::StatusOr<LoadConfig> ResolveConfig(const std::string& config_path,
                                         const nlohmann::json& overrides);

// The effective config in ghz's key names (the report's "options").
nlohmann::json ConfigToJson(const LoadConfig& config);

// The config keys this program reads, with the JSON kind each takes.
enum class KeyKind {
  kString,
  kPath,
  kPathList,
  kBool,
  kCount,
  kNumber,
  kSignedNumber,
  kDuration,
  kData,
  kMetadata
};
struct ConfigKey {
  const char* name;
  KeyKind kind;
};
const std::vector<ConfigKey>& ConfigKeys();

}  // namespace waymesh::loadtest
