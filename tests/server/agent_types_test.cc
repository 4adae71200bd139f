// Maps baked per agent type (`<map_id>@<agent_type>.wmesh`, Unity's agentTypeID) are served
// side by side: requests name the agent type, GetMapInfo lists a map's agent types, ListMaps
// has one entry per bake, and an unknown agent type is NOT_FOUND AGENT_TYPE_NOT_FOUND.

#include "error_details.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/server/error_model.h"

namespace waymesh::testing {
namespace {

using ::testing::ElementsAre;

// Two different towns stand in for two bakes of one map: the answers tell which file served.
const DemoTown& HumanBake() { return Town(200, 7); }
const DemoTown& OgreBake() { return Town(200, 8); }

class AgentTypesTest : public ServedMapsTest {
 protected:
  void WriteMaps() override {
    ASSERT_NE(HumanBake().map->info().source_hash, OgreBake().map->info().source_hash);
    maps_.Write("town.wmesh", HumanBake().bytes);
    maps_.Write("town@ogre.wmesh", OgreBake().bytes);
  }

  grpc::Status Info(const std::string& agent_type, v1::GetMapInfoResponse* out) {
    v1::GetMapInfoRequest request;
    request.set_map_id("town");
    request.set_agent_type(agent_type);
    return Unary(*stub_, &NavigationStub::GetMapInfo, request, out);
  }
};

TEST_F(AgentTypesTest, EachAgentTypeIsServedFromItsOwnBake) {
  v1::GetMapInfoResponse human, ogre;
  ASSERT_TRUE(Info("", &human).ok());
  ASSERT_TRUE(Info("ogre", &ogre).ok());
  EXPECT_EQ(human.map().source_hash(), HumanBake().map->info().source_hash);
  EXPECT_EQ(ogre.map().source_hash(), OgreBake().map->info().source_hash);
  EXPECT_EQ(ogre.map().map_id(), "town");
  EXPECT_EQ(ogre.map().agent_type(), "ogre");
  EXPECT_THAT(human.map().agent_types(), ElementsAre("", "ogre"));
  EXPECT_THAT(ogre.map().agent_types(), ElementsAre("", "ogre"));
}

TEST_F(AgentTypesTest, PathsAreFoundOnTheNamedBake) {
  const Vec3 start = ProbeAt(OgreBake(), kProbeWestBank);
  const Vec3 end = ProbeAt(OgreBake(), kProbeEastBank);
  v1::FindPathRequest request = TownPathRequest(start, end);
  request.set_agent_type("ogre");
  v1::FindPathResponse served;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::FindPath, request, &served).ok());
  NavQuery direct(OgreBake().map);
  PathResult expected;
  ASSERT_TRUE(
      direct.FindPath(start, end, QueryFilter(OgreBake().map->info()), PathOptions(), &expected)
          .ok());
  EXPECT_FLOAT_EQ(served.length(), static_cast<float>(expected.length));
  EXPECT_EQ(served.waypoints_size(), static_cast<int>(expected.waypoints.size()));
}

TEST_F(AgentTypesTest, ListMapsHasOneEntryPerBake) {
  v1::ListMapsResponse list;
  ASSERT_TRUE(Unary(*stub_, &NavigationStub::ListMaps, v1::ListMapsRequest(), &list).ok());
  ASSERT_EQ(list.maps_size(), 2);
  EXPECT_EQ(list.maps(0).agent_type(), "");
  EXPECT_EQ(list.maps(1).agent_type(), "ogre");
}

TEST_F(AgentTypesTest, AnUnknownAgentTypeIsNotFoundAndSaysWhichThereAre) {
  v1::GetMapInfoResponse info;
  const grpc::Status status = Info("dragon", &info);
  ASSERT_EQ(status.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ReasonOf(status), server::reason::kAgentTypeNotFound);
  EXPECT_THAT(status.error_message(), ::testing::HasSubstr("ogre"));
  // A malformed agent type is a bad request, not an unknown one.
  EXPECT_EQ(Info("../ogre", &info).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace waymesh::testing
