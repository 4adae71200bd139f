// Triangulating the raised structures (decks, platforms, roofs, ramps) and their seams.

#include <algorithm>

#include "demo_world_structures.h"

namespace waymesh::demo {
namespace {

// The two edges of a ramp across its rise: [0] is the low end, [1] the high end.
void RampEnds(const DemoPlan& plan, const Slab& s, DemoSeam ends[2]) {
  const UnitRect& r = s.rect;
  auto x_edge = [&](int x, float y) {
    return DemoSeam{{plan.Lattice(2 * x), y, plan.Lattice(2 * r.z0)},
                    {plan.Lattice(2 * x), y, plan.Lattice(2 * r.z1)}};
  };
  auto z_edge = [&](int z, float y) {
    return DemoSeam{{plan.Lattice(2 * r.x0), y, plan.Lattice(2 * z)},
                    {plan.Lattice(2 * r.x1), y, plan.Lattice(2 * z)}};
  };
  switch (s.rise) {
    case Rise::kPosX:
      ends[0] = x_edge(r.x0, s.low), ends[1] = x_edge(r.x1, s.high);
      break;
    case Rise::kNegX:
      ends[0] = x_edge(r.x1, s.low), ends[1] = x_edge(r.x0, s.high);
      break;
    case Rise::kPosZ:
      ends[0] = z_edge(r.z0, s.low), ends[1] = z_edge(r.z1, s.high);
      break;
    case Rise::kNegZ:
      ends[0] = z_edge(r.z1, s.low), ends[1] = z_edge(r.z0, s.high);
      break;
    case Rise::kFlat:
      break;
  }
}

}  // namespace

void EmitSlab(const DemoPlan& plan, const Slab& slab, TriangleEmitter& out) {
  const int k0 = 2 * slab.rect.x0, k1 = 2 * slab.rect.x1;
  const int l0 = 2 * slab.rect.z0, l1 = 2 * slab.rect.z1;
  auto corner = [&](int k, int l) {
    return Vec3{plan.Lattice(k), static_cast<float>(slab.HeightAt(0.5 * k, 0.5 * l)),
                plan.Lattice(l)};
  };
  for (int l = l0; l < l1; l += slab.step) {
    const int l2 = std::min(l + slab.step, l1);
    for (int k = k0; k < k1; k += slab.step) {
      const int k2 = std::min(k + slab.step, k1);
      const bool flip = (((k - k0) / slab.step + (l - l0) / slab.step) & 1) != 0;
      out.AddQuad(corner(k, l), corner(k2, l), corner(k2, l2), corner(k, l2), flip, slab.area);
    }
  }
}

void AppendSlabSeams(const DemoPlan& plan, std::vector<DemoSeam>* seams) {
  for (const Slab& s : plan.slabs) {
    if (!s.is_ramp()) continue;
    DemoSeam ends[2];
    RampEnds(plan, s, ends);
    seams->push_back(ends[0]);
    seams->push_back(ends[1]);
  }
}

}  // namespace waymesh::demo
