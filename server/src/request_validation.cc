#include "waymesh/server/request_validation.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "waymesh/core/tolerances.h"
#include "waymesh/io/number_text.h"
#include "waymesh/server/error_model.h"

namespace waymesh::server {
namespace {

// "<prefix><field>: <problem>" as INVALID_ARGUMENT with its field violation.
absl::Status Invalid(absl::string_view prefix, absl::string_view field, absl::string_view problem) {
  return FieldViolation(absl::StrCat(prefix, field), problem);
}

absl::Status CheckFinite(float v, absl::string_view prefix, absl::string_view field) {
  if (std::isfinite(v)) return absl::OkStatus();
  return Invalid(prefix, field, absl::StrCat(NumberText(v), " is not a finite number"));
}

// Finite and within [lo, hi] (lo_open: lo itself excluded).
absl::Status CheckRange(float v, float lo, bool lo_open, float hi, absl::string_view prefix,
                        absl::string_view field, absl::string_view unit = "") {
  if (absl::Status s = CheckFinite(v, prefix, field); !s.ok()) return s;
  if ((lo_open ? v > lo : v >= lo) && v <= hi) return absl::OkStatus();
  return Invalid(prefix, field,
                 absl::StrCat(NumberText(v), " must be in ", lo_open ? "(" : "[", NumberText(lo),
                              ", ", NumberText(hi), "]", unit.empty() ? "" : " ", unit));
}

// A required position: present, finite, no coordinate beyond tol::kMaxCoordinate.
absl::Status CheckPosition(bool present, const v1::Vec3& v, absl::string_view prefix,
                           absl::string_view field) {
  if (!present) return Invalid(prefix, field, "is required");
  const std::string base(field);
  for (const auto& [name, value] : {std::pair{".x", v.x()}, {".y", v.y()}, {".z", v.z()}}) {
    if (absl::Status s = CheckRange(value, -tol::kMaxCoordinate, false, tol::kMaxCoordinate, prefix,
                                    absl::StrCat(base, name), "metres");
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

// Optional half extents: when present, every component in (0, kMaxExtent].
absl::Status CheckExtents(bool present, const v1::Vec3& v, absl::string_view prefix,
                          absl::string_view field) {
  if (!present) return absl::OkStatus();
  const std::string base(field);
  for (const auto& [name, value] : {std::pair{".x", v.x()}, {".y", v.y()}, {".z", v.z()}}) {
    if (absl::Status s =
            CheckRange(value, 0, true, kMaxExtent, prefix, absl::StrCat(base, name), "metres");
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

absl::Status CheckFilter(const v1::QueryFilter& f, absl::string_view prefix,
                         absl::string_view field) {
  for (const auto& [area, cost] : f.area_costs()) {
    const std::string name = absl::StrCat(field, ".area_costs[", area, "]");
    if (area >= 64) return Invalid(prefix, name, "area id must be 0..63");
    if (absl::Status s = CheckRange(cost, 0, true, kMaxAreaCost, prefix, name); !s.ok()) return s;
  }
  if (f.has_include_flags() && f.include_flags() > kMaxPolyFlags) {
    return Invalid(
        prefix, absl::StrCat(field, ".include_flags"),
        absl::StrFormat("0x%x does not fit the 16 polygon flag bits", f.include_flags()));
  }
  if (f.has_exclude_flags() && f.exclude_flags() > kMaxPolyFlags) {
    return Invalid(
        prefix, absl::StrCat(field, ".exclude_flags"),
        absl::StrFormat("0x%x does not fit the 16 polygon flag bits", f.exclude_flags()));
  }
  return absl::OkStatus();
}

absl::Status CheckPathOptions(const v1::PathOptions& o, absl::string_view prefix) {
  if (absl::Status s = CheckExtents(o.has_extents(), o.extents(), prefix, "options.extents");
      !s.ok()) {
    return s;
  }
  if (!v1::PathMode_IsValid(o.mode())) {
    return Invalid(prefix, "options.mode", absl::StrFormat("%d is not a PathMode", o.mode()));
  }
  if (o.mode() == v1::PATH_MODE_EXACT && o.agent_radius() != 0) {
    return Invalid(prefix, "options.agent_radius",
                   "must be 0 in exact mode: a shortest path touches the corners it turns at");
  }
  if (o.max_waypoints() > kMaxWaypoints) {
    return Invalid(
        prefix, "options.max_waypoints",
        absl::StrFormat("%d is above the limit of %d", o.max_waypoints(), kMaxWaypoints));
  }
  return CheckRange(o.agent_radius(), 0, false, kMaxAgentRadius, prefix, "options.agent_radius",
                    "metres");
}

bool IsMapIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '.' || c == '-';
}

}  // namespace

absl::Status ValidateQueryFilter(const v1::QueryFilter& filter, absl::string_view field) {
  return CheckFilter(filter, "", field);
}

absl::Status ValidateMapId(absl::string_view id, absl::string_view field) {
  if (id.empty()) return Invalid("", field, "is required");
  if (id.size() > kMaxMapIdLength) {
    return Invalid(
        "", field,
        absl::StrFormat("is %d characters long, the limit is %d", id.size(), kMaxMapIdLength));
  }
  for (size_t i = 0; i < id.size(); ++i) {
    if (!IsMapIdChar(id[i])) {
      return Invalid("", field,
                     absl::StrFormat("character %d (0x%02x) is not one of [A-Za-z0-9_.-]; map "
                                     "ids are file names, never paths",
                                     i, static_cast<unsigned char>(id[i])));
    }
  }
  if (id.find("..") != absl::string_view::npos || id == ".") {
    return Invalid("", field, "must not be '.' or contain '..'");
  }
  return absl::OkStatus();
}

absl::Status ValidateAgentType(absl::string_view agent_type, absl::string_view field) {
  if (agent_type.empty()) return absl::OkStatus();
  return ValidateMapId(agent_type, field);
}

absl::Status ValidateLayerName(absl::string_view layer, absl::string_view field) {
  if (layer.empty()) return Invalid("", field, "is required");
  if (layer.size() > kMaxLayerNameLength) {
    return Invalid("", field,
                   absl::StrFormat("is %d characters long, the limit is %d", layer.size(),
                                   kMaxLayerNameLength));
  }
  for (size_t i = 0; i < layer.size(); ++i) {
    if (!IsMapIdChar(layer[i])) {
      return Invalid("", field,
                     absl::StrFormat("character %d (0x%02x) is not one of [A-Za-z0-9_.-]", i,
                                     static_cast<unsigned char>(layer[i])));
    }
  }
  return absl::OkStatus();
}

namespace {

// The map a request names: map_id and agent_type.
absl::Status CheckMapName(absl::string_view map_id, absl::string_view agent_type) {
  if (absl::Status s = ValidateMapId(map_id); !s.ok()) return s;
  return ValidateAgentType(agent_type);
}

// The map a query names, and the obstacle layer it runs on (none when `obstacles.layer` is
// empty).
template <typename Request>
absl::Status CheckMapAndLayer(const Request& r) {
  if (absl::Status s = CheckMapName(r.map_id(), r.agent_type()); !s.ok()) return s;
  if (r.obstacles().layer().empty()) return absl::OkStatus();
  return ValidateLayerName(r.obstacles().layer(), "obstacles.layer");
}

// A search radius: finite, in (0, kMaxSearchRadius].
absl::Status CheckSearchRadius(float radius, absl::string_view field) {
  return CheckRange(radius, 0, true, kMaxSearchRadius, "", field, "metres");
}

// A request's `filter` and optional search `extents`, checked the same way in every query.
template <typename Request>
absl::Status CheckFilterAndExtents(const Request& r) {
  if (absl::Status s = CheckFilter(r.filter(), "", "filter"); !s.ok()) return s;
  return CheckExtents(r.has_extents(), r.extents(), "", "extents");
}

// A request's `start` and `end` positions.
template <typename Request>
absl::Status CheckStartAndEnd(const Request& r) {
  if (absl::Status s = CheckPosition(r.has_start(), r.start(), "", "start"); !s.ok()) return s;
  return CheckPosition(r.has_end(), r.end(), "", "end");
}

}  // namespace

absl::Status ValidateFindPath(const v1::FindPathRequest& r) {
  if (absl::Status s = CheckMapAndLayer(r); !s.ok()) return s;
  if (absl::Status s = CheckStartAndEnd(r); !s.ok()) return s;
  if (absl::Status s = CheckFilter(r.filter(), "", "filter"); !s.ok()) return s;
  return CheckPathOptions(r.options(), "");
}

absl::Status ValidateBatchSize(int requests) {
  if (requests <= kMaxBatchRequests) return absl::OkStatus();
  return Invalid(
      "", "requests",
      absl::StrFormat("%d requests in one batch, the limit is %d", requests, kMaxBatchRequests));
}

absl::Status ValidateValidateMove(const v1::ValidateMoveRequest& r) {
  if (absl::Status s = CheckMapAndLayer(r); !s.ok()) return s;
  if (absl::Status s = CheckStartAndEnd(r); !s.ok()) return s;
  if (absl::Status s =
          CheckRange(r.max_distance(), 0, false, kMaxDistance, "", "max_distance", "metres");
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          CheckRange(r.tolerance(), 0, false, kMaxMoveTolerance, "", "tolerance", "metres");
      !s.ok()) {
    return s;
  }
  return CheckFilterAndExtents(r);
}

absl::Status ValidateRandomPoint(const v1::RandomPointRequest& r) {
  if (absl::Status s = CheckMapAndLayer(r); !s.ok()) return s;
  if (absl::Status s = CheckFilter(r.filter(), "", "filter"); !s.ok()) return s;
  if (!r.has_center()) {
    // Without a center the radius means nothing, but garbage still is garbage.
    return CheckRange(r.radius(), 0, false, kMaxDistance, "", "radius", "metres");
  }
  if (absl::Status s = CheckPosition(true, r.center(), "", "center"); !s.ok()) return s;
  return CheckRange(r.radius(), 0, true, kMaxDistance, "", "radius", "metres");
}

absl::Status ValidateRaycast(const v1::RaycastRequest& r) {
  if (absl::Status s = CheckMapAndLayer(r); !s.ok()) return s;
  if (absl::Status s = CheckStartAndEnd(r); !s.ok()) return s;
  return CheckFilterAndExtents(r);
}

absl::Status ValidateNearestPoint(const v1::NearestPointRequest& r) {
  if (absl::Status s = CheckMapAndLayer(r); !s.ok()) return s;
  if (absl::Status s = CheckPosition(r.has_position(), r.position(), "", "position"); !s.ok()) {
    return s;
  }
  return CheckFilterAndExtents(r);
}

absl::Status ValidateFindDistanceToWall(const v1::FindDistanceToWallRequest& r) {
  if (absl::Status s = CheckMapAndLayer(r); !s.ok()) return s;
  if (absl::Status s = CheckPosition(r.has_position(), r.position(), "", "position"); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckSearchRadius(r.max_radius(), "max_radius"); !s.ok()) return s;
  return CheckFilterAndExtents(r);
}

absl::Status ValidateFindPolygonsInCircle(const v1::FindPolygonsInCircleRequest& r) {
  if (absl::Status s = CheckMapAndLayer(r); !s.ok()) return s;
  if (absl::Status s = CheckPosition(r.has_center(), r.center(), "", "center"); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckSearchRadius(r.radius(), "radius"); !s.ok()) return s;
  if (r.max_polygons() > kMaxCirclePolygons) {
    return Invalid(
        "", "max_polygons",
        absl::StrFormat("%d is above the limit of %d", r.max_polygons(), kMaxCirclePolygons));
  }
  return CheckFilterAndExtents(r);
}

absl::Status ValidateGetMapInfo(const v1::GetMapInfoRequest& r) {
  return CheckMapName(r.map_id(), r.agent_type());
}

absl::Status ValidateListMaps(const v1::ListMapsRequest& r) {
  if (r.page_size() < 0 || r.page_size() > kMaxListPageSize) {
    return Invalid("", "page_size",
                   absl::StrFormat("%d must be in [0, %d] (0 = %d)", r.page_size(),
                                   kMaxListPageSize, kDefaultListPageSize));
  }
  return absl::OkStatus();
}

}  // namespace waymesh::server
