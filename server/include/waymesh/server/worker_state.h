#pragma once
// Everything one worker thread owns and reuses from call to call: its query objects, result
// buffers (their vectors keep their capacity, so warm queries do not allocate) and a random
// generator for unseeded RandomPoint calls. The generator is a std one seeded from
// std::random_device: absl::BitGen seeds from a pool locked inside Debian's (uninstrumented)
// abseil, which ThreadSanitizer cannot see.

#include <random>

#include "waymesh/core/move_result.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/raycast_result.h"
#include "waymesh/server/query_cache.h"

namespace waymesh::server {

struct WorkerState {
  explicit WorkerState(const NavQueryOptions& options)
      : queries(options), rng(std::random_device{}()) {}

  QueryCache queries;
  PathResult path;
  RaycastResult ray;
  MoveResult move;
  std::mt19937_64 rng;
};

}  // namespace waymesh::server
