#include "demo_world_plan.h"

#include <cmath>
#include <cstdint>
#include <numbers>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "demo_world_random.h"
#include "demo_world_structures.h"
#include "waymesh/io/number_text.h"

namespace waymesh::demo {
namespace {

// Steepest ramp the layout builds (degrees); well under the agent's 45° slope limit.
constexpr double kMaxRampSlopeDeg = 20.0;
// Target side of a ground chunk (metres); about a Unity tile of 256 voxels of 1/6 m.
constexpr double kChunkMetres = 45.0;
// Smallest lot side (units): a building inset by one unit on each side stays at least 1x1.
constexpr int kMinLot = 3;

// `metres` in whole units, at least `min_units`.
int Units(double metres, double unit, int min_units) {
  return std::max(min_units, static_cast<int>(std::lround(metres / unit)));
}

// Length (units) of a ramp climbing `height` metres no steeper than kMaxRampSlopeDeg.
int RampUnits(double height, double metres, double unit) {
  const double min_metres = height / std::tan(kMaxRampSlopeDeg * std::numbers::pi / 180.0);
  return std::max(static_cast<int>(std::ceil(min_metres / unit)), Units(metres, unit, 1));
}

absl::Status ValidateOptions(const DemoWorldOptions& options) {
  if (!(options.size >= kDemoMinSize && options.size <= kDemoMaxSize)) {
    return absl::InvalidArgumentError(absl::StrCat("demo world size ", NumberText(options.size),
                                                   " m is outside [", NumberText(kDemoMinSize),
                                                   ", ", NumberText(kDemoMaxSize), "] m"));
  }
  if (!(options.cell >= kDemoMinCell && options.cell <= kDemoMaxCell)) {
    return absl::InvalidArgumentError(absl::StrCat("demo world cell ", NumberText(options.cell),
                                                   " m is outside [", NumberText(kDemoMinCell),
                                                   ", ", NumberText(kDemoMaxCell), "] m"));
  }
  const double units = std::floor(options.size / (2 * options.cell));
  const double worst_triangles = 5 * units * units;  // every unit walkable, half of them fine
  if (worst_triangles > static_cast<double>(kDemoMaxTriangles)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "demo world size %g m with cell %g m may need up to %.0f triangles (limit %d): use a "
        "larger cell or a smaller size",
        options.size, options.cell, worst_triangles, kDemoMaxTriangles));
  }
  return absl::OkStatus();
}

// The landmark district around a river along Z and a bridge along X, in units relative to the
// river's west bank (x = 0) and the bridge's south edge (z = 0). `zone` bounds it all.
Landmarks LayoutLandmarks(double unit) {
  const int river = Units(18, unit, 5);
  const int walk = Units(5, unit, 1);
  const int bridge = Units(6, unit, 2);
  const int bridge_ramp = RampUnits(kDeckHeight, 22, unit);
  const int ford = Units(8, unit, 2);
  const int islet = Units(10, unit, 2);
  const int platform = Units(12, unit, 3);
  const int platform_ramp = RampUnits(kPlatformHeight, 14, unit);
  const int platform_ramp_width = std::min(Units(4, unit, 2), platform - 1);
  const int rooftop = Units(10, unit, 3);
  const int courtyard = Units(16, unit, 4);
  const int gap = Units(5, unit, 2);

  Landmarks l;
  const int west = -walk;         // west edge of the west walkway
  const int east = river + walk;  // east edge of the east walkway
  l.river = {0, 0, river, 0};     // z extent set when placed
  l.west_walk = {west, 0, 0, 0};
  l.east_walk = {river, 0, east, 0};
  l.west_ramp = {west - bridge_ramp, 0, west, bridge};
  l.deck = {west, 0, east, bridge};
  l.east_ramp = {east, 0, east + bridge_ramp, bridge};
  l.ford = {0, -2 * gap - ford, river, -2 * gap};
  l.islet = {2, bridge + 2 * gap, river - 2, bridge + 2 * gap + islet};
  l.platform = {west - gap - platform, bridge + gap, west - gap, bridge + gap + platform};
  l.platform_ramp = {l.platform.x0 + 1, l.platform.z1, l.platform.x0 + 1 + platform_ramp_width,
                     l.platform.z1 + platform_ramp};
  l.rooftop = {east + gap, bridge + gap, east + gap + rooftop, bridge + gap + rooftop};
  l.courtyard = {east + gap, -gap - courtyard, east + gap + courtyard, -gap};
  UnitRect zone = l.west_ramp;
  for (const UnitRect& r : {l.deck, l.east_ramp, l.ford, l.islet, l.platform, l.platform_ramp,
                            l.rooftop, l.courtyard}) {
    zone = zone.Union(r);
  }
  l.zone = zone.Inset(-gap);
  return l;
}

void Translate(Landmarks* l, int dx, int dz) {
  for (UnitRect* r :
       {&l->river, &l->west_walk, &l->east_walk, &l->ford, &l->islet, &l->west_ramp, &l->deck,
        &l->east_ramp, &l->platform, &l->platform_ramp, &l->rooftop, &l->courtyard, &l->zone}) {
    *r = r->Shifted(dx, dz);
  }
}

void Fill(DemoPlan* plan, const UnitRect& r, uint8_t value) {
  for (int z = std::max(r.z0, 0); z < std::min(r.z1, plan->n); ++z) {
    for (int x = std::max(r.x0, 0); x < std::min(r.x1, plan->n); ++x) plan->set(x, z, value);
  }
}

// Splits `r` along X (or Z) into two lots with a one-unit path between them, sometimes.
void SplitLots(const UnitRect& r, bool along_x, DemoRandom& rng, std::vector<UnitRect>* lots) {
  const int extent = along_x ? r.width() : r.depth();
  if (extent < 2 * kMinLot + 1 || !rng.Percent(75)) {
    lots->push_back(r);
    return;
  }
  const int lo = along_x ? r.x0 : r.z0;
  const int cut = rng.Between(lo + kMinLot, lo + extent - kMinLot - 1);
  UnitRect a = r, b = r;
  if (along_x) {
    a.x1 = cut;
    b.x0 = cut + 1;
  } else {
    a.z1 = cut;
    b.z0 = cut + 1;
  }
  lots->push_back(a);
  lots->push_back(b);
}

// Builds one lot. Everything built is inset by a unit so free ground always surrounds it and
// stays connected; only courtyard buildings enclose ground, on purpose.
void BuildLot(DemoPlan* plan, const UnitRect& lot, DemoRandom& rng) {
  const int roll = rng.Between(0, 99);
  UnitRect inner = lot.Inset(1);
  if (roll < 8 && inner.width() >= 4 && inner.depth() >= 4) {
    Fill(plan, inner, kCutOut);
    Fill(plan, inner.Inset(1), kDemoAreaGrass);
    plan->courtyards.push_back(inner);
  } else if (roll < 70) {
    inner.x0 += rng.Between(0, inner.width() / 4);  // vary the footprints a little
    inner.z1 -= rng.Between(0, inner.depth() / 4);
    Fill(plan, inner, kCutOut);
  } else if (roll < 78) {
    Fill(plan, inner, kDemoAreaWater);  // shallow pond
  } else if (roll < 88) {
    Fill(plan, lot, kDemoAreaRoad);  // paved plaza
  }                                  // else a park: grass stays
}

// Streets every ~56 m with a random phase, blocks split into lots.
void FillTown(DemoPlan* plan, DemoRandom& rng) {
  const int pitch = Units(56, plan->unit, 8);
  const int road = Units(8, plan->unit, 2);
  const int phase_x = rng.Between(0, pitch - 1);
  const int phase_z = rng.Between(0, pitch - 1);
  for (int z = 0; z < plan->n; ++z) {
    const bool road_row = (z + phase_z) % pitch < road;
    for (int x = 0; x < plan->n; ++x) {
      if (road_row || (x + phase_x) % pitch < road) plan->set(x, z, kDemoAreaRoad);
    }
  }
  const Landmarks& l = plan->landmarks;
  const UnitRect corridor{l.west_walk.x0 - 1, 0, l.east_walk.x1 + 1, plan->n};
  const UnitRect inside{1, 1, plan->n - 1, plan->n - 1};
  std::vector<UnitRect> halves, lots;
  for (int bz = -phase_z; bz < plan->n; bz += pitch) {
    for (int bx = -phase_x; bx < plan->n; bx += pitch) {
      const UnitRect block = UnitRect{bx + road, bz + road, bx + pitch, bz + pitch}.Inset(1);
      halves.clear();
      lots.clear();
      SplitLots(block, true, rng, &halves);
      for (const UnitRect& h : halves) SplitLots(h, false, rng, &lots);
      for (const UnitRect& lot : lots) {
        if (lot.empty() || !inside.Contains(lot) || lot.Overlaps(l.zone) ||
            lot.Overlaps(corridor)) {
          continue;
        }
        BuildLot(plan, lot, rng);
      }
    }
  }
}

// The river with its walkways, ford and islet, and the landmarks' footprints.
void StampLandmarks(DemoPlan* plan) {
  const Landmarks& l = plan->landmarks;
  Fill(plan, l.west_walk, kDemoAreaRoad);
  Fill(plan, l.east_walk, kDemoAreaRoad);
  Fill(plan, l.river, kCutOut);
  Fill(plan, l.ford, kDemoAreaWater);
  Fill(plan, l.islet, kDemoAreaGrass);
  Fill(plan, l.courtyard, kCutOut);
  Fill(plan, l.courtyard.Inset(1), kDemoAreaGrass);
  for (const UnitRect& r : {l.rooftop, l.west_ramp, l.east_ramp, l.platform, l.platform_ramp}) {
    Fill(plan, r, kCutOut);
  }
}

}  // namespace

double Slab::HeightAt(double ux, double uz) const {
  double t = 0;
  switch (rise) {
    case Rise::kFlat:
      return high;
    case Rise::kPosX:
      t = (ux - rect.x0) / rect.width();
      break;
    case Rise::kNegX:
      t = (rect.x1 - ux) / rect.width();
      break;
    case Rise::kPosZ:
      t = (uz - rect.z0) / rect.depth();
      break;
    case Rise::kNegZ:
      t = (rect.z1 - uz) / rect.depth();
      break;
  }
  return low + (double{high} - low) * t;
}

absl::StatusOr<DemoPlan> PlanDemoTown(const DemoWorldOptions& options) {
  if (absl::Status s = ValidateOptions(options); !s.ok()) return s;
  DemoPlan plan;
  plan.cell = options.cell;
  plan.unit = 2 * options.cell;
  plan.n = static_cast<int>(std::floor(options.size / plan.unit));
  plan.origin = -0.5 * plan.n * plan.unit;
  plan.chunk_units = Units(kChunkMetres, plan.unit, 4);
  plan.seed = options.seed;

  Landmarks l = LayoutLandmarks(plan.unit);
  const int need = std::max(l.zone.width(), l.zone.depth()) + 4;
  if (plan.n < need) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "demo world size %g m is too small for the town's landmarks at cell %g m: it needs at "
        "least %g m",
        options.size, options.cell, std::ceil(need * plan.unit)));
  }
  Translate(&l, (plan.n - l.zone.width()) / 2 - l.zone.x0,
            (plan.n - l.zone.depth()) / 2 - l.zone.z0);
  l.river.z0 = l.west_walk.z0 = l.east_walk.z0 = 0;
  l.river.z1 = l.west_walk.z1 = l.east_walk.z1 = plan.n;
  plan.landmarks = l;

  plan.ground.assign(static_cast<size_t>(plan.n) * plan.n, kDemoAreaGrass);
  DemoRandom rng(options.seed);
  FillTown(&plan, rng);
  StampLandmarks(&plan);
  AddBridge(&plan);
  AddPlatformAndRooftop(&plan);
  return plan;
}

}  // namespace waymesh::demo
