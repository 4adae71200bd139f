// Polygon references as inputs (as Detour's queries take them): FindPath answers with the
// polygons it put start and end on and the map version; a caller passing them back skips
// re-snapping and pins overlapping floors; a reference from before a reload is refused as
// STALE_POLYGON_REF, one that names no polygon as UNKNOWN_POLYGON_REF.

#include "error_details.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/server/error_model.h"

namespace waymesh::testing {
namespace {

class PolygonRefsTest : public ServedMapsTest {
 protected:
  grpc::Status Path(const v1::FindPathRequest& request, v1::FindPathResponse* out) {
    return Unary(*stub_, &NavigationStub::FindPath, request, out);
  }

  // The polygon NearestPoint puts `pos` on.
  uint64_t PolygonAt(Vec3 pos) {
    v1::NearestPointRequest request;
    request.set_map_id("town");
    SetVec(pos, request.mutable_position());
    SetVec({0.2f, 0.5f, 0.2f}, request.mutable_extents());
    v1::NearestPointResponse found;
    EXPECT_TRUE(Unary(*stub_, &NavigationStub::NearestPoint, request, &found).ok());
    EXPECT_TRUE(found.found());
    return found.poly();
  }
};

TEST_F(PolygonRefsTest, ReturnedReferencesGiveTheSamePathWithoutSnapping) {
  v1::FindPathResponse snapped;
  ASSERT_TRUE(Path(BankToBankRequest(), &snapped).ok());
  ASSERT_EQ(snapped.status(), v1::PATH_STATUS_COMPLETE);
  EXPECT_EQ(snapped.map_version(), 1u);
  EXPECT_NE(snapped.start_poly(), 0u);
  EXPECT_NE(snapped.end_poly(), 0u);
  EXPECT_EQ(snapped.start_poly(), snapped.waypoints(0).poly());

  v1::FindPathRequest with_refs = BankToBankRequest();
  with_refs.set_start_poly(snapped.start_poly());
  with_refs.set_end_poly(snapped.end_poly());
  v1::FindPathResponse again;
  ASSERT_TRUE(Path(with_refs, &again).ok());
  EXPECT_EQ(again.SerializeAsString(), snapped.SerializeAsString());
}

// On overlapping floors the reference says which floor the caller means: the position on the
// bridge deck, pinned to the walkway polygon under it, starts the path on the walkway.
TEST_F(PolygonRefsTest, AReferencePinsTheFloor) {
  const Vec3 deck = ProbeAt(Town(), kProbeDeckOverWalkway);
  const Vec3 walkway = ProbeAt(Town(), kProbeWalkwayUnderBridge);
  ASSERT_GT(deck.y - walkway.y, 2.0f);
  v1::FindPathRequest request = TownPathRequest(deck, ProbeAt(Town(), kProbeEastBank));
  v1::FindPathResponse unpinned, pinned;
  ASSERT_TRUE(Path(request, &unpinned).ok());
  request.set_start_poly(PolygonAt(walkway));
  ASSERT_TRUE(Path(request, &pinned).ok());
  ASSERT_GE(pinned.waypoints_size(), 2);
  EXPECT_EQ(pinned.start_poly(), request.start_poly());
  EXPECT_NEAR(pinned.waypoints(0).position().y(), walkway.y, 0.5f);
  EXPECT_NEAR(unpinned.waypoints(0).position().y(), deck.y, 0.5f);
}

TEST_F(PolygonRefsTest, AReferenceFromBeforeAReloadIsStale) {
  v1::FindPathResponse before;
  ASSERT_TRUE(Path(BankToBankRequest(), &before).ok());
  maps_.Write("town.wmesh", Town(200, 8).bytes);  // Town() is Town(200, 7)
  ASSERT_TRUE(server_->maps().ReloadNow().ok());

  v1::FindPathRequest stale = BankToBankRequest();
  stale.set_start_poly(before.start_poly());
  v1::FindPathResponse refused;
  const grpc::Status status = Path(stale, &refused);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::FAILED_PRECONDITION) << status.error_message();
  EXPECT_EQ(ReasonOf(status), server::reason::kStalePolygonRef);

  v1::FindPathResponse after;  // snapping again works, on the new version
  ASSERT_TRUE(Path(BankToBankRequest(), &after).ok());
  EXPECT_EQ(after.map_version(), 2u);
}

TEST_F(PolygonRefsTest, AReferenceToNoPolygonIsUnknown) {
  v1::FindPathRequest request = BankToBankRequest();
  request.set_end_poly(PolyRef(0, PolyRef::kMaxPoly, kFirstGeneration).bits());
  v1::FindPathResponse refused;
  const grpc::Status status = Path(request, &refused);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << status.error_message();
  EXPECT_EQ(ReasonOf(status), server::reason::kUnknownPolygonRef);
}

}  // namespace
}  // namespace waymesh::testing
