#pragma once
// One map of the comparison from start to finish: load (or generate) and compile it, rebuild it
// for Detour, pick the queries, measure both libraries.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "vs_detour/report.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh::bench {

struct MapSpec {
  std::string name;
  std::string path;      // map input; empty = the generated demo world
  std::string expected;  // Polyanya expected CSV; empty = random reachable pairs
};

struct RunOptions {
  RepairOptions repair;  // for inputs that are not `.wmesh`
  DemoWorldOptions demo;
  uint32_t random_pairs = 2000;  // queries on maps without published answers
  uint64_t seed = 1;
  uint32_t min_samples = 20000;         // timed calls per library and operation, at least
  Vec3 half_extents{2.0f, 4.0f, 2.0f};  // nearest-polygon box of both libraries
  bool exact_landmarks = false;         // build the optional exact landmark table
  uint32_t exact_landmark_count = ExactLandmarkTable::kDefaultCount;  // its landmarks
  bool exact_only = false;  // time exact mode alone (for a profiler)
  bool exact_twin = false;  // run exact mode on the map's plan twin (waymesh/core/plan_twin.h)
};

// Polyanya aurora (triangles and merged), arena (both) and the demo world, from `data_dir`.
std::vector<MapSpec> DefaultMapSpecs(const std::string& data_dir);

// Parses `name=path[,expected.csv]`; `demo` alone names the generated demo world.
absl::StatusOr<MapSpec> ParseMapSpec(absl::string_view text);

// Runs the whole comparison on one map.
absl::StatusOr<MapReport> RunMap(const MapSpec& spec, const RunOptions& options);

}  // namespace waymesh::bench
