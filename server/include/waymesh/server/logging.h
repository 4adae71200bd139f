#pragma once
// Process-wide logging for waymesh-server: spdlog to stderr, as human-readable text or as JSON
// lines (one object per line: time, level, logger, thread, msg) for log collectors.

#include <memory>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "spdlog/formatter.h"

namespace waymesh::server {

// Makes spdlog's default logger write to stderr in `format` ("text" or "json") at `level`
// (spdlog level names: trace, debug, info, warn, error, critical, off), and routes libprotobuf's
// and gRPC core's log lines through it. InvalidArgument naming the bad value.
absl::Status ConfigureLogging(absl::string_view format, absl::string_view level);

// The JSON-lines formatter (strings escaped, invalid UTF-8 replaced, never throws).
std::unique_ptr<spdlog::formatter> MakeJsonLogFormatter();

}  // namespace waymesh::server
