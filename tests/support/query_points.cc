#include "support/query_points.h"

#include "gtest/gtest.h"

namespace waymesh::testing {
namespace {

std::optional<SurfacePoint> PointOrFail(const absl::StatusOr<std::optional<SurfacePoint>>& r) {
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : std::nullopt;
}

}  // namespace

std::optional<SurfacePoint> Nearest(NavQuery& q, Vec3 pos, Vec3 half_extents,
                                    const QueryFilter& filter) {
  return PointOrFail(q.NearestPoint(pos, half_extents, filter));
}

std::optional<SurfacePoint> RandomOnMap(NavQuery& q, const QueryFilter& filter,
                                        absl::BitGenRef rng) {
  return PointOrFail(q.RandomPoint(filter, rng));
}

std::optional<SurfacePoint> RandomOnIsland(NavQuery& q, uint32_t island, const QueryFilter& filter,
                                           absl::BitGenRef rng) {
  return PointOrFail(q.RandomPointOnIsland(island, filter, rng));
}

std::optional<SurfacePoint> RandomInCircle(NavQuery& q, const SurfacePoint& center, float radius,
                                           const QueryFilter& filter, absl::BitGenRef rng) {
  return PointOrFail(q.RandomPointInCircle(center, radius, filter, rng));
}

std::optional<SurfacePoint> HeightAt(NavQuery& q, float x, float z, float y_hint) {
  return PointOrFail(q.Height(x, z, y_hint));
}

}  // namespace waymesh::testing
