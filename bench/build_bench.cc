// Measures `waymesh build` on a generated Unity-like export: the target is a
// 1M-triangle export built in under 20 s on a 2-core machine. Prints the time of each stage
// (the same BuildMap call the CLI makes) and the ratio to the target.
//
//   build_bench [--size METRES] [--cell METRES] [--seed N] [--keep DIR]

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/stopwatch.h"
#include "waymesh/build/map_build.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/format/map_file.h"
#include "waymesh/import/export_writer.h"

namespace {

constexpr double kTargetSeconds = 20.0;

struct Args {
  double size = 1410;  // about 1M triangles with the default cell
  double cell = waymesh::kDemoDefaultCell;
  uint64_t seed = 1;
  std::string dir = std::filesystem::temp_directory_path() / "waymesh-build-bench";
};

Args ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string_view flag = argv[i];
    if (flag == "--size") {
      args.size = std::atof(argv[i + 1]);
    } else if (flag == "--cell") {
      args.cell = std::atof(argv[i + 1]);
    } else if (flag == "--seed") {
      args.seed = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (flag == "--keep") {
      args.dir = argv[i + 1];
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      std::exit(2);
    }
  }
  return args;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  std::filesystem::create_directories(args.dir);
  const std::string export_path = args.dir + "/world.json";
  const std::string map_path = args.dir + "/world.wmesh";

  auto generated =
      waymesh::GenerateDemoWorld({.size = args.size, .seed = args.seed, .cell = args.cell});
  if (!generated.ok()) {
    std::fprintf(stderr, "generate: %s\n", std::string(generated.status().message()).c_str());
    return 1;
  }
  const uint64_t triangles = generated->mesh.polygon_count();
  auto written = waymesh::WriteUnityExportFile(generated->mesh, export_path);
  if (!written.ok()) {
    std::fprintf(stderr, "write export: %s\n", std::string(written.status().message()).c_str());
    return 1;
  }
  // Freed: the build must not benefit from the generator's memory.
  generated = absl::InternalError("freed");

  std::printf("export: %llu triangles, %.1f MB JSON (%s)\n", (unsigned long long)triangles,
              *written / 1e6, export_path.c_str());
  const waymesh::bench::Stopwatch watch;
  double last = 0;
  std::string last_step = "start";
  auto progress = [&](std::string_view step, double) {
    const double now = watch.ElapsedSeconds();
    std::printf("  %-40s %6.2f s\n", last_step.c_str(), now - last);
    last = now;
    last_step = std::string(step.substr(0, 40));
  };
  const std::vector<std::string> inputs{export_path};
  auto built = waymesh::BuildMap(inputs, {}, progress);
  if (!built.ok()) {
    std::fprintf(stderr, "build: %s\n", std::string(built.status().message()).c_str());
    return 1;
  }
  if (auto status = waymesh::WriteFileAtomically(map_path, built->bytes); !status.ok()) {
    std::fprintf(stderr, "write map: %s\n", std::string(status.message()).c_str());
    return 1;
  }
  const double total = watch.ElapsedSeconds();
  std::printf("  %-40s %6.2f s\n", "write map", total - last);
  std::printf("build: %llu triangles -> %llu polygons, %.1f MB map\n",
              (unsigned long long)triangles, (unsigned long long)built->info.polygon_count,
              built->bytes.size() / 1e6);
  std::printf("build time %.2f s, target < %.0f s: %.2fx of the budget -> %s\n", total,
              kTargetSeconds, total / kTargetSeconds, total < kTargetSeconds ? "MET" : "MISSED");
  return total < kTargetSeconds ? 0 : 1;
}
