#pragma once
// Readers for the Polyanya test data: expected-length files and .scen scenarios, and the
// aurora map with its queries that many core tests search.

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh::testing {

struct ExpectedQuery {
  Vec3 start, goal;  // 2D (x, y) mapped to (x, 0, y)
  double length;     // published optimum; negative when the file marks no answer
};

// `sx sy gx gy length` rows ('#' comments).
inline std::vector<ExpectedQuery> ReadExpectedFile(const std::string& path) {
  std::ifstream in(path);
  std::vector<ExpectedQuery> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    double sx, sy, gx, gy, len;
    if (s >> sx >> sy >> gx >> gy >> len) {
      out.push_back({{float(sx), 0, float(sy)}, {float(gx), 0, float(gy)}, len});
    }
  }
  return out;
}

// MovingAI `.scen` version 1: bucket map width height sx sy gx gy length.
inline std::vector<ExpectedQuery> ReadScenFile(const std::string& path) {
  std::ifstream in(path);
  std::vector<ExpectedQuery> out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream s(line);
    std::string bucket, map;
    double w, h, sx, sy, gx, gy, len;
    if (s >> bucket >> map >> w >> h >> sx >> sy >> gx >> gy >> len) {
      out.push_back({{float(sx), 0, float(sy)}, {float(gx), 0, float(gy)}, len});
    }
  }
  return out;
}

// Polyanya's aurora: aurora-merged.mesh with its polygons as they are (no merge), the map its
// published lengths are for, and those queries.
struct Aurora {
  std::shared_ptr<const NavMap> map;  // null when it did not build (the test has failed)
  std::vector<ExpectedQuery> queries;
};

// The map is built once per test binary.
inline Aurora LoadAurora() {
  absl::StatusOr<std::shared_ptr<const NavMap>> map = CachedMapFromFile(
      SharedData("polyanya/meshes/aurora-merged.mesh"), RepairOptions{.merge = false});
  EXPECT_TRUE(map.ok()) << map.status();
  return {map.ok() ? *map : nullptr,
          ReadExpectedFile(SharedData("polyanya/expected/aurora_euclid_expected.csv"))};
}

// The degenerate meshes with scenarios (polyanya/degenerate/NAME.mesh and NAME.scen):
// collinear vertices, rotated copies, ambiguous corners.
inline const std::vector<std::string> kDegenerateMeshes = {"bad-ambig",
                                                           "bad-collinear",
                                                           "bad-collinear2-rot0",
                                                           "bad-collinear2-rot45",
                                                           "bad-collinear2-rot90",
                                                           "square"};

// A test name for a parameter of kDegenerateMeshes (gtest names take no '-').
inline std::string DegenerateTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

// The longest of `queries`, which is not empty: on aurora, a search of thousands of nodes.
inline ExpectedQuery LongestQuery(const std::vector<ExpectedQuery>& queries) {
  return *std::max_element(queries.begin(), queries.end(),
                           [](const auto& a, const auto& b) { return a.length < b.length; });
}

}  // namespace waymesh::testing
