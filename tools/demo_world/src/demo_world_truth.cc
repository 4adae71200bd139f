#include "demo_world_truth.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "demo_world_ground.h"
#include "demo_world_random.h"
#include "demo_world_structures.h"

namespace waymesh::demo {
namespace {

constexpr uint32_t kIslandTown = 0;
constexpr uint32_t kIslandRooftop = 1;
constexpr uint32_t kIslandCourtyard = 2;
constexpr uint32_t kIslandIslet = 3;
constexpr uint32_t kFirstCourtyardBuilding = 4;
constexpr uint32_t kNoLabel = UINT32_MAX;
constexpr int kStreetProbes = 4;
// Where a probe sits inside its unit: off every triangle edge and diagonal of both the fine and
// the coarse ground lattice.
constexpr double kProbeDx = 0.3, kProbeDz = 0.55;

// 4-connected pieces of walkable ground (the mesh joins units across shared edges only).
struct GroundPieces {
  std::vector<uint32_t> label;  // per unit, kNoLabel for cut-outs
  uint32_t count = 0;
};

GroundPieces FloodFill(const DemoPlan& plan) {
  GroundPieces pieces;
  pieces.label.assign(plan.ground.size(), kNoLabel);
  std::vector<uint32_t> stack;
  const int n = plan.n;
  for (uint32_t seed = 0; seed < plan.ground.size(); ++seed) {
    if (plan.ground[seed] == kCutOut || pieces.label[seed] != kNoLabel) continue;
    const uint32_t id = pieces.count++;
    pieces.label[seed] = id;
    stack.push_back(seed);
    while (!stack.empty()) {
      const uint32_t u = stack.back();
      stack.pop_back();
      const int x = u % n, z = u / n;
      const int nx[4] = {x - 1, x + 1, x, x};
      const int nz[4] = {z, z, z - 1, z + 1};
      for (int i = 0; i < 4; ++i) {
        if (!plan.walkable(nx[i], nz[i])) continue;
        const uint32_t v = static_cast<uint32_t>(nz[i]) * n + nx[i];
        if (pieces.label[v] != kNoLabel) continue;
        pieces.label[v] = id;
        stack.push_back(v);
      }
    }
  }
  return pieces;
}

class TruthBuilder {
 public:
  TruthBuilder(const DemoPlan& plan, DemoWorldTruth* truth)
      : plan_(plan), truth_(truth), pieces_(FloodFill(plan)) {}

  // Declares island `island` (its label must equal the index) and its group.
  void Island(std::string name, uint32_t group) {
    truth_->islands.push_back({std::move(name), group});
    truth_->group_count = std::max(truth_->group_count, group + 1);
  }

  // A probe on the ground of unit (ux, uz); records which ground piece it found there.
  void Ground(std::string name, int ux, int uz, uint32_t island) {
    if (!plan_.walkable(ux, uz)) {
      Fail(absl::StrFormat("probe '%s' at unit (%d, %d) is not on walkable ground", name, ux, uz));
      return;
    }
    Expect(name, pieces_.label[static_cast<size_t>(uz) * plan_.n + ux], island);
    Add(std::move(name), ux + kProbeDx, 0.0, uz + kProbeDz, island);
  }

  // A probe on a slab at unit coordinates (ux, uz).
  void OnSlab(std::string name, const Slab& slab, double ux, double uz, uint32_t island) {
    Add(std::move(name), ux, slab.HeightAt(ux, uz), uz, island);
  }

  // Ground units in front of a ramp's low end must belong to `island`.
  void RampFoot(const Slab& s, uint32_t island) {
    const UnitRect& r = s.rect;
    const int x = s.rise == Rise::kPosX ? r.x0 - 1 : s.rise == Rise::kNegX ? r.x1 : r.x0;
    const int z = s.rise == Rise::kPosZ ? r.z0 - 1 : s.rise == Rise::kNegZ ? r.z1 : r.z0;
    if (!plan_.walkable(x, z)) {
      Fail(absl::StrFormat("ramp foot at unit (%d, %d) is not walkable", x, z));
      return;
    }
    Expect("ramp foot", pieces_.label[static_cast<size_t>(z) * plan_.n + x], island);
  }

  // Street probes at random road units of the town.
  void Streets(uint64_t seed) {
    DemoRandom rng(seed ^ 0xBB67AE8584CAA73Bull);
    if (piece_of_island_.empty()) return;  // the landmark probes already failed
    const uint32_t town = piece_of_island_[kIslandTown];
    for (int found = 0, tries = 0; found < kStreetProbes && tries < 10000; ++tries) {
      const int x = rng.Between(0, plan_.n - 1), z = rng.Between(0, plan_.n - 1);
      const size_t u = static_cast<size_t>(z) * plan_.n + x;
      if (plan_.ground[u] != kDemoAreaRoad || pieces_.label[u] != town) continue;
      Add(absl::StrFormat("street %d", ++found), x + kProbeDx, 0.0, z + kProbeDz, kIslandTown);
    }
  }

  // Every ground piece must be a designed island, and no two islands may share one.
  absl::Status Finish() {
    if (pieces_.count != designed_ground_pieces_) {
      Fail(absl::StrFormat("the ground has %d connected pieces, the design %d", pieces_.count,
                           designed_ground_pieces_));
    }
    return error_.empty() ? absl::OkStatus() : absl::InternalError("demo world layout: " + error_);
  }

  void DesignedGroundPieces(uint32_t count) { designed_ground_pieces_ = count; }

 private:
  void Add(std::string name, double ux, double y, double uz, uint32_t island) {
    const Vec3 p{static_cast<float>(plan_.World(ux)), static_cast<float>(y),
                 static_cast<float>(plan_.World(uz))};
    truth_->probes.push_back({std::move(name), p, island, truth_->islands[island].group});
  }

  // Ground piece `piece` must be island `island`, and no other island's.
  void Expect(const std::string& name, uint32_t piece, uint32_t island) {
    if (piece_of_island_.size() <= island) piece_of_island_.resize(island + 1, kNoLabel);
    if (island_of_piece_.size() < pieces_.count) island_of_piece_.resize(pieces_.count, kNoLabel);
    if (piece_of_island_[island] == kNoLabel) piece_of_island_[island] = piece;
    if (island_of_piece_[piece] == kNoLabel) island_of_piece_[piece] = island;
    if (piece_of_island_[island] != piece || island_of_piece_[piece] != island) {
      Fail(absl::StrFormat("'%s' is on ground piece %d, designed as island %d", name, piece,
                           island));
    }
  }

  void Fail(const std::string& message) {
    if (error_.empty()) error_ = message;
  }

  const DemoPlan& plan_;
  DemoWorldTruth* truth_;
  GroundPieces pieces_;
  std::vector<uint32_t> piece_of_island_;
  std::vector<uint32_t> island_of_piece_;
  uint32_t designed_ground_pieces_ = 0;
  std::string error_;
};

// Slabs in the order AddBridge and AddPlatformAndRooftop push them.
enum SlabIndex { kWestRamp, kDeck, kEastRamp, kPlatform, kPlatformRamp, kRooftop, kSlabCount };

void LandmarkProbes(const DemoPlan& plan, TruthBuilder& b) {
  const Landmarks& l = plan.landmarks;
  const std::vector<Slab>& s = plan.slabs;
  const int ford_z = l.ford.z0 + l.ford.depth() / 2;
  b.Ground(kProbeWestBank, l.west_walk.x1 - 1, ford_z, kIslandTown);
  b.Ground(kProbeEastBank, l.east_walk.x0, ford_z, kIslandTown);
  b.Ground(kProbeFord, l.ford.x0 + l.ford.width() / 2, ford_z, kIslandTown);
  // Same x, z on two floors: the walkway under the deck and the deck above it.
  const int deck_z = l.deck.z0 + l.deck.depth() / 2;
  b.Ground(kProbeWalkwayUnderBridge, l.west_walk.x1 - 1, deck_z, kIslandTown);
  b.OnSlab(kProbeDeckOverWalkway, s[kDeck], l.west_walk.x1 - 1 + kProbeDx, deck_z + kProbeDz,
           kIslandTown);
  b.OnSlab(kProbeDeckCentre, s[kDeck], l.river.cx() + kProbeDx, deck_z + kProbeDz, kIslandTown);
  b.OnSlab(kProbeBridgeRamp, s[kWestRamp], l.west_ramp.cx() + kProbeDx, deck_z + kProbeDz,
           kIslandTown);
  b.OnSlab(kProbePlatformTop, s[kPlatform], l.platform.cx() + kProbeDx, l.platform.cz() + kProbeDz,
           kIslandTown);
  b.OnSlab(kProbePlatformRamp, s[kPlatformRamp], l.platform_ramp.cx() + kProbeDx,
           l.platform_ramp.cz() + kProbeDz, kIslandTown);
  b.Ground(kProbeLadderFoot, l.rooftop.x0 + l.rooftop.width() / 2, l.rooftop.z0 - 1, kIslandTown);
  b.OnSlab(kProbeRooftop, s[kRooftop], l.rooftop.cx() + kProbeDx, l.rooftop.cz() + kProbeDz,
           kIslandRooftop);
  b.Ground(kProbeCourtyard, l.courtyard.x0 + 1, l.courtyard.z0 + 1, kIslandCourtyard);
  b.Ground(kProbeIslet, l.islet.x0, l.islet.z0, kIslandIslet);
  for (int ramp : {kWestRamp, kEastRamp, kPlatformRamp}) b.RampFoot(s[ramp], kIslandTown);
}

}  // namespace

absl::StatusOr<DemoWorldTruth> DescribeTruth(const DemoPlan& plan) {
  if (plan.slabs.size() != kSlabCount) return absl::InternalError("demo world: missing slabs");
  DemoWorldTruth truth;
  truth.size = plan.n * plan.unit;
  truth.cell = plan.cell;
  TruthBuilder b(plan, &truth);
  b.Island("town", 0);
  b.Island("rooftop (ladder)", 0);
  b.Island("walled courtyard", 1);
  b.Island("river islet", 2);
  for (size_t i = 0; i < plan.courtyards.size(); ++i) {
    b.Island(absl::StrFormat("courtyard building %d", i + 1), static_cast<uint32_t>(3 + i));
  }
  LandmarkProbes(plan, b);
  for (size_t i = 0; i < plan.courtyards.size(); ++i) {
    const UnitRect inner = plan.courtyards[i].Inset(1);
    b.Ground(absl::StrFormat("courtyard building %d", i + 1), inner.x0, inner.z0,
             static_cast<uint32_t>(kFirstCourtyardBuilding + i));
  }
  b.Streets(plan.seed);
  // The rooftop is a slab, not ground: every other island is a piece of ground.
  b.DesignedGroundPieces(truth.islands.size() - 1);
  if (absl::Status s = b.Finish(); !s.ok()) return s;
  AppendGroundSeams(plan, &truth.seams);
  AppendSlabSeams(plan, &truth.seams);
  return truth;
}

}  // namespace waymesh::demo
