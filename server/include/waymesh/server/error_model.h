#pragma once
// The service's error model (AIP-193). Inside the server every failure is an absl::Status; the
// machine-readable parts ride on it as payloads keyed by their google.rpc type URL (an
// ErrorInfo reason, BadRequest field violations, a RetryInfo delay), so the code that knows
// why a call fails says so where it fails, and the edge turns the status into a gRPC status
// (or a batch item's google.rpc.Status) once. A status without an ErrorInfo gets the default
// reason of its code, so every error a client sees has one.

#include <chrono>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"

namespace waymesh::server {

// ErrorInfo.domain of every Waymesh error.
inline constexpr absl::string_view kErrorDomain = "waymesh.dev";

// ErrorInfo.reason values (stable: clients branch on them; docs/api.md lists them).
namespace reason {
inline constexpr absl::string_view kInvalidField = "INVALID_FIELD";
inline constexpr absl::string_view kMalformedRequest = "MALFORMED_REQUEST";
inline constexpr absl::string_view kMapNotFound = "MAP_NOT_FOUND";
inline constexpr absl::string_view kAgentTypeNotFound = "AGENT_TYPE_NOT_FOUND";
inline constexpr absl::string_view kUnknownPolygonRef = "UNKNOWN_POLYGON_REF";
inline constexpr absl::string_view kStalePolygonRef = "STALE_POLYGON_REF";
// An exact path was asked for under a filter it cannot serve (non-uniform area costs: the
// weighted-region problem; allowed off-mesh links).
inline constexpr absl::string_view kExactModeUnsupported = "EXACT_MODE_UNSUPPORTED";
inline constexpr absl::string_view kOverloaded = "OVERLOADED";
inline constexpr absl::string_view kResponseTooLarge = "RESPONSE_TOO_LARGE";
inline constexpr absl::string_view kDraining = "DRAINING";
inline constexpr absl::string_view kTileUnavailable = "TILE_UNAVAILABLE";
inline constexpr absl::string_view kDeadlineExceeded = "DEADLINE_EXCEEDED";
inline constexpr absl::string_view kCancelled = "CANCELLED";
inline constexpr absl::string_view kUnauthenticated = "UNAUTHENTICATED";
inline constexpr absl::string_view kInternal = "INTERNAL";
}  // namespace reason

// How long an overloaded server asks clients to wait before retrying (RetryInfo and the
// grpc-retry-pushback-ms trailer gRPC's retry policy honours): about one queue drain.
inline constexpr std::chrono::milliseconds kOverloadRetryDelay{100};
// A draining server: retry at once, the channel picks another replica.
inline constexpr std::chrono::milliseconds kDrainingRetryDelay{0};

// INVALID_ARGUMENT naming one wrong field (a path into the request: "requests[3].start.x").
absl::Status FieldViolation(absl::string_view field, absl::string_view description);
// `status` with its ErrorInfo reason (and one metadata entry when `key` is not empty).
absl::Status WithReason(absl::Status status, absl::string_view reason, absl::string_view key = "",
                        absl::string_view value = "");
// `status` asking the client to retry after `delay`.
absl::Status WithRetryDelay(absl::Status status, std::chrono::milliseconds delay);
// The ErrorInfo reason `status` carries, or the default of its code.
std::string ReasonOf(const absl::Status& status);
// Field violations of `status` re-rooted under `prefix` (batch items: "requests[3].").
absl::Status WithFieldPrefix(const absl::Status& status, absl::string_view prefix);

// The google.rpc.Status of `status`: code, message, ErrorInfo and whatever details it carries.
google::rpc::Status ToRpcStatus(const absl::Status& status);
// The gRPC status of `status` with its details (grpc-status-details-bin).
grpc::Status ToGrpcStatus(const absl::Status& status);
// The retry delay `status` carries, if any (the edge sends it as grpc-retry-pushback-ms).
std::optional<std::chrono::milliseconds> RetryDelayOf(const absl::Status& status);

}  // namespace waymesh::server
