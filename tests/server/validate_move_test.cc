// ValidateMove over TCP on the demo town's landmarks: walking through the courtyard wall, moves
// starting or ending off the mesh, moves longer than allowed, and the two floors at the bridge
// (deck 5 m above the riverside walkway), which share plan-view positions.

#include <optional>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "support/query_points.h"
#include "test_server.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::testing {
namespace {

using Verdict = v1::ValidateMoveResponse;

class ValidateMoveTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    maps_ = new TempDir();
    maps_->Write("town.wmesh", Town().bytes);
    server_ = StartServer(TestConfig(maps_->path())).release();
  }
  static void TearDownTestSuite() {
    delete server_;
    delete maps_;
  }
  void SetUp() override {
    ASSERT_NE(server_, nullptr);
    stub_ = v1::NavigationService::NewStub(Dial(*server_));
  }

  Verdict Move(Vec3 from, Vec3 to, float max_distance = 0) {
    v1::ValidateMoveRequest request;
    request.set_map_id("town");
    SetVec(from, request.mutable_start());
    SetVec(to, request.mutable_end());
    request.set_max_distance(max_distance);
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    Verdict response;
    const grpc::Status status = stub_->ValidateMove(&ctx, request, &response);
    EXPECT_TRUE(status.ok()) << status.error_message();
    return response;
  }

  static TempDir* maps_;
  static server::NavigationServer* server_;
  std::unique_ptr<v1::NavigationService::Stub> stub_;
};

TempDir* ValidateMoveTest::maps_ = nullptr;
server::NavigationServer* ValidateMoveTest::server_ = nullptr;

// A walkable point just outside the courtyard's wall: west of the inside probe, on the mesh,
// on another island (the wall ring has no walkable surface and no gap).
std::optional<Vec3> OutsideCourtyard(const DemoTown& town, Vec3 inside) {
  NavQuery q(town.map);
  const QueryFilter all;
  const Vec3 box{0.2f, 1.0f, 0.2f};
  const auto inside_poly = testing::Nearest(q, inside, box, all);
  if (!inside_poly) return std::nullopt;
  const uint32_t inside_island =
      town.map->tile(inside_poly->poly.tile()).poly_island[inside_poly->poly.poly()];
  for (float d = 0.5f; d < 12; d += 0.25f) {
    const Vec3 p = inside - Vec3{d, 0, 0};
    const auto hit = testing::Nearest(q, p, box, all);
    if (!hit || DistanceXZ(hit->pos, p) > 0.01f) continue;
    if (town.map->tile(hit->poly.tile()).poly_island[hit->poly.poly()] != inside_island) {
      return hit->pos;
    }
  }
  return std::nullopt;
}

TEST_F(ValidateMoveTest, ThroughTheCourtyardWallIsBlocked) {
  const Vec3 inside = ProbeAt(Town(), kProbeCourtyard);
  const std::optional<Vec3> outside = OutsideCourtyard(Town(), inside);
  ASSERT_TRUE(outside.has_value()) << "no walkable ground west of the courtyard wall";
  const Verdict in = Move(*outside, inside);
  EXPECT_EQ(in.verdict(), Verdict::VERDICT_INVALID);
  EXPECT_EQ(in.reason(), Verdict::REASON_BLOCKED_BY_WALL);
  // Rubber-banded to the outside of the wall: short of the destination, not past it.
  const Vec3 reached = GetVec(in.reached());
  EXPECT_GT(DistanceXZ(reached, inside), 0.3f);
  EXPECT_LT(DistanceXZ(reached, *outside), DistanceXZ(*outside, inside));
  const Verdict out = Move(inside, *outside);
  EXPECT_EQ(out.reason(), Verdict::REASON_BLOCKED_BY_WALL);
}

TEST_F(ValidateMoveTest, OffMeshEnds) {
  const Vec3 west = ProbeAt(Town(), kProbeWestBank);
  const Verdict from = Move(west + Vec3{0, 60, 0}, west);
  EXPECT_EQ(from.verdict(), Verdict::VERDICT_INVALID);
  EXPECT_EQ(from.reason(), Verdict::REASON_START_OFF_MESH);
  const Verdict to = Move(west, west + Vec3{0.5f, 60, 0});
  EXPECT_EQ(to.verdict(), Verdict::VERDICT_INVALID);
  EXPECT_EQ(to.reason(), Verdict::REASON_END_OFF_MESH);
}

TEST_F(ValidateMoveTest, TooFarIsRubberBandedToTheAllowedDistance) {
  const Vec3 west = ProbeAt(Town(), kProbeWestBank);
  const Vec3 ahead = west + Vec3{0, 0, 3};
  ASSERT_EQ(Move(west, ahead).reason(), Verdict::REASON_UNSPECIFIED) << "the test needs open ground";
  const Verdict far = Move(west, ahead, /*max_distance=*/1.0f);
  EXPECT_EQ(far.verdict(), Verdict::VERDICT_INVALID);
  EXPECT_EQ(far.reason(), Verdict::REASON_TOO_FAR);
  EXPECT_NEAR(far.distance(), 1.0f, 0.05f);
  EXPECT_EQ(Move(west, ahead, /*max_distance=*/3.5f).verdict(), Verdict::VERDICT_VALID);
}

TEST_F(ValidateMoveTest, BridgeDeckAndWalkwayAreDifferentFloors) {
  const Vec3 deck_centre = ProbeAt(Town(), kProbeDeckCentre);
  const Vec3 deck_above = ProbeAt(Town(), kProbeDeckOverWalkway);
  const Vec3 walkway = ProbeAt(Town(), kProbeWalkwayUnderBridge);
  ASSERT_GT(deck_above.y - walkway.y, 3.0f) << "the deck passes above the walkway";

  // Along the deck: fine, and the mover stays up on the deck.
  const Verdict along = Move(deck_centre, deck_above);
  EXPECT_EQ(along.verdict(), Verdict::VERDICT_VALID) << along.reason();
  EXPECT_NEAR(along.reached().y(), deck_above.y, 0.3f);

  // From the walkway to the deck spot right above: the walk ends under the deck.
  const Verdict up = Move(walkway, deck_above);
  EXPECT_EQ(up.verdict(), Verdict::VERDICT_INVALID);
  EXPECT_EQ(up.reason(), Verdict::REASON_WRONG_FLOOR);
  EXPECT_NEAR(up.reached().y(), walkway.y, 0.3f);

  // From the deck down to the walkway spot below: the walk ends on the deck.
  const Verdict down = Move(deck_above, walkway);
  EXPECT_EQ(down.verdict(), Verdict::VERDICT_INVALID);
  EXPECT_EQ(down.reason(), Verdict::REASON_WRONG_FLOOR);
  EXPECT_NEAR(down.reached().y(), deck_above.y, 0.3f);
}

}  // namespace
}  // namespace waymesh::testing
