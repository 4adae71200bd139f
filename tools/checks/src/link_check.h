#pragma once
// Off-mesh links whose ends are not on the mesh: an end farther from its polygon than the
// rule the repair pipeline attaches links by (link radius + tol::kInsidePolygon in plan view,
// radius + tol::kOffMeshLinkHeight in height). Such a link sends agents into the void.

#include <vector>

#include "waymesh/checks/map_checks.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {

// One finding per link end off its polygon, naming the link, its tile and the position.
std::vector<MapFinding> CheckOffMeshLinks(const NavQuery& query);

}  // namespace waymesh
