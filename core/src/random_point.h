#pragma once
// Random points uniform by area: the map's tile sums and each tile's polygon area prefix give
// O(log n) draws; filters are honoured by rejection with an exact linear fallback.

#include <optional>

#include "absl/random/bit_gen_ref.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

std::optional<SurfacePoint> RandomPointOnMap(QueryContext& ctx, const QueryFilter& filter,
                                             absl::BitGenRef rng);
std::optional<SurfacePoint> RandomPointOnIsland(QueryContext& ctx, uint32_t island,
                                                const QueryFilter& filter, absl::BitGenRef rng);
// `center` must be on an existing polygon; radius finite and >= 0.
std::optional<SurfacePoint> RandomPointInDisc(QueryContext& ctx, const SurfacePoint& center,
                                              float radius, const QueryFilter& filter,
                                              absl::BitGenRef rng);

}  // namespace waymesh::internal
