#include "twin/twin_path.h"

#include <cmath>
#include <optional>

#include "exact/exact_path_builder.h"
#include "poly_geometry.h"
#include "raycast.h"
#include "straight_path.h"

namespace waymesh::internal::twin {
namespace {

// A link end this close (m) to a waypoint is that waypoint.
constexpr float kLinkEndMatch = 1e-3f;
// How far along a leg (m, at most half the leg) the polygon it continues on is looked for.
constexpr float kLegNudge = 1e-3f;

// The point on the twin: the twin polygon covering `p`'s polygon that holds p in plan view
// (the nearest when rounding leaves p outside all of them).
std::optional<SurfacePoint> OnTwin(const QueryContext& ctx, const PlanTwin& twin,
                                   const SurfacePoint& p) {
  const uint32_t g = ctx.TableIndex(p.poly.index());  // the twin's map's numbering
  std::optional<PolyIndex> best;
  float best_d = INFINITY;
  for (uint32_t i = twin.cover_start[g]; i < twin.cover_start[g + 1]; ++i) {
    const PolyIndex t = twin.cover[i];
    const float d = SeparationSqXZ(twin.map->tile(t.tile), t.poly, p.pos);
    if (d < best_d) {
      best_d = d;
      best = t;
    }
  }
  if (!best) return std::nullopt;
  return SurfacePoint{twin.map->Ref(*best), p.pos};
}

// On a carved version, per area a polygon now has, the areas its origin had when they differ:
// the origin's area is that of the twin polygons covering it (a twin region has one area).
void GatherAreaGains(QueryContext& ctx, const PlanTwin& twin) {
  ctx.twin_area_gains.fill(0);
  for (uint32_t t = 0; t < ctx.map->tile_count(); ++t) {
    const TileView& tile = ctx.map->tile(t);
    if (tile.poly_origin.empty()) continue;
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      const uint32_t g = ctx.TableIndex(PolyIndex{t, p});
      if (twin.cover_start[g] == twin.cover_start[g + 1]) continue;
      const PolyIndex c = twin.cover[twin.cover_start[g]];
      const uint8_t from = twin.map->tile(c.tile).poly_area[c.poly], to = tile.poly_area[p];
      if (from != to) ctx.twin_area_gains[to] |= uint64_t{1} << from;
    }
  }
  ctx.twin_area_gains_known = true;
}

// Whether the twin's shortest path is a lower bound on this map's under `filter`: always on the
// map the twin was built on; on a carved version when carving only took surface away, i.e. no
// obstacle gave a polygon the filter refused an area it allows (blocks only remove surface,
// and carving keeps flags). A path of the twin that can be walked on the version is then the
// version's shortest too.
bool TwinBoundsTheMap(QueryContext& ctx, const PlanTwin& twin, const QueryFilter& filter) {
  if (!ctx.tables_remapped) return true;
  if (!ctx.twin_area_gains_known) GatherAreaGains(ctx, twin);
  const uint64_t allowed = filter.area_mask();
  for (uint32_t to = 0; to < kMaxAreas; ++to) {
    if (((allowed >> to) & 1) && (ctx.twin_area_gains[to] & ~allowed) != 0) return false;
  }
  return true;
}

// The polygon of the map the link from `from` (ending at `to`) leads into, taken from polygon
// `at` (whose tile holds the link), or nullopt.
std::optional<PolyIndex> LinkEnd(const QueryContext& ctx, const QueryFilter& filter, PolyIndex at,
                                 Vec3 from, Vec3 to) {
  for (const OffMeshLink& link : ctx.Tile(at.tile).off_mesh_links) {
    if (Distance(link.start, from) > kLinkEndMatch || Distance(link.end, to) > kLinkEndMatch) {
      continue;
    }
    const PolyIndex end{link.end_tile, link.end_poly};
    if (ctx.Exists(end) && ctx.Passes(filter, end)) return end;
  }
  return std::nullopt;
}

// Carries the twin's waypoints in `out` back to the map: walks every leg from `start`,
// gathering the corridor and the polygon each waypoint continues on, and ends the path on
// `goal` when it reached it (else where the last leg ends). False when a leg stops short (a
// ray grazing a wall corner to rounding).
bool CarryBack(const QueryContext& ctx, const QueryFilter& filter, const SurfacePoint& start,
               const std::optional<SurfacePoint>& goal, PathResult* out) {
  std::vector<Waypoint>& w = out->waypoints;
  out->corridor.clear();
  const auto add = [&](PolyIndex p) {
    const PolyRef ref = ctx.Ref(p);
    if (out->corridor.empty() || out->corridor.back() != ref) out->corridor.push_back(ref);
  };
  SurfacePoint at = start;
  add(at.poly.index());
  std::vector<PolyIndex> leg;
  for (size_t i = 0; i + 1 < w.size(); ++i) {
    if (w[i].flags & kWaypointOffMeshLink) {
      const std::optional<PolyIndex> end =
          LinkEnd(ctx, filter, at.poly.index(), w[i].pos, w[i + 1].pos);
      if (!end) return false;
      w[i].poly = ctx.Ref(*end);  // as the approximate mode: the polygon the link leads into
      add(*end);
      at = SurfacePoint{ctx.Ref(*end), w[i + 1].pos};
      continue;
    }
    leg.clear();
    const RayWalkEnd walk = WalkRay(ctx, at, w[i + 1].pos, filter, [&](PolyIndex p, int) {
      leg.push_back(p);
      return true;
    });
    if (walk.kind != RayWalkEnd::kReachedEnd) return false;
    // The polygon the leg runs on from the waypoint: the first holding a point just along it.
    const Vec3 d = w[i + 1].pos - w[i].pos;
    const float len = DistanceXZ(w[i].pos, w[i + 1].pos);
    const float s = len > 0 ? std::min(kLegNudge, 0.5f * len) / len : 0.0f;
    const Vec3 ahead = w[i].pos + d * s;
    PolyIndex on = leg.front();
    for (const PolyIndex p : leg) {
      if (PointInPolyXZ(ctx.Tile(p.tile), p.poly, ahead, 1e-5f)) {
        on = p;
        break;
      }
    }
    w[i].poly = ctx.Ref(on);
    w[i].area = ctx.AreaOf(on);
    for (const PolyIndex p : leg) add(p);
    at = SurfacePoint{ctx.Ref(walk.last), w[i + 1].pos};
  }
  // The end: the goal, or on the polygon the last leg reached at the map's height there.
  const PolyIndex last = at.poly.index();
  Waypoint& end = w.back();
  end.pos.y = PolyHeightAt(ctx.Tile(last.tile), last.poly, end.pos.x, end.pos.z);
  out->end = goal ? *goal : SurfacePoint{ctx.Ref(last), end.pos};
  end.pos = out->end.pos;
  end.poly = out->end.poly;
  end.area = ctx.AreaOf(out->end.poly.index());
  out->length = PolylineLength(w);
  return true;
}

}  // namespace

bool FindOnTwin(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                const QueryFilter& filter, uint32_t max_nodes, QueryInterrupt* interrupt,
                exact::ExactOutcome* found, PathResult* out, bool* built) {
  *built = false;
  if (ctx.exact_twin == nullptr) return false;
  const PlanTwin& twin = *ctx.exact_twin;
  if (!TwinBoundsTheMap(ctx, twin, filter)) return false;
  const std::optional<SurfacePoint> s = OnTwin(ctx, twin, start);
  const std::optional<SurfacePoint> g = OnTwin(ctx, twin, goal);
  if (!s || !g) return false;
  if (ctx.twin == nullptr || ctx.twin->owner != twin.map) {
    ctx.twin = std::make_unique<QueryContext>(twin.map, /*max_nodes=*/1);
  }
  QueryContext& tc = *ctx.twin;
  *found = exact::SearchExact(tc, *s, *g, filter, max_nodes, interrupt);
  if (!found->stop.ok() || found->status == QueryStatus::kNoPath) return true;
  exact::BuildExactPath(tc, *found, *g, out);
  const bool reached = found->status == QueryStatus::kComplete;
  if (!CarryBack(ctx, filter, start, reached ? std::optional(goal) : std::nullopt, out)) {
    return false;
  }
  *built = true;
  return true;
}

}  // namespace waymesh::internal::twin
