#include "waymesh/core/nav_query.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "distance_to_wall.h"
#include "exact/exact_path_builder.h"
#include "exact/exact_search.h"
#include "hierarchy/hierarchical_search.h"
#include "line_of_sight.h"
#include "move_along_surface.h"
#include "nearest_point.h"
#include "path_refine.h"
#include "path_search.h"
#include "poly_geometry.h"
#include "polygons_in_circle.h"
#include "query_context.h"
#include "random_point.h"
#include "raycast.h"
#include "straight_path.h"
#include "surface_height.h"
#include "twin/twin_path.h"
#include "waymesh/core/exact_path.h"

namespace waymesh {
namespace {

using internal::QueryContext;

absl::Status CheckPoint(Vec3 p, const char* what) {
  if (IsFinite(p)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("%s (%g, %g, %g) is not a finite position", what, p.x, p.y, p.z));
}

absl::Status CheckExtents(Vec3 e) {
  if (IsFinite(e) && e.x >= 0 && e.y >= 0 && e.z >= 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("half extents (%g, %g, %g) must be finite and non-negative", e.x, e.y, e.z));
}

absl::Status CheckRadius(float radius, const char* what) {
  if (std::isfinite(radius) && radius > 0) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("%s %g must be finite and positive", what, radius));
}

absl::Status CheckMaxPolygons(uint32_t max_polygons) {
  if (max_polygons > 0) return absl::OkStatus();
  return absl::InvalidArgumentError("max_polygons must be positive");
}

// The arguments of a walk along the surface from a free position: `start` and `end` finite, and
// the box that puts `start` on the mesh finite and non-negative.
absl::Status CheckWalkArgs(Vec3 start, Vec3 end, Vec3 half_extents) {
  if (absl::Status s = CheckPoint(start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(end, "end"); !s.ok()) return s;
  return CheckExtents(half_extents);
}

// A polygon reference given by the caller: in the map, of the tile's current generation, and
// its tile reachable (pinned for the call on a paged map).
absl::Status CheckRefIn(const QueryContext& ctx, PolyRef ref, const char* what) {
  if (!ref.valid() || !ctx.InRange(ref.index())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s polygon reference (tile %d, poly %d) is not in this map", what,
                        ref.tile(), ref.poly()));
  }
  const uint32_t current = ctx.map->generation(ref.tile());
  if (ref.generation() != current) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s polygon reference (tile %d, poly %d) is stale: it is of generation %d, the tile is "
        "at generation %d now (the map was reloaded or the tile changed); look the point up "
        "again",
        what, ref.tile(), ref.poly(), ref.generation(), current));
  }
  if (ctx.TryTile(ref.tile()) == nullptr) {
    return absl::UnavailableError(
        absl::StrFormat("tile %d of the map (%s) cannot be loaded", ref.tile(), what));
  }
  return absl::OkStatus();
}

absl::Status CheckSurfacePoint(const QueryContext& ctx, const SurfacePoint& p, const char* what) {
  if (absl::Status s = CheckRefIn(ctx, p.poly, what); !s.ok()) return s;
  return CheckPoint(p.pos, what);
}

// OK unless a tile the query needed could not be loaded (paged maps): the answer would then
// treat part of the map as walls, so it is not given.
absl::Status TileStatus(const QueryContext& ctx) {
  if (!ctx.tile_load_failed) return absl::OkStatus();
  return absl::UnavailableError(
      "a tile of the map could not be loaded (see the server log); the answer would be "
      "incomplete");
}

// `point`, unless a tile could not be loaded on the way.
absl::StatusOr<std::optional<SurfacePoint>> PointOrTileError(const QueryContext& ctx,
                                                             std::optional<SurfacePoint> point) {
  if (absl::Status s = TileStatus(ctx); !s.ok()) return s;
  return point;
}

void ClearPath(PathResult* out, QueryStatus status) {
  out->status = status;
  out->corridor.clear();
  out->waypoints.clear();
  out->length = 0;
  out->nodes_expanded = 0;
  out->truncated = false;
  out->node_limit = false;
  out->hierarchical = false;
}

// A move whose start is not on a polygon the filter accepts: it goes nowhere.
void StartOffMesh(Vec3 start, MoveResult* out) {
  out->status = QueryStatus::kStartOffMesh;
  out->visited.clear();
  out->poly = PolyRef();
  out->pos = start;
  out->blocked = true;
}

}  // namespace

NavQuery::NavQuery(std::shared_ptr<const NavMap> map, const NavQueryOptions& options)
    : ctx_(std::make_unique<QueryContext>(std::move(map), options.max_nodes, options.landmarks,
                                          options.dead_ends, options.hierarchy)) {}
NavQuery::~NavQuery() = default;
NavQuery::NavQuery(NavQuery&&) noexcept = default;
NavQuery& NavQuery::operator=(NavQuery&&) noexcept = default;

void NavQuery::Rebind(std::shared_ptr<const NavMap> map) { ctx_->Bind(std::move(map)); }

const NavMap& NavQuery::map() const { return *ctx_->map; }

absl::Status NavQuery::CheckRef(PolyRef ref) const {
  internal::PinScope pins(*ctx_);
  return CheckRefIn(*ctx_, ref, "the");
}

absl::StatusOr<std::optional<SurfacePoint>> NavQuery::NearestPoint(Vec3 pos, Vec3 half_extents,
                                                                   const QueryFilter& filter) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckPoint(pos, "position"); !s.ok()) return s;
  if (absl::Status s = CheckExtents(half_extents); !s.ok()) return s;
  return PointOrTileError(*ctx_, internal::NearestPoint(*ctx_, pos, half_extents, filter));
}

absl::Status NavQuery::FindPath(Vec3 start, Vec3 goal, const QueryFilter& filter,
                                const PathOptions& options, PathResult* out) {
  return FindPath(PathEnd{start, std::nullopt}, PathEnd{goal, std::nullopt}, filter, options, out);
}

namespace {

// Where a path end is on the mesh: clamped into the polygon it names, or snapped within the
// extents (nullopt when nothing passing the filter is there).
absl::StatusOr<std::optional<SurfacePoint>> PlacePathEnd(QueryContext& ctx, const PathEnd& end,
                                                         Vec3 half_extents,
                                                         const QueryFilter& filter,
                                                         const char* what) {
  if (!end.poly) return internal::NearestPoint(ctx, end.pos, half_extents, filter);
  if (absl::Status s = CheckRefIn(ctx, *end.poly, what); !s.ok()) return s;
  const PolyIndex p = end.poly->index();
  return SurfacePoint{*end.poly, internal::ClosestPointOnPoly(ctx.Tile(p.tile), p.poly, end.pos)};
}

}  // namespace

absl::Status NavQuery::FindPath(const PathEnd& start, const PathEnd& goal,
                                const QueryFilter& filter, const PathOptions& options,
                                PathResult* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckPoint(start.pos, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(goal.pos, "goal"); !s.ok()) return s;
  if (absl::Status s = CheckExtents(options.half_extents); !s.ok()) return s;
  const absl::StatusOr<std::optional<SurfacePoint>> s =
      PlacePathEnd(*ctx_, start, options.half_extents, filter, "the start");
  if (!s.ok()) return s.status();
  if (!*s) {
    ClearPath(out, QueryStatus::kStartOffMesh);
    out->start = out->end = SurfacePoint{};
    return TileStatus(*ctx_);
  }
  const absl::StatusOr<std::optional<SurfacePoint>> g =
      PlacePathEnd(*ctx_, goal, options.half_extents, filter, "the goal");
  if (!g.ok()) return g.status();
  if (!*g) {
    ClearPath(out, QueryStatus::kEndOffMesh);
    out->start = **s;
    out->end = SurfacePoint{};
    return TileStatus(*ctx_);
  }
  return FindPath(**s, **g, filter, options, out);
}

namespace {

// Exact mode (exact_path.h) for ends already checked and on polygons the filter accepts.
absl::Status FindExactPath(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                           const QueryFilter& filter, const PathOptions& options,
                           uint32_t max_nodes, PathResult* out) {
  if (options.clearance > 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "clearance %g cannot be kept by an exact path (a shortest path touches the corners it "
        "turns at); use clearance 0 or approximate mode",
        options.clearance));
  }
  // Through the map's plan twin when it has one (twin_path.h), else on the map.
  internal::exact::ExactOutcome found;
  bool built = false;
  if (!internal::twin::FindOnTwin(ctx, start, goal, filter, max_nodes, options.interrupt, &found,
                                  out, &built)) {
    // A twin answer the map refused still cost its nodes; one that ran out of them leaves the
    // map's search (more, smaller polygons) only what is left of the query's limit.
    const uint32_t on_twin = found.expanded;
    const uint32_t budget = found.limit_hit ? max_nodes - std::min(on_twin, max_nodes) : max_nodes;
    found = internal::exact::SearchExact(ctx, start, goal, filter, std::max<uint32_t>(budget, 1),
                                         options.interrupt);
    found.expanded += on_twin;
  }
  out->nodes_expanded = found.expanded;
  if (!found.stop.ok()) {
    ClearPath(out, QueryStatus::kPartial);
    out->nodes_expanded = found.expanded;
    return found.stop;
  }
  if (found.status == QueryStatus::kNoPath ||
      (found.status == QueryStatus::kPartial && !found.limit_hit && !options.allow_partial)) {
    ClearPath(out, QueryStatus::kNoPath);
    out->nodes_expanded = found.expanded;
    return TileStatus(ctx);
  }
  out->status = found.status;
  out->node_limit = found.limit_hit && found.status == QueryStatus::kPartial;
  out->truncated = false;
  if (!built) internal::exact::BuildExactPath(ctx, found, goal, out);
  internal::ApplyWaypointLimit(options, out);
  return TileStatus(ctx);
}

}  // namespace

absl::Status NavQuery::FindPath(const SurfacePoint& start, const SurfacePoint& goal,
                                const QueryFilter& filter, const PathOptions& options,
                                PathResult* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckSurfacePoint(*ctx_, start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckSurfacePoint(*ctx_, goal, "goal"); !s.ok()) return s;
  if (!std::isfinite(options.clearance) || options.clearance < 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("clearance %g must be finite and non-negative", options.clearance));
  }
  if (options.mode == PathMode::kExact) {
    if (absl::Status s = CheckExactPathSupport(*ctx_->map, filter); !s.ok()) return s;
  }
  QueryContext& ctx = *ctx_;
  out->start = start;
  out->end = goal;
  const PolyIndex from = start.poly.index(), to = goal.poly.index();
  if (!ctx.Passes(filter, from)) {
    ClearPath(out, QueryStatus::kStartOffMesh);
    return TileStatus(ctx);
  }
  if (!ctx.Passes(filter, to)) {
    ClearPath(out, QueryStatus::kEndOffMesh);
    return TileStatus(ctx);
  }
  if (!options.allow_partial && ctx.GroupOf(from) != ctx.GroupOf(to)) {
    // Islands joined by nothing: no search can connect them.
    ClearPath(out, QueryStatus::kNoPath);
    return TileStatus(ctx);
  }
  const uint32_t max_nodes = options.max_nodes == 0 ? ctx.pool.capacity() : options.max_nodes;
  out->hierarchical = false;
  if (options.mode == PathMode::kExact) {
    return FindExactPath(ctx, start, goal, filter, options,
                         options.max_nodes == 0 ? kExactDefaultMaxNodes : options.max_nodes, out);
  }
  internal::SearchOutcome found{QueryStatus::kComplete, 0, absl::OkStatus()};
  if (!internal::FindLineOfSightCorridor(ctx, start, goal, filter)) {
    std::optional<internal::SearchOutcome> refined;
    internal::NodesSpent spent;  // by the hierarchical search, refined or not
    if (internal::UsesHierarchy(ctx, start, goal, filter)) {
      refined = internal::SearchHierarchical(ctx, start, goal, filter, max_nodes, options.interrupt,
                                             &spent);
    }
    out->hierarchical = refined.has_value();
    if (refined) {
      found = *refined;
    } else {
      // The fallback gets what the hierarchy left of the node limit (at least its start node).
      found = internal::SearchCorridor(ctx, start, goal, filter,
                                       std::max<uint32_t>(max_nodes - spent.created, 1),
                                       options.interrupt);
      found.expanded += spent.expanded;
    }
  }
  if (!found.stop.ok()) {
    ClearPath(out, QueryStatus::kPartial);
    out->nodes_expanded = found.expanded;
    return found.stop;
  }
  if (found.status != QueryStatus::kComplete && !found.limit_hit && !options.allow_partial) {
    // The whole reachable part was searched without meeting the goal.
    ClearPath(out, QueryStatus::kNoPath);
    out->nodes_expanded = found.expanded;
    return TileStatus(ctx);
  }
  out->status = found.status;
  out->nodes_expanded = found.expanded;
  out->node_limit = found.limit_hit;
  Vec3 end = goal.pos;
  if (found.status != QueryStatus::kComplete) {
    const PolyIndex last = ctx.steps.back().at;
    end = internal::ClosestPointOnPoly(ctx.Tile(last.tile), last.poly, goal.pos);
    out->end = SurfacePoint{ctx.Ref(last), end};
  }
  internal::BuildStraightPath(ctx, start.pos, end, filter, options, out);
  internal::RefinePath(ctx, filter, options, start.pos, end, out);
  internal::ApplyWaypointLimit(options, out);
  return TileStatus(ctx);
}

absl::Status NavQuery::Raycast(Vec3 start, Vec3 end, const QueryFilter& filter, Vec3 half_extents,
                               RaycastResult* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckWalkArgs(start, end, half_extents); !s.ok()) return s;
  const auto s = internal::NearestPoint(*ctx_, start, half_extents, filter);
  if (!s) {
    out->status = QueryStatus::kStartOffMesh;
    out->hit = false;
    out->t = 0;
    out->polys.clear();
    return TileStatus(*ctx_);
  }
  return Raycast(*s, end, filter, out);
}

absl::Status NavQuery::Raycast(const SurfacePoint& start, Vec3 end, const QueryFilter& filter,
                               RaycastResult* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckSurfacePoint(*ctx_, start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(end, "end"); !s.ok()) return s;
  internal::RaycastAlongSurface(*ctx_, start, end, filter, out);
  return TileStatus(*ctx_);
}

absl::Status NavQuery::MoveAlongSurface(Vec3 start, Vec3 end, const QueryFilter& filter,
                                        Vec3 half_extents, MoveResult* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckWalkArgs(start, end, half_extents); !s.ok()) return s;
  const auto s = internal::NearestPoint(*ctx_, start, half_extents, filter);
  if (!s) {
    StartOffMesh(start, out);
    return TileStatus(*ctx_);
  }
  return MoveAlongSurface(*s, end, filter, out);
}

absl::Status NavQuery::MoveAlongSurface(const SurfacePoint& start, Vec3 end,
                                        const QueryFilter& filter, MoveResult* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckSurfacePoint(*ctx_, start, "start"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(end, "end"); !s.ok()) return s;
  if (!ctx_->Passes(filter, start.poly.index())) {
    StartOffMesh(start.pos, out);
    return TileStatus(*ctx_);
  }
  internal::MoveAlongSurfaceImpl(*ctx_, start, end, filter, out);
  return TileStatus(*ctx_);
}

absl::StatusOr<std::optional<SurfacePoint>> NavQuery::RandomPoint(const QueryFilter& filter,
                                                                  absl::BitGenRef rng) {
  internal::PinScope pins(*ctx_);
  return PointOrTileError(*ctx_, internal::RandomPointOnMap(*ctx_, filter, rng));
}

absl::StatusOr<std::optional<SurfacePoint>> NavQuery::RandomPointOnIsland(uint32_t island,
                                                                          const QueryFilter& filter,
                                                                          absl::BitGenRef rng) {
  internal::PinScope pins(*ctx_);
  const size_t islands = ctx_->map->info().islands.size();
  if (island >= islands) {
    return absl::InvalidArgumentError(
        absl::StrFormat("island %d is not in this map (it has %d)", island, islands));
  }
  return PointOrTileError(*ctx_, internal::RandomPointOnIsland(*ctx_, island, filter, rng));
}

absl::StatusOr<std::optional<SurfacePoint>> NavQuery::RandomPointInCircle(
    const SurfacePoint& center, float radius, const QueryFilter& filter, absl::BitGenRef rng) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckSurfacePoint(*ctx_, center, "center"); !s.ok()) return s;
  if (!std::isfinite(radius) || radius < 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("radius %g must be finite and non-negative", radius));
  }
  if (!ctx_->Passes(filter, center.poly.index())) return std::optional<SurfacePoint>();
  return PointOrTileError(*ctx_, internal::RandomPointInDisc(*ctx_, center, radius, filter, rng));
}

absl::Status NavQuery::FindDistanceToWall(Vec3 center, float max_radius, const QueryFilter& filter,
                                          Vec3 half_extents, WallDistance* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckPoint(center, "center"); !s.ok()) return s;
  if (absl::Status s = CheckRadius(max_radius, "max radius"); !s.ok()) return s;
  if (absl::Status s = CheckExtents(half_extents); !s.ok()) return s;
  const auto c = internal::NearestPoint(*ctx_, center, half_extents, filter);
  if (!c) {
    internal::WallDistanceOffMesh(center, max_radius, out);
    return TileStatus(*ctx_);
  }
  return FindDistanceToWall(*c, max_radius, filter, out);
}

absl::Status NavQuery::FindDistanceToWall(const SurfacePoint& center, float max_radius,
                                          const QueryFilter& filter, WallDistance* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckSurfacePoint(*ctx_, center, "center"); !s.ok()) return s;
  if (absl::Status s = CheckRadius(max_radius, "max radius"); !s.ok()) return s;
  if (!ctx_->Passes(filter, center.poly.index())) {
    internal::WallDistanceOffMesh(center.pos, max_radius, out);
    return TileStatus(*ctx_);
  }
  internal::DistanceToWall(*ctx_, center, max_radius, filter, out);
  return TileStatus(*ctx_);
}

absl::Status NavQuery::FindPolygonsInCircle(Vec3 center, float radius, const QueryFilter& filter,
                                            uint32_t max_polygons, Vec3 half_extents,
                                            PolygonsInCircle* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckPoint(center, "center"); !s.ok()) return s;
  if (absl::Status s = CheckRadius(radius, "radius"); !s.ok()) return s;
  if (absl::Status s = CheckMaxPolygons(max_polygons); !s.ok()) return s;
  if (absl::Status s = CheckExtents(half_extents); !s.ok()) return s;
  const auto c = internal::NearestPoint(*ctx_, center, half_extents, filter);
  if (!c) {
    internal::PolygonsInCircleOffMesh(out);
    return TileStatus(*ctx_);
  }
  return FindPolygonsInCircle(*c, radius, filter, max_polygons, out);
}

absl::Status NavQuery::FindPolygonsInCircle(const SurfacePoint& center, float radius,
                                            const QueryFilter& filter, uint32_t max_polygons,
                                            PolygonsInCircle* out) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckSurfacePoint(*ctx_, center, "center"); !s.ok()) return s;
  if (absl::Status s = CheckRadius(radius, "radius"); !s.ok()) return s;
  if (absl::Status s = CheckMaxPolygons(max_polygons); !s.ok()) return s;
  if (!ctx_->Passes(filter, center.poly.index())) {
    internal::PolygonsInCircleOffMesh(out);
    return TileStatus(*ctx_);
  }
  internal::PolygonsInDisc(*ctx_, center, radius, filter, max_polygons, out);
  return TileStatus(*ctx_);
}

absl::StatusOr<std::optional<SurfacePoint>> NavQuery::Height(float x, float z, float y_hint) {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckPoint({x, y_hint, z}, "position"); !s.ok()) return s;
  return PointOrTileError(*ctx_, internal::SurfaceHeight(*ctx_, x, z, y_hint));
}

absl::StatusOr<Vec3> NavQuery::ClosestPointOnPoly(PolyRef poly, Vec3 pos) const {
  internal::PinScope pins(*ctx_);
  if (absl::Status s = CheckRefIn(*ctx_, poly, "the"); !s.ok()) return s;
  if (absl::Status s = CheckPoint(pos, "position"); !s.ok()) return s;
  return internal::ClosestPointOnPoly(ctx_->Tile(poly.tile()), poly.poly(), pos);
}

}  // namespace waymesh
