// `waymesh demo-world`: writes the generated demo town as a Unity export (and, optionally, path
// queries between its labelled probe points for `waymesh path`).

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/import/export_writer.h"

namespace waymesh::cli {
namespace {

// Courtyard-building probes beyond this many add nothing new to the sample queries.
constexpr int kMaxCourtyardProbesInQueries = 2;

struct DemoWorldArgs {
  double size = 0;
  uint64_t seed = 0;
  double cell = kDemoDefaultCell;
  std::string output;
  std::string queries_output;
};

// Accepts decimal digits that fit 64 bits: CLI11 alone wraps "-1" around and saturates overflow.
CLI::Validator Uint64Text() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || ptr != end) {
          return "'" + text + "' is not an integer in [0, 18446744073709551615]";
        }
        return std::string();
      },
      "UINT64");
}

bool IsCourtyardBuilding(const DemoProbe& p) { return p.name.rfind("courtyard building", 0) == 0; }

// Every pair of probes as a 3D query (`sx sy sz gx gy gz`), with the expected outcome as a comment.
bool WriteQueries(const DemoWorld& world, const std::string& path) {
  std::ofstream out(path);
  out << "# waymesh demo-world path queries: sx sy sz gx gy gz\n";
  std::vector<const DemoProbe*> probes;
  int courtyards = 0;
  for (const DemoProbe& p : world.truth.probes) {
    if (IsCourtyardBuilding(p) && ++courtyards > kMaxCourtyardProbesInQueries) continue;
    probes.push_back(&p);
  }
  for (size_t i = 0; i < probes.size(); ++i) {
    for (size_t j = i + 1; j < probes.size(); ++j) {
      const DemoProbe& a = *probes[i];
      const DemoProbe& b = *probes[j];
      out << absl::StrFormat("# %s -> %s: %s\n%.9g %.9g %.9g %.9g %.9g %.9g\n", a.name, b.name,
                             a.group == b.group ? "path" : "no path", a.position.x, a.position.y,
                             a.position.z, b.position.x, b.position.y, b.position.z);
    }
  }
  out.close();
  return !out.fail();
}

int RunDemoWorld(const DemoWorldArgs& args) {
  absl::StatusOr<DemoWorld> world =
      GenerateDemoWorld({.size = args.size, .seed = args.seed, .cell = args.cell});
  if (!world.ok()) {
    // Only option combinations the validators cannot see (size and cell together) get here.
    if (absl::IsInvalidArgument(world.status())) {
      throw CLI::ValidationError(std::string(world.status().message()));
    }
    std::cerr << "waymesh demo-world: " << world.status().message() << "\n";
    return kExitFailure;
  }
  absl::StatusOr<uint64_t> bytes =
      WriteUnityExportFile(world->mesh, args.output, {.exporter_name = "waymesh demo-world"});
  if (!bytes.ok()) {
    std::cerr << "waymesh demo-world: " << bytes.status().message() << "\n";
    return kExitFailure;
  }
  if (!args.queries_output.empty() && !WriteQueries(*world, args.queries_output)) {
    std::cerr << "waymesh demo-world: cannot write " << args.queries_output << ": "
              << std::strerror(errno) << "\n";
    return kExitFailure;
  }
  const DemoWorldTruth& t = world->truth;
  std::cout << absl::StrFormat(
      "demo-world: %s: %d triangles, %d vertices, %d off-mesh links, %g m x %g m (cell %g m, "
      "seed %d), %d islands in %d groups, %.1f MB\n",
      args.output, world->mesh.polygon_count(), world->mesh.vertices.size(),
      world->mesh.links.size(), t.size, t.size, t.cell, args.seed, t.islands.size(), t.group_count,
      *bytes / 1e6);
  return kExitOk;
}

}  // namespace

void RegisterDemoWorld(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<DemoWorldArgs>();
  cmd->add_option("--size", args->size, "side of the square world in metres")
      ->required()
      ->check(CLI::Range(kDemoMinSize, kDemoMaxSize));
  cmd->add_option("--seed", args->seed, "random seed (same seed, same bytes)")
      ->required()
      ->check(Uint64Text());
  cmd->add_option("--cell", args->cell, "side of a fine ground square in metres")
      ->check(CLI::Range(kDemoMinCell, kDemoMaxCell))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "export file to write (JSON)")->required();
  cmd->add_option("--queries-out", args->queries_output,
                  "also write path queries between the probe points (sx sy sz gx gy gz)");
  cmd->callback([args, exit_code] { *exit_code = RunDemoWorld(*args); });
}

}  // namespace waymesh::cli
