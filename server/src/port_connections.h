#pragma once
// The TCP connections this process accepted on one of its ports, found through /proc/self/fd.

namespace waymesh::server {

// Shuts down (both directions) every connected socket of this process whose local port is
// `port`, without closing the descriptors (their owner, gRPC, still does that). Peers see the
// connection end at once, so everything they have in flight fails with UNAVAILABLE, and
// nothing more they send can be read. Listening sockets are left alone. Returns how many.
int ShutDownConnectionsOnPort(int port);

}  // namespace waymesh::server
