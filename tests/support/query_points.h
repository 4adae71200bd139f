#pragma once
// Point queries for tests: the query's point, or nullopt when there is none. An error status
// (which these tests never expect: their inputs are valid) fails the calling test.

#include <optional>

#include "absl/random/bit_gen_ref.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::testing {

std::optional<SurfacePoint> Nearest(NavQuery& q, Vec3 pos, Vec3 half_extents,
                                    const QueryFilter& filter);
std::optional<SurfacePoint> RandomOnMap(NavQuery& q, const QueryFilter& filter,
                                        absl::BitGenRef rng);
std::optional<SurfacePoint> RandomOnIsland(NavQuery& q, uint32_t island, const QueryFilter& filter,
                                           absl::BitGenRef rng);
std::optional<SurfacePoint> RandomInCircle(NavQuery& q, const SurfacePoint& center, float radius,
                                           const QueryFilter& filter, absl::BitGenRef rng);
std::optional<SurfacePoint> HeightAt(NavQuery& q, float x, float z, float y_hint);

}  // namespace waymesh::testing
