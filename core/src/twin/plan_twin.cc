#include "waymesh/core/plan_twin.h"

#include <bit>
#include <cmath>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "poly_geometry.h"
#include "twin/convex_faces.h"
#include "twin/plan_triangles.h"
#include "twin/twin_geometry.h"
#include "waymesh/core/bv_tree_builder.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/core/tile_arrays.h"

namespace waymesh {
namespace {

// A tile of the twin while it is built: its arrays, and its polygons by directed edge.
struct TwinTile {
  TileArrays arrays;
  absl::flat_hash_map<uint64_t, uint32_t> face_of_edge;
};

// Fills the polygons of `twin` from the merged faces of `tile`; cross-tile edges are left as
// walls (LinkSeams sets them).
void FillPolygons(const TileView& tile, const std::vector<twin::ConvexFace>& faces,
                  const std::vector<twin::PlanTriangles::Group>& groups, TwinTile* twin) {
  TileArrays& a = twin->arrays;
  a.vertices.assign(tile.vertices.begin(), tile.vertices.end());
  for (uint32_t f = 0; f < faces.size(); ++f) {
    const std::vector<uint32_t>& c = faces[f].corners;
    for (size_t i = 0; i < c.size(); ++i) {
      twin->face_of_edge[twin::EdgeKey(c[i], c[(i + 1) % c.size()])] = f;
      a.poly_verts.push_back(c[i]);
    }
    a.poly_start.push_back(uint32_t(a.poly_verts.size()));
    a.poly_area.push_back(groups[faces[f].group].area);
    a.poly_flags.push_back(groups[faces[f].group].flags);
    a.poly_island.push_back(faces[f].island);
  }
  a.poly_neighbors.assign(a.poly_verts.size(), kWall);
  for (uint32_t f = 0; f < faces.size(); ++f) {
    for (uint32_t i = a.poly_start[f]; i < a.poly_start[f + 1]; ++i) {
      const uint32_t next = i + 1 == a.poly_start[f + 1] ? a.poly_start[f] : i + 1;
      const auto it = twin->face_of_edge.find(twin::EdgeKey(a.poly_verts[next], a.poly_verts[i]));
      if (it != twin->face_of_edge.end()) a.poly_neighbors[i] = it->second;
    }
  }
}

// The twin polygon in the tile of map polygon `q` holding q's seam edge facing the map edge
// u-v of tile `from` (seam edges are kept as they are; edges on the two sides of a seam need
// not pair one to one, so the one nearest the middle of u-v is taken).
std::optional<PolyIndex> TwinAcross(const NavMap& map, const std::vector<TwinTile>& twins,
                                    PolyIndex q, uint32_t from, Vec3 u, Vec3 v) {
  const TileView& t = map.tile(q.tile);
  const uint32_t s = t.poly_start[q.poly], n = t.corner_count(q.poly);
  const Vec3 mid = (u + v) * 0.5f;
  std::optional<PolyIndex> best;
  float best_d = INFINITY;
  for (uint32_t e = 0; e < n; ++e) {
    const std::optional<PolyIndex> back = t.across(s + e);
    if (!back || back->tile != from) continue;
    const Vec3 a = t.corner(q.poly, e), b = t.corner(q.poly, (e + 1) % n);
    const float d = DistanceXZ((a + b) * 0.5f, mid);
    const auto& faces = twins[q.tile].face_of_edge;
    const auto it = faces.find(twin::EdgeKey(t.poly_verts[s + e], t.poly_verts[s + (e + 1) % n]));
    if (it == faces.end() || d >= best_d) continue;
    best_d = d;
    best = PolyIndex{q.tile, it->second};
  }
  return best;
}

// Links the twin's seam edges: each is a map edge across a seam, whose far polygon's edge back
// is kept in its own tile's twin.
void LinkSeams(const NavMap& map, std::vector<TwinTile>* twins) {
  for (uint32_t ti = 0; ti < map.tile_count(); ++ti) {
    const TileView& t = map.tile(ti);
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t s = t.poly_start[p], n = t.corner_count(p);
      for (uint32_t e = 0; e < n; ++e) {
        const std::optional<PolyIndex> far = t.across(s + e);
        if (!far || far->tile == ti) continue;
        TwinTile& twin = (*twins)[ti];
        const auto it = twin.face_of_edge.find(twin::EdgeKey(t.poly_verts[s + e], t.poly_verts[s + (e + 1) % n]));
        if (it == twin.face_of_edge.end()) continue;
        const std::optional<PolyIndex> back =
            TwinAcross(map, *twins, *far, ti, t.corner(p, e), t.corner(p, (e + 1) % n));
        if (!back) continue;
        TileArrays& a = twin.arrays;
        const uint32_t f = it->second;
        for (uint32_t i = a.poly_start[f]; i < a.poly_start[f + 1]; ++i) {
          const uint32_t next = i + 1 == a.poly_start[f + 1] ? a.poly_start[f] : i + 1;
          if (a.poly_verts[i] != t.poly_verts[s + e] ||
              a.poly_verts[next] != t.poly_verts[s + (e + 1) % n]) {
            continue;
          }
          a.poly_neighbors[i] = kCrossTileBit | uint32_t(a.cross_links.size());
          a.cross_links.push_back(*back);
        }
      }
    }
  }
}

// The twin polygon holding point `p` of map polygon `global` in plan view: of the twin polygons
// covering that polygon (`cover`, so never one of another floor) the nearest, or nullopt.
std::optional<uint32_t> Locate(const std::vector<TileView>& views,
                               const std::vector<PolyIndex>& cover, Vec3 p) {
  std::optional<uint32_t> best;
  float best_d = INFINITY;
  for (const PolyIndex t : cover) {
    const float d = internal::SeparationSqXZ(views[t.tile], t.poly, p);
    if (d < best_d) {
      best_d = d;
      best = t.poly;
    }
  }
  return best;
}

// Keeps only the vertices the polygons use (most of the tile's were inner ones).
void DropUnusedVertices(TileArrays* a) {
  std::vector<uint32_t> index(a->vertices.size(), kWall);
  std::vector<Vec3> kept;
  for (uint32_t& v : a->poly_verts) {
    if (index[v] == kWall) {
      index[v] = uint32_t(kept.size());
      kept.push_back(a->vertices[v]);
    }
    v = index[v];
  }
  a->vertices = std::move(kept);
}

// Fan detail triangles, plan areas and a BV tree in the polygons' order.
void FinishArrays(const TileView& tile, TileArrays* a) {
  DropUnusedVertices(a);
  std::vector<Aabb> boxes;
  double sum = 0;
  for (uint32_t f = 0; f + 1 < a->poly_start.size(); ++f) {
    const uint32_t s = a->poly_start[f], n = a->poly_start[f + 1] - s;
    Aabb box;
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 v = a->vertices[a->poly_verts[s + i]];
      box.Extend(v);
      if (i >= 1 && i + 1 < n) {
        a->detail_tris.push_back(DetailTri{0, uint8_t(i), uint8_t(i + 1), 0});
        const Vec3 o = a->vertices[a->poly_verts[s]];
        sum += 0.5 * TriArea2XZ(o, v, a->vertices[a->poly_verts[s + i + 1]]);
      }
    }
    a->area_prefix.push_back(float(sum));
    boxes.push_back(box);
  }
  if (boxes.empty()) return;
  a->bv_nodes = BuildBvTreeInOrder(boxes, tile.bounds).nodes;
}

}  // namespace

size_t PlanTwin::bytes() const {
  size_t total = cover_start.size() * sizeof(uint32_t) + cover.size() * sizeof(PolyIndex);
  if (map == nullptr) return total;
  for (uint32_t t = 0; t < map->tile_count(); ++t) total += map->tile(t).bytes();
  if (map->search_tables() != nullptr) total += map->search_tables()->bytes();
  return total;
}

absl::StatusOr<PlanTwin> BuildPlanTwin(const NavMap& map) {
  if (map.paged()) return absl::FailedPreconditionError("a plan twin needs a resident map");
  PlanTwin out;
  auto twins = std::make_shared<std::vector<TwinTile>>(map.tile_count());
  const std::vector<uint32_t> bases = map.PolygonBases();
  std::vector<std::vector<PolyIndex>> covers(bases.back());
  for (uint32_t ti = 0; ti < map.tile_count(); ++ti) {
    const TileView& tile = map.tile(ti);
    twin::PlanTriangles triangles(tile);
    out.report.vertices_removed += triangles.RemoveInnerVertices();
    const std::vector<twin::ConvexFace> faces = twin::MergeConvexFaces(tile, triangles);
    FillPolygons(tile, faces, triangles.groups(), &(*twins)[ti]);
    for (uint32_t f = 0; f < faces.size(); ++f) {
      for (const uint32_t p : faces[f].sources) covers[bases[ti] + p].push_back(PolyIndex{ti, f});
    }
    out.report.polygons_before += tile.poly_count();
    out.report.polygons_after += faces.size();
  }
  LinkSeams(map, twins.get());
  std::vector<TileView> views(map.tile_count());
  for (uint32_t ti = 0; ti < map.tile_count(); ++ti) {
    const TileView& tile = map.tile(ti);
    TileArrays& a = (*twins)[ti].arrays;
    FinishArrays(tile, &a);
    views[ti].index = ti;
    views[ti].grid_x = tile.grid_x;
    views[ti].grid_z = tile.grid_z;
    views[ti].bounds = tile.bounds;
    views[ti].bv_quant_factor = BvQuantFactor(tile.bounds);
    a.PointViewAt(&views[ti]);
  }
  // Off-mesh links, their ends located on the twin (both ends' tiles are built by now).
  for (uint32_t ti = 0; ti < map.tile_count(); ++ti) {
    TileArrays& a = (*twins)[ti].arrays;
    for (OffMeshLink link : map.tile(ti).off_mesh_links) {
      const std::optional<uint32_t> start =
          Locate(views, covers[bases[ti] + link.start_poly], link.start);
      const std::optional<uint32_t> end =
          Locate(views, covers[bases[link.end_tile] + link.end_poly], link.end);
      if (!start || !end) continue;
      link.start_poly = *start;
      link.end_poly = *end;
      a.off_mesh_links.push_back(link);
    }
    std::stable_sort(a.off_mesh_links.begin(), a.off_mesh_links.end(),
                     [](const OffMeshLink& x, const OffMeshLink& y) {
                       return x.start_poly < y.start_poly;
                     });
    a.PointViewAt(&views[ti]);
  }
  out.cover_start.push_back(0);
  for (const std::vector<PolyIndex>& c : covers) {
    out.cover.insert(out.cover.end(), c.begin(), c.end());
    out.cover_start.push_back(uint32_t(out.cover.size()));
  }
  MapInfo info = map.info();
  info.polygon_count = out.report.polygons_after;
  out.map = std::make_shared<NavMap>(std::move(info), std::move(views), twins);
  return out;
}

bool WorthKeeping(const PlanTwinReport& report) {
  return report.polygons_after * 3 <= report.polygons_before * 2;
}

std::shared_ptr<const PlanTwin> WithTwinTables(const NavMap& map,
                                               const ExactLandmarkTable& map_landmarks,
                                               PlanTwin twin) {
  auto own = std::make_shared<SearchTables>();
  own->dead_ends = DeadEndTable::Build(*twin.map);
  own->exact_landmarks = TwinLandmarkTable(map, map_landmarks, *twin.map);
  own->polygon_bases = twin.map->PolygonBases();
  twin.map = std::make_shared<const NavMap>(*twin.map, std::move(own));
  return std::make_shared<const PlanTwin>(std::move(twin));
}

ExactLandmarkTable TwinLandmarkTable(const NavMap& map, const ExactLandmarkTable& table,
                                     const NavMap& twin) {
  if (table.empty() || !table.Fits(map) || twin.tile_count() != map.tile_count()) return {};
  const auto key = [](Vec3 v) {
    return std::tuple(std::bit_cast<uint32_t>(v.x), std::bit_cast<uint32_t>(v.y),
                      std::bit_cast<uint32_t>(v.z));
  };
  std::vector<uint16_t> rows;
  for (uint32_t t = 0; t < twin.tile_count(); ++t) {
    const TileView& from = map.tile(t);
    absl::flat_hash_map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> index;
    for (uint32_t v = 0; v < from.vertices.size(); ++v) index.try_emplace(key(from.vertices[v]), v);
    for (const Vec3 v : twin.tile(t).vertices) {
      const auto it = index.find(key(v));
      if (it == index.end()) return {};
      const uint16_t* row = table.Row(t, it->second);
      rows.insert(rows.end(), row, row + table.count());
    }
  }
  std::vector<Vec3> landmarks;
  for (uint32_t k = 0; k < table.count(); ++k) landmarks.push_back(table.landmark(k));
  return ExactLandmarkTable(table.step(), std::move(landmarks), twin.VertexBases(),
                            std::move(rows));
}

}  // namespace waymesh
