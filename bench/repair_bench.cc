// Repair pipeline throughput on a generated Unity-like export: a jittered, gently rolling grid
// of about one million triangles with every vertex duplicated per triangle and copies
// disagreeing by up to a micrometre, as real exports do. Target: well under 12 s on 2 cores.
//
//   repair_bench --benchmark_filter=Repair/708   (708 x 708 quads = 1 002 528 triangles)

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdint>
#include <span>

#include "waymesh/repair/repair.h"

namespace waymesh {
namespace {

// Deterministic hash noise in [-1, 1) from integer coordinates.
float Noise(uint32_t i, uint32_t j, uint32_t salt) {
  uint32_t h = i * 0x9E3779B1u ^ (j + 0x7F4A7C15u) * 0x85EBCA77u ^ salt * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  return float(h & 0xFFFFFF) / float(0x800000) - 1.0f;
}

// n x n quads of 1 m, corners jittered by up to 0.25 m, heights rolling by about a metre.
SourceMesh JitteredGrid(int n) {
  auto corner = [](int i, int j) {
    const float x = float(i) + (i > 0 ? 0.25f * Noise(i, j, 1) : 0);
    const float z = float(j) + (j > 0 ? 0.25f * Noise(i, j, 2) : 0);
    return Vec3{x, 0.6f * std::sin(x / 23.0f) + 0.4f * std::cos(z / 17.0f), z};
  };
  SourceMesh m;
  m.origin = "jittered-grid";
  m.vertices.reserve(size_t(6) * n * n);
  m.poly_verts.reserve(size_t(6) * n * n);
  uint32_t copy = 0;
  auto emit = [&](Vec3 p) {
    // Per-copy disagreement of about a micrometre, as float round-trips in exports produce.
    p.y += 1e-6f * Noise(copy, 0, 3);
    m.vertices.push_back(p);
    return copy++;
  };
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      const Vec3 a = corner(i, j), b = corner(i + 1, j), c = corner(i + 1, j + 1),
                 d = corner(i, j + 1);
      m.AddPolygon({emit(a), emit(c), emit(b)});  // Unity winding: clockwise seen from above
      m.AddPolygon({emit(a), emit(d), emit(c)});
    }
  }
  return m;
}

void BM_Repair(benchmark::State& state) {
  const SourceMesh mesh = JitteredGrid(int(state.range(0)));
  RepairReport report;
  for (auto _ : state) {
    absl::StatusOr<RepairedMesh> repaired =
        RepairMeshes(std::span<const SourceMesh>(&mesh, 1), RepairOptions{}, &report);
    if (!repaired.ok()) {
      state.SkipWithError(std::string(repaired.status().message()).c_str());
      return;
    }
    benchmark::DoNotOptimize(repaired->poly_verts.data());
  }
  state.counters["triangles"] = double(report.input_triangles);
  state.counters["welded"] = double(report.counts.welded);
  state.counters["polygons"] = double(report.polygons);
}

BENCHMARK(BM_Repair)->Arg(100)->Arg(708)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace waymesh

BENCHMARK_MAIN();
