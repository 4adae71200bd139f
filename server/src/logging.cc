#include "waymesh/server/logging.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "google/protobuf/stubs/logging.h"
#include "grpc/support/log.h"
#include "nlohmann/json.hpp"
#include "spdlog/sinks/stdout_sinks.h"
#include "spdlog/spdlog.h"

namespace waymesh::server {
namespace {

class JsonLogFormatter final : public spdlog::formatter {
 public:
  void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override {
    nlohmann::json line;
    line["time"] =
        absl::FormatTime("%Y-%m-%dT%H:%M:%E3SZ", absl::FromChrono(msg.time), absl::UTCTimeZone());
    const auto level = spdlog::level::to_string_view(msg.level);
    line["level"] = std::string(level.data(), level.size());
    line["logger"] = std::string(msg.logger_name.data(), msg.logger_name.size());
    line["thread"] = msg.thread_id;
    line["msg"] = std::string(msg.payload.data(), msg.payload.size());
    // `replace` instead of throwing on invalid UTF-8 in a message (e.g. a bad file name).
    const std::string text = line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    dest.append(text.data(), text.data() + text.size());
    dest.push_back('\n');
  }
  std::unique_ptr<spdlog::formatter> clone() const override {
    return std::make_unique<JsonLogFormatter>();
  }
};

// libprotobuf's own log lines (e.g. a request string that is not UTF-8) through spdlog, so they
// take the configured format instead of plain text on stderr.
void ProtobufLogLine(google::protobuf::LogLevel level, const char* file, int line,
                     const std::string& message) {
  spdlog::level::level_enum to = spdlog::level::warn;
  switch (level) {
    case google::protobuf::LOGLEVEL_INFO:
      to = spdlog::level::debug;
      break;
    case google::protobuf::LOGLEVEL_WARNING:
    case google::protobuf::LOGLEVEL_ERROR:
      // Errors libprotobuf logs come from parsing what clients sent: the call is answered
      // INVALID_ARGUMENT and counted, so the line is a warning, not a server error.
      to = spdlog::level::warn;
      break;
    case google::protobuf::LOGLEVEL_FATAL:
      to = spdlog::level::critical;
      break;
  }
  spdlog::log(to, "protobuf {}:{}: {}", file, line, message);
}

// gRPC core's log lines likewise.
void GrpcLogLine(gpr_log_func_args* args) {
  spdlog::level::level_enum to = spdlog::level::debug;
  if (args->severity == GPR_LOG_SEVERITY_ERROR) to = spdlog::level::err;
  if (args->severity == GPR_LOG_SEVERITY_INFO) to = spdlog::level::info;
  spdlog::log(to, "grpc {}:{}: {}", args->file, args->line, args->message);
}

}  // namespace

std::unique_ptr<spdlog::formatter> MakeJsonLogFormatter() {
  return std::make_unique<JsonLogFormatter>();
}

absl::Status ConfigureLogging(absl::string_view format, absl::string_view level) {
  const spdlog::level::level_enum parsed = spdlog::level::from_str(std::string(level));
  // from_str answers `off` for anything it does not know.
  if (parsed == spdlog::level::off && level != "off") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--log-level: '", level, "' is not trace, debug, info, warn, error, critical or off"));
  }
  auto logger = std::make_shared<spdlog::logger>("waymesh",
                                                 std::make_shared<spdlog::sinks::stderr_sink_mt>());
  if (format == "json") {
    logger->set_formatter(MakeJsonLogFormatter());
  } else if (format == "text") {
    logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %^%l%$ [%n] %v");
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("--log-format: '", format, "' is not text or json"));
  }
  logger->set_level(parsed);
  logger->flush_on(spdlog::level::warn);
  spdlog::set_default_logger(std::move(logger));
  google::protobuf::SetLogHandler(&ProtobufLogLine);
  gpr_set_log_function(&GrpcLogLine);
  return absl::OkStatus();
}

}  // namespace waymesh::server
