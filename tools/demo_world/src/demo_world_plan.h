#pragma once
// The demo town's plan: a raster of square units (2x2 fine cells) saying which ground is
// walkable and with which area, plus the raised structures (slabs) and off-mesh links. Every
// feature is aligned to units, so the ground triangulation never has to clip a triangle.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/vec3.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::demo {

// Raster value for "no ground here" (building, river, structure footprint).
inline constexpr uint8_t kCutOut = 0xFF;

// Heights of the raised structures above the ground (metres).
inline constexpr float kDeckHeight = 5.0f;
inline constexpr float kPlatformHeight = 3.0f;
inline constexpr float kRooftopHeight = 6.0f;

// Rectangle of units [x0, x1) x [z0, z1).
struct UnitRect {
  int x0 = 0, z0 = 0, x1 = 0, z1 = 0;

  int width() const { return x1 - x0; }
  int depth() const { return z1 - z0; }
  bool empty() const { return x1 <= x0 || z1 <= z0; }
  UnitRect Inset(int n) const { return {x0 + n, z0 + n, x1 - n, z1 - n}; }
  UnitRect Shifted(int dx, int dz) const { return {x0 + dx, z0 + dz, x1 + dx, z1 + dz}; }
  bool Overlaps(const UnitRect& o) const {
    return x0 < o.x1 && o.x0 < x1 && z0 < o.z1 && o.z0 < z1;
  }
  bool Contains(const UnitRect& o) const {
    return x0 <= o.x0 && o.x1 <= x1 && z0 <= o.z0 && o.z1 <= z1;
  }
  UnitRect Union(const UnitRect& o) const {
    return {std::min(x0, o.x0), std::min(z0, o.z0), std::max(x1, o.x1), std::max(z1, o.z1)};
  }
  // Centre in unit coordinates.
  double cx() const { return 0.5 * (x0 + x1); }
  double cz() const { return 0.5 * (z0 + z1); }
};

// Direction in which a slab's height increases (kFlat: constant height).
enum class Rise : uint8_t { kFlat, kPosX, kNegX, kPosZ, kNegZ };

// A raised walkable rectangle triangulated on its own: a flat top (deck, platform, roof) or a
// ramp from `low` to `high`. Its step differs from the ground's so the seams get T-junctions.
struct Slab {
  UnitRect rect;
  float low = 0;
  float high = 0;
  Rise rise = Rise::kFlat;
  uint8_t area = kDemoAreaGrass;
  int step = 2;  // fine cells per triangulation square

  bool is_ramp() const { return rise != Rise::kFlat; }
  // Surface height at unit coordinates (ux, uz) inside the rect.
  double HeightAt(double ux, double uz) const;
};

// The landmark district, in units. Everything except the river lies inside `zone`.
struct Landmarks {
  UnitRect river, west_walk, east_walk, ford, islet;
  UnitRect west_ramp, deck, east_ramp;  // the bridge, west to east
  UnitRect platform, platform_ramp;
  UnitRect rooftop;    // building footprint; its roof is reachable only by the ladder
  UnitRect courtyard;  // outer wall; the ground inside Inset(1) has no exit
  UnitRect zone;       // no procedural lots here
};

struct DemoPlan {
  double cell = 0;    // metres, fine square
  double unit = 0;    // metres, 2 * cell
  int n = 0;          // units per side
  double origin = 0;  // metres: world x (and z) of unit 0; the world is centred on 0
  int chunk_units = 0;
  uint64_t seed = 0;
  std::vector<uint8_t> ground;  // per unit (z * n + x): area id or kCutOut
  Landmarks landmarks;
  std::vector<UnitRect> courtyards;  // procedural courtyard buildings (outer wall)
  std::vector<Slab> slabs;
  std::vector<SourceOffMeshLink> links;

  uint8_t at(int x, int z) const { return ground[static_cast<size_t>(z) * n + x]; }
  void set(int x, int z, uint8_t v) { ground[static_cast<size_t>(z) * n + x] = v; }
  bool walkable(int x, int z) const {
    return x >= 0 && z >= 0 && x < n && z < n && at(x, z) != kCutOut;
  }
  // World coordinate of fine lattice line k (x or z); the same k always gives the same float.
  float Lattice(int k) const { return static_cast<float>(origin + k * cell); }
  // World coordinate of a unit coordinate (may be fractional).
  double World(double u) const { return origin + u * unit; }
  // Whether ground chunk (cx, cz) is triangulated with fine cells (else 2-cell squares).
  bool FineChunk(int cx, int cz) const { return ((cx + cz + seed) & 1) == 0; }
  int chunks() const { return (n + chunk_units - 1) / chunk_units; }
};

// Lays out the town for `options`: validates them, places the landmarks in the centre and fills
// the rest with seeded streets, buildings, courtyard blocks, ponds, plazas and parks.
absl::StatusOr<DemoPlan> PlanDemoTown(const DemoWorldOptions& options);

}  // namespace waymesh::demo
