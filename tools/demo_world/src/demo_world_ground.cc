#include "demo_world_ground.h"

#include <algorithm>

namespace waymesh::demo {
namespace {

void EmitChunk(const DemoPlan& plan, int cx, int cz, TriangleEmitter& out) {
  const int step = plan.FineChunk(cx, cz) ? 1 : 2;
  const int c = plan.chunk_units;
  const int x_end = std::min(plan.n, (cx + 1) * c);
  const int z_end = std::min(plan.n, (cz + 1) * c);
  for (int z = cz * c; z < z_end; ++z) {
    for (int x = cx * c; x < x_end; ++x) {
      const uint8_t area = plan.at(x, z);
      if (area == kCutOut) continue;
      for (int l = 2 * z; l < 2 * z + 2; l += step) {
        for (int k = 2 * x; k < 2 * x + 2; k += step) {
          const float x0 = plan.Lattice(k), x1 = plan.Lattice(k + step);
          const float z0 = plan.Lattice(l), z1 = plan.Lattice(l + step);
          const bool flip = ((k / step + l / step) & 1) != 0;
          out.AddQuad({x0, 0, z0}, {x1, 0, z0}, {x1, 0, z1}, {x0, 0, z1}, flip, area);
        }
      }
    }
  }
}

// Seam segments on the chunk border between units (line - 1) and (line) across, walking along.
void AppendBorder(const DemoPlan& plan, int line, bool vertical, std::vector<DemoSeam>* seams) {
  auto both_walkable = [&](int along) {
    return vertical ? plan.walkable(line - 1, along) && plan.walkable(line, along)
                    : plan.walkable(along, line - 1) && plan.walkable(along, line);
  };
  auto point = [&](int along) {
    const float a = plan.Lattice(2 * line), b = plan.Lattice(2 * along);
    return vertical ? Vec3{a, 0, b} : Vec3{b, 0, a};
  };
  for (int start = 0; start < plan.n;) {
    if (!both_walkable(start)) {
      ++start;
      continue;
    }
    int end = start;
    while (end < plan.n && both_walkable(end)) ++end;
    seams->push_back({point(start), point(end)});
    start = end;
  }
}

}  // namespace

void EmitGround(const DemoPlan& plan, TriangleEmitter& out) {
  for (int cz = 0; cz < plan.chunks(); ++cz) {
    for (int cx = 0; cx < plan.chunks(); ++cx) EmitChunk(plan, cx, cz, out);
  }
}

void AppendGroundSeams(const DemoPlan& plan, std::vector<DemoSeam>* seams) {
  for (int b = 1; b < plan.chunks(); ++b) {
    AppendBorder(plan, b * plan.chunk_units, true, seams);
    AppendBorder(plan, b * plan.chunk_units, false, seams);
  }
}

}  // namespace waymesh::demo
