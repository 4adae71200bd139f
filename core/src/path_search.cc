#include "path_search.h"

#include <algorithm>
#include <cmath>

#include "poly_geometry.h"
#include "waymesh/core/dead_end_table.h"
#include "waymesh/core/landmark_table.h"

namespace waymesh::internal {
namespace {

// Expansions between two polls of a QueryInterrupt (a few tens of microseconds of search).
constexpr uint32_t kInterruptPollNodes = 256;

// Asks the memory system for the corner lists ExpandEdges will read if polygon `poly` of `t`
// is expanded (see Search::Gather, which already asked for its poly_start entry).
void PrefetchCorners(const TileView& t, uint32_t poly) {
  const uint32_t first = t.poly_start[poly];
  __builtin_prefetch(t.poly_neighbors.data() + first);
  __builtin_prefetch(t.poly_verts.data() + first);
}

struct Search {
  QueryContext& ctx;
  const QueryFilter& filter;
  const SurfacePoint& goal;
  PolyIndex goal_at;
  float h_scale;
  uint32_t max_nodes;
  float goal_f = INFINITY;  // best known cost of a complete path
  // Flood mode (FloodDistances): no goal, no heuristic, portal points nearest the apex.
  bool flood = false;
  LandmarkTable::GoalBound landmarks;       // none: straight-line heuristic only
  const DeadEndTable* dead_ends = nullptr;  // null: no polygon is skipped
  uint32_t goal_table = 0;                  // the goal polygon's index in the search tables
  // Non-null: the search never leaves the tiles t with (*cluster_of)[t] == only_cluster.
  const std::vector<uint32_t>* cluster_of = nullptr;
  uint32_t only_cluster = 0;
  bool limit_hit = false;  // a node was not created because the pool or max_nodes was full

  // The landmark bound of polygon `global`; 0 in a flood (no goal).
  float LandmarkBound(uint32_t global) const { return flood ? 0.0f : landmarks.From(global); }
  // Whether the search may enter tile `tile`.
  bool Allowed(uint32_t tile) const {
    return cluster_of == nullptr || (*cluster_of)[tile] == only_cluster;
  }

  // Estimate of the cost from `pos` to the goal, given the landmark bound of pos's polygon: the
  // straight distance times the cheapest cost per metre, or the landmark bound, whichever is
  // larger.
  float Heuristic(float landmark, Vec3 pos) const {
    if (flood) return 0.0f;
    return std::max(Distance(pos, goal.pos) * h_scale, landmark);
  }

  // A polygon offered to the search: where it is, its node if it has one (else kNoNode), its
  // area.
  struct Candidate {
    PolyIndex at;
    uint32_t global, table, known;  // table: its index in the search tables (TableIndex)
    uint8_t area;
  };

  // Offers polygon `c` reached with funnel `fs` at point `pos` (cost `g` there) from node
  // `from` via `via`.
  void Relax(uint32_t from, const Candidate& c, FunnelState fs, Vec3 pos, float g, uint32_t via) {
    const float rate = filter.Cost(c.area);
    if (rate != fs.rate) {
      // Another cost per metre from here on: restart the funnel at the portal point.
      fs = FunnelState{pos, pos, pos, g, rate};
    }
    const bool is_goal = c.at == goal_at;
    // A polygon is offered about twice as often as it gets a node: its landmark bound (a tenth
    // of a demo-world query's instructions) is kept with the node.
    const float landmark = is_goal              ? 0.0f
                           : c.known != kNoNode ? ctx.pool.node(c.known).landmark
                                                : LandmarkBound(c.table);
    const float f = is_goal ? FunnelCostTo(fs, goal.pos) : g + Heuristic(landmark, pos);
    // Popped only after the goal: never worth a node.
    if (f >= goal_f) return;
    if (is_goal) goal_f = f;
    uint32_t ni = c.known;
    if (ni == kNoNode) {
      if (ctx.pool.size() >= max_nodes) {
        limit_hit = true;
        return;
      }
      ni = ctx.pool.Create(c.global, c.at);
      if (ni == kNoNode) {
        limit_hit = true;
        return;
      }
      PrefetchCorners(ctx.Tile(c.at.tile), c.at.poly);
    } else if (!(f < ctx.pool.node(ni).f) || ctx.pool.node(ni).state == kNodeClosed) {
      // An expanded node is final. With funnel costs and landmark bounds f is not strictly
      // monotone, so a later route can still look cheaper; reopening the node (with a walk
      // up the parents to keep the tree acyclic) re-expanded whole subtrees for gains below
      // 0.1 % of path length: 21 % more nodes on the 256 m demo world, 4 % on aurora.
      return;
    }
    SearchNode& n = ctx.pool.node(ni);
    n.funnel = fs;
    n.g = g;
    n.f = f;
    n.landmark = landmark;
    n.parent = from;
    n.via = via;
    n.state = kNodeOpen;
    ctx.heap.Push(ni, f);  // an older entry for this node goes stale (see SearchCorridor)
  }

  // A polygon across an edge of the polygon being expanded.
  struct Across {
    uint32_t edge;  // corner index i of edge (i, i + 1)
    PolyIndex at;
    uint32_t global, table;
    const TileView* view;
  };
  // Edges are taken in groups of this many: all of a group's neighbours are looked up first.
  static constexpr uint32_t kGroup = 8;

  // Resolves the neighbours across edges [first, end) of the expanded polygon (s = its first
  // corner, `from` its global index) into *out, skipping walls, unloadable tiles, the parent
  // polygon and the dead ends (dead_end_table.h) that cannot be on the way to the goal, and
  // prefetches what relaxing them reads. On a large map a neighbour's node slot, area, flags,
  // landmark row and corner range each sit on a cache line of their own, mostly outside the caches:
  // asked for together, they arrive in parallel instead of one miss after another (1022 m
  // demo world: about 10 % off short routes, 20-28 % off long ones). Returns how many were
  // written.
  uint32_t Gather(const TileView& t, uint32_t s, uint32_t first, uint32_t end, uint32_t from_table,
                  uint32_t parent_global, Across* out) const {
    uint32_t count = 0;
    for (uint32_t i = first; i < end; ++i) {
      const std::optional<PolyIndex> nb = t.across(s + i);
      if (!nb || !Allowed(nb->tile)) continue;
      Across a{i, *nb, 0, 0, nb->tile == t.index ? &t : ctx.TryTile(nb->tile)};
      if (a.view == nullptr) continue;  // a tile that cannot be loaded is a wall
      a.global = ctx.Global(a.at);
      if (a.global == parent_global) continue;
      a.table = ctx.TableIndex(a.at);
      if (dead_ends != nullptr && dead_ends->Skippable(from_table, a.table, goal_table)) continue;
      ctx.pool.Prefetch(a.global);
      __builtin_prefetch(a.view->poly_area.data() + a.at.poly);
      __builtin_prefetch(a.view->poly_flags.data() + a.at.poly);
      __builtin_prefetch(a.view->poly_start.data() + a.at.poly);
      landmarks.Prefetch(a.table);
      out[count++] = a;
    }
    return count;
  }

  // Offers every polygon one step from node `ci`: across its edges, then through the off-mesh
  // links that leave it (most tiles have none: no call then).
  void Expand(uint32_t ci) {
    const SearchNode cur = ctx.pool.node(ci);
    const TileView& t = ctx.Tile(cur.at.tile);
    ExpandEdges(ci, cur, t);
    if (!t.off_mesh_links.empty()) ExpandLinks(ci, cur, t);
  }

  void ExpandEdges(uint32_t ci, const SearchNode& cur, const TileView& t) {
    const uint32_t s = t.poly_start[cur.at.poly];
    const uint32_t n = t.poly_start[cur.at.poly + 1] - s;
    const uint32_t parent_global =
        cur.parent == kNoNode ? kNoNode : ctx.Global(ctx.pool.node(cur.parent).at);
    const uint32_t table = ctx.TableIndex(cur.at);
    Across group[kGroup];
    for (uint32_t first = 0; first < n; first += kGroup) {
      const uint32_t count =
          Gather(t, s, first, std::min(n, first + kGroup), table, parent_global, group);
      for (uint32_t k = 0; k < count; ++k) Offer(ci, cur, t, s, n, group[k]);
    }
  }

  // Relaxes neighbour `a` of the expanded node `ci` (its copy `cur`, polygon of `t` with `n`
  // corners from `s`).
  [[gnu::flatten]] void Offer(uint32_t ci, const SearchNode& cur, const TileView& t, uint32_t s,
                              uint32_t n, const Across& a) {
    // f never drops along a path (cones only narrow, bends only add cost), so a neighbour
    // already reached at most this cheaply cannot improve, and an expanded one is final
    // (Relax): skip the funnel work.
    const uint32_t known = ctx.pool.Find(a.global);
    if (known != kNoNode &&
        (ctx.pool.node(known).f <= cur.f || ctx.pool.node(known).state == kNodeClosed)) {
      return;
    }
    const uint8_t area = a.view->poly_area[a.at.poly];
    if (!filter.Passes(area, a.view->poly_flags[a.at.poly])) return;
    const uint32_t i = a.edge;
    const Vec3 r = t.vertices[t.poly_verts[s + i]];
    const Vec3 l = t.vertices[t.poly_verts[s + (i + 1 == n ? 0 : i + 1)]];
    FunnelState fs = cur.funnel;
    AdvanceFunnel(&fs, l, r);
    Vec3 vl, vr;
    VisiblePart(fs, l, r, &vl, &vr);
    // Towards the goal; in a flood, the portal point nearest the apex.
    const Vec3 target = flood ? fs.apex : goal.pos;
    const Vec3 p = Lerp(vl, vr, BestPortalParam(fs.apex, target, vl, vr));
    const float g = fs.g + fs.rate * Distance(fs.apex, p);
    Relax(ci, {a.at, a.global, a.table, known, area}, fs, p, g, i);
  }

  void ExpandLinks(uint32_t ci, const SearchNode& cur, const TileView& t) {
    const auto links = t.off_mesh_links;
    auto it = std::lower_bound(
        links.begin(), links.end(), cur.at.poly,
        [](const OffMeshLink& link, uint32_t poly) { return link.start_poly < poly; });
    for (; it != links.end() && it->start_poly == cur.at.poly; ++it) {
      const OffMeshLink& link = *it;
      if (!((filter.area_mask() >> (link.area & (kMaxAreas - 1))) & 1)) continue;
      const PolyIndex end{link.end_tile, link.end_poly};
      if (!Allowed(end.tile)) continue;
      if (!ctx.Exists(end) || !ctx.Passes(filter, end)) continue;
      const float g = FunnelCostTo(cur.funnel, link.start) + ctx.LinkCost(link, filter);
      const uint8_t area = ctx.AreaOf(end);
      const FunnelState fs{link.end, link.end, link.end, g, filter.Cost(area)};
      const uint32_t global = ctx.Global(end);
      Relax(ci, {end, global, ctx.TableIndex(end), ctx.pool.Find(global), area}, fs, link.end, g,
            kViaLinkBit | uint32_t(it - links.begin()));
    }
  }
};

// The reached node whose polygon comes closest to the goal (ties: cheaper), for partial paths.
uint32_t ClosestReached(const QueryContext& ctx, Vec3 goal) {
  uint32_t best = 0;
  float best_d = INFINITY;
  for (uint32_t i = 0; i < ctx.pool.size(); ++i) {
    const SearchNode& n = ctx.pool.node(i);
    const Vec3 q = ClosestPointOnPoly(ctx.Tile(n.at.tile), n.at.poly, goal);
    const float d = Distance(q, goal);
    if (d < best_d || (d == best_d && n.g < ctx.pool.node(best).g)) {
      best_d = d;
      best = i;
    }
  }
  return best;
}

// The corridor from the search's start to node `last` along the parents, into *out.
void CorridorOf(const QueryContext& ctx, uint32_t last, std::vector<CorridorStep>* out) {
  out->clear();
  // Parent chains are acyclic (see Search::Relax); the bound is a last line of defence.
  for (uint32_t i = last, guard = 0; i != kNoNode && guard <= ctx.pool.size(); ++guard) {
    const SearchNode& n = ctx.pool.node(i);
    out->push_back({n.at, n.parent == kNoNode ? kViaStart : n.via});
    i = n.parent;
  }
  std::reverse(out->begin(), out->end());
}

void BuildCorridor(QueryContext& ctx, uint32_t last) { CorridorOf(ctx, last, &ctx.steps); }

}  // namespace

namespace {

// Per edge of polygon `poly` of `t`: the global index of the polygon across it, or
// LandmarkTable::kNoNeighbour.
void NeighbourGlobals(const QueryContext& ctx, const TileView& t, uint32_t poly,
                      std::vector<uint32_t>* out) {
  out->clear();
  for (uint32_t i = t.poly_start[poly]; i < t.poly_start[poly + 1]; ++i) {
    const std::optional<PolyIndex> nb = t.across(i);
    out->push_back(nb ? ctx.TableIndex(*nb) : LandmarkTable::kNoNeighbour);
  }
}

}  // namespace

LandmarkTable::GoalBound GoalBoundFor(QueryContext& ctx, const SurfacePoint& start,
                                      const SurfacePoint& goal, const QueryFilter& filter) {
  if (ctx.landmarks == nullptr) return {};
  const PolyIndex at = goal.poly.index();
  const TileView& gt = ctx.Tile(at.tile);
  NeighbourGlobals(ctx, gt, at.poly, &ctx.goal_neighbours);
  // A goal in a carved piece is bounded anywhere in the polygon it was cut from.
  const bool piece = ctx.tables_remapped && !gt.poly_origin.empty();
  return ctx.landmarks->ForGoal(filter, ctx.TableIndex(start.poly.index()),
                                LandmarkTable::Goal{ctx.TableIndex(at), piece ? nullptr : &gt,
                                                    at.poly, goal.pos, ctx.goal_neighbours});
}

namespace {

// Puts the start node in the open list.
void Seed(Search& s, const SurfacePoint& start) {
  QueryContext& ctx = s.ctx;
  ctx.pool.Reset();
  ctx.heap.Clear();
  const PolyIndex at = start.poly.index();
  const uint32_t root = ctx.pool.Create(ctx.Global(at), at);
  SearchNode& r = ctx.pool.node(root);
  const float rate = s.filter.Cost(ctx.AreaOf(at));
  r.funnel = FunnelState{start.pos, start.pos, start.pos, 0.0f, rate};
  r.g = 0;
  r.landmark = s.LandmarkBound(ctx.TableIndex(at));
  r.f = s.Heuristic(r.landmark, start.pos);
  r.state = kNodeOpen;
  ctx.heap.Push(root, r.f);
}

// Expands nodes best-first until the goal is popped (its node returned) or the open list
// empties (kNoNode); each node at most once, so the work is bounded by the node limit. Counts
// expansions in *expanded. Polls `interrupt` (may be null) and stops with its status in *stop.
uint32_t Run(Search& s, QueryInterrupt* interrupt, uint32_t* expanded, absl::Status* stop) {
  QueryContext& ctx = s.ctx;
  while (!ctx.heap.Empty()) {
    if (interrupt != nullptr && *expanded % kInterruptPollNodes == kInterruptPollNodes - 1) {
      *stop = interrupt->Check();
      if (!stop->ok()) return kNoNode;
    }
    const OpenHeap::Entry top = ctx.heap.Pop();
    const uint32_t ci = top.node;
    SearchNode& cur = ctx.pool.node(ci);
    // Entries left behind when a node improved, or for a node already expanded.
    if (cur.state != kNodeOpen || top.key != cur.f) continue;
    cur.state = kNodeClosed;
    ++*expanded;
    if (cur.at == s.goal_at) return ci;
    s.Expand(ci);
  }
  return kNoNode;
}

}  // namespace

SearchOutcome SearchCorridor(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                             const QueryFilter& filter, uint32_t max_nodes,
                             QueryInterrupt* interrupt, const SearchArea& area) {
  max_nodes = std::clamp<uint32_t>(max_nodes, 1, ctx.pool.capacity());
  Search s{ctx, filter, goal, goal.poly.index(), ctx.HeuristicScale(filter), max_nodes};
  s.goal_table = ctx.TableIndex(s.goal_at);
  s.landmarks = GoalBoundFor(ctx, start, goal, filter);
  s.dead_ends = ctx.dead_ends;
  s.cluster_of = area.cluster_of;
  s.only_cluster = area.cluster;
  Seed(s, start);
  uint32_t expanded = 0;
  absl::Status stop;
  uint32_t reached = 0;  // the root, when start and goal share a polygon
  if (start.poly.index() != goal.poly.index()) {
    reached = Run(s, interrupt, &expanded, &stop);
    if (reached == kNoNode && stop.ok() && !s.limit_hit && s.dead_ends != nullptr) {
      // The filter keeps the goal out of reach. The partial path leads to the reached polygon
      // closest to the goal, which may be in a skipped dead end: search everything.
      s.dead_ends = nullptr;
      Seed(s, start);
      reached = Run(s, interrupt, &expanded, &stop);
    }
    if (!stop.ok()) return {QueryStatus::kPartial, expanded, stop, false};
  }
  if (reached == kNoNode) {
    // The goal polygon may have been reached but not popped (node limit): its path is still
    // valid.
    const uint32_t g = ctx.pool.Find(ctx.Global(s.goal_at));
    if (g != kNoNode) reached = g;
  }
  const bool complete = reached != kNoNode;
  BuildCorridor(ctx, complete ? reached : ClosestReached(ctx, goal.pos));
  return {complete ? QueryStatus::kComplete : QueryStatus::kPartial, expanded, absl::OkStatus(),
          !complete && s.limit_hit};
}

void FloodDistances(QueryContext& ctx, const SurfacePoint& from, const QueryFilter& filter,
                    std::vector<float>* dist) {
  // No polygon is the goal: the search runs until every reachable polygon is settled.
  const SurfacePoint nowhere{PolyRef(), from.pos};
  Search s{ctx, filter, nowhere, PolyIndex{kNoNode, kNoNode}, 0.0f, ctx.pool.capacity()};
  s.flood = true;
  Seed(s, from);
  uint32_t expanded = 0;
  absl::Status unused;
  Run(s, nullptr, &expanded, &unused);
  dist->assign(ctx.tile_base.back(), INFINITY);
  for (uint32_t i = 0; i < ctx.pool.size(); ++i) {
    const SearchNode& n = ctx.pool.node(i);
    (*dist)[ctx.Global(n.at)] = n.g;
  }
}

uint32_t FloodWithinCluster(QueryContext& ctx, const SurfacePoint& from,
                            const std::vector<uint32_t>& cluster_of, uint32_t cluster,
                            const QueryFilter& filter, std::span<const SurfacePoint> targets,
                            std::vector<float>* costs) {
  const SurfacePoint nowhere{PolyRef(), from.pos};
  Search s{ctx, filter, nowhere, PolyIndex{kNoNode, kNoNode}, 0.0f, ctx.pool.capacity()};
  s.flood = true;
  s.cluster_of = &cluster_of;
  s.only_cluster = cluster;
  Seed(s, from);
  uint32_t expanded = 0;
  absl::Status unused;
  Run(s, nullptr, &expanded, &unused);
  costs->clear();
  for (const SurfacePoint& target : targets) {
    const uint32_t n = ctx.pool.Find(ctx.Global(target.poly.index()));
    costs->push_back(n == kNoNode ? INFINITY : FunnelCostTo(ctx.pool.node(n).funnel, target.pos));
  }
  return expanded;
}

void FloodCorridorTo(const QueryContext& ctx, PolyIndex target, std::vector<CorridorStep>* out) {
  const uint32_t n = ctx.pool.Find(ctx.Global(target));
  if (n == kNoNode) {
    out->clear();
    return;
  }
  CorridorOf(ctx, n, out);
}

}  // namespace waymesh::internal
