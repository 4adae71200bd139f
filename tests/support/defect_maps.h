#pragma once
// Maps with injected defects, for the `waymesh validate` and `waymesh diff` tests: the real
// ../shared/data/unity/1000.navmesh (two islands, several 32 m tiles, no off-mesh links)
// repaired cleanly, then broken in one precise way.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/mesh/repaired_mesh.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::testing {

// Tile size of the defect maps: small enough that 1000.navmesh spans several tiles.
inline constexpr float kDefectTileSize = 32.0f;

// 1000.navmesh imported (fails the current test when it cannot be).
SourceMesh Unity1000Source();
// `source` repaired with kDefectTileSize tiles (fails the current test on error).
RepairedMesh RepairOrDie(const SourceMesh& source);
// Unity1000Source() repaired.
RepairedMesh Unity1000Mesh();
// `.wmesh` bytes of `mesh`; `placement` (optional) receives each polygon's (tile, polygon).
std::string CompileOrDie(const RepairedMesh& mesh, std::vector<PolyIndex>* placement = nullptr);
// The loaded map of `bytes`, intact but not judged for structure (as validate loads it).
std::shared_ptr<const NavMap> LoadOrDie(const std::string& bytes);
// Writes `bytes` to `path`.
void WriteFileOrDie(const std::string& path, const std::string& bytes);

// One side of a polygon edge: polygon index and corner (the edge runs corner -> corner + 1).
struct EdgeSide {
  uint32_t poly = 0;
  uint32_t corner = 0;
};

// The first linked edge, seen from both sides; with `cross_tile`, one between two tiles.
std::optional<std::pair<EdgeSide, EdgeSide>> FindLinkedEdge(const RepairedMesh& mesh,
                                                            bool cross_tile);
// Marks one side of an edge as a wall.
void MakeWall(RepairedMesh* mesh, EdgeSide side);

// Moves one corner of a polygon of 4+ corners whose two edges at that corner are walls inward
// (onto a new vertex), so the corner turns against the winding. Returns the polygon.
std::optional<uint32_t> MakeReflexCorner(RepairedMesh* mesh);

// Mean of polygon p's corners.
Vec3 Centroid(const RepairedMesh& mesh, uint32_t p);
Vec3 Centroid(const TileView& tile, uint32_t p);

// Adds an off-mesh link from polygon 0's centroid to a point 20 m beyond the map's bounds
// (attached to polygon 1 nonetheless, as a broken writer would). Returns the bad end.
Vec3 AddLinkEndingOffMesh(RepairedMesh* mesh);

// Adds a separate square walkable patch (`size` metres a side) 5 m beyond the map's +X bounds
// at the height of the map's lowest point; returns its centre.
Vec3 AddDetachedSquare(SourceMesh* source, float size);

// The interior edge of island 0 whose removal splits it most evenly (a corridor), or nullopt.
// `smaller` receives the polygon count of the smaller part.
std::optional<std::pair<EdgeSide, EdgeSide>> FindBridgeEdge(const RepairedMesh& mesh,
                                                            uint32_t* smaller);

// Recomputes poly_island and info.islands from poly_neighbors after links were cut (largest
// island first, like the repair pipeline; island areas in plan view).
void RecomputeIslands(RepairedMesh* mesh);

}  // namespace waymesh::testing
