#include "exact/exact_search.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "exact/landmark_bound.h"
#include "exact/search_steps.h"
#include "poly_geometry.h"
#include "waymesh/core/dead_end_table.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal::exact {
namespace {

// Successors of one root on one edge whose ends are this close (m) abut and are joined.
constexpr double kJoinGap = 1e-7;
// Expansions between two polls of the QueryInterrupt (as the polygon A*).
constexpr uint32_t kExactPollNodes = 256;
// Expansions between two choices of the landmarks the bound consults: each time, those that
// bound the rest of the way best from the node being expanded (the frontier has moved on
// from the start, and landmarks suited to the start may not suit what is left).
constexpr uint32_t kLandmarkChoiceNodes = 128;
// A root reached again at a cost within this fraction of its best is not pruned: both
// arrivals may open different sides of the corner.
constexpr double kRootSlack = 1e-9;
// Whether off-mesh links of `area` pass `filter`.
bool LinkAreaAllowed(const QueryFilter& filter, uint8_t area) {
  return (filter.area_mask() >> (area & (kMaxAreas - 1))) & 1;
}

// A link's cost below its plan-view span by at most this fraction could be float rounding of
// the map's per-metre figure: the heuristic is scaled down by that much more.
constexpr double kLinkScaleSlack = 1e-6;

}  // namespace

LinkTerms LinkTermsOf(const NavMap& map, const QueryFilter& filter) {
  LinkTerms terms;
  const MapDigest& digest = map.digest();
  const uint64_t allowed = filter.area_mask() & digest.areas_present;
  // CheckExactPathSupport: every allowed area costs the same.
  if (allowed != 0) terms.walk_cost = filter.Cost(uint8_t(std::countr_zero(allowed)));
  for (uint64_t m = allowed; m != 0; m &= m - 1) {
    const int a = std::countr_zero(m);
    if (!std::isfinite(digest.link_cost_per_metre[a])) continue;
    terms.links = true;
    // A link's cost per metre of its 3D span bounds it per metre of its plan span too.
    const double per_metre = double(filter.Cost(uint8_t(a))) * digest.link_cost_per_metre[a];
    terms.h_scale = std::min(terms.h_scale, per_metre / terms.walk_cost);
  }
  if (terms.h_scale < 1) terms.h_scale = std::max(0.0, terms.h_scale * (1 - kLinkScaleSlack));
  return terms;
}

uint32_t TurnRoot(const QueryContext& ctx, ExactBuffers* b, const IntervalNode& node,
                  Point2 target) {
  const std::optional<Point2> end = TurnTowards(b->roots[node.root].at, node.a, node.b, target);
  if (!end) return node.root;
  const Root& from = b->roots[node.root];
  const float y =
      PolyHeightAt(ctx.Tile(node.poly.tile), node.poly.poly, float(end->x), float(end->z));
  b->roots.push_back(Root{Vec3{float(end->x), y, float(end->z)}, *end, from.g + Dist(from.at, *end),
                          node.root, node.poly});
  return uint32_t(b->roots.size() - 1);
}

namespace {

class IntervalSearch {
 public:
  // `dead_ends` (may be null): skip dead-end trees without the goal (dead_end_table.h).
  // With `flood` there is no goal (the flood records vertex distances there instead).
  IntervalSearch(QueryContext& ctx, const QueryFilter& filter, const SurfacePoint& goal,
                 uint32_t max_nodes, const DeadEndTable* dead_ends,
                 VertexDistances* flood = nullptr)
      : ctx_(ctx),
        b_(ctx.exact),
        filter_(filter),
        links_(LinkTermsOf(*ctx.map, filter)),
        goal_(ToPoint2(goal.pos)),
        max_nodes_(max_nodes),
        dead_ends_(dead_ends),
        goal_table_(ctx.TableIndex(goal.poly.index())),
        flood_(flood) {
    // The table's distances count links at their plan span: a bound only while no allowed
    // link may cost less.
    if (!NoGoal() && links_.h_scale == 1) {
      const PolyIndex g = goal.poly.index();
      landmarks_.Begin(ctx.exact_landmarks, ctx.Tile(g.tile), g.poly, goal_);
    }
  }

  // Clears the buffers and puts the intervals of the start polygons in the open list.
  void Seed(const SurfacePoint& start) {
    b_.nodes.clear();
    b_.roots.clear();
    b_.heap.clear();
    b_.open.Begin(ctx_.tile_base.back());
    b_.best_root.Reset();
    b_.sent.Reset();
    b_.turn_corners.Begin(ctx_.map, filter_);
    const PolyIndex first = b_.start_polys.front();
    landmarks_.Choose(ctx_.Tile(first.tile), first.poly, ToPoint2(start.pos));
    for (const PolyIndex s : b_.start_polys) {
      const uint32_t root = uint32_t(b_.roots.size());
      Root r{start.pos, ToPoint2(start.pos), 0, kNone, s};
      r.fresh = true;
      b_.roots.push_back(r);
      b_.successors.clear();
      ExpandWhole(kNone, WholeNode(root, s));
      CheapestSuccessor();  // sets f
      PushSuccessors();
    }
  }

  // Runs until a final node is popped (kComplete), the open list empties, the node limit is
  // hit or the interrupt stops it.
  ExactOutcome Run(QueryInterrupt* interrupt) {
    ExactOutcome out;
    uint32_t next_poll = kExactPollNodes - 1;
    uint32_t next_choice = kLandmarkChoiceNodes;
    while (!b_.heap.empty() && !limit_hit_) {
      if (interrupt != nullptr && out.expanded >= next_poll) {
        next_poll = out.expanded + kExactPollNodes;
        out.stop = interrupt->Check();
        if (!out.stop.ok()) return out;
      }
      std::pop_heap(b_.heap.begin(), b_.heap.end());
      const uint32_t ni = b_.heap.back().node;
      const double popped_f = b_.heap.back().f;
      b_.heap.pop_back();
      const IntervalNode& node = b_.nodes[ni];
      if (popped_f > node.f) continue;  // a joined node's older entry
      Close(ni);
      if (node.flags & kFinal) {
        out.status = QueryStatus::kComplete;
        out.last = ni;
        return out;
      }
      if (RootPruned(node)) continue;
      if (landmarks_.active() && out.expanded >= next_choice) {
        next_choice = out.expanded + kLandmarkChoiceNodes;
        const Root& r = b_.roots[node.root];
        landmarks_.Choose(ctx_.Tile(r.poly.tile), r.poly.poly, r.at);
      }
      ExpandChain(ni, &out.expanded);
    }
    out.limit_hit = limit_hit_;
    if (NoGoal()) return out;  // nothing to be partial about
    if (best_final_ != kNone) {
      out.status = QueryStatus::kPartial;
      out.last = best_final_;
    } else if (!b_.nodes.empty()) {
      out.status = QueryStatus::kPartial;
      out.last = ClosestToGoal();
    }
    return out;
  }

 private:
  // A flood: every interval is settled, nearest the seed first.
  bool NoGoal() const { return flood_ != nullptr; }

  // Expands node `ni`; while the cheapest successor would be the next node popped anyway
  // (f below the open list's best, its root not pruned) it is expanded at once instead of
  // through the open list (Polyanya's intermediate nodes, generalised). Pushes the rest.
  // Counts every expansion.
  void ExpandChain(uint32_t ni, uint32_t* expanded) {
    for (;;) {
      ++*expanded;
      b_.successors.clear();
      Expand(ni);
      const size_t next = CheapestSuccessor();
      if (next == b_.successors.size()) break;
      const IntervalNode chosen = b_.successors[next];
      b_.successors[next] = b_.successors.back();
      b_.successors.pop_back();
      PushSuccessors();
      // A part of an open node's edge: expanded with it, as one cone (popped next).
      if (!(chosen.flags & kWhole) && JoinOpen(chosen)) return;
      if (!Store(chosen)) return;
      ni = uint32_t(b_.nodes.size() - 1);
      if (RootPruned(chosen)) return;
    }
    PushSuccessors();
  }

  // Sets the successors' f; the index of the one to expand at once, or successors.size().
  size_t CheapestSuccessor() {
    size_t best = b_.successors.size();
    double best_f = b_.heap.empty() ? INFINITY : b_.heap.front().f;
    if (best_f > goal_f_) best_f = goal_f_;
    for (size_t i = 0; i < b_.successors.size(); ++i) {
      IntervalNode& node = b_.successors[i];
      const Root& r = b_.roots[node.root];
      node.f = NoGoal()
                   ? r.g + DistToSegment(r.at, node.a, node.b)
                   : r.g + std::max(links_.h_scale * IntervalHeuristic(r.at, node.a, node.b, goal_),
                                    node.f);
      if (node.f < best_f) {
        best_f = node.f;
        best = i;
      }
    }
    return best;
  }

  // Whether the node's root (a corner) was reached more cheaply since the node was made.
  bool RootPruned(const IntervalNode& node) const {
    const Root& root = b_.roots[node.root];
    return root.in_table && root.g > b_.best_root.Best(root.pos) + kRootSlack * (1 + root.g);
  }

  // Collects in b_.successors the successors of node `ni` in the polygon its interval leads
  // into (a final node, reaching the goal, goes straight to the open list).
  void Expand(uint32_t ni) {
    const IntervalNode node = b_.nodes[ni];
    if (node.flags & kWhole) {
      ExpandWhole(ni, node);
      return;
    }
    const TileView& t = ctx_.Tile(node.poly.tile);
    const int found = FindCorner(t, node.poly.poly, node.corner_a);
    if (found < 0) return;  // adjacency without the shared corner: corrupt data, a wall
    const uint32_t n = t.corner_count(node.poly.poly), j = EntryCorner(t, node.poly.poly, found);
    // A copy: taking links and turning add roots.
    const Point2 r = b_.roots[node.root].at;
    if (Holds(b_.goal_polys, node.poly)) {
      ReachGoal(ni, node);
      // Any other way on is at least as long, unless a link is shorter than its span.
      if (links_.h_scale == 1) return;
    }
    if (links_.links) TakeLinks(ni, node);
    if (OnIntervalLine(r, node.a, node.b)) {
      ExpandCollinear(ni, node, t, j, n);
      return;
    }
    // The cone from r through the interval: Orient(r, b, X) >= 0 and Orient(r, a, X) <= 0.
    // Walk the far side of the polygon from B round to A.
    for (uint32_t k = 1; k < n; ++k) {
      const uint32_t e = (j + k) % n;
      const Point2 u = ToPoint2(t.corner(node.poly.poly, e));
      const Point2 v = ToPoint2(t.corner(node.poly.poly, (e + 1) % n));
      const Range inside_b = NonNegative(Orient(r, node.b, u), Orient(r, node.b, v));
      const Range inside_a = NonNegative(-Orient(r, node.a, u), -Orient(r, node.a, v));
      AddInterval(ni, node.root, t, node.poly, e, Intersect(inside_b, inside_a));
    }
    // Past an end that is a wall corner the polygon is seen by turning there, when the ray
    // from r through that end leaves part of the polygon on its far side: the corner next to
    // the end lies there (the polygon is convex; OpensPast), else turning opens nothing.
    const uint32_t p = node.poly.poly;
    if ((node.flags & kAtB) && OpensPast(r, node.b, t, p, n, (j + 2) % n, 1) &&
        TurnCorner(node.poly, (j + 1) % n)) {
      TurnAt(ni, node, t, j, n, (j + 1) % n, node.b, /*b_side=*/true);
    }
    if ((node.flags & kAtA) && OpensPast(r, node.a, t, p, n, (j + n - 1) % n, -1) &&
        TurnCorner(node.poly, j)) {
      TurnAt(ni, node, t, j, n, j, node.a, /*b_side=*/false);
    }
  }

  // Successors with root at corner `c` (the interval end `end`) over the part of the far side
  // beyond the ray from the node's root through it.
  void TurnAt(uint32_t ni, const IntervalNode& node, const TileView& t, uint32_t j, uint32_t n,
              uint32_t c, Point2 end, bool b_side) {
    const Point2 r = b_.roots[node.root].at;
    const uint32_t turn = NewVertexRoot(node.root, node.poly, c);
    if (turn == kNone) return;
    for (uint32_t k = 1; k < n; ++k) {
      const uint32_t e = (j + k) % n;
      const Point2 u = ToPoint2(t.corner(node.poly.poly, e));
      const Point2 v = ToPoint2(t.corner(node.poly.poly, (e + 1) % n));
      const double su = Orient(r, end, u), sv = Orient(r, end, v);
      AddInterval(ni, turn, t, node.poly, e, b_side ? NonNegative(-su, -sv) : NonNegative(su, sv));
    }
  }

  // The root lies on the interval's line: it sees the whole polygon when it lies on the
  // interval, else it does past the nearer end, which must be a corner to turn at.
  void ExpandCollinear(uint32_t ni, const IntervalNode& node, const TileView& t, uint32_t j,
                       uint32_t n) {
    const Point2 r = b_.roots[node.root].at;
    uint32_t root = node.root;
    const bool on_interval = BetweenOnLine(r, node.a, node.b);
    // Every polygon the start (or a link's end) lies on was seeded: going on round it on a
    // vertex or an edge would only circle it (round and round an inner vertex).
    if (on_interval && b_.roots[node.root].fresh) return;
    if (!on_interval) {
      const bool a_nearer = Dist(r, node.a) <= Dist(r, node.b);
      const uint8_t at_end = a_nearer ? kAtA : kAtB;
      const uint32_t c = a_nearer ? j : (j + 1) % n;
      if (!(node.flags & at_end) || !TurnCorner(node.poly, c)) return;
      root = NewVertexRoot(node.root, node.poly, c);
      if (root == kNone) return;
    }
    for (uint32_t k = 1; k < n; ++k) AddInterval(ni, root, t, node.poly, (j + k) % n, Range{0, 1});
  }

  bool TurnCorner(PolyIndex poly, uint32_t corner) {
    return MemoTurnCorner(ctx_, filter_, &b_.turn_corners, poly, corner);
  }

  // A root at corner `corner` of polygon `poly` reached from root `from`; kNone when that
  // vertex was already reached more cheaply.
  uint32_t NewVertexRoot(uint32_t from, PolyIndex poly, uint32_t corner) {
    const TileView& t = ctx_.Tile(poly.tile);
    const Vec3 pos = t.corner(poly.poly, corner);
    const Root& f = b_.roots[from];
    const Point2 at = ToPoint2(pos);
    const double g = f.g + Dist(f.at, at);
    if (!b_.best_root.Improve(pos, g, kRootSlack * (1 + g))) return kNone;
    b_.roots.push_back(Root{pos, at, g, from, poly, true});
    return uint32_t(b_.roots.size() - 1);
  }

  // The node of a fresh root (the start, a link's end) in polygon `poly`, which it sees whole.
  static IntervalNode WholeNode(uint32_t root, PolyIndex poly, Point2 at = {}) {
    IntervalNode node;
    node.a = node.b = at;
    node.root = root;
    node.poly = poly;
    node.flags = kWhole;
    return node;
  }

  // Successors of a fresh root in its polygon: the goal when it is there, every edge, and the
  // links leaving the polygon.
  void ExpandWhole(uint32_t ni, IntervalNode node) {
    const Root& root = b_.roots[node.root];
    node.a = node.b = root.at;
    if (Holds(b_.goal_polys, node.poly)) {
      PushFinal(ni, node.root, root.at, goal_, node.poly, root.parent == kNone);
      if (links_.h_scale == 1) return;
    }
    const TileView& t = ctx_.Tile(node.poly.tile);
    for (uint32_t e = 0, n = t.corner_count(node.poly.poly); e < n; ++e) {
      AddInterval(ni, node.root, t, node.poly, e, Range{0, 1});
    }
    if (links_.links) TakeLinks(ni, node);
  }

  // The links leaving node's polygon that the filter and their end polygon allow: each is
  // reached from the node's root like the goal (straight, or round an interval end) and opens
  // a fresh root at its end.
  void TakeLinks(uint32_t ni, const IntervalNode& node) {
    const TileView& t = ctx_.Tile(node.poly.tile);
    const auto links = t.off_mesh_links;
    auto it = std::lower_bound(
        links.begin(), links.end(), node.poly.poly,
        [](const OffMeshLink& link, uint32_t poly) { return link.start_poly < poly; });
    for (; it != links.end() && it->start_poly == node.poly.poly; ++it) {
      if (!LinkAreaAllowed(filter_, it->area)) continue;
      const PolyIndex end{it->end_tile, it->end_poly};
      if (!ctx_.Exists(end) || !ctx_.Passes(filter_, end)) continue;
      TakeLink(ni, node, *it, end);
    }
  }

  // Takes `link` (ending on polygon `end`) from node `ni`: roots at its start and its end, and
  // a node for each polygon its end lies on; nothing when its end was reached more cheaply.
  void TakeLink(uint32_t ni, const IntervalNode& node, const OffMeshLink& link, PolyIndex end) {
    const Root& from = b_.roots[node.root];
    const Point2 start = ToPoint2(link.start);
    const std::optional<Point2> turn = TurnTowards(from.at, node.a, node.b, start);
    const double g_start =
        from.g + (turn ? Dist(from.at, *turn) + Dist(*turn, start) : Dist(from.at, start));
    const double g_end = g_start + LinkLength(link);
    if (!b_.best_root.Improve(link.end, g_end, kRootSlack * (1 + g_end))) return;
    const uint32_t before = TurnRoot(ctx_, &b_, node, start);
    Root leave{link.start, start, g_start, before, node.poly};
    leave.link_start = true;
    leave.link_area = link.area;
    b_.roots.push_back(leave);
    Root arrive{link.end, ToPoint2(link.end), g_end, uint32_t(b_.roots.size() - 1), end, true};
    arrive.fresh = true;
    b_.roots.push_back(arrive);
    const uint32_t root = uint32_t(b_.roots.size() - 1);
    TouchingPolygons(ctx_, filter_, end, link.end, &b_.link_end_polys);
    for (const PolyIndex p : b_.link_end_polys) {
      IntervalNode whole = WholeNode(root, p, arrive.at);
      whole.parent = ni;
      b_.successors.push_back(whole);
    }
  }

  // A link's cost in metres of walking under the filter (its area's cost already scales it).
  double LinkLength(const OffMeshLink& link) const {
    // A flood measures links at their plan span, the least any exact query pays for them.
    if (flood_ != nullptr) return Dist(ToPoint2(link.start), ToPoint2(link.end));
    return std::max(double(ctx_.LinkCost(link, filter_)), 0.0) / links_.walk_cost;
  }

  // Offers the part `range` of edge e of `poly` (corners e, e + 1), seen from `root`, as a
  // successor leading into the polygon across it (when there is one the filter accepts).
  void AddInterval(uint32_t parent, uint32_t root, const TileView& t, PolyIndex poly, uint32_t e,
                   Range range) {
    range = Snapped(range);
    if (flood_ != nullptr && !range.empty()) RecordCorners(root, t, poly, e, range);
    // A single point is never needed: where a cone's edge grazes a corner, the interval
    // beside it ends at that corner and turns there (or a sibling cone of the same root
    // carries on past it).
    if (!(range.lo < range.hi)) return;
    const std::optional<PolyIndex> nb = t.across(t.poly_start[poly.poly] + e);
    if (!nb || !ctx_.Exists(*nb) || !ctx_.Passes(filter_, *nb)) return;
    // A shortest path that enters a dead-end tree without the goal leaves it across the same
    // edge, and the edge itself is shorter.
    if (dead_ends_ != nullptr &&
        dead_ends_->Skippable(ctx_.TableIndex(poly), ctx_.TableIndex(*nb), goal_table_)) {
      return;
    }
    const uint32_t n = t.corner_count(poly.poly);
    const Vec3 u3 = t.corner(poly.poly, e), v3 = t.corner(poly.poly, (e + 1) % n);
    const Point2 u = ToPoint2(u3), v = ToPoint2(v3);
    // Only a cone collapsed to float precision can come round to an edge part its root has
    // already sent (sent_intervals.h): wider ones pass without the table's cost.
    if (ThinCone(b_.roots[root].at, Along(u, v, range.lo), Along(u, v, range.hi))) {
      range = b_.sent.Claim(root, poly, e, range);
      if (!(range.lo < range.hi)) return;
    }
    // Across the edge it runs the other way: its corner A is v.
    IntervalNode node;
    node.a = range.hi == 1 ? v : Along(u, v, range.hi);
    node.b = range.lo == 0 ? u : Along(u, v, range.lo);
    node.corner_a = v3;
    node.root = root;
    node.parent = parent;
    node.poly = *nb;
    node.flags = uint8_t((range.hi == 1 ? kAtA : 0) | (range.lo == 0 ? kAtB : 0));
    if (landmarks_.active()) node.f = LandmarkPart(node, t, poly, e, u, v, range);
    b_.successors.push_back(node);
  }

  // The landmark bound of a successor (see IntervalNode::f): from the root to the nearest
  // point of the interval, then from its part of edge e on. Out of line, so that searches
  // without a table keep AddInterval small.
  [[gnu::noinline]] double LandmarkPart(const IntervalNode& node, const TileView& t, PolyIndex poly,
                                        uint32_t e, Point2 u, Point2 v, Range range) const {
    const uint32_t s = t.poly_start[poly.poly], n = t.corner_count(poly.poly);
    const Point2 r = b_.roots[node.root].at;
    return landmarks_.EdgeBound(poly.tile, t.poly_verts[s + e], t.poly_verts[s + (e + 1) % n], u, v,
                                range.lo, range.hi, r, DistToSegment(r, node.a, node.b));
  }

  // A flood's record of the polygon corners at the ends of `range` of edge e: the root sees
  // them, so its cost plus the straight line bounds their distance (the least is exact).
  void RecordCorners(uint32_t root, const TileView& t, PolyIndex poly, uint32_t e, Range range) {
    const Root& r = b_.roots[root];
    const uint32_t s = t.poly_start[poly.poly], n = t.corner_count(poly.poly);
    std::vector<double>& d = (*flood_)[poly.tile];
    const auto record = [&](uint32_t corner) {
      const uint32_t v = t.poly_verts[s + corner];
      d[v] = std::min(d[v], r.g + Dist(r.at, ToPoint2(t.vertices[v])));
    };
    if (range.lo == 0) record(e);
    if (range.hi == 1) record((e + 1) % n);
  }

  // Offers the collected successors (f set) to the open list.
  void PushSuccessors() {
    for (const IntervalNode& node : b_.successors) Push(node);
  }

  // The node expanded into the goal's polygon: the goal is straight ahead when the cone
  // holds it, else round the nearer interval end.
  void ReachGoal(uint32_t ni, const IntervalNode& node) {
    const uint32_t root = TurnRoot(ctx_, &b_, node, goal_);
    PushFinal(ni, root, b_.roots[root].at, goal_, node.poly, false);
  }

  // A final node: from `root` (at `from`) straight to the goal.
  void PushFinal(uint32_t parent, uint32_t root, Point2 from, Point2 goal, PolyIndex poly,
                 bool seed) {
    IntervalNode node;
    node.a = node.b = goal;
    node.root = root;
    node.parent = parent;
    node.poly = poly;
    node.flags = kFinal;
    node.f = b_.roots[root].g + Dist(from, goal);
    if (!seed && node.f >= goal_f_) return;
    goal_f_ = std::min(goal_f_, node.f);
    if (Push(node) && (best_final_ == kNone || node.f < b_.nodes[best_final_].f)) {
      best_final_ = uint32_t(b_.nodes.size() - 1);
    }
  }

  // Adds `node` to the open list unless it cannot beat the best path found or the node limit
  // is reached; whether it was added.
  bool Push(const IntervalNode& node) {
    if (node.f >= goal_f_ && !(node.flags & kFinal)) return false;
    if (!(node.flags & (kFinal | kWhole)) && JoinOpen(node)) return true;
    if (!Store(node)) return false;
    if (!(node.flags & (kFinal | kWhole))) {
      b_.open.Add(ctx_.Global(node.poly), uint32_t(b_.nodes.size() - 1));
    }
    b_.heap.push_back(HeapItem{node.f, uint32_t(b_.nodes.size() - 1)});
    std::push_heap(b_.heap.begin(), b_.heap.end());
    return true;
  }

  // The node leaves the open list: nothing joins it any more.
  void Close(uint32_t ni) {
    const IntervalNode& n = b_.nodes[ni];
    if (n.flags & (kFinal | kWhole)) return;
    b_.open.Remove(ctx_.Global(n.poly), ni);
  }

  // The open node of the same root on the same edge into the same polygon whose interval
  // abuts `node`'s, or kNone.
  uint32_t Joinable(const IntervalNode& node) const {
    const Point2 corner = ToPoint2(node.corner_a);
    const double na = Dist(corner, node.a), nb = Dist(corner, node.b);
    const uint32_t k = b_.open.Find(ctx_.Global(node.poly), [&](uint32_t open) {
      const IntervalNode& o = b_.nodes[open];
      return o.root == node.root && o.corner_a.x == node.corner_a.x &&
             o.corner_a.z == node.corner_a.z && na <= Dist(corner, o.b) + kJoinGap &&
             Dist(corner, o.a) <= nb + kJoinGap;
    });
    return k == OpenIntervals::kEnd ? kNone : k;
  }

  // Widens the open node Joinable finds, keeping both parts in its join list; whether it did.
  bool JoinOpen(const IntervalNode& node) {
    const uint32_t k = Joinable(node);
    if (k == kNone) return false;
    const Point2 corner = ToPoint2(node.corner_a);
    const double oa = Dist(corner, b_.nodes[k].a), ob = Dist(corner, b_.nodes[k].b);
    const double na = Dist(corner, node.a), nb = Dist(corner, node.b);
    if (b_.nodes[k].joined == kNone) {
      IntervalNode own = b_.nodes[k];  // the open node's own part, before widening
      if (!Store(own)) return false;
      b_.nodes[k].joined = uint32_t(b_.nodes.size() - 1);
    }
    IntervalNode part = node;
    part.joined = b_.nodes[k].joined;
    if (!Store(part)) return false;
    IntervalNode& open = b_.nodes[k];
    open.joined = uint32_t(b_.nodes.size() - 1);
    if (na < oa) {
      open.a = node.a;
      open.flags = uint8_t((open.flags & ~kAtA) | (node.flags & kAtA));
    }
    if (nb > ob) {
      open.b = node.b;
      open.flags = uint8_t((open.flags & ~kAtB) | (node.flags & kAtB));
    }
    if (node.f < open.f) {
      open.f = node.f;
      b_.heap.push_back(HeapItem{open.f, k});
      std::push_heap(b_.heap.begin(), b_.heap.end());
    }
    return true;
  }

  // Keeps `node` (for the parent chain) unless the node limit is reached; whether it was kept.
  bool Store(const IntervalNode& node) {
    if (b_.nodes.size() >= max_nodes_) {
      limit_hit_ = true;
      return false;
    }
    b_.nodes.push_back(node);
    return true;
  }

  // The node whose polygon comes closest to the goal (ties: the cheaper root).
  uint32_t ClosestToGoal() const {
    uint32_t best = 0;
    double best_d = INFINITY;
    const Vec3 goal{float(goal_.x), 0, float(goal_.z)};
    for (uint32_t i = 0; i < b_.nodes.size(); ++i) {
      const IntervalNode& n = b_.nodes[i];
      const TileView& t = ctx_.Tile(n.poly.tile);
      const double d =
          Dist(goal_, ToPoint2(ClosestPointInPolyXZ(t, n.poly.poly, goal,
                                                    SeparationSqXZ(t, n.poly.poly, goal))));
      if (d < best_d || (d == best_d && b_.roots[n.root].g < b_.roots[b_.nodes[best].root].g)) {
        best_d = d;
        best = i;
      }
    }
    return best;
  }

  QueryContext& ctx_;
  ExactBuffers& b_;
  const QueryFilter& filter_;
  const LinkTerms links_;
  const Point2 goal_;
  const uint32_t max_nodes_;
  const DeadEndTable* const dead_ends_;
  const uint32_t goal_table_;     // the goal polygon's index in the search tables
  LandmarkBound landmarks_;       // inactive without an exact landmark table
  VertexDistances* const flood_;  // a flood (no goal) records vertex distances here
  double goal_f_ = INFINITY;      // length of the best path to the goal found so far
  uint32_t best_final_ = kNone;
  bool limit_hit_ = false;
};

}  // namespace

ExactOutcome SearchExact(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                         const QueryFilter& filter, uint32_t max_nodes, QueryInterrupt* interrupt) {
  TouchingPolygons(ctx, filter, start.poly.index(), start.pos, &ctx.exact.start_polys);
  TouchingPolygons(ctx, filter, goal.poly.index(), goal.pos, &ctx.exact.goal_polys);
  max_nodes = std::max<uint32_t>(max_nodes, 1);
  // Dead ends hold a goal on one polygon only: one on an edge or a vertex may also be reached
  // through a neighbour in another tree.
  const DeadEndTable* dead_ends = ctx.exact.goal_polys.size() == 1 ? ctx.dead_ends : nullptr;
  IntervalSearch search(ctx, filter, goal, max_nodes, dead_ends);
  search.Seed(start);
  ExactOutcome out = search.Run(interrupt);
  if (out.status != QueryStatus::kComplete && out.stop.ok() && !out.limit_hit &&
      dead_ends != nullptr) {
    // The goal is out of reach: the partial path leads to the reached polygon closest to it,
    // which may be in a skipped dead end, so search everything.
    IntervalSearch all(ctx, filter, goal, max_nodes, nullptr);
    all.Seed(start);
    const uint32_t expanded = out.expanded;
    out = all.Run(interrupt);
    out.expanded += expanded;
  }
  return out;
}

void FloodExact(QueryContext& ctx, const SurfacePoint& from, const QueryFilter& filter,
                VertexDistances* out) {
  out->assign(ctx.map->tile_count(), {});
  for (uint32_t i = 0; i < ctx.map->tile_count(); ++i) {
    (*out)[i].assign(ctx.Tile(i).vertices.size(), INFINITY);
  }
  TouchingPolygons(ctx, filter, from.poly.index(), from.pos, &ctx.exact.start_polys);
  ctx.exact.goal_polys.clear();  // no goal: the search runs until every interval is settled
  IntervalSearch search(ctx, filter, from, std::numeric_limits<uint32_t>::max(), nullptr, out);
  search.Seed(from);
  search.Run(nullptr);
}

}  // namespace waymesh::internal::exact
