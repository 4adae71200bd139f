#include "waymesh/core/hierarchy/cluster_graph.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "hierarchy/border_entrances.h"
#include "hierarchy/corridor_corners.h"
#include "path_refine.h"
#include "path_search.h"
#include "query_context.h"
#include "straight_path.h"

namespace waymesh {
namespace {

using internal::BorderEntrance;
using internal::QueryContext;

// Groups the entrances by cluster (`cluster_of`: per tile): each entrance gets a slot in both
// of its clusters.
void AssignSlots(uint32_t clusters, const std::vector<uint32_t>& cluster_of,
                 std::vector<ClusterGraph::Entrance>* entrances, std::vector<uint32_t>* start,
                 std::vector<uint32_t>* members) {
  start->assign(clusters + 1, 0);
  for (ClusterGraph::Entrance& e : *entrances) {
    for (int side = 0; side < 2; ++side) {
      e.slot[side] = (*start)[cluster_of[e.poly[side].tile] + 1]++;
    }
  }
  for (uint32_t c = 0; c < clusters; ++c) (*start)[c + 1] += (*start)[c];
  members->assign(start->back(), 0);
  for (uint32_t id = 0; id < entrances->size(); ++id) {
    const ClusterGraph::Entrance& e = (*entrances)[id];
    for (int side = 0; side < 2; ++side) {
      (*members)[(*start)[cluster_of[e.poly[side].tile]] + e.slot[side]] = id;
    }
  }
}

// The clusters of a map: per tile its cluster, per cluster its square (column, row).
struct ClusterSquares {
  std::vector<uint32_t> of_tile;
  std::vector<int32_t> x, z;
};

// Squares of `k` x `k` grid cells, numbered row by row over the squares that hold tiles, so the
// numbering is the same on every run.
ClusterSquares ClustersOfTiles(const NavMap& map, uint32_t k) {
  int32_t min_x = INT32_MAX, min_z = INT32_MAX;
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    min_x = std::min(min_x, map.summary(t).grid_x);
    min_z = std::min(min_z, map.summary(t).grid_z);
  }
  const auto square = [&](uint32_t t) {
    return std::pair<int32_t, int32_t>(int32_t((int64_t(map.summary(t).grid_z) - min_z) / k),
                                       int32_t((int64_t(map.summary(t).grid_x) - min_x) / k));
  };
  std::map<std::pair<int32_t, int32_t>, uint32_t> ids;  // (row, column) -> cluster
  for (uint32_t t = 0; t < map.tile_count(); ++t) ids.emplace(square(t), 0);
  ClusterSquares out;
  for (auto& [key, id] : ids) {
    id = uint32_t(out.x.size());
    out.z.push_back(key.first);
    out.x.push_back(key.second);
  }
  out.of_tile.resize(map.tile_count());
  for (uint32_t t = 0; t < map.tile_count(); ++t) out.of_tile[t] = ids.at(square(t));
  return out;
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

// The walk `steps` from anchor `from` to anchor `to` of cluster `c` with its corners refined
// as a path's are (path_refine.h), when the refined corridor stays inside the cluster; the
// walk as it is otherwise. A query joins stored walks and refines the joined corridor again,
// but its rounds are few when the walks come straight already.
std::vector<internal::CorridorStep> Refined(QueryContext& ctx, const QueryFilter& filter,
                                            const std::vector<uint32_t>& cluster_of, uint32_t c,
                                            std::vector<internal::CorridorStep> steps, Vec3 from,
                                            Vec3 to) {
  ctx.steps = steps;
  PathResult path;
  internal::BuildStraightPath(ctx, from, to, filter, PathOptions{}, &path);
  internal::RefinePath(ctx, filter, PathOptions{}, from, to, &path);
  for (const internal::CorridorStep& step : ctx.steps) {
    if (cluster_of[step.at.tile] != c) return steps;
  }
  return ctx.steps;
}

// Per pair i < j of cluster `c`'s entrances (`anchors`), the corner indices from i's polygon
// to j's of the cheaper of the two flood walks between them (the one whose cost
// KeepCheaperWay keeps; walks[a * k + b]: the flood from a to b), refined; nullopt when
// neither reached the other or the walk takes an off-mesh link. `block` is the floods' costs
// before KeepCheaperWay.
void CheaperWalks(QueryContext& ctx, const QueryFilter& filter,
                  const std::vector<uint32_t>& cluster_of, uint32_t c,
                  std::span<const SurfacePoint> anchors, const float* block,
                  const std::vector<std::vector<internal::CorridorStep>>& walks,
                  std::vector<std::optional<std::vector<uint8_t>>>* pairs) {
  const size_t k = anchors.size();
  pairs->clear();
  std::vector<internal::CorridorStep> walk;
  for (size_t i = 0; i < k; ++i) {
    for (size_t j = i + 1; j < k; ++j) {
      const bool forward = block[i * k + j] <= block[j * k + i];
      walk = forward ? walks[i * k + j] : walks[j * k + i];
      if (walk.empty() || !internal::CornersOf(ctx, walk, false) ||
          (!forward && !internal::ReverseCorridor(ctx, &walk))) {
        pairs->push_back(std::nullopt);
        continue;
      }
      walk = Refined(ctx, filter, cluster_of, c, std::move(walk), anchors[i].pos, anchors[j].pos);
      pairs->push_back(internal::CornersOf(ctx, walk, false));
    }
  }
}

// The pairs i < j of `entrances`.
double PairsOf(std::span<const uint32_t> entrances) {
  const double k = double(entrances.size());
  return k * (k - 1) / 2;
}

// The bytes of a resident map's tiles (what the graph's share is taken of).
size_t TileBytes(const NavMap& map) {
  size_t sum = 0;
  for (const TileView& t : map.tiles()) sum += t.bytes();
  return sum;
}

// `part` (per polygon, numbered map-wide) renumbered within each cluster, 16 bits wide (the
// graph's largest array on fine-tiled maps otherwise); empty when a cluster has more parts.
std::vector<uint16_t> PartsWithinClusters(const NavMap& map,
                                          const std::vector<uint32_t>& cluster_of,
                                          const std::vector<uint32_t>& part, uint32_t clusters) {
  constexpr uint32_t kUnset = 0xFFFFFFFFu;
  std::vector<uint32_t> local(part.empty() ? 0 : *std::max_element(part.begin(), part.end()) + 1,
                              kUnset);
  std::vector<uint32_t> parts_in(clusters, 0);
  std::vector<uint16_t> out(part.size());
  const std::vector<uint32_t> bases = map.PolygonBases();
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    for (uint32_t p = 0; p < map.tile(t).poly_count(); ++p) {
      const uint32_t global = part[bases[t] + p];
      if (local[global] == kUnset) {
        if (parts_in[cluster_of[t]] == ClusterGraph::kMaxPartsPerCluster) return {};
        local[global] = parts_in[cluster_of[t]]++;
      }
      out[bases[t] + p] = uint16_t(local[global]);
    }
  }
  return out;
}

// Per cluster, the lowest cost per metre of a walk inside it under `filter` (CheapestRate):
// its polygons' enabled areas, and its tiles' off-mesh links at the map's cheapest link rate
// for their area.
std::vector<float> CheapestRates(const NavMap& map, const QueryFilter& filter,
                                 const std::vector<uint32_t>& cluster_of, uint32_t clusters) {
  const auto enabled = [&](uint8_t area) {
    return area < kMaxAreas && ((filter.area_mask() >> area) & 1) != 0;
  };
  std::vector<float> rate(clusters, INFINITY);
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    const TileView& tile = map.tile(t);
    float& r = rate[cluster_of[t]];
    for (const uint8_t area : tile.poly_area) {
      if (enabled(area)) r = std::min(r, filter.Cost(area));
    }
    for (const OffMeshLink& link : tile.off_mesh_links) {
      if (!enabled(link.area)) continue;
      r = std::min(r, filter.Cost(link.area) * map.digest().link_cost_per_metre[link.area]);
    }
  }
  return rate;
}

}  // namespace

ClusterGraph ClusterGraph::Build(const NavMap& map, uint32_t tiles_per_side, bool store_corridors) {
  ClusterGraph graph;
  if (map.paged() || tiles_per_side < 1 || tiles_per_side > kMaxTilesPerSide) return graph;
  uint64_t polygons = 0;
  for (const TileView& t : map.tiles()) polygons += t.poly_count();
  if (polygons == 0 || polygons >= 0xFFFFFFFFull) return graph;
  ClusterSquares squares = ClustersOfTiles(map, tiles_per_side);
  const std::vector<uint32_t>& cluster_of = squares.of_tile;
  const uint32_t clusters = uint32_t(squares.x.size());
  if (clusters < kMinClusters) return graph;
  const QueryFilter filter(map.info());
  std::vector<uint32_t> part = internal::ClusterParts(map, filter, cluster_of, map.PolygonBases());
  const std::vector<BorderEntrance> found =
      internal::FindBorderEntrances(map, filter, cluster_of, part, kEntranceSpan);
  if (found.empty()) return graph;
  graph.entrances_.reserve(found.size());
  for (const BorderEntrance& b : found) {
    const PolyIndex lo = b.side[0].poly.index(), hi = b.side[1].poly.index();
    graph.entrances_.push_back({b.side[0].pos, {0, 0}, {lo, hi}});
  }
  AssignSlots(clusters, cluster_of, &graph.entrances_, &graph.cluster_start_,
              &graph.cluster_entrances_);
  graph.parts_ = PolygonParts(PartsWithinClusters(map, cluster_of, part, clusters));
  if (graph.parts_.empty()) return ClusterGraph();
  // A non-owning handle: the map outlives this call.
  QueryContext ctx(std::shared_ptr<const NavMap>(std::shared_ptr<const NavMap>(), &map),
                   uint32_t(polygons), /*use_landmarks=*/false, /*use_dead_ends=*/false);
  std::vector<SurfacePoint> anchors;
  const double budget = kMaxShareOfMap * double(TileBytes(map));
  // The costs still to come take at least 2 bytes per pair (ClusterCosts).
  double costs_to_come = 0;
  for (uint32_t c = 0; c < clusters; ++c) costs_to_come += 2.0 * PairsOf(graph.EntrancesOf(c));
  if (double(graph.bytes()) + costs_to_come > budget) store_corridors = false;
  std::vector<float> row, block;
  std::vector<std::vector<internal::CorridorStep>> walks;  // per (from, to) slot of a cluster
  std::vector<std::optional<std::vector<uint8_t>>> pairs;
  for (uint32_t c = 0; c < clusters; ++c) {
    // Each entrance's anchor on its polygon in this cluster.
    anchors.clear();
    for (const uint32_t id : graph.EntrancesOf(c)) {
      const ClusterGraph::Entrance& e = graph.entrances_[id];
      anchors.push_back(found[id].side[cluster_of[e.poly[0].tile] == c ? 0 : 1]);
    }
    block.clear();
    for (uint32_t slot = 0; slot < anchors.size(); ++slot) {
      internal::FloodWithinCluster(ctx, anchors[slot], cluster_of, c, filter, anchors, &row);
      block.insert(block.end(), row.begin(), row.end());
      if (!store_corridors) continue;
      walks.resize(anchors.size() * anchors.size());
      for (uint32_t to = 0; to < anchors.size(); ++to) {
        internal::FloodCorridorTo(ctx, anchors[to].poly.index(),
                                  &walks[slot * anchors.size() + to]);
      }
    }
    if (store_corridors) {
      CheaperWalks(ctx, filter, cluster_of, c, anchors, block.data(), walks, &pairs);
      store_corridors = graph.corridors_.Add(uint32_t(anchors.size()), pairs);
      // Over the budget already (the rest of the graph only grows): stop refining walks.
      costs_to_come -= 2.0 * PairsOf(graph.EntrancesOf(c));
      if (double(graph.bytes()) + costs_to_come > budget) store_corridors = false;
    }
    KeepCheaperWay(anchors.size(), block.data());
    graph.costs_.Add(uint32_t(anchors.size()), block.data());
  }
  graph.cheapest_rate_ = CheapestRates(map, filter, cluster_of, clusters);
  graph.filter_ = filter;
  graph.tiles_per_side_ = tiles_per_side;
  graph.cluster_of_tile_ = std::move(squares.of_tile);
  graph.square_x_ = std::move(squares.x);
  graph.square_z_ = std::move(squares.z);
  if (!store_corridors || double(graph.bytes()) > budget) {
    graph.corridors_ = ClusterCorridors();
  }
  return graph;
}

size_t ClusterGraph::bytes() const {
  return entrances_.size() * sizeof(Entrance) + cluster_start_.size() * sizeof(uint32_t) +
         cluster_entrances_.size() * sizeof(uint32_t) + costs_.bytes() + corridors_.bytes() +
         (cluster_of_tile_.size() + square_x_.size() + square_z_.size()) * sizeof(uint32_t) +
         cheapest_rate_.size() * sizeof(float) + parts_.bytes();
}

}  // namespace waymesh
