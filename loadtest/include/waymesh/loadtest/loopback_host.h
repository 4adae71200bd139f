#pragma once
// This machine may only load itself: the check that a target is a loopback address.

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace waymesh::loadtest {

// OK when `host` is "HOST:PORT" with HOST in 127.0.0.0/8, "localhost" or [::1] (or a unix:
// socket path); InvalidArgument naming the host otherwise, or when the port is missing.
absl::Status CheckLoopbackHost(absl::string_view host);

// Only the HOST:PORT shape (for --allow-remote runs).
absl::Status CheckHostSyntax(absl::string_view host);

}  // namespace waymesh::loadtest
