#include "hierarchy/hierarchical_search.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "hierarchy/corridor_corners.h"
#include "line_of_sight.h"

namespace waymesh::internal {
namespace {

// Estimates of the costs from `from` (in cluster `c`) to each of c's entrances, by slot: the
// straight line times the cheapest cost per metre to the entrances of from's part of the
// cluster, INFINITY to the others.
void EstimatesToEntrances(const QueryContext& ctx, const SurfacePoint& from, uint32_t c,
                          float scale, std::vector<float>* costs) {
  const ClusterGraph& graph = *ctx.clusters;
  const uint32_t part = graph.PartOf(ctx.TableIndex(from.poly.index()));
  costs->clear();
  for (const uint32_t id : graph.EntrancesOf(c)) {
    const ClusterGraph::Entrance& e = graph.entrance(id);
    const PolyIndex side = e.poly[graph.SideIn(e, c)];
    costs->push_back(graph.PartOf(ctx.TableIndex(side)) == part
                         ? Distance(from.pos, e.anchor) * scale
                         : INFINITY);
  }
}

// Entrance `e`'s anchor on its polygon in cluster `c` (one of its two clusters).
SurfacePoint AnchorIn(const QueryContext& ctx, const ClusterGraph::Entrance& e, uint32_t c) {
  return SurfacePoint{ctx.Ref(e.poly[ctx.clusters->SideIn(e, c)]), e.anchor};
}

// The leg inside `cluster` from entrance `from` to entrance `to` (both of that cluster) from
// the graph's stored corridors, into ctx.steps; false when the pair is not stored or its walk
// does not lead, inside the cluster, from one entrance's polygon to the other's (then the leg
// is searched).
bool StoredLeg(QueryContext& ctx, uint32_t cluster, uint32_t from, uint32_t to) {
  const ClusterGraph& graph = *ctx.clusters;
  const ClusterGraph::Entrance& a = graph.entrance(from);
  const ClusterGraph::Entrance& b = graph.entrance(to);
  const int sa = graph.SideIn(a, cluster), sb = graph.SideIn(b, cluster);
  std::vector<uint8_t>& corners = ctx.hierarchy.corners;
  corners.clear();
  if (!graph.corridors().Read(cluster, a.slot[sa], b.slot[sb], &corners)) return false;
  // Stored from the lower slot to the higher.
  const bool forward = a.slot[sa] < b.slot[sb];
  const PolyIndex first = forward ? a.poly[sa] : b.poly[sb];
  const PolyIndex last = forward ? b.poly[sb] : a.poly[sa];
  if (!WalkCorners(ctx, first, corners, &ctx.steps) || ctx.steps.back().at != last) return false;
  for (const CorridorStep& step : ctx.steps) {
    if (graph.ClusterOf(step.at.tile) != cluster) return false;
  }
  return forward || ReverseCorridor(ctx, &ctx.steps);
}

// The leg inside `cluster` from `from` to `to` as a straight line, into ctx.steps: when the
// segment stays inside the cluster and crosses only polygons of the cluster's cheapest cost,
// no walk inside it costs less (line_of_sight.h), so the leg needs no search. Measured on the
// 16 km² world: 13 % fewer A* nodes per long query with the map's cheapest cost (roads) alone.
bool StraightLeg(QueryContext& ctx, uint32_t cluster, const SurfacePoint& from,
                 const SurfacePoint& to, const QueryFilter& filter) {
  if (!FindStraightCorridorAt(ctx, from, to, filter, ctx.clusters->CheapestRate(cluster))) {
    return false;
  }
  for (const CorridorStep& step : ctx.steps) {
    if (ctx.clusters->ClusterOf(step.at.tile) != cluster) return false;
  }
  return true;
}

// Appends the corridor of one leg (ctx.steps) to the joined corridor, entering its first
// polygon from the joined corridor's last one. False when they neither are one polygon nor
// touch (then the legs cannot be joined).
bool AppendLeg(QueryContext& ctx) {
  std::vector<CorridorStep>& joined = ctx.hierarchy.joined;
  if (joined.empty()) {
    joined = ctx.steps;
    return true;
  }
  const PolyIndex last = joined.back().at, next = ctx.steps.front().at;
  if (last != next) {
    const std::optional<uint32_t> edge = EdgeTowards(ctx, last, next);
    if (!edge) return false;
    joined.push_back({next, *edge});
  }
  // The leg's first step (its start polygon) is the joined corridor's last one now.
  joined.insert(joined.end(), ctx.steps.begin() + 1, ctx.steps.end());
  return true;
}

// Moves the joined corridor into ctx.steps, cutting every loop (a polygon met twice: the walk
// between its two visits is dropped; the step after the second visit leaves the same polygon).
void CutLoopsIntoSteps(QueryContext& ctx) {
  HierarchyBuffers& b = ctx.hierarchy;
  if (b.position.size() != ctx.tile_base.back()) b.position.assign(ctx.tile_base.back(), 0);
  ctx.steps.clear();
  for (const CorridorStep& step : b.joined) {
    const uint32_t global = ctx.Global(step.at);
    const uint32_t seen = b.position[global];
    if (seen < ctx.steps.size() && ctx.steps[seen].at == step.at) {
      ctx.steps.resize(seen + 1);
      continue;
    }
    b.position[global] = uint32_t(ctx.steps.size());
    ctx.steps.push_back(step);
  }
}

// Whether clusters on the route were carved by obstacles (their costs no longer hold).
bool CrossesCarved(const QueryContext& ctx) {
  for (const RouteLeg& leg : ctx.hierarchy.route.legs()) {
    if (ctx.plain_clusters[leg.cluster] != 0) return true;
  }
  return false;
}

// The partial answer of a search that ran out of nodes on its route (a plain search would have
// none left either): the joined corridor, which leads along the route to the last leg's
// polygon closest to that leg's end.
SearchOutcome OutOfNodes(QueryContext& ctx, uint32_t expanded) {
  CutLoopsIntoSteps(ctx);
  return SearchOutcome{QueryStatus::kPartial, expanded, absl::OkStatus(), true};
}

}  // namespace

bool UsesHierarchy(const QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                   const QueryFilter& filter) {
  if (ctx.clusters == nullptr || !ctx.clusters->Serves(filter)) return false;
  if (DistanceXZ(start.pos, goal.pos) < kHierarchyMinDistance) return false;
  const uint32_t from = ctx.clusters->ClusterOf(start.poly.tile());
  const uint32_t to = ctx.clusters->ClusterOf(goal.poly.tile());
  if (from == to || ctx.clusters->Neighbours(from, to)) return false;
  return ctx.plain_clusters[from] == 0 && ctx.plain_clusters[to] == 0;
}

std::optional<SearchOutcome> SearchHierarchical(QueryContext& ctx, const SurfacePoint& start,
                                                const SurfacePoint& goal, const QueryFilter& filter,
                                                uint32_t max_nodes, QueryInterrupt* interrupt,
                                                NodesSpent* spent) {
  *spent = {};
  const ClusterGraph& graph = *ctx.clusters;
  HierarchyBuffers& b = ctx.hierarchy;
  const uint32_t from = graph.ClusterOf(start.poly.tile());
  const uint32_t to = graph.ClusterOf(goal.poly.tile());
  // Straight-line estimates, not floods of the two clusters: measured on the 1024 m town, the
  // floods were half the nodes of a long search and gave no shorter paths (docs/hierarchy.md).
  const float scale = ctx.HeuristicScale(filter);
  EstimatesToEntrances(ctx, start, from, scale, &b.start_costs);
  EstimatesToEntrances(ctx, goal, to, scale, &b.goal_costs);
  uint32_t& expanded = spent->expanded;
  // The landmark bound where it is sharper than the straight line (roads make the straight
  // line cheap: on the 16 km² world the abstract search settled most entrances without it).
  const LandmarkTable::GoalBound landmarks = GoalBoundFor(ctx, start, goal, filter);
  const auto straight = [&](uint32_t id) {
    return Distance(graph.entrance(id).anchor, goal.pos) * scale;
  };
  const auto sharp = [&](uint32_t id) {
    return std::max(straight(id), landmarks.From(ctx.TableIndex(graph.entrance(id).poly[0])));
  };
  if (!b.route.Find(graph, {from, b.start_costs}, {to, b.goal_costs}, {straight, sharp})) {
    return std::nullopt;
  }
  if (CrossesCarved(ctx)) return std::nullopt;
  b.joined.clear();
  uint32_t entered = RouteLeg::kToGoal;  // the entrance the previous leg ended at, if any
  for (const RouteLeg& leg : b.route.legs()) {
    // Legs are shorter than the searches' polling period: poll once per leg as well.
    if (interrupt != nullptr) {
      if (absl::Status stop = interrupt->Check(); !stop.ok()) {
        return SearchOutcome{QueryStatus::kPartial, expanded, std::move(stop)};
      }
    }
    if (spent->created >= max_nodes) return OutOfNodes(ctx, expanded);
    // A leg leaves the previous entrance on its own cluster's side, and ends on that side too.
    const SurfacePoint leg_start =
        entered == RouteLeg::kToGoal ? start : AnchorIn(ctx, graph.entrance(entered), leg.cluster);
    const SurfacePoint leg_end = leg.entrance == RouteLeg::kToGoal
                                     ? goal
                                     : AnchorIn(ctx, graph.entrance(leg.entrance), leg.cluster);
    // Between two entrances the walk the graph measured is stored: no search (and no nodes).
    if (entered != RouteLeg::kToGoal && leg.entrance != RouteLeg::kToGoal &&
        StoredLeg(ctx, leg.cluster, entered, leg.entrance)) {
      if (!AppendLeg(ctx)) return std::nullopt;
      entered = leg.entrance;
      continue;
    }
    if (StraightLeg(ctx, leg.cluster, leg_start, leg_end, filter)) {
      if (!AppendLeg(ctx)) return std::nullopt;
      entered = leg.entrance;
      continue;
    }
    // Each leg may create what the earlier ones left of the query's node limit.
    const SearchOutcome found =
        SearchCorridor(ctx, leg_start, leg_end, filter, max_nodes - spent->created, interrupt,
                       SearchArea{&graph.cluster_of_tile(), leg.cluster});
    expanded += found.expanded;
    spent->created += std::min(ctx.pool.size(), max_nodes - spent->created);
    if (!found.stop.ok()) return SearchOutcome{QueryStatus::kPartial, expanded, found.stop};
    if (found.status != QueryStatus::kComplete && !found.limit_hit) return std::nullopt;
    if (!AppendLeg(ctx)) return std::nullopt;
    if (found.status != QueryStatus::kComplete) return OutOfNodes(ctx, expanded);
    entered = leg.entrance;
  }
  CutLoopsIntoSteps(ctx);
  return SearchOutcome{QueryStatus::kComplete, expanded, absl::OkStatus()};
}

}  // namespace waymesh::internal
