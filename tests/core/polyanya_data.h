#pragma once
// Readers for the Polyanya test data: expected-length files and .scen scenarios.

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

}  // namespace waymesh::testing
