#pragma once
// A deterministic, seeded generator of a Unity-like navmesh export of a town: roads, grass and
// shallow water with different area costs, buildings cut out of the ground, a river crossed by a
// ford and by a bridge whose deck passes 5 m above a riverside walkway, ramps to raised
// platforms, a rooftop reachable only by a ladder (off-mesh link), a walled courtyard and a river
// islet. It is written the way Unity writes exports (vertices duplicated per triangle, ~1e-6 m
// float jitter, T-junctions at chunk seams), so every repair step has work to do, and it comes
// with the topology the repaired map must have (DemoWorldTruth).
//
// Triangle budget: the ground is cut into square chunks of about 45 m; chunks alternate (like a
// checkerboard) between a fine triangulation with `cell`-metre squares and a coarse one with
// 2*cell squares, so chunk borders carry hanging vertices. With the default cell (1.4 m) a
// 1.4 km world has about 1M triangles and a 4 km world about 8M.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/vec3.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh {

inline constexpr double kDemoDefaultCell = 1.4;  // metres
inline constexpr double kDemoMinCell = 0.5;      // metres
inline constexpr double kDemoMaxCell = 4.0;      // metres
inline constexpr double kDemoMinSize = 100;      // metres; the landmarks need room
inline constexpr double kDemoMaxSize = 4096;     // metres
// Upper bound on the triangles a world may need (5 per 2x2-cell unit of area); keeps memory
// bounded (about 55 bytes per triangle in memory, ~120 bytes of JSON).
inline constexpr uint64_t kDemoMaxTriangles = 16'000'000;

// Area ids of the demo world (Unity: 0 Walkable, 1 Not Walkable and 2 Jump are built in).
inline constexpr uint8_t kDemoAreaGrass = 0;  // "Walkable", cost 1
inline constexpr uint8_t kDemoAreaJump = 2;   // ladders and drops, cost 2
inline constexpr uint8_t kDemoAreaRoad = 3;   // cost 0.5: cheaper than the default on purpose
inline constexpr uint8_t kDemoAreaWater = 4;  // shallow ford and ponds, cost 5

// Names of the probes tests look up (every probe has a unique name).
inline constexpr char kProbeWestBank[] = "west bank (by the ford)";
inline constexpr char kProbeEastBank[] = "east bank (by the ford)";
inline constexpr char kProbeFord[] = "ford middle";
inline constexpr char kProbeDeckCentre[] = "bridge deck centre";
inline constexpr char kProbeDeckOverWalkway[] = "bridge deck above walkway";
inline constexpr char kProbeWalkwayUnderBridge[] = "walkway under bridge";
inline constexpr char kProbeBridgeRamp[] = "bridge ramp (west)";
inline constexpr char kProbePlatformTop[] = "platform top";
inline constexpr char kProbePlatformRamp[] = "platform ramp";
inline constexpr char kProbeLadderFoot[] = "ladder foot";
inline constexpr char kProbeRooftop[] = "rooftop (ladder)";
inline constexpr char kProbeCourtyard[] = "walled courtyard";
inline constexpr char kProbeIslet[] = "river islet";

struct DemoWorldOptions {
  double size = 256;  // metres, side of the square world; rounded down to whole 2-cell units
  uint64_t seed = 1;
  double cell = kDemoDefaultCell;  // metres, side of a fine ground square
};

// A point ON the walkable surface with the island and group it must end up in.
struct DemoProbe {
  std::string name;
  Vec3 position;
  uint32_t island = 0;  // index into DemoWorldTruth::islands
  uint32_t group = 0;   // islands joined by off-mesh links share a group
};

// A line where two separately triangulated walkable pieces meet (ground chunk borders, ramp
// ends). After repair no boundary edge may lie along it.
struct DemoSeam {
  Vec3 a;
  Vec3 b;
};

struct DemoIsland {
  std::string name;
  uint32_t group = 0;
};

// The topology the repaired map must have.
struct DemoWorldTruth {
  std::vector<DemoIsland> islands;  // island label = index
  uint32_t group_count = 0;
  std::vector<DemoProbe> probes;  // at least one per island
  std::vector<DemoSeam> seams;
  double size = 0;  // metres, actual side of the world (centred on the origin)
  double cell = 0;  // metres
};

struct DemoWorld {
  SourceMesh mesh;
  DemoWorldTruth truth;
};

// Generates the demo town. The same options always give the same mesh, bit for bit. A size or
// cell out of range, or a combination needing more than kDemoMaxTriangles, is InvalidArgument
// naming the option.
absl::StatusOr<DemoWorld> GenerateDemoWorld(const DemoWorldOptions& options);

}  // namespace waymesh
