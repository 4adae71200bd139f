#pragma once
// The entrances of a map's cluster graph (cluster_graph.h): stretches of the portal edges that
// join polygons of two different clusters.

#include <cstdint>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// One entrance: its anchor as a point on a polygon of each of the two clusters it joins
// (side[0] in the lower cluster index).
struct BorderEntrance {
  SurfacePoint side[2];
};

// Per polygon of resident `map` (dense index from `bases`, NavMap::PolygonBases): the connected
// part of its cluster (tile t in cluster_of[t]) it is in, joining polygons of one cluster
// across shared edges when both pass `filter`. Numbered map-wide.
std::vector<uint32_t> ClusterParts(const NavMap& map, const QueryFilter& filter,
                                   const std::vector<uint32_t>& cluster_of,
                                   const std::vector<uint32_t>& bases);

// The entrances of resident `map` whose tile t is in cluster cluster_of[t], in a fixed order:
// the portal edges between clusters whose both polygons `filter` accepts, grouped per pair of
// clusters, per pair of parts (`part`, ClusterParts) and per square of `span` metres (plan
// view) their midpoints fall in, and each group into its chains of edges that share end
// points; each chain's anchor is its edge midpoint nearest the chain's mean.
std::vector<BorderEntrance> FindBorderEntrances(const NavMap& map, const QueryFilter& filter,
                                                const std::vector<uint32_t>& cluster_of,
                                                const std::vector<uint32_t>& part, float span);

}  // namespace waymesh::internal
