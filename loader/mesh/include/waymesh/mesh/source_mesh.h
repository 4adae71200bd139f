#pragma once
// What an importer produces: raw polygons exactly as exported (duplicated vertices, T-junctions
// and all), plus the export's metadata. The repair pipeline turns one or more of these into a map.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// An off-mesh link as authored (Unity OffMeshLink / NavMeshLink).
struct SourceOffMeshLink {
  Vec3 start;
  Vec3 end;
  float radius = 0.5f;
  bool bidirectional = true;
  uint8_t area = kWalkableArea;
  // Traversal cost; negative means "distance times the area's cost" (Unity's default).
  float cost = -1.0f;
};

struct SourceMesh {
  std::string origin;  // file name, used in messages
  std::vector<Vec3> vertices;
  // Polygons in CSR form: polygon p uses vertices[poly_verts[poly_start[p] .. poly_start[p+1])].
  // Triangles for Unity exports; any simple polygon for OBJ and Polyanya.
  std::vector<uint32_t> poly_start{0};
  std::vector<uint32_t> poly_verts;
  std::vector<uint8_t> poly_area;  // one per polygon, 0..63
  // Declared adjacency (Polyanya): one per corner, the polygon across the edge from corner i to
  // corner i+1, or -1 for an obstacle. Empty when the format declares none.
  std::vector<int32_t> declared_neighbors;

  // Metadata; defaults apply when a format carries none.
  std::string scene_name;
  std::string source_hash;
  std::string exporter_version;
  std::string unity_version;
  AgentSettings agent;
  std::vector<std::optional<AreaType>> areas;  // indexed by area id; may be shorter than 64
  std::vector<SourceOffMeshLink> links;

  uint32_t polygon_count() const { return uint32_t(poly_start.size() - 1); }
  void AddPolygon(std::initializer_list<uint32_t> verts, uint8_t area = kWalkableArea) {
    poly_verts.insert(poly_verts.end(), verts);
    poly_start.push_back(uint32_t(poly_verts.size()));
    poly_area.push_back(area);
  }
};

}  // namespace waymesh
