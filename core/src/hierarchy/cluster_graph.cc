#include "waymesh/core/hierarchy/cluster_graph.h"

#include <algorithm>
#include <memory>

#include "hierarchy/border_entrances.h"
#include "path_search.h"
#include "query_context.h"

namespace waymesh {
namespace {

using internal::BorderEntrance;
using internal::QueryContext;

// Groups the entrances by cluster: each entrance gets a slot in both of its clusters.
void AssignSlots(uint32_t clusters, std::vector<ClusterGraph::Entrance>* entrances,
                 std::vector<uint32_t>* start, std::vector<uint32_t>* members) {
  start->assign(clusters + 1, 0);
  for (ClusterGraph::Entrance& e : *entrances) {
    for (int side = 0; side < 2; ++side) e.slot[side] = (*start)[e.cluster[side] + 1]++;
  }
  for (uint32_t c = 0; c < clusters; ++c) (*start)[c + 1] += (*start)[c];
  members->assign(start->back(), 0);
  for (uint32_t id = 0; id < entrances->size(); ++id) {
    const ClusterGraph::Entrance& e = (*entrances)[id];
    for (int side = 0; side < 2; ++side) {
      (*members)[(*start)[e.cluster[side]] + e.slot[side]] = id;
    }
  }
}

// Per polygon (dense index from `bases`): the connected part of its tile it is in, joining
// polygons across their shared edges when both pass `filter`; parts are numbered per tile.
std::vector<uint32_t> TileComponents(const NavMap& map, const QueryFilter& filter,
                                     const std::vector<uint32_t>& bases) {
  std::vector<uint32_t> part(bases.back(), ClusterGraph::kNoComponent);
  std::vector<uint32_t> stack;
  for (const TileView& t : map.tiles()) {
    uint32_t next = 0;
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (part[bases[t.index] + p] != ClusterGraph::kNoComponent) continue;
      if (!filter.Passes(t.poly_area[p], t.poly_flags[p])) continue;
      part[bases[t.index] + p] = next;
      stack.assign(1, p);
      while (!stack.empty()) {
        const uint32_t q = stack.back();
        stack.pop_back();
        for (uint32_t i = t.poly_start[q]; i < t.poly_start[q + 1]; ++i) {
          const std::optional<PolyIndex> nb = t.across(i);
          if (!nb || nb->tile != t.index) continue;
          uint32_t& label = part[bases[t.index] + nb->poly];
          if (label != ClusterGraph::kNoComponent) continue;
          if (!filter.Passes(t.poly_area[nb->poly], t.poly_flags[nb->poly])) continue;
          label = next;
          stack.push_back(nb->poly);
        }
      }
      ++next;
    }
  }
  return part;
}

// A flood keeps one funnel per polygon (the one nearest its start), so its cost to a point is a
// real walk but not always the shortest: the two directions of a pair differ by up to ~10 %.
// Both are walks, so the cheaper one is kept for both (the graph wants lower bounds).
void KeepCheaperWay(size_t k, float* block) {
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = i + 1; j < k; ++j) {
      const float cheaper = std::min(block[i * k + j], block[j * k + i]);
      block[i * k + j] = block[j * k + i] = cheaper;
    }
  }
}

}  // namespace

ClusterGraph ClusterGraph::Build(const NavMap& map) {
  ClusterGraph graph;
  const uint32_t clusters = map.tile_count();
  if (map.paged() || clusters < kMinTiles) return graph;
  uint64_t polygons = 0;
  for (const TileView& t : map.tiles()) polygons += t.poly_count();
  if (polygons == 0 || polygons >= 0xFFFFFFFFull) return graph;
  const QueryFilter filter(map.info());
  const std::vector<BorderEntrance> found =
      internal::FindBorderEntrances(map, filter, kEntranceSpan);
  if (found.empty()) return graph;
  const std::vector<uint32_t> bases = map.PolygonBases();
  graph.component_ = TileComponents(map, filter, bases);
  const auto part = [&](const SurfacePoint& p) {
    return graph.component_[bases[p.poly.tile()] + p.poly.poly()];
  };
  graph.entrances_.reserve(found.size());
  for (const BorderEntrance& b : found) {
    graph.entrances_.push_back({b.side[0].pos,
                                b.radius,
                                {b.side[0].poly.tile(), b.side[1].poly.tile()},
                                {0, 0},
                                {part(b.side[0]), part(b.side[1])}});
  }
  AssignSlots(clusters, &graph.entrances_, &graph.cluster_start_, &graph.cluster_entrances_);
  graph.cost_start_.assign(clusters + 1, 0);
  for (uint32_t c = 0; c < clusters; ++c) {
    const size_t k = graph.cluster_start_[c + 1] - graph.cluster_start_[c];
    graph.cost_start_[c + 1] = graph.cost_start_[c] + k * k;
  }
  graph.costs_.assign(graph.cost_start_.back(), INFINITY);
  // A non-owning handle: the map outlives this call.
  QueryContext ctx(std::shared_ptr<const NavMap>(std::shared_ptr<const NavMap>(), &map),
                   uint32_t(polygons), /*use_landmarks=*/false, /*use_dead_ends=*/false);
  std::vector<SurfacePoint> anchors;
  std::vector<float> row;
  for (uint32_t c = 0; c < clusters; ++c) {
    // Each entrance's anchor on its polygon in this cluster.
    anchors.clear();
    for (const uint32_t id : graph.EntrancesOf(c)) {
      const ClusterGraph::Entrance& e = graph.entrances_[id];
      anchors.push_back(found[id].side[e.cluster[0] == c ? 0 : 1]);
    }
    for (uint32_t slot = 0; slot < anchors.size(); ++slot) {
      internal::FloodWithinTile(ctx, anchors[slot], c, filter, anchors, &row);
      std::copy(row.begin(), row.end(),
                graph.costs_.begin() + graph.cost_start_[c] + slot * anchors.size());
    }
    KeepCheaperWay(anchors.size(), graph.costs_.data() + graph.cost_start_[c]);
  }
  graph.filter_ = filter;
  graph.dearest_rate_ = 0;
  const uint64_t present = map.digest().areas_present;
  for (int a = 0; a < kMaxAreas; ++a) {
    if ((present >> a) & 1) graph.dearest_rate_ = std::max(graph.dearest_rate_, filter.Cost(a));
  }
  return graph;
}

size_t ClusterGraph::bytes() const {
  return entrances_.size() * sizeof(Entrance) + cluster_start_.size() * sizeof(uint32_t) +
         cluster_entrances_.size() * sizeof(uint32_t) + cost_start_.size() * sizeof(size_t) +
         costs_.size() * sizeof(float) + component_.size() * sizeof(uint32_t);
}

}  // namespace waymesh
