// The bridge: a deck 5 m up spanning the river and both riverside walkways, so the walkways pass
// under it (two floors in plan view), reached by a ramp from each bank.

#include "demo_world_structures.h"

namespace waymesh::demo {
namespace {

// Ramps and deck use different steps from each other and from the ground, so both the
// ramp-ground and the ramp-deck seams have hanging vertices.
constexpr int kBridgeRampStep = 3;
constexpr int kDeckStep = 2;

}  // namespace

void AddBridge(DemoPlan* plan) {
  const Landmarks& l = plan->landmarks;
  plan->slabs.push_back(
      {l.west_ramp, 0.0f, kDeckHeight, Rise::kPosX, kDemoAreaRoad, kBridgeRampStep});
  plan->slabs.push_back({l.deck, kDeckHeight, kDeckHeight, Rise::kFlat, kDemoAreaRoad, kDeckStep});
  plan->slabs.push_back(
      {l.east_ramp, 0.0f, kDeckHeight, Rise::kNegX, kDemoAreaRoad, kBridgeRampStep});
}

}  // namespace waymesh::demo
