#include "waymesh/server/proto_conversion.h"

#include <algorithm>

namespace waymesh::server {

QueryFilter ToQueryFilter(const v1::QueryFilter& filter, const MapInfo& info) {
  QueryFilter out(info);
  if (filter.has_area_mask()) out.set_area_mask(filter.area_mask());
  for (const auto& [area, cost] : filter.area_costs()) out.SetAreaCost(int(area), cost);
  if (filter.has_include_flags()) out.set_include_flags(uint16_t(filter.include_flags()));
  if (filter.has_exclude_flags()) out.set_exclude_flags(uint16_t(filter.exclude_flags()));
  return out;
}

PathOptions ToPathOptions(const v1::PathOptions& options, uint32_t server_max_nodes) {
  PathOptions out;
  out.half_extents = ExtentsOr(options.has_extents(), options.extents(), kDefaultPathExtents);
  out.max_nodes =
      options.max_nodes() == 0 ? server_max_nodes : std::min(options.max_nodes(), server_max_nodes);
  out.area_crossings = options.area_crossings();
  out.allow_partial = options.allow_partial();
  out.max_waypoints = options.max_waypoints();
  out.clearance = options.agent_radius();
  out.mode = options.mode() == v1::PATH_MODE_EXACT ? PathMode::kExact : PathMode::kApproximate;
  return out;
}

v1::PathStatus ToPathStatus(QueryStatus status) {
  switch (status) {
    case QueryStatus::kComplete:
      return v1::PATH_STATUS_COMPLETE;
    case QueryStatus::kPartial:
      return v1::PATH_STATUS_PARTIAL;
    case QueryStatus::kNoPath:
      return v1::PATH_STATUS_NO_PATH;
    case QueryStatus::kStartOffMesh:
      return v1::PATH_STATUS_START_OFF_MESH;
    case QueryStatus::kEndOffMesh:
      return v1::PATH_STATUS_END_OFF_MESH;
  }
  return v1::PATH_STATUS_UNSPECIFIED;
}

void ToProto(const PathResult& result, v1::FindPathResponse* out) {
  const v1::PathStatus status = ToPathStatus(result.status);
  out->set_status(status);
  out->set_nodes_expanded(result.nodes_expanded);
  if (result.status != QueryStatus::kStartOffMesh) {
    ToProto(result.start.pos, out->mutable_snapped_start());
    out->set_start_poly(result.start.poly.bits());
  }
  if (result.status != QueryStatus::kStartOffMesh && result.status != QueryStatus::kEndOffMesh) {
    ToProto(result.end.pos, out->mutable_snapped_end());
    out->set_end_poly(result.end.poly.bits());
  }
  if (status != v1::PATH_STATUS_COMPLETE && status != v1::PATH_STATUS_PARTIAL) return;
  out->set_length(static_cast<float>(result.length));
  out->set_truncated(result.truncated);
  out->mutable_waypoints()->Reserve(static_cast<int>(result.waypoints.size()));
  for (const Waypoint& w : result.waypoints) {
    v1::Waypoint* p = out->add_waypoints();
    ToProto(w.pos, p->mutable_position());
    p->set_flags(w.flags);
    p->set_area(w.area);
    p->set_poly(w.poly.bits());
  }
}

void ToProto(const RaycastResult& result, v1::RaycastResponse* out) {
  const bool on_mesh = result.status != QueryStatus::kStartOffMesh;
  out->set_start_on_mesh(on_mesh);
  if (!on_mesh) return;
  out->set_hit(result.hit);
  out->set_t(result.t);
  ToProto(result.hit_point, out->mutable_point());
  if (result.hit) ToProto(result.normal, out->mutable_normal());
}

void ToProto(const MapInfo& info, v1::MapInfo* out) {
  out->set_name(info.name);
  out->set_source_hash(info.source_hash);
  out->set_build_tool_version(info.build_tool_version);
  out->set_vertices(info.vertex_count);
  out->set_polygons(info.polygon_count);
  out->set_islands(static_cast<uint32_t>(info.islands.size()));
  out->set_walkable_area(info.walkable_area);
  ToProto(info.bounds.min, out->mutable_bounds_min());
  ToProto(info.bounds.max, out->mutable_bounds_max());
  out->set_tile_size(info.tile_size);
  for (int a = 0; a < kMaxAreas; ++a) {
    if (!info.areas[a].used) continue;
    v1::Area* area = out->add_areas();
    area->set_id(a);
    area->set_name(info.areas[a].name);
    area->set_cost(info.areas[a].cost);
  }
  out->set_agent_radius(info.agent.radius);
  out->set_agent_height(info.agent.height);
}

}  // namespace waymesh::server
