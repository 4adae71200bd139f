#include "waymesh/demo_world/demo_world.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "demo_world_emitter.h"
#include "demo_world_ground.h"
#include "demo_world_plan.h"
#include "demo_world_structures.h"
#include "demo_world_truth.h"
#include "waymesh/import/export_writer.h"

#ifndef WAYMESH_VERSION_STRING
#define WAYMESH_VERSION_STRING "waymesh (unknown version)"
#endif

namespace waymesh {
namespace {

void EmitAll(const demo::DemoPlan& plan, demo::TriangleEmitter& out) {
  demo::EmitGround(plan, out);
  for (const demo::Slab& slab : plan.slabs) demo::EmitSlab(plan, slab, out);
}

void SetMetadata(const demo::DemoPlan& plan, const DemoWorldTruth& truth, SourceMesh* mesh) {
  mesh->origin = "demo-world";
  mesh->scene_name = absl::StrFormat("Demo town %g m, seed %d", truth.size, plan.seed);
  mesh->exporter_version = WAYMESH_VERSION_STRING;
  mesh->unity_version = "synthetic";
  mesh->agent = AgentSettings{};
  mesh->areas.assign(kDemoAreaWater + 1, std::nullopt);
  mesh->areas[kDemoAreaGrass] = AreaType{"Walkable", 1.0f, true};
  mesh->areas[1] = AreaType{"Not Walkable", 1.0f, false};
  mesh->areas[kDemoAreaJump] = AreaType{"Jump", 2.0f, true};
  mesh->areas[kDemoAreaRoad] = AreaType{"Road", 0.5f, true};
  mesh->areas[kDemoAreaWater] = AreaType{"Water", 5.0f, true};
  mesh->links = plan.links;
}

}  // namespace

absl::StatusOr<DemoWorld> GenerateDemoWorld(const DemoWorldOptions& options) {
  absl::StatusOr<demo::DemoPlan> plan = demo::PlanDemoTown(options);
  if (!plan.ok()) return plan.status();
  absl::StatusOr<DemoWorldTruth> truth = demo::DescribeTruth(*plan);
  if (!truth.ok()) return truth.status();

  DemoWorld world;
  world.truth = *std::move(truth);
  // Count first so the big arrays are allocated once, at their final size.
  demo::TriangleEmitter counter(nullptr, options.seed);
  EmitAll(*plan, counter);
  demo::ReserveTriangles(&world.mesh, counter.triangle_count());
  demo::TriangleEmitter emitter(&world.mesh, options.seed);
  EmitAll(*plan, emitter);
  SetMetadata(*plan, world.truth, &world.mesh);
  world.mesh.source_hash = ContentHash(world.mesh);
  return world;
}

}  // namespace waymesh
