#include "exact/sight_flood.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "exact/interval_geometry.h"
#include "exact/search_steps.h"
#include "poly_geometry.h"

namespace waymesh::internal::exact {
namespace {

// Parts of one edge whose ends are this close (a fraction of the edge) abut: the rays that cut
// them are the same ray through a vertex, computed in two polygons' orders of operations.
constexpr double kAbutGap = 1e-9;

class SightFlood {
 public:
  SightFlood(QueryContext& ctx, const QueryFilter& filter, const TurnCornerIndex& index,
             Point2 seed, const SurfacePoint* target, std::vector<SeenCorner>* out)
      : ctx_(ctx),
        b_(ctx.exact),
        s_(ctx.exact.sight),
        filter_(filter),
        index_(index),
        seed_(seed),
        target_(target != nullptr ? ToPoint2(target->pos) : Point2{}),
        out_(out) {
    s_.entered = 0;
    s_.heap.clear();
    s_.pieces_expanded = 0;
    s_.corner_stamp.resize(index.size());
    s_.slot_of.resize(ctx.tile_base.back());
    if (++s_.stamp == 0) {  // once every 2^32 floods: old stamps could look current
      std::fill(s_.corner_stamp.begin(), s_.corner_stamp.end(), 0);
      std::fill(s_.slot_of.begin(), s_.slot_of.end(), SightBuffers::SlotOf{});
      s_.stamp = 1;
    }
    b_.turn_corners.Begin(ctx.map, filter);
  }

  // Looks through the seed's polygons whole, then through every part seen, nearest first.
  bool Run() {
    for (const PolyIndex p : b_.start_polys) s_.polygons[Enter(p)].seed = true;
    for (const PolyIndex p : b_.start_polys) LookThroughSeedPolygon(p);
    while (!s_.heap.empty()) {
      std::pop_heap(s_.heap.begin(), s_.heap.end(), std::greater<>());
      const auto [key, slot] = s_.heap.back();
      s_.heap.pop_back();
      if (s_.polygons[slot].key == key) LookThroughPending(slot);
    }
    return target_seen_;
  }

 private:
  // The slot of polygon `p` in this flood, made on first entry.
  uint32_t Enter(PolyIndex p) {
    SightBuffers::SlotOf& known = s_.slot_of[ctx_.Global(p)];
    if (known.stamp == s_.stamp) return known.slot;
    known = {s_.stamp, s_.entered};
    if (s_.entered == s_.polygons.size()) s_.polygons.emplace_back();
    SightPolygon& slot = s_.polygons[s_.entered];
    slot.poly = p;
    slot.seed = false;
    slot.key = INFINITY;
    slot.pending.clear();
    slot.done.clear();
    return s_.entered++;
  }

  bool InTarget(PolyIndex p) const {
    return Holds(b_.goal_polys, p);
  }

  // The seed sees its own polygon whole (it is convex) and every edge of it.
  void LookThroughSeedPolygon(PolyIndex p) {
    if (InTarget(p)) target_seen_ = true;
    const TileView& t = ctx_.Tile(p.tile);
    for (uint32_t e = 0, n = t.corner_count(p.poly); e < n; ++e) Send(t, p, e, Range{0, 1});
  }

  // Joins the polygon's pending parts edge by edge, drops what was looked through before, and
  // looks through the rest.
  void LookThroughPending(uint32_t slot) {
    SightPolygon& poly = s_.polygons[slot];
    poly.key = INFINITY;
    s_.pieces.swap(poly.pending);
    poly.pending.clear();
    std::sort(s_.pieces.begin(), s_.pieces.end(), [](const SightPiece& x, const SightPiece& y) {
      return x.corner_a < y.corner_a || (x.corner_a == y.corner_a && x.lo < y.lo);
    });
    const PolyIndex p = poly.poly;
    size_t i = 0;
    while (i < s_.pieces.size()) {
      SightPiece joined = s_.pieces[i];
      for (++i; i < s_.pieces.size() && s_.pieces[i].corner_a == joined.corner_a &&
                s_.pieces[i].lo <= joined.hi + kAbutGap;
           ++i) {
        joined.hi = std::max(joined.hi, s_.pieces[i].hi);
      }
      LookThroughNew(slot, p, joined);
    }
  }

  // Looks through the parts of `piece` not looked through before, and marks them done.
  void LookThroughNew(uint32_t slot, PolyIndex p, const SightPiece& piece) {
    double from = piece.lo;
    while (from < piece.hi) {
      // A polygon's done parts are few (a few edges, a part or two each): a scan per step.
      double skip_to = from, until = piece.hi;
      for (const SightPiece& d : s_.polygons[slot].done) {
        if (d.corner_a != piece.corner_a || d.hi <= from || d.lo >= piece.hi) continue;
        if (d.lo <= from) {
          skip_to = std::max(skip_to, d.hi);
        } else {
          until = std::min(until, d.lo);
        }
      }
      if (skip_to > from) {
        from = skip_to;
        continue;
      }
      const SightPiece part{piece.corner_a, from, until};
      s_.polygons[slot].done.push_back(part);
      LookThrough(p, part);  // may grow s_.polygons: no reference into it is held
      from = until;
    }
  }

  // The cone from the seed through `piece` of polygon p's entry edge: the parts of the other
  // edges inside it are sent on, and its ends are turned at where they are turn corners
  // past which the polygon extends.
  void LookThrough(PolyIndex p, const SightPiece& piece) {
    ++s_.pieces_expanded;
    const TileView& t = ctx_.Tile(p.tile);
    const uint32_t n = t.corner_count(p.poly), j = piece.corner_a;
    const Point2 corner_a = ToPoint2(t.corner(p.poly, j)),
                 corner_b = ToPoint2(t.corner(p.poly, (j + 1) % n));
    const bool at_a = piece.lo == 0, at_b = piece.hi == 1;
    const Point2 a = at_a ? corner_a : Along(corner_a, corner_b, piece.lo);
    const Point2 b = at_b ? corner_b : Along(corner_a, corner_b, piece.hi);
    const Point2 r = seed_;
    if (InTarget(p) && !TurnTowards(r, a, b, target_)) target_seen_ = true;
    if (OnIntervalLine(r, a, b)) {
      // Looking along the edge: nothing of the polygon is seen past its nearer end, which
      // a path may turn round when it is a corner. (The seed on the edge itself lies on
      // the polygon, a seed polygon, which is never entered.)
      if (BetweenOnLine(r, a, b)) return;
      const bool a_nearer = Dist(r, a) <= Dist(r, b);
      if (a_nearer ? at_a : at_b) RecordTurn(p, a_nearer ? j : (j + 1) % n);
      return;
    }
    // The cone: Orient(r, b, X) >= 0 and Orient(r, a, X) <= 0; the far side from B round to A.
    for (uint32_t k = 1; k < n; ++k) {
      const uint32_t e = (j + k) % n;
      const Point2 u = ToPoint2(t.corner(p.poly, e)), v = ToPoint2(t.corner(p.poly, (e + 1) % n));
      const Range inside_b = NonNegative(Orient(r, b, u), Orient(r, b, v));
      const Range inside_a = NonNegative(-Orient(r, a, u), -Orient(r, a, v));
      Send(t, p, e, Intersect(inside_b, inside_a));
    }
    if (at_b && OpensPast(r, b, t, p.poly, n, (j + 2) % n, 1)) RecordTurn(p, (j + 1) % n);
    if (at_a && OpensPast(r, a, t, p.poly, n, (j + n - 1) % n, -1)) RecordTurn(p, j);
  }

  // Records corner `corner` of p when it is a turn corner (once per flood).
  void RecordTurn(PolyIndex p, uint32_t corner) {
    if (!MemoTurnCorner(ctx_, filter_, &b_.turn_corners, p, corner)) return;
    const TileView& t = ctx_.Tile(p.tile);
    const uint32_t id = index_.IdAt(p.tile, t.poly_verts[t.poly_start[p.poly] + corner]);
    if (id == kNone || s_.corner_stamp[id] == s_.stamp) return;
    s_.corner_stamp[id] = s_.stamp;
    out_->push_back(SeenCorner{id, Dist(seed_, ToPoint2(t.corner(p.poly, corner)))});
  }

  // Hands part `range` of edge e of p (corners e to e + 1) to the polygon across it, where the
  // edge runs the other way, unless that is a wall, a polygon the filter refuses, or a seed
  // polygon.
  void Send(const TileView& t, PolyIndex p, uint32_t e, Range range) {
    range = Snapped(range);
    // A single point is never needed: where a cone's side grazes a corner, the part beside it
    // ends at that corner and turns there.
    if (!(range.lo < range.hi)) return;
    const std::optional<PolyIndex> nb = t.across(t.poly_start[p.poly] + e);
    if (!nb || !ctx_.Exists(*nb) || !ctx_.Passes(filter_, *nb)) return;
    const uint32_t n = t.corner_count(p.poly);
    const Vec3 u3 = t.corner(p.poly, e), v3 = t.corner(p.poly, (e + 1) % n);
    const TileView& nt = ctx_.Tile(nb->tile);
    const int found = FindCorner(nt, nb->poly, v3);
    if (found < 0) return;  // adjacency without the shared corner: corrupt data, a wall
    const uint32_t slot = Enter(*nb);
    SightPolygon& into = s_.polygons[slot];
    if (into.seed) return;
    const Point2 u = ToPoint2(u3), v = ToPoint2(v3);
    into.pending.push_back(
        SightPiece{EntryCorner(nt, nb->poly, found), 1 - range.hi, 1 - range.lo});
    const double key = DistToSegment(seed_, Along(u, v, range.lo), Along(u, v, range.hi));
    if (key < into.key) {
      into.key = key;
      s_.heap.emplace_back(key, slot);
      std::push_heap(s_.heap.begin(), s_.heap.end(), std::greater<>());
    }
  }

  QueryContext& ctx_;
  ExactBuffers& b_;
  SightBuffers& s_;
  const QueryFilter& filter_;
  const TurnCornerIndex& index_;
  const Point2 seed_;
  const Point2 target_;
  std::vector<SeenCorner>* const out_;
  bool target_seen_ = false;
};

}  // namespace

bool VisibleCorners(QueryContext& ctx, const SurfacePoint& from, const QueryFilter& filter,
                    const TurnCornerIndex& index, const SurfacePoint* target,
                    std::vector<SeenCorner>* out) {
  out->clear();
  TouchingPolygons(ctx, filter, from.poly.index(), from.pos, &ctx.exact.start_polys);
  ctx.exact.goal_polys.clear();
  if (target != nullptr) {
    TouchingPolygons(ctx, filter, target->poly.index(), target->pos, &ctx.exact.goal_polys);
  }
  SightFlood flood(ctx, filter, index, ToPoint2(from.pos), target, out);
  const bool target_seen = flood.Run();
  std::sort(out->begin(), out->end(),
            [](const SeenCorner& x, const SeenCorner& y) { return x.corner < y.corner; });
  return target_seen;
}

}  // namespace waymesh::internal::exact
