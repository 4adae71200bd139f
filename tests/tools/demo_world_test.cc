// The demo world generator, the export writer and `waymesh demo-world`: determinism, the export
// schema, the Unity quirks it must have before repair (duplicated vertices, jitter, T-junctions
// at seams) and, after import and repair, the topology its ground truth promises.

#include "waymesh/demo_world/demo_world.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "cli_runner.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/mesh_invariants.h"
#include "support/test_data.h"
#include "waymesh/import/export_writer.h"
#include "waymesh/import/importers.h"
#include "waymesh/mesh/tolerances.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

// Small worlds keep the suite fast (it also runs under sanitizers).
constexpr double kSmall = 200;
// Probes sit on the surface; repaired heights may differ by the merge tolerance.
constexpr float kProbeHeightSlack = 0.05f;

DemoWorld Generate(double size, uint64_t seed, double cell = kDemoDefaultCell) {
  absl::StatusOr<DemoWorld> world = GenerateDemoWorld({.size = size, .seed = seed, .cell = cell});
  if (!world.ok()) ADD_FAILURE() << world.status();
  return world.ok() ? *std::move(world) : DemoWorld{};
}

std::string Export(const SourceMesh& mesh) {
  absl::StatusOr<std::string> text = WriteUnityExport(mesh);
  if (!text.ok()) ADD_FAILURE() << text.status();
  return text.ok() ? *text : std::string();
}

Vec3 Corner(const SourceMesh& m, uint32_t t, int i) {
  return m.vertices[m.poly_verts[m.poly_start[t] + i]];
}

const DemoProbe& Probe(const DemoWorldTruth& truth, const std::string& name) {
  for (const DemoProbe& p : truth.probes) {
    if (p.name == name) return p;
  }
  ADD_FAILURE() << "no probe named " << name;
  static const DemoProbe kNone;
  return kNone;
}

// Height of triangle abc at plan point (x, z), or NaN when the point is outside it.
double HeightInTriangle(Vec3 a, Vec3 b, Vec3 c, double x, double z) {
  const double den =
      (double(b.x) - a.x) * (double(c.z) - a.z) - (double(c.x) - a.x) * (double(b.z) - a.z);
  if (std::fabs(den) < 1e-12) return NAN;
  const double u = ((x - a.x) * (double(c.z) - a.z) - (double(c.x) - a.x) * (z - a.z)) / den;
  const double v = ((double(b.x) - a.x) * (z - a.z) - (x - a.x) * (double(b.z) - a.z)) / den;
  constexpr double kEps = 1e-6;
  if (u < -kEps || v < -kEps || u + v > 1 + kEps) return NAN;
  return a.y + u * (double(b.y) - a.y) + v * (double(c.y) - a.y);
}

// Distance from p to the line through a and b, and p's position along it (metres from a).
void LineDistance(Vec3 a, Vec3 b, Vec3 p, double* distance, double* along) {
  const double dx = double(b.x) - a.x, dy = double(b.y) - a.y, dz = double(b.z) - a.z;
  const double len = std::sqrt(dx * dx + dy * dy + dz * dz);
  const double px = double(p.x) - a.x, py = double(p.y) - a.y, pz = double(p.z) - a.z;
  *along = (px * dx + py * dy + pz * dz) / len;
  const double qx = px - *along * dx / len, qy = py - *along * dy / len,
               qz = pz - *along * dz / len;
  *distance = std::sqrt(qx * qx + qy * qy + qz * qz);
}

// Whether edge (e0, e1) lies along seam s over more than `tol` metres.
bool EdgeOnSeam(Vec3 e0, Vec3 e1, const DemoSeam& s, double tol) {
  double d0, t0, d1, t1;
  LineDistance(s.a, s.b, e0, &d0, &t0);
  LineDistance(s.a, s.b, e1, &d1, &t1);
  if (d0 > tol || d1 > tol) return false;
  const double len = Distance(s.a, s.b);
  return std::min(std::max(t0, t1), len) - std::max(std::min(t0, t1), 0.0) > tol;
}

// ---------------------------------------------------------------------------------------------
// The generator and its export.

TEST(DemoWorld, SameSeedGivesByteIdenticalExport) {
  const std::string a = Export(Generate(kSmall, 7).mesh);
  const std::string b = Export(Generate(kSmall, 7).mesh);
  ASSERT_FALSE(a.empty());
  EXPECT_TRUE(a == b) << "two runs with seed 7 differ";
  const std::string c = Export(Generate(kSmall, 8).mesh);
  EXPECT_FALSE(a == c) << "seeds 7 and 8 gave the same export";
  EXPECT_NE(ContentHash(Generate(kSmall, 7).mesh), ContentHash(Generate(kSmall, 8).mesh));
}

TEST(DemoWorld, ExportHasExactlyTheSchema) {
  const DemoWorld world = Generate(kSmall, 3);
  const SourceMesh& m = world.mesh;
  const nlohmann::json j = nlohmann::json::parse(Export(m));
  std::set<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.insert(key);
  EXPECT_EQ(keys, (std::set<std::string>{"format", "version", "exporter", "unity_version", "scene",
                                         "agents", "areas", "vertices", "indices", "triangle_areas",
                                         "off_mesh_links"}));
  EXPECT_EQ(j["format"], "waymesh-navmesh-export");
  EXPECT_EQ(j["version"], 1);
  EXPECT_TRUE(j["exporter"]["name"].is_string() && j["exporter"]["version"].is_string());
  EXPECT_TRUE(j["unity_version"].is_string());
  EXPECT_EQ(j["scene"]["name"], m.scene_name);
  EXPECT_THAT(j["scene"]["hash"].get<std::string>(),
              ::testing::MatchesRegex("fnv1a64:[0-9a-f]{16}"));
  ASSERT_EQ(j["agents"].size(), 1u);
  const auto& agent = j["agents"][0];
  EXPECT_EQ(agent["agent_type_id"], 0);
  EXPECT_EQ(agent["name"], "Humanoid");
  EXPECT_FLOAT_EQ(agent["radius"].get<float>(), m.agent.radius);
  EXPECT_FLOAT_EQ(agent["height"].get<float>(), m.agent.height);
  EXPECT_FLOAT_EQ(agent["max_slope"].get<float>(), m.agent.max_slope_deg);
  EXPECT_FLOAT_EQ(agent["step_height"].get<float>(), m.agent.step_height);
  EXPECT_FLOAT_EQ(agent["voxel_size"].get<float>(), m.agent.voxel_size);

  std::map<int, float> cost;
  for (const auto& area : j["areas"]) {
    const int id = area["id"];
    EXPECT_TRUE(id >= 0 && id < 64) << id;
    EXPECT_TRUE(area["name"].is_string());
    EXPECT_TRUE(cost.emplace(id, area["cost"].get<float>()).second) << "area " << id << " twice";
  }
  EXPECT_EQ(cost[kDemoAreaGrass], 1.0f);
  EXPECT_EQ(cost[kDemoAreaRoad], 0.5f);
  EXPECT_EQ(cost[kDemoAreaWater], 5.0f);
  EXPECT_EQ(cost[kDemoAreaJump], 2.0f);

  // Every number reads back as exactly the float in memory.
  const auto& v = j["vertices"];
  const auto& idx = j["indices"];
  const auto& areas = j["triangle_areas"];
  ASSERT_EQ(v.size(), 3 * m.vertices.size());
  ASSERT_EQ(idx.size(), 3 * size_t{m.polygon_count()});
  ASSERT_EQ(areas.size(), size_t{m.polygon_count()});
  for (size_t i = 0; i < m.vertices.size(); ++i) {
    ASSERT_EQ(v[3 * i].get<float>(), m.vertices[i].x) << i;
    ASSERT_EQ(v[3 * i + 1].get<float>(), m.vertices[i].y) << i;
    ASSERT_EQ(v[3 * i + 2].get<float>(), m.vertices[i].z) << i;
  }
  for (size_t i = 0; i < idx.size(); ++i) ASSERT_EQ(idx[i].get<uint32_t>(), m.poly_verts[i]);
  std::set<int> used;
  for (size_t t = 0; t < areas.size(); ++t) {
    ASSERT_EQ(areas[t].get<int>(), m.poly_area[t]);
    used.insert(areas[t].get<int>());
  }
  EXPECT_EQ(used, (std::set<int>{kDemoAreaGrass, kDemoAreaRoad, kDemoAreaWater}));
  for (int a : used) EXPECT_TRUE(cost.count(a)) << "area " << a << " used but not declared";

  ASSERT_EQ(j["off_mesh_links"].size(), 2u);
  int one_way = 0;
  for (const auto& link : j["off_mesh_links"]) {
    EXPECT_EQ(link["start"].size(), 3u);
    EXPECT_EQ(link["end"].size(), 3u);
    EXPECT_EQ(link["radius"], 0.5);
    EXPECT_EQ(link["area"], kDemoAreaJump);
    EXPECT_EQ(link["cost"], -1);
    one_way += link["bidirectional"].get<bool>() ? 0 : 1;
  }
  EXPECT_EQ(one_way, 1);  // the drop off the roof; the ladder goes both ways
}

TEST(DemoWorld, TriangleCountFollowsAreaAndCell) {
  const double small = Generate(kSmall, 5).mesh.polygon_count();
  const double large = Generate(2 * kSmall, 5).mesh.polygon_count();
  const double fine = Generate(kSmall, 5, kDemoDefaultCell / 2).mesh.polygon_count();
  // Twice the side, four times the ground; half the cell, four times the triangles (the
  // landmarks are a fixed share of a small world, hence the slack).
  EXPECT_GT(large / small, 3.0);
  EXPECT_LT(large / small, 5.5);
  EXPECT_GT(fine / small, 3.5);
  EXPECT_LT(fine / small, 4.5);
  // The default cell's budget: 5 triangles per 2x2-cell unit where everything is walkable, and
  // roughly 3 to 4 once buildings and the river are cut out (about 1M at 1.4 km).
  const double units = std::pow(kSmall / (2 * kDemoDefaultCell), 2);
  EXPECT_GT(small / units, 2.5);
  EXPECT_LT(small / units, 4.5);
}

TEST(DemoWorld, VerticesAreDuplicatedPerTriangleWithJitterAndOneWinding) {
  const SourceMesh m = Generate(kSmall, 11).mesh;
  ASSERT_GT(m.polygon_count(), 10000u);
  ASSERT_EQ(m.vertices.size(), 3 * size_t{m.polygon_count()});
  for (uint32_t t = 0; t < m.polygon_count(); ++t) {
    ASSERT_EQ(m.poly_start[t + 1] - m.poly_start[t], 3u);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(m.poly_verts[3 * t + i], 3 * t + i) << "shared vertex";
    ASSERT_LT(TriArea2XZ(Corner(m, t, 0), Corner(m, t, 1), Corner(m, t, 2)), 0) << t;
  }
  // Copies of one position (1 cm buckets) differ by float jitter only: most are bit-identical,
  // some not, none further apart than a few ulps.
  std::unordered_map<int64_t, std::vector<Vec3>> buckets;
  auto key = [](Vec3 p) {
    return (int64_t(std::lround(p.x * 100)) * 1000003 + std::lround(p.y * 100)) * 1000003 +
           std::lround(p.z * 100);
  };
  for (const Vec3& p : m.vertices) buckets[key(p)].push_back(p);
  size_t exact = 0, jittered = 0;
  float spread = 0;
  for (const auto& [k, copies] : buckets) {
    for (size_t i = 1; i < copies.size(); ++i) {
      (copies[i] == copies[0] ? exact : jittered)++;
      spread = std::max(spread, Distance(copies[i], copies[0]));
    }
  }
  EXPECT_LT(buckets.size(), m.vertices.size() / 3) << "positions are not shared by many copies";
  EXPECT_GT(exact, m.vertices.size() / 3);
  EXPECT_GT(jittered, m.vertices.size() / 50);
  EXPECT_GT(spread, 0.0f);
  EXPECT_LT(spread, 1e-4f);
}

TEST(DemoWorld, EverySeamHasTJunctionsBeforeRepair) {
  const DemoWorld world = Generate(kSmall, 2);
  const SourceMesh& m = world.mesh;
  ASSERT_GT(world.truth.seams.size(), 10u);
  constexpr double kOn = 1e-4, kApart = 1e-3;
  int slab_seams = 0;
  for (const DemoSeam& s : world.truth.seams) {
    const double len = Distance(s.a, s.b);
    ASSERT_GT(len, 0.5);
    slab_seams += s.a.y != 0 ? 1 : 0;
    // Triangle edges lying along the seam (clipped to it), and the vertices on it.
    std::vector<std::pair<double, double>> edges;
    std::vector<double> points;
    double covered = 0;
    for (uint32_t t = 0; t < m.polygon_count(); ++t) {
      double d[3], at[3];
      for (int i = 0; i < 3; ++i) LineDistance(s.a, s.b, Corner(m, t, i), &d[i], &at[i]);
      for (int i = 0; i < 3; ++i) {
        if (d[i] > kOn) continue;
        if (at[i] > -kOn && at[i] < len + kOn) points.push_back(at[i]);
        const int j = (i + 1) % 3;
        const double lo = std::min(at[i], at[j]), hi = std::max(at[i], at[j]);
        if (d[j] > kOn || std::min(hi, len) - std::max(lo, 0.0) <= 0) continue;
        edges.emplace_back(lo, hi);
        covered += std::min(hi, len) - std::max(lo, 0.0);
      }
    }
    // Each side covers the whole seam, so the edges add up to twice its length.
    EXPECT_NEAR(covered, 2 * len, 1e-3) << "seam at " << s.a.x << "," << s.a.z;
    int hanging = 0;
    for (double p : points) {
      for (const auto& [lo, hi] : edges) hanging += (p > lo + kApart && p < hi - kApart) ? 1 : 0;
    }
    EXPECT_GT(hanging, 0) << "no T-junction on the seam from " << s.a.x << "," << s.a.y << ","
                          << s.a.z << " to " << s.b.x << "," << s.b.y << "," << s.b.z;
  }
  EXPECT_EQ(slab_seams, 3);  // high ends: two onto the deck, one onto the platform
}

TEST(DemoWorld, ProbesLieOnTheExportedSurface) {
  const DemoWorld world = Generate(kSmall, 4);
  const SourceMesh& m = world.mesh;
  for (const DemoProbe& p : world.truth.probes) {
    std::vector<double> floors;
    for (uint32_t t = 0; t < m.polygon_count(); ++t) {
      const double y = HeightInTriangle(Corner(m, t, 0), Corner(m, t, 1), Corner(m, t, 2),
                                        p.position.x, p.position.z);
      if (!std::isnan(y)) floors.push_back(y);
    }
    bool on = false;
    for (double y : floors) on = on || std::fabs(y - p.position.y) < 1e-3;
    EXPECT_TRUE(on) << p.name << " is not on the surface";
  }
  // Two floors at the same plan point: the walkway under the deck and the deck.
  const DemoProbe& deck = Probe(world.truth, kProbeDeckOverWalkway);
  const DemoProbe& walk = Probe(world.truth, kProbeWalkwayUnderBridge);
  EXPECT_EQ(deck.position.x, walk.position.x);
  EXPECT_EQ(deck.position.z, walk.position.z);
  EXPECT_NEAR(deck.position.y - walk.position.y, 5.0, 1e-6);
}

TEST(DemoWorld, TruthLabelsEveryIslandAndGroup) {
  const DemoWorld world = Generate(2 * kSmall, 9);
  const DemoWorldTruth& t = world.truth;
  ASSERT_GE(t.islands.size(), 4u);
  std::set<std::string> names;
  std::vector<int> probes_per_island(t.islands.size());
  for (const DemoProbe& p : t.probes) {
    EXPECT_TRUE(names.insert(p.name).second) << "probe name twice: " << p.name;
    ASSERT_LT(p.island, t.islands.size());
    EXPECT_EQ(p.group, t.islands[p.island].group);
    ++probes_per_island[p.island];
  }
  for (size_t i = 0; i < t.islands.size(); ++i) {
    EXPECT_GT(probes_per_island[i], 0) << t.islands[i].name << " has no probe";
  }
  std::set<uint32_t> groups;
  for (const DemoIsland& i : t.islands) groups.insert(i.group);
  EXPECT_EQ(groups.size(), t.group_count);
  EXPECT_EQ(*groups.rbegin() + 1, t.group_count);
  // The rooftop is its own island, joined to the town by the ladder; courtyard and islet are not.
  const DemoProbe& town = Probe(t, kProbeLadderFoot);
  const DemoProbe& roof = Probe(t, kProbeRooftop);
  EXPECT_NE(town.island, roof.island);
  EXPECT_EQ(town.group, roof.group);
  for (const char* cut_off : {kProbeCourtyard, kProbeIslet}) {
    EXPECT_NE(Probe(t, cut_off).group, town.group) << cut_off;
  }
  for (const char* connected : {kProbeWestBank, kProbeEastBank, kProbeFord, kProbeDeckCentre,
                                kProbePlatformTop, kProbePlatformRamp, kProbeBridgeRamp}) {
    EXPECT_EQ(Probe(t, connected).island, town.island) << connected;
  }
}

TEST(DemoWorld, ManySizesCellsAndSeedsLayOutCleanly) {
  // The generator checks its own design against a flood fill of the ground and fails loudly.
  for (double cell : {0.75, kDemoDefaultCell, 2.5, kDemoMaxCell}) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      const double size = cell == kDemoMaxCell ? 240 : 150 + 20 * seed;
      absl::StatusOr<DemoWorld> w = GenerateDemoWorld({.size = size, .seed = seed, .cell = cell});
      ASSERT_TRUE(w.ok()) << "size " << size << " cell " << cell << " seed " << seed << ": "
                          << w.status();
      EXPECT_LE(w->truth.size, size);
      EXPECT_GT(w->truth.size, size - 2 * cell - 1e-9);
      for (const Vec3& v : w->mesh.vertices) {
        ASSERT_LE(std::fabs(v.x), w->truth.size / 2 + 1e-3);
        ASSERT_LE(std::fabs(v.z), w->truth.size / 2 + 1e-3);
      }
    }
  }
}

TEST(DemoWorld, RejectsBadOptionsNamingThem) {
  struct Case {
    DemoWorldOptions options;
    const char* names;
  };
  const Case cases[] = {
      {{.size = 50}, "size 50 m is outside"},
      {{.size = 5000}, "size 5000 m is outside"},
      {{.size = NAN}, "size nan m is outside"},
      {{.size = 200, .cell = 0.1}, "cell 0.1 m is outside"},
      {{.size = 200, .cell = INFINITY}, "cell inf m is outside"},
      {{.size = 4096, .cell = 0.5}, "up to 83886080 triangles"},
      {{.size = 120, .cell = 4}, "too small for the town's landmarks"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<DemoWorld> w = GenerateDemoWorld(c.options);
    ASSERT_FALSE(w.ok()) << c.names;
    EXPECT_EQ(w.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(w.status().message()), HasSubstr(c.names));
  }
}

// ---------------------------------------------------------------------------------------------
// Imported and repaired: the topology the truth promises.

struct Repaired {
  DemoWorld world;
  RepairedMesh mesh;
  RepairReport report;
};

// The demo world written, imported back and repaired with default options.
Repaired ImportAndRepair(double size, uint64_t seed) {
  Repaired r;
  r.world = Generate(size, seed);
  absl::StatusOr<SourceMesh> imported = ImportUnityExport(Export(r.world.mesh), "demo.json");
  if (!imported.ok()) {
    ADD_FAILURE() << imported.status();
    return r;
  }
  absl::StatusOr<RepairedMesh> mesh =
      RepairMeshes(std::span<const SourceMesh>(&*imported, 1), RepairOptions{}, &r.report);
  if (!mesh.ok()) {
    ADD_FAILURE() << mesh.status();
    return r;
  }
  r.mesh = *std::move(mesh);
  return r;
}

// Polygons of `m` containing plan point (x, z) with their surface height within `slack` of y.
std::vector<uint32_t> PolygonsAt(const RepairedMesh& m, Vec3 p, float slack) {
  std::vector<uint32_t> found;
  for (uint32_t poly = 0; poly < m.polygon_count(); ++poly) {
    const uint32_t base = m.poly_start[poly];
    const DetailTri* tris = m.detail_tris.data() + base - 2 * poly;
    for (uint32_t t = 0; t + 2 < m.corner_count(poly); ++t) {
      const Vec3 a = m.vertices[m.poly_verts[base + tris[t].a]];
      const Vec3 b = m.vertices[m.poly_verts[base + tris[t].b]];
      const Vec3 c = m.vertices[m.poly_verts[base + tris[t].c]];
      const double y = HeightInTriangle(a, b, c, p.x, p.z);
      if (!std::isnan(y) && std::fabs(y - p.y) <= slack) {
        found.push_back(poly);
        break;
      }
    }
  }
  return found;
}

TEST(DemoWorldRepaired, ImportReadsBackExactlyWhatWasWritten) {
  const DemoWorld world = Generate(kSmall, 6);
  absl::StatusOr<SourceMesh> in = ImportUnityExport(Export(world.mesh), "demo.json");
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->vertices, world.mesh.vertices);
  EXPECT_EQ(in->poly_start, world.mesh.poly_start);
  EXPECT_EQ(in->poly_verts, world.mesh.poly_verts);
  EXPECT_EQ(in->poly_area, world.mesh.poly_area);
  EXPECT_EQ(in->scene_name, world.mesh.scene_name);
  EXPECT_EQ(in->source_hash, world.mesh.source_hash);
  ASSERT_EQ(in->links.size(), world.mesh.links.size());
  for (size_t i = 0; i < in->links.size(); ++i) {
    EXPECT_EQ(in->links[i].start, world.mesh.links[i].start);
    EXPECT_EQ(in->links[i].end, world.mesh.links[i].end);
    EXPECT_EQ(in->links[i].bidirectional, world.mesh.links[i].bidirectional);
    EXPECT_EQ(in->links[i].area, world.mesh.links[i].area);
  }
  ASSERT_GT(in->areas.size(), size_t{kDemoAreaWater});
  ASSERT_TRUE(in->areas[kDemoAreaRoad].has_value());
  EXPECT_EQ(in->areas[kDemoAreaRoad]->cost, 0.5f);
  EXPECT_EQ(in->areas[kDemoAreaRoad]->name, "Road");
}

TEST(DemoWorldRepaired, TopologyMatchesTheTruth) {
  const Repaired r = ImportAndRepair(kSmall, 5);
  const DemoWorldTruth& truth = r.world.truth;
  const RepairedMesh& m = r.mesh;
  ASSERT_GT(m.polygon_count(), 0u);
  EXPECT_GT(r.report.counts.welded, 0u);
  EXPECT_GT(r.report.counts.t_junctions, 0u);
  EXPECT_EQ(r.report.off_mesh_links, 2u);
  EXPECT_EQ(r.report.off_mesh_links_dropped, 0u);

  ASSERT_EQ(m.info.islands.size(), truth.islands.size());
  std::set<uint32_t> groups;
  for (const IslandInfo& i : m.info.islands) groups.insert(i.group);
  EXPECT_EQ(groups.size(), truth.group_count);

  // Same label <=> same repaired island (and group), probe by probe.
  std::map<uint32_t, uint32_t> island_of_label, label_of_island, group_of_label, label_of_group;
  for (const DemoProbe& p : truth.probes) {
    const std::vector<uint32_t> polys = PolygonsAt(m, p.position, kProbeHeightSlack);
    ASSERT_FALSE(polys.empty()) << p.name << " is on no polygon at its height";
    const uint32_t island = m.poly_island[polys[0]];
    const uint32_t group = m.info.islands[island].group;
    EXPECT_EQ(island_of_label.emplace(p.island, island).first->second, island) << p.name;
    EXPECT_EQ(label_of_island.emplace(island, p.island).first->second, p.island) << p.name;
    EXPECT_EQ(group_of_label.emplace(p.group, group).first->second, group) << p.name;
    EXPECT_EQ(label_of_group.emplace(group, p.group).first->second, p.group) << p.name;
  }
  EXPECT_EQ(island_of_label.size(), truth.islands.size());

  // The deck and the walkway under it: two polygons at the same plan point, each at its height.
  const DemoProbe& deck = Probe(truth, kProbeDeckOverWalkway);
  const DemoProbe& walk = Probe(truth, kProbeWalkwayUnderBridge);
  const std::vector<uint32_t> on_deck = PolygonsAt(m, deck.position, kProbeHeightSlack);
  const std::vector<uint32_t> on_walk = PolygonsAt(m, walk.position, kProbeHeightSlack);
  const std::vector<uint32_t> any_floor = PolygonsAt(m, deck.position, 100);
  ASSERT_EQ(on_deck.size(), 1u);
  ASSERT_EQ(on_walk.size(), 1u);
  EXPECT_NE(on_deck[0], on_walk[0]);
  EXPECT_EQ(any_floor.size(), 2u);
}

TEST(DemoWorldRepaired, NoBoundaryEdgeOnSeamsAndInvariantsHold) {
  const Repaired r = ImportAndRepair(kSmall, 12);
  const RepairedMesh& m = r.mesh;
  ASSERT_GT(m.polygon_count(), 0u);
  EXPECT_TRUE(MeshInvariantsHold(m));
  EXPECT_NEAR(m.info.walkable_area, SourceSurfaceArea(r.world.mesh), 1e-5 * m.info.walkable_area);
  int boundary = 0, on_seam = 0;
  for (uint32_t p = 0; p < m.polygon_count(); ++p) {
    const uint32_t n = m.corner_count(p);
    for (uint32_t i = 0; i < n; ++i) {
      if (m.poly_neighbors[m.poly_start[p] + i] >= 0) continue;
      ++boundary;
      const Vec3 a = m.vertices[m.poly_verts[m.poly_start[p] + i]];
      const Vec3 b = m.vertices[m.poly_verts[m.poly_start[p] + (i + 1) % n]];
      for (const DemoSeam& s : r.world.truth.seams) {
        if (EdgeOnSeam(a, b, s, tol::kDefaultTJunction)) {
          ++on_seam;
          ADD_FAILURE() << "boundary edge on a seam: (" << a.x << "," << a.y << "," << a.z
                        << ") - (" << b.x << "," << b.y << "," << b.z << ")";
          break;
        }
      }
      if (on_seam > 5) return;
    }
  }
  EXPECT_GT(boundary, 100);  // buildings, river, world edge, structure walls
  EXPECT_EQ(on_seam, 0);
}

// ---------------------------------------------------------------------------------------------
// The export writer on its own.

SourceMesh Square(float size) {
  SourceMesh m;
  m.origin = "square";
  m.vertices = {{0, 0, 0}, {size, 0, 0}, {size, 0, size}, {0, 0, size}};
  m.AddPolygon({0, 1, 2, 3});
  return m;
}

TEST(ExportWriter, RejectsWhatTheFormatCannotHold) {
  SourceMesh nan = Square(1);
  nan.vertices[2].y = NAN;
  SourceMesh far = Square(1);
  far.vertices[1].x = 2e6f;
  SourceMesh index = Square(1);
  index.poly_verts[3] = 9;
  SourceMesh area = Square(1);
  area.poly_area[0] = 64;
  SourceMesh concave = Square(2);
  concave.vertices.push_back({1, 0, 1.5f});  // dent in the top edge
  concave.poly_verts = {0, 1, 2, 4, 3};
  concave.poly_start = {0, 5};
  SourceMesh link = Square(1);
  link.links.push_back({.start = {0, 0, 0}, .end = {INFINITY, 0, 0}});
  SourceMesh line = Square(1);
  line.poly_verts = {0, 1};
  line.poly_start = {0, 2};
  const std::pair<const SourceMesh*, const char*> cases[] = {
      {&nan, "vertex 2 is not finite"},
      {&far, "vertex 1 is not finite or beyond"},
      {&index, "uses vertex 9"},
      {&area, "area 64"},
      {&concave, "polygon 0 is not convex"},
      {&link, "off-mesh link 0"},
      {&line, "polygon 0 has 2 corners"},
  };
  for (const auto& [mesh, message] : cases) {
    absl::StatusOr<std::string> text = WriteUnityExport(*mesh);
    ASSERT_FALSE(text.ok()) << message;
    EXPECT_EQ(text.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(text.status().message()), HasSubstr("square: cannot write export"));
    EXPECT_THAT(std::string(text.status().message()), HasSubstr(message));
  }
}

TEST(ExportWriter, SplitsConvexPolygonsIntoFansAndDeclaresUsedAreas) {
  SourceMesh m = Square(2);
  m.vertices.push_back({1, 0, 3});
  m.AddPolygon({3, 2, 4}, 7);  // an area the mesh does not describe
  m.links.push_back({.start = {1, 0, 1}, .end = {1, 0, 2.5f}, .area = 9});
  absl::StatusOr<std::string> text = WriteUnityExport(m);
  ASSERT_TRUE(text.ok()) << text.status();
  const nlohmann::json j = nlohmann::json::parse(*text);
  EXPECT_EQ(j["indices"], nlohmann::json({0, 1, 2, 0, 2, 3, 3, 2, 4}));
  EXPECT_EQ(j["triangle_areas"], nlohmann::json({0, 0, 7}));
  std::map<int, std::string> declared;
  for (const auto& a : j["areas"]) declared[a["id"]] = a["name"];
  EXPECT_EQ(declared, (std::map<int, std::string>{{0, "Walkable"}, {7, "Area 7"}, {9, "Area 9"}}));
  EXPECT_EQ(j["scene"]["hash"], ContentHash(m));
}

TEST(ExportWriter, EscapesStringsIntoValidJson) {
  SourceMesh m = Square(1);
  m.scene_name = "a \"quoted\" \\ name\n\x01 caf\xC3\xA9 bad\xFF\xC3";
  m.unity_version = "2022.3.10f1";
  absl::StatusOr<std::string> text = WriteUnityExport(m, {.exporter_name = "tab\there"});
  ASSERT_TRUE(text.ok()) << text.status();
  const nlohmann::json j = nlohmann::json::parse(*text);  // throws on invalid UTF-8
  EXPECT_EQ(j["scene"]["name"],
            "a \"quoted\" \\ name\n\x01 caf\xC3\xA9 bad\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(j["exporter"]["name"], "tab\there");
  EXPECT_EQ(j["unity_version"], "2022.3.10f1");
}

TEST(ExportWriter, FileEqualsStringAndFailuresNameThePath) {
  const DemoWorld world = Generate(kDemoMinSize, 1);
  const std::string dir = ::testing::TempDir() + "/waymesh_export_writer";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/demo.json";
  absl::StatusOr<uint64_t> bytes = WriteUnityExportFile(world.mesh, path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  const std::string text = Export(world.mesh);
  EXPECT_EQ(*bytes, text.size());
  EXPECT_TRUE(ReadFileOrDie(path) == text);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));

  const std::string missing = dir + "/no/such/dir/demo.json";
  absl::StatusOr<uint64_t> failed = WriteUnityExportFile(world.mesh, missing);
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(std::string(failed.status().message()), HasSubstr(missing));
  EXPECT_FALSE(std::filesystem::exists(missing));
  std::filesystem::remove_all(dir);
}

// Real data: every real Unity export and a Polyanya mesh of convex polygons survive the writer
// and the importer with the same geometry and the same surface area.
TEST(ExportWriter, RealMeshesRoundTripThroughTheExport) {
  for (const char* file : {"unity/1000.navmesh", "unity/1100.navmesh", "unity/1200.navmesh",
                           "unity/lear315/LayaNavMesh.obj", "polyanya/meshes/arena-merged.mesh"}) {
    absl::StatusOr<SourceMesh> source = ImportFile(SharedData(file));
    ASSERT_TRUE(source.ok()) << source.status();
    absl::StatusOr<std::string> text = WriteUnityExport(*source);
    ASSERT_TRUE(text.ok()) << file << ": " << text.status();
    absl::StatusOr<SourceMesh> back = ImportUnityExport(*text, file);
    ASSERT_TRUE(back.ok()) << file << ": " << back.status();
    EXPECT_EQ(back->vertices, source->vertices) << file;
    uint64_t triangles = 0;
    for (uint32_t p = 0; p < source->polygon_count(); ++p) {
      triangles += source->poly_start[p + 1] - source->poly_start[p] - 2;
    }
    EXPECT_EQ(back->polygon_count(), triangles) << file;
    EXPECT_NEAR(SourcePlanArea(*back), SourcePlanArea(*source), 1e-6 * SourcePlanArea(*source))
        << file;
  }
}

// ---------------------------------------------------------------------------------------------
// `waymesh demo-world`.

TEST(DemoWorldCli, WritesTheExportQueriesAndASummary) {
  const std::string dir = ::testing::TempDir();
  const std::string path = dir + "/waymesh_cli_demo.json";
  const std::string queries = dir + "/waymesh_cli_demo_queries.txt";
  const CliResult run =
      RunCli("demo-world --size 150 --seed 4 -o " + path + " --queries-out " + queries);
  ASSERT_EQ(run.exit_code, 0) << run.out;
  const std::string& out = run.out;
  const DemoWorld world = Generate(150, 4);
  EXPECT_THAT(out, HasSubstr(std::to_string(world.mesh.polygon_count()) + " triangles"));
  EXPECT_THAT(out, HasSubstr(std::to_string(world.mesh.vertices.size()) + " vertices"));
  EXPECT_THAT(out, HasSubstr("2 off-mesh links"));
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
  const std::string text = ReadFileOrDie(path);
  EXPECT_TRUE(text == *WriteUnityExport(world.mesh, {.exporter_name = "waymesh demo-world"}));
  // Queries: `sx sy sz gx gy gz` lines, each after a comment naming the probes; at most two
  // courtyard buildings take part.
  const std::string q = ReadFileOrDie(queries);
  size_t probes = 0, courtyards = 0;
  for (const DemoProbe& p : world.truth.probes) {
    const bool courtyard = p.name.rfind("courtyard building", 0) == 0;
    probes += !courtyard || ++courtyards <= 2 ? 1 : 0;
  }
  EXPECT_EQ(std::count(q.begin(), q.end(), '\n'), 1 + probes * (probes - 1));
  std::remove(path.c_str());
  std::remove(queries.c_str());
}

TEST(DemoWorldCli, BadArgumentsExitWithTheUsageCode) {
  const std::string out = ::testing::TempDir() + "/waymesh_cli_bad.json";
  std::remove(out.c_str());
  for (const std::string args :
       {"--size 10 --seed 1", "--size 200 --seed 1 --cell 0", "--size 200 --seed 1 --cell abc",
        "--size 200 --seed -1", "--size 200 --seed 18446744073709551616", "--seed 1",
        "--size 4096 --seed 1 --cell 0.5", "--size 110 --seed 1 --cell 4"}) {
    const CliResult run = RunCli("demo-world " + args + " -o " + out);
    EXPECT_EQ(run.exit_code, 2) << args << "\n" << run.out;
    EXPECT_FALSE(run.out.empty()) << args;
    EXPECT_FALSE(std::filesystem::exists(out)) << args;
  }
  EXPECT_EQ(RunCli("demo-world --size 200 --seed 1").exit_code, 2);  // no -o
  const CliResult help = RunCli("demo-world --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--cell"));
}

TEST(DemoWorldCli, UnwritableOutputExitsWithFailure) {
  const std::string path = ::testing::TempDir() + "/no/such/dir/demo.json";
  const CliResult run = RunCli("demo-world --size 120 --seed 1 -o " + path);
  EXPECT_EQ(run.exit_code, 1) << run.out;
  EXPECT_THAT(run.out, HasSubstr(path));
}

}  // namespace
}  // namespace waymesh::testing
