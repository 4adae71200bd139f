#pragma once
// The demo town's ground: every walkable unit of the plan as triangles, chunk by chunk. Chunks
// alternate between fine (cell) and coarse (2 * cell) squares, so each chunk border between two
// walkable units has hanging vertices (T-junctions), like neighbouring Unity tiles.

#include <vector>

#include "demo_world_emitter.h"
#include "demo_world_plan.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh::demo {

// Emits the ground triangles of the whole plan, chunk by chunk.
void EmitGround(const DemoPlan& plan, TriangleEmitter& out);
// Appends the chunk borders where both sides are walkable, merged into maximal segments.
void AppendGroundSeams(const DemoPlan& plan, std::vector<DemoSeam>* seams);

}  // namespace waymesh::demo
