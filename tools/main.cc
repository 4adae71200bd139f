// `waymesh`: build, inspect and query navigation maps from the command line.

#include <iostream>

#include "commands.h"

namespace {

// The verbs in the order `waymesh --help` lists them, each with its one-line summary.
struct Verb {
  const char* name;
  const char* summary;
  void (*registration)(CLI::App* cmd, int* exit_code);
};
constexpr Verb kVerbs[] = {
    {"build",
     "Import navmesh exports (Unity export JSON, server JSON, OBJ, Polyanya .mesh), "
     "repair them into one map and compile it to .wmesh",
     waymesh::cli::RegisterBuild},
    {"inspect", "Validate a compiled map (checksums, index ranges) and print what it holds",
     waymesh::cli::RegisterInspect},
    {"demo-world",
     "Generate a deterministic Unity-like navmesh export of a town (roads, river, bridge, "
     "ramps, ladders, islands), written like Unity does: duplicated vertices, float jitter, "
     "T-junctions at chunk seams. About 1M triangles at 1400 m with the default cell.",
     waymesh::cli::RegisterDemoWorld},
    {"path",
     "Run a file of path queries on a compiled map and summarise status, time and "
     "length ratio",
     waymesh::cli::RegisterPath},
    {"validate",
     "Check a compiled map for a build pipeline: checksums, topology (open seams, non-manifold "
     "edges, non-convex polygons), islands, walkable area, off-mesh links, connected pairs. "
     "Exit 0 when it passes, 1 with a line per finding",
     waymesh::cli::RegisterValidate},
    {"render",
     "Draw a compiled map from above (PNG or SVG): polygons by area or island, tile borders, "
     "off-mesh links, paths with waypoints, legend",
     waymesh::cli::RegisterRender},
    {"diff",
     "Compare two compiled maps: polygons added/removed, area ids, walkable area, islands "
     "merged/split, reachability of sampled point pairs. Exit 0: no changes, 1: changed, "
     "2: trouble",
     waymesh::cli::RegisterDiff},
    {"bake",
     "Bake a navmesh from level geometry (OBJ, Y up) with Recast, using Unity's bake "
     "settings, and compile it to .wmesh",
     waymesh::cli::RegisterBake},
    {"loaddata",
     "Write random valid requests drawn from a map as a ghz `data` JSON array for any RPC "
     "(reachable FindPath pairs, moves, rays, points, circles; batches of --batch-size), for "
     "ghz or waymesh-load",
     waymesh::cli::RegisterLoadData},
    {"crowd",
     "Run a crowd scenario headless and summarise arrivals, overlaps, wall clearance "
     "and time per tick (docs/crowd.md)",
     waymesh::cli::RegisterCrowd},
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"waymesh: compile Unity navmesh exports into .wmesh maps and query them"};
  app.set_version_flag("--version", WAYMESH_VERSION_STRING);
  app.require_subcommand(1);
  int exit_code = waymesh::cli::kExitOk;
  for (const Verb& verb : kVerbs) {
    verb.registration(app.add_subcommand(verb.name, verb.summary), &exit_code);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : waymesh::cli::kExitUsage;
  }
  return exit_code;
}
