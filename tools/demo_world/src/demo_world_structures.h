#pragma once
// The demo town's raised structures: the bridge (two ramps and a deck over the river and its
// walkways), a platform reached by a ramp, and a rooftop reached only by a ladder. Each adds
// slabs (and links) to the plan; their footprints are already cut out of the ground.

#include <vector>

#include "demo_world_emitter.h"
#include "demo_world_plan.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh::demo {

// Adds the bridge: west ramp, deck 5 m above the walkways, east ramp.
void AddBridge(DemoPlan* plan);
// Adds the platform with its ramp, the rooftop with its ladder and a one-way drop from the roof.
void AddPlatformAndRooftop(DemoPlan* plan);

// Triangulates one slab on its own lattice.
void EmitSlab(const DemoPlan& plan, const Slab& slab, TriangleEmitter& out);
// Appends the seams of every ramp: its low end meets the ground, its high end a deck or platform.
void AppendSlabSeams(const DemoPlan& plan, std::vector<DemoSeam>* seams);

}  // namespace waymesh::demo
