#include "support/defect_maps.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <span>

#include "gtest/gtest.h"
#include "support/test_data.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_file_check.h"
#include "waymesh/format/map_tiles.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

// The corner across which side `s` is linked, in polygon `q`, or -1.
int64_t BackCorner(const RepairedMesh& m, EdgeSide s, uint32_t q) {
  for (uint32_t c = 0; c < m.corner_count(q); ++c) {
    if (m.poly_neighbors[m.poly_start[q] + c] == int64_t{s.poly}) return c;
  }
  return -1;
}

// Polygons of island 0 reachable from `from` without crossing edge {a, b}.
uint32_t ReachableWithout(const RepairedMesh& m, uint32_t from, uint32_t a, uint32_t b) {
  std::vector<bool> seen(m.polygon_count(), false);
  std::vector<uint32_t> stack{from};
  seen[from] = true;
  uint32_t count = 0;
  while (!stack.empty()) {
    const uint32_t p = stack.back();
    stack.pop_back();
    ++count;
    for (uint32_t c = m.poly_start[p]; c < m.poly_start[p + 1]; ++c) {
      const int64_t q = m.poly_neighbors[c];
      if (q < 0 || seen[q] || (p == a && q == b) || (p == b && q == a)) continue;
      seen[q] = true;
      stack.push_back(uint32_t(q));
    }
  }
  return count;
}

}  // namespace

SourceMesh Unity1000Source() {
  absl::StatusOr<SourceMesh> source = ImportFile(SharedData("unity/1000.navmesh"));
  if (!source.ok()) {
    ADD_FAILURE() << source.status();
    return {};
  }
  return *std::move(source);
}

RepairedMesh RepairOrDie(const SourceMesh& source) {
  RepairOptions options;
  options.tile_size = kDefectTileSize;
  RepairReport report;
  absl::StatusOr<RepairedMesh> mesh =
      RepairMeshes(std::span<const SourceMesh>(&source, 1), options, &report);
  if (!mesh.ok()) {
    ADD_FAILURE() << mesh.status();
    return {};
  }
  return *std::move(mesh);
}

RepairedMesh Unity1000Mesh() { return RepairOrDie(Unity1000Source()); }

std::string CompileOrDie(const RepairedMesh& mesh, std::vector<PolyIndex>* placement) {
  std::vector<PolyIndex> ignored;
  absl::StatusOr<std::string> bytes = CompileMap(mesh, placement ? placement : &ignored);
  if (!bytes.ok()) {
    ADD_FAILURE() << bytes.status();
    return {};
  }
  return *std::move(bytes);
}

std::shared_ptr<const NavMap> LoadOrDie(const std::string& bytes) {
  // As `waymesh validate` loads: intact bytes, structure not yet judged (defects are the point).
  auto kept = std::make_shared<const std::string>(bytes);
  MapFileCheck check = CheckMapBytes(std::as_bytes(std::span(*kept)), kept);
  if (check.map == nullptr) {
    ADD_FAILURE() << (check.findings.empty() ? "no map" : FindingLine(check.findings[0]));
    return nullptr;
  }
  return check.map;
}

void WriteFileOrDie(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) ADD_FAILURE() << "cannot write " << path;
}

std::optional<std::pair<EdgeSide, EdgeSide>> FindLinkedEdge(const RepairedMesh& m,
                                                            bool cross_tile) {
  for (uint32_t p = 0; p < m.polygon_count(); ++p) {
    for (uint32_t c = 0; c < m.corner_count(p); ++c) {
      const int64_t q = m.poly_neighbors[m.poly_start[p] + c];
      if (q < 0 || (m.poly_tile[p] != m.poly_tile[q]) != cross_tile) continue;
      const int64_t back = BackCorner(m, {p, c}, uint32_t(q));
      if (back >= 0) return std::make_pair(EdgeSide{p, c}, EdgeSide{uint32_t(q), uint32_t(back)});
    }
  }
  return std::nullopt;
}

void MakeWall(RepairedMesh* mesh, EdgeSide side) {
  mesh->poly_neighbors[mesh->poly_start[side.poly] + side.corner] = -1;
}

Vec3 Centroid(const RepairedMesh& m, uint32_t p) {
  Vec3 sum;
  for (uint32_t c = m.poly_start[p]; c < m.poly_start[p + 1]; ++c) {
    sum = sum + m.vertices[m.poly_verts[c]];
  }
  return sum * (1.0f / m.corner_count(p));
}

Vec3 Centroid(const TileView& t, uint32_t p) {
  Vec3 sum;
  for (uint32_t i = 0; i < t.corner_count(p); ++i) sum = sum + t.corner(p, i);
  return sum * (1.0f / t.corner_count(p));
}

std::optional<uint32_t> MakeReflexCorner(RepairedMesh* m) {
  for (uint32_t p = 0; p < m->polygon_count(); ++p) {
    const uint32_t n = m->corner_count(p), start = m->poly_start[p];
    if (n < 4) continue;
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t prev = (k + n - 1) % n, next = (k + 1) % n;
      if (m->poly_neighbors[start + prev] >= 0 || m->poly_neighbors[start + k] >= 0) continue;
      const Vec3 b = m->vertices[m->poly_verts[start + prev]];
      const Vec3 c = m->vertices[m->poly_verts[start + k]];
      const Vec3 d = m->vertices[m->poly_verts[start + next]];
      // Mirror the corner a tenth of the way across the chord b-d: now it points inward.
      const Vec3 mid = (b + d) * 0.5f;
      m->vertices.push_back(mid + (mid - c) * 0.1f);
      m->poly_verts[start + k] = uint32_t(m->vertices.size() - 1);
      return p;
    }
  }
  return std::nullopt;
}

Vec3 AddLinkEndingOffMesh(RepairedMesh* mesh) {
  const Vec3 start = Centroid(*mesh, 0);
  const Vec3 end{mesh->info.bounds.max.x + 20.0f, start.y, start.z};
  mesh->links.push_back({start, end, 0.5f, 10.0f, 0, 1, 0, kWalkableArea, false});
  return end;
}

Vec3 AddDetachedSquare(SourceMesh* source, float size) {
  Aabb bounds;
  for (const Vec3& v : source->vertices) bounds.Extend(v);
  const float x = bounds.max.x + 5.0f, y = bounds.min.y, z = bounds.min.z + 10.0f;
  const uint32_t first = uint32_t(source->vertices.size());
  for (Vec3 v :
       {Vec3{x, y, z}, Vec3{x + size, y, z}, Vec3{x + size, y, z + size}, Vec3{x, y, z + size}}) {
    source->vertices.push_back(v);
  }
  source->AddPolygon({first, first + 1, first + 2});
  source->AddPolygon({first, first + 2, first + 3});
  return {x + size / 2, y, z + size / 2};
}

std::optional<std::pair<EdgeSide, EdgeSide>> FindBridgeEdge(const RepairedMesh& m,
                                                            uint32_t* smaller) {
  uint32_t island_size = 0;
  for (uint32_t p = 0; p < m.polygon_count(); ++p) island_size += m.poly_island[p] == 0;
  std::optional<std::pair<EdgeSide, EdgeSide>> best;
  *smaller = 0;
  for (uint32_t p = 0; p < m.polygon_count(); ++p) {
    if (m.poly_island[p] != 0) continue;
    for (uint32_t c = 0; c < m.corner_count(p); ++c) {
      const int64_t q = m.poly_neighbors[m.poly_start[p] + c];
      if (q <= int64_t{p}) continue;  // each edge once
      const uint32_t part = ReachableWithout(m, p, p, uint32_t(q));
      const uint32_t small = std::min(part, island_size - part);
      if (part == island_size || small <= *smaller) continue;
      const int64_t back = BackCorner(m, {p, c}, uint32_t(q));
      if (back < 0) continue;
      *smaller = small;
      best = std::make_pair(EdgeSide{p, c}, EdgeSide{uint32_t(q), uint32_t(back)});
    }
  }
  return best;
}

void RecomputeIslands(RepairedMesh* m) {
  const uint32_t n = m->polygon_count();
  std::vector<uint32_t> component(n, UINT32_MAX);
  std::vector<std::vector<uint32_t>> members;
  for (uint32_t seed = 0; seed < n; ++seed) {
    if (component[seed] != UINT32_MAX) continue;
    members.emplace_back();
    std::vector<uint32_t> stack{seed};
    component[seed] = uint32_t(members.size() - 1);
    while (!stack.empty()) {
      const uint32_t p = stack.back();
      stack.pop_back();
      members.back().push_back(p);
      for (uint32_t c = m->poly_start[p]; c < m->poly_start[p + 1]; ++c) {
        const int64_t q = m->poly_neighbors[c];
        if (q >= 0 && component[q] == UINT32_MAX) {
          component[q] = component[p];
          stack.push_back(uint32_t(q));
        }
      }
    }
  }
  std::vector<uint32_t> order(members.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return members[a].size() > members[b].size(); });
  m->info.islands.clear();
  for (uint32_t island = 0; island < order.size(); ++island) {
    IslandInfo info{uint32_t(members[order[island]].size()), 0.0, island};
    for (uint32_t p : members[order[island]]) {
      m->poly_island[p] = island;
      const uint32_t begin = m->poly_start[p], corners = m->corner_count(p);
      for (uint32_t i = 0; i < corners; ++i) {
        const Vec3 a = m->vertices[m->poly_verts[begin + i]];
        const Vec3 b = m->vertices[m->poly_verts[begin + (i + 1) % corners]];
        info.area += 0.5 * (double(a.x) * b.z - double(b.x) * a.z);
      }
    }
    info.area = std::abs(info.area);
    m->info.islands.push_back(info);
  }
}

}  // namespace waymesh::testing
