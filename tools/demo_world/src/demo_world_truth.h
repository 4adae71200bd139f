#pragma once
// The topology the demo town must have once repaired: islands, groups, labelled probe points
// and seams. Designed from the layout, then checked against a flood fill of the plan's ground
// so a layout bug is an error here rather than a wrong expectation in a test.

#include "absl/status/statusor.h"
#include "demo_world_plan.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh::demo {

// Islands: 0 the town (with the bridge, ramps and platform), 1 the rooftop (ladder), 2 the
// walled courtyard, 3 the river islet, then one per courtyard building. InternalError when the
// plan's ground does not have exactly the designed connected pieces.
absl::StatusOr<DemoWorldTruth> DescribeTruth(const DemoPlan& plan);

}  // namespace waymesh::demo
