#pragma once
// Path query files, as `waymesh path` and `waymesh render --queries` read them: one query per
// line, `#` starts a comment. Accepted rows:
//   sx sy gx gy [expected]               2D (the mesh's second axis is z, height 0)
//   sx sy sz gx gy gz [expected]         3D
//   Polyanya / MovingAI .scen rows       (file starts with `version`; bucket map w h sx sy gx gy
//                                         expected)
//   Recast test rows                     `pf sx sy sz gx gy gz include exclude`; `s`, `f`, `rc`
//                                         rows are skipped
// Numbers may be separated by spaces, tabs or commas.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// One query of a query file.
struct PathQuery {
  int line = 0;  // 1-based line in the file
  Vec3 start, goal;
  double expected = -1;  // optimal length when the file gives one, else negative
  uint16_t include_flags = QueryFilter::kAllFlags;
  uint16_t exclude_flags = 0;
};

// Parses the text of a query file; errors name `origin`:line and what is wrong.
absl::StatusOr<std::vector<PathQuery>> ParsePathQueries(std::string_view text,
                                                        std::string_view origin);

// Reads and parses the query file at `path`.
absl::StatusOr<std::vector<PathQuery>> ReadPathQueries(const std::string& path);

}  // namespace waymesh
