#pragma once
// Surface height under a plan-view point, choosing among stacked floors by a height hint.

#include <optional>

#include "query_context.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// The surface point at (x, z) whose height is closest to `y_hint`, over every polygon whose
// plan view covers (x, z); nullopt when none does. Inputs must be finite.
std::optional<SurfacePoint> SurfaceHeight(const QueryContext& ctx, float x, float z, float y_hint);

}  // namespace waymesh::internal
