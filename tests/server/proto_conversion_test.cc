// Wire <-> core conversions: path statuses as the API defines them, request defaults and caps,
// and filters built on the map's own area costs.

#include "waymesh/server/proto_conversion.h"

#include "gtest/gtest.h"

namespace waymesh::server {
namespace {

TEST(ProtoConversionTest, EveryQueryStatusHasItsWireStatus) {
  EXPECT_EQ(ToPathStatus(QueryStatus::kComplete), v1::PATH_STATUS_COMPLETE);
  EXPECT_EQ(ToPathStatus(QueryStatus::kPartial), v1::PATH_STATUS_PARTIAL);
  EXPECT_EQ(ToPathStatus(QueryStatus::kNoPath), v1::PATH_STATUS_NO_PATH);
  EXPECT_EQ(ToPathStatus(QueryStatus::kStartOffMesh), v1::PATH_STATUS_START_OFF_MESH);
  EXPECT_EQ(ToPathStatus(QueryStatus::kEndOffMesh), v1::PATH_STATUS_END_OFF_MESH);
}

TEST(ProtoConversionTest, NoPathAnswersCarryNoWaypointsPartialOnesDo) {
  PathResult r;
  r.status = QueryStatus::kNoPath;
  r.waypoints.resize(3);
  r.length = 12;
  v1::FindPathResponse out;
  ToProto(r, &out);
  EXPECT_EQ(out.status(), v1::PATH_STATUS_NO_PATH);
  EXPECT_EQ(out.waypoints_size(), 0);
  EXPECT_EQ(out.length(), 0);
  r.status = QueryStatus::kPartial;
  v1::FindPathResponse partial;
  ToProto(r, &partial);
  EXPECT_EQ(partial.status(), v1::PATH_STATUS_PARTIAL);
  EXPECT_EQ(partial.waypoints_size(), 3);
  EXPECT_EQ(partial.length(), 12);
}

TEST(ProtoConversionTest, PathOptionDefaultsAndServerCap) {
  v1::PathOptions o;
  PathOptions unset = ToPathOptions(o, 5000);
  EXPECT_EQ(unset.half_extents, kDefaultPathExtents);
  EXPECT_EQ(unset.max_nodes, 5000u);
  o.set_max_nodes(100000);
  EXPECT_EQ(ToPathOptions(o, 5000).max_nodes, 5000u);
  o.set_max_nodes(10);
  o.set_agent_radius(0.4f);
  o.set_max_waypoints(7);
  o.mutable_extents()->set_x(1);
  o.mutable_extents()->set_y(2);
  o.mutable_extents()->set_z(3);
  const PathOptions set = ToPathOptions(o, 5000);
  EXPECT_EQ(set.max_nodes, 10u);
  EXPECT_EQ(set.clearance, 0.4f);
  EXPECT_EQ(set.max_waypoints, 7u);
  EXPECT_EQ(set.half_extents, (Vec3{1, 2, 3}));
  EXPECT_EQ(set.mode, PathMode::kApproximate);  // PATH_MODE_UNSPECIFIED
  o.set_mode(v1::PATH_MODE_APPROXIMATE);
  EXPECT_EQ(ToPathOptions(o, 5000).mode, PathMode::kApproximate);
  o.set_mode(v1::PATH_MODE_EXACT);
  EXPECT_EQ(ToPathOptions(o, 5000).mode, PathMode::kExact);
}

TEST(ProtoConversionTest, FilterStartsFromTheMapsAreaCosts) {
  MapInfo info;
  info.areas[3].cost = 0.5f;
  info.areas[4].cost = 5.0f;
  v1::QueryFilter f;
  (*f.mutable_area_costs())[4] = 2.0f;
  f.set_area_mask(~(uint64_t{1} << 7));
  f.set_exclude_flags(0x2);
  const QueryFilter q = ToQueryFilter(f, info);
  EXPECT_EQ(q.Cost(3), 0.5f);  // the map's
  EXPECT_EQ(q.Cost(4), 2.0f);  // the request's override
  EXPECT_FALSE(q.Passes(7, 0));
  EXPECT_TRUE(q.Passes(3, 0x1));
  EXPECT_FALSE(q.Passes(3, 0x2));
  const QueryFilter unset = ToQueryFilter(v1::QueryFilter(), info);
  EXPECT_TRUE(unset.Passes(7, 0xFFFF));
  EXPECT_EQ(unset.include_flags(), QueryFilter::kAllFlags);
}

}  // namespace
}  // namespace waymesh::server
