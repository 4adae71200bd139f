#pragma once
// Conversions between the wire types (waymesh.v1) and core's query types. Requests must have
// passed request_validation first: these functions trust ranges and only fill in defaults.

#include <cstdint>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/raycast_result.h"
#include "waymesh/core/vec3.h"
#include "waymesh/v1/navigation.pb.h"

namespace waymesh::server {

// Default search box half sizes when a request leaves `extents` unset (see the proto).
inline constexpr Vec3 kDefaultPathExtents{2.0f, 4.0f, 2.0f};  // FindPath, NearestPoint, center
inline constexpr Vec3 kDefaultMoveExtents{0.5f, 2.0f, 0.5f};  // ValidateMove, Raycast

inline Vec3 FromProto(const v1::Vec3& v) { return {v.x(), v.y(), v.z()}; }
inline void ToProto(Vec3 v, v1::Vec3* out) {
  out->set_x(v.x);
  out->set_y(v.y);
  out->set_z(v.z);
}
// `v` when the request set it, else `fallback`.
inline Vec3 ExtentsOr(bool present, const v1::Vec3& v, Vec3 fallback) {
  return present ? FromProto(v) : fallback;
}

// The map's area costs overridden by the request's mask, costs and flags.
QueryFilter ToQueryFilter(const v1::QueryFilter& filter, const MapInfo& info);

// Core path options; max_nodes is capped by `server_max_nodes` (0 in the request = that cap).
PathOptions ToPathOptions(const v1::PathOptions& options, uint32_t server_max_nodes);

// The wire status of a query status.
v1::PathStatus ToPathStatus(QueryStatus status);

// Fills a FindPath answer from core's result (waypoints are left out for NO_PATH).
void ToProto(const PathResult& result, v1::FindPathResponse* out);

// Fills a Raycast answer.
void ToProto(const RaycastResult& result, v1::RaycastResponse* out);

// Metadata and counts of a map. The caller fills what MapInfo does not hold: map_id, tiles,
// resident_tiles, file_bytes, loaded_unix_ms, reloads.
void ToProto(const MapInfo& info, v1::MapInfo* out);

}  // namespace waymesh::server
