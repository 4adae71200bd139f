#include "waymesh/core/nav_query.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "move_along_surface.h"
#include "nearest_poly.h"
#include "path_refine.h"
#include "path_search.h"
#include "poly_geometry.h"
#include "query_context.h"
#include "random_point.h"
#include "raycast.h"
#include "straight_path.h"
#include "surface_height.h"

namespace waymesh {
namespace {

using internal::QueryContext;

bool ValidExtents(Vec3 e) { return IsFinite(e) && e.x >= 0 && e.y >= 0 && e.z >= 0; }

absl::Status CheckPoint(Vec3 p, const char* what) {
  if (IsFinite(p)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("%s (%g, %g, %g) is not a finite position", what, p.x, p.y, p.z));
}

absl::Status CheckExtents(Vec3 e) {
  if (ValidExtents(e)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("half extents (%g, %g, %g) must be finite and non-negative", e.x, e.y, e.z));
}

absl::Status CheckSurfacePoint(const NavQuery& q, const SurfacePoint& p, const char* what) {
  if (!q.IsValid(p.poly)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s polygon reference (tile %d, poly %d) is not in this map", what,
                        p.poly.tile(), p.poly.poly()));
  }
  return CheckPoint(p.pos, what);
}

void ClearPath(PathResult* out, QueryStatus status) {
  out->status = status;
  out->corridor.clear();
  out->waypoints.clear();
  out->length = 0;
  out->nodes_expanded = 0;
  out->truncated = false;
  out->node_limit = false;
}

}  // namespace

NavQuery::NavQuery(std::shared_ptr<const NavMap> map, const NavQueryOptions& options)
    : ctx_(std::make_unique<QueryContext>(std::move(map), options.max_nodes)) {}
NavQuery::~NavQuery() = default;
NavQuery::NavQuery(NavQuery&&) noexcept = default;
NavQuery& NavQuery::operator=(NavQuery&&) noexcept = default;

const NavMap& NavQuery::map() const { return *ctx_->map; }

bool NavQuery::IsValid(PolyRef ref) const {
  return ref.valid() && ref.generation() == 0 && ctx_->Exists(ref.tile(), ref.poly());
}

std::optional<SurfacePoint> NavQuery::FindNearest(Vec3 pos, Vec3 half_extents,
                                                  const QueryFilter& filter) {
  if (!IsFinite(pos) || !ValidExtents(half_extents)) return std::nullopt;
  return internal::FindNearestPoly(*ctx_, pos, half_extents, filter);
}

absl::Status NavQuery::FindPath(Vec3 start, Vec3 goal, const QueryFilter& filter,
                                const PathOptions& options, PathResult* out) {
  if (absl::Status s = CheckPoint(start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(goal, "goal"); !s.ok()) return s;
  if (absl::Status s = CheckExtents(options.half_extents); !s.ok()) return s;
  const auto s = internal::FindNearestPoly(*ctx_, start, options.half_extents, filter);
  if (!s) {
    ClearPath(out, QueryStatus::kStartOffMesh);
    out->start = out->end = SurfacePoint{};
    return absl::OkStatus();
  }
  const auto g = internal::FindNearestPoly(*ctx_, goal, options.half_extents, filter);
  if (!g) {
    ClearPath(out, QueryStatus::kEndOffMesh);
    out->start = *s;
    out->end = SurfacePoint{};
    return absl::OkStatus();
  }
  return FindPath(*s, *g, filter, options, out);
}

absl::Status NavQuery::FindPath(const SurfacePoint& start, const SurfacePoint& goal,
                                const QueryFilter& filter, const PathOptions& options,
                                PathResult* out) {
  if (absl::Status s = CheckSurfacePoint(*this, start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckSurfacePoint(*this, goal, "goal"); !s.ok()) return s;
  if (!std::isfinite(options.clearance) || options.clearance < 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("clearance %g must be finite and non-negative", options.clearance));
  }
  QueryContext& ctx = *ctx_;
  out->start = start;
  out->end = goal;
  const uint32_t st = start.poly.tile(), sp = start.poly.poly();
  const uint32_t gt = goal.poly.tile(), gp = goal.poly.poly();
  if (!ctx.Passes(filter, st, sp)) {
    ClearPath(out, QueryStatus::kStartOffMesh);
    return absl::OkStatus();
  }
  if (!ctx.Passes(filter, gt, gp)) {
    ClearPath(out, QueryStatus::kEndOffMesh);
    return absl::OkStatus();
  }
  if (ctx.GroupOf(st, sp) != ctx.GroupOf(gt, gp)) {
    // Islands joined by nothing: no search can connect them.
    ClearPath(out, QueryStatus::kNoPath);
    return absl::OkStatus();
  }
  const uint32_t max_nodes = options.max_nodes == 0 ? ctx.pool.capacity() : options.max_nodes;
  const internal::SearchOutcome found =
      internal::SearchCorridor(ctx, start, goal, filter, max_nodes, options.interrupt);
  if (!found.stop.ok()) {
    ClearPath(out, QueryStatus::kPartial);
    out->nodes_expanded = found.expanded;
    return found.stop;
  }
  out->status = found.status;
  out->nodes_expanded = found.expanded;
  out->node_limit = found.limit_hit;
  Vec3 end = goal.pos;
  if (found.status != QueryStatus::kComplete) {
    const internal::CorridorStep& last = ctx.steps.back();
    end = internal::ClosestPointOnPoly(ctx.map->tile(last.tile), last.poly, goal.pos);
  }
  internal::BuildStraightPath(ctx, start.pos, end, filter, options, out);
  internal::RefinePath(ctx, filter, options, start.pos, end, out);
  internal::ApplyWaypointLimit(options, out);
  return absl::OkStatus();
}

absl::Status NavQuery::Raycast(Vec3 start, Vec3 end, const QueryFilter& filter, Vec3 half_extents,
                               RaycastResult* out) {
  if (absl::Status s = CheckPoint(start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(end, "end"); !s.ok()) return s;
  if (absl::Status s = CheckExtents(half_extents); !s.ok()) return s;
  const auto s = internal::FindNearestPoly(*ctx_, start, half_extents, filter);
  if (!s) {
    out->status = QueryStatus::kStartOffMesh;
    out->hit = false;
    out->t = 0;
    out->polys.clear();
    return absl::OkStatus();
  }
  return Raycast(*s, end, filter, out);
}

absl::Status NavQuery::Raycast(const SurfacePoint& start, Vec3 end, const QueryFilter& filter,
                               RaycastResult* out) {
  if (absl::Status s = CheckSurfacePoint(*this, start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(end, "end"); !s.ok()) return s;
  internal::RaycastAlongSurface(*ctx_, start, end, filter, out);
  return absl::OkStatus();
}

absl::Status NavQuery::MoveAlongSurface(Vec3 start, Vec3 end, const QueryFilter& filter,
                                        Vec3 half_extents, MoveResult* out) {
  if (absl::Status s = CheckPoint(start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(end, "end"); !s.ok()) return s;
  if (absl::Status s = CheckExtents(half_extents); !s.ok()) return s;
  const auto s = internal::FindNearestPoly(*ctx_, start, half_extents, filter);
  if (!s) {
    out->status = QueryStatus::kStartOffMesh;
    out->visited.clear();
    out->poly = PolyRef();
    out->pos = start;
    out->blocked = true;
    return absl::OkStatus();
  }
  return MoveAlongSurface(*s, end, filter, out);
}

absl::Status NavQuery::MoveAlongSurface(const SurfacePoint& start, Vec3 end,
                                        const QueryFilter& filter, MoveResult* out) {
  if (absl::Status s = CheckSurfacePoint(*this, start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(end, "end"); !s.ok()) return s;
  if (!ctx_->Passes(filter, start.poly.tile(), start.poly.poly())) {
    out->status = QueryStatus::kStartOffMesh;
    out->visited.clear();
    out->poly = PolyRef();
    out->pos = start.pos;
    out->blocked = true;
    return absl::OkStatus();
  }
  internal::MoveAlongSurfaceImpl(*ctx_, start, end, filter, out);
  return absl::OkStatus();
}

std::optional<SurfacePoint> NavQuery::RandomPoint(const QueryFilter& filter, absl::BitGenRef rng) {
  return internal::RandomPointOnMap(*ctx_, filter, rng);
}

std::optional<SurfacePoint> NavQuery::RandomPointOnIsland(uint32_t island,
                                                          const QueryFilter& filter,
                                                          absl::BitGenRef rng) {
  return internal::RandomPointOnIsland(*ctx_, island, filter, rng);
}

std::optional<SurfacePoint> NavQuery::RandomPointInCircle(const SurfacePoint& center, float radius,
                                                          const QueryFilter& filter,
                                                          absl::BitGenRef rng) {
  if (!IsValid(center.poly) || !IsFinite(center.pos) || !std::isfinite(radius) || radius < 0) {
    return std::nullopt;
  }
  if (!ctx_->Passes(filter, center.poly.tile(), center.poly.poly())) return std::nullopt;
  return internal::RandomPointInDisc(*ctx_, center, radius, filter, rng);
}

std::optional<SurfacePoint> NavQuery::Height(float x, float z, float y_hint) {
  if (!std::isfinite(x) || !std::isfinite(z) || !std::isfinite(y_hint)) return std::nullopt;
  return internal::SurfaceHeight(*ctx_, x, z, y_hint);
}

absl::StatusOr<Vec3> NavQuery::ClosestPointOnPoly(PolyRef poly, Vec3 pos) const {
  if (!IsValid(poly)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "polygon reference (tile %d, poly %d) is not in this map", poly.tile(), poly.poly()));
  }
  if (absl::Status s = CheckPoint(pos, "position"); !s.ok()) return s;
  return internal::ClosestPointOnPoly(ctx_->map->tile(poly.tile()), poly.poly(), pos);
}

}  // namespace waymesh
