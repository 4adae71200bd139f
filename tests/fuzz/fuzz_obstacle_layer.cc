// libFuzzer target: the obstacle layer update path (ApplyObstacleChanges, what the service's
// PutObstacleLayer / UpdateObstacleLayer run) driven by arbitrary bytes: a sequence of upserts
// (any shape, effect and area, coordinates in and around a 100 m demo town, sizes from tiny to
// larger than the map, any yaw) and removals (of ids held or not). Every update is applied or
// refused with a message, never a crash, a hang or unbounded memory; an applied one holds
// exactly the obstacles the sequence says, queries run on it, and removing everything gives
// the town's own polygons back.

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/carved_layer.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/format/map_file.h"
#include "waymesh/repair/repair.h"

namespace {

// Updates per input: bounds the work one input can ask for. Each update carves the whole
// town again (about 0.1 s under ASan), so CI's 20 s give 24-update inputs barely 140 runs;
// six keep the sequences (upsert, replace, remove, re-add) and run several times as many.
constexpr int kMaxUpdates = 6;

std::shared_ptr<const waymesh::CarveBase> Town() {
  static const std::shared_ptr<const waymesh::CarveBase> base = [] {
    // About the smallest demo world there is (smaller sizes are refused).
    auto world = waymesh::GenerateDemoWorld({.size = 100, .seed = 3});
    if (!world.ok()) std::abort();
    waymesh::RepairReport report;
    auto repaired = waymesh::RepairMeshes(std::span<const waymesh::SourceMesh>(&world->mesh, 1),
                                          waymesh::RepairOptions{}, &report);
    if (!repaired.ok()) std::abort();
    auto bytes = waymesh::CompileMap(*repaired);
    if (!bytes.ok()) std::abort();
    auto map = waymesh::LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
    if (!map.ok()) std::abort();
    auto prepared = waymesh::CarveBase::Prepare(*map);
    if (!prepared.ok()) std::abort();
    return *prepared;
  }();
  return base;
}

waymesh::Vec3 PointNear(FuzzedDataProvider& in, const waymesh::Aabb& box) {
  const auto coord = [&](float lo, float hi) {
    return in.ConsumeFloatingPointInRange<float>(lo - 10, hi + 10);
  };
  return {coord(box.min.x, box.max.x), coord(box.min.y, box.max.y), coord(box.min.z, box.max.z)};
}

waymesh::Obstacle MakeObstacle(FuzzedDataProvider& in, const waymesh::Aabb& box) {
  waymesh::Obstacle o;
  o.id = "o" + std::to_string(in.ConsumeIntegralInRange<int>(0, 15));
  const auto size = [&] { return in.ConsumeFloatingPointInRange<float>(-0.5f, 80.0f); };
  switch (in.ConsumeIntegralInRange<int>(0, 2)) {
    case 0:
      o.shape = waymesh::CylinderShape{PointNear(in, box), size(), size()};
      break;
    case 1:
      o.shape = waymesh::BoxShape{PointNear(in, box), {size(), size(), size()},
                                  in.ConsumeFloatingPointInRange<float>(-720, 720)};
      break;
    default: {
      waymesh::PrismShape prism;
      const int points = in.ConsumeIntegralInRange<int>(0, 10);
      for (int i = 0; i < points; ++i) {
        const waymesh::Vec3 p = PointNear(in, box);
        prism.points.push_back({p.x, p.z});
      }
      prism.y_min = PointNear(in, box).y;
      prism.y_max = prism.y_min + size();
      o.shape = prism;
    }
  }
  if (in.ConsumeBool()) {
    o.effect = waymesh::ObstacleEffect::kArea;
    o.area = in.ConsumeIntegralInRange<uint8_t>(0, 70);
  }
  return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::shared_ptr<const waymesh::CarveBase> base = Town();
  const waymesh::Aabb box = base->map()->info().bounds;
  std::shared_ptr<const waymesh::CarvedLayer> layer = waymesh::CarvedLayer::Empty(base);
  std::map<std::string, bool> held;  // the ids the layer must hold
  for (int u = 0; u < kMaxUpdates && in.remaining_bytes() > 0; ++u) {
    std::vector<waymesh::Obstacle> upserts;
    std::vector<std::string> removals;
    const int changes = in.ConsumeIntegralInRange<int>(1, 3);
    for (int c = 0; c < changes; ++c) {
      if (in.ConsumeBool()) {
        upserts.push_back(MakeObstacle(in, box));
      } else {
        removals.push_back("o" + std::to_string(in.ConsumeIntegralInRange<int>(0, 15)));
      }
    }
    auto next = waymesh::ApplyObstacleChanges(*layer, upserts, removals);
    if (!next.ok()) {
      if (next.status().message().empty()) std::abort();  // errors always say why
      continue;
    }
    for (const waymesh::Obstacle& o : upserts) held[o.id] = true;
    for (const std::string& id : removals) held.erase(id);
    if ((*next)->obstacle_count() != held.size()) std::abort();
    layer = *std::move(next);
  }
  // Queries run on the final version.
  waymesh::NavQuery q(layer->map());
  std::mt19937 rng(1);
  const waymesh::QueryFilter all(layer->map()->info());
  waymesh::PathResult path;
  const auto a = q.RandomPoint(all, rng), b = q.RandomPoint(all, rng);
  if (a.ok() && b.ok() && *a && *b && !q.FindPath(**a, **b, all, {}, &path).ok()) std::abort();
  // Removing everything restores the town's own polygons.
  std::vector<std::string> all_ids;
  for (const auto& [id, unused] : held) all_ids.push_back(id);
  auto cleared = waymesh::ApplyObstacleChanges(*layer, {}, all_ids);
  if (!cleared.ok() || (*cleared)->obstacle_count() != 0) std::abort();
  if ((*cleared)->map()->info().polygon_count != base->map()->info().polygon_count) std::abort();
  return 0;
}
