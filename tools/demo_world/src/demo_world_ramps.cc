// Ramps and platforms: a platform reached by a ramp, and a rooftop reached only by a ladder
// (an off-mesh link), with a one-way drop back to the street.

#include "demo_world_structures.h"

namespace waymesh::demo {
namespace {

constexpr int kPlatformStep = 2;
constexpr int kPlatformRampStep = 3;
constexpr int kRooftopStep = 4;
// How far link ends sit from the wall they cross (metres), on the ground and on the roof.
constexpr double kLadderInset = 0.6;
constexpr double kDropLanding = 0.8;
constexpr float kLinkRadius = 0.5f;

}  // namespace

void AddPlatformAndRooftop(DemoPlan* plan) {
  const Landmarks& l = plan->landmarks;
  plan->slabs.push_back(
      {l.platform, kPlatformHeight, kPlatformHeight, Rise::kFlat, kDemoAreaGrass, kPlatformStep});
  // The ramp touches the platform's north edge and climbs southwards (towards -z).
  plan->slabs.push_back(
      {l.platform_ramp, 0.0f, kPlatformHeight, Rise::kNegZ, kDemoAreaGrass, kPlatformRampStep});
  plan->slabs.push_back(
      {l.rooftop, kRooftopHeight, kRooftopHeight, Rise::kFlat, kDemoAreaGrass, kRooftopStep});

  // Ladder up the south wall, usable both ways; cost -1: length times the area's cost.
  const float x = static_cast<float>(plan->World(l.rooftop.x0 + l.rooftop.width() / 2 + 0.3));
  const double south = plan->World(l.rooftop.z0);
  SourceOffMeshLink ladder;
  ladder.start = {x, 0.0f, static_cast<float>(south - kLadderInset)};
  ladder.end = {x, kRooftopHeight, static_cast<float>(south + kLadderInset)};
  ladder.radius = kLinkRadius;
  ladder.bidirectional = true;
  ladder.area = kDemoAreaJump;
  plan->links.push_back(ladder);

  // A drop off the north edge: down only.
  const double north = plan->World(l.rooftop.z1);
  SourceOffMeshLink drop = ladder;
  drop.start = {x, kRooftopHeight, static_cast<float>(north - kLadderInset)};
  drop.end = {x, 0.0f, static_cast<float>(north + kDropLanding)};
  drop.bidirectional = false;
  plan->links.push_back(drop);
}

}  // namespace waymesh::demo
