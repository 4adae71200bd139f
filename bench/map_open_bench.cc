// Opening a compiled map must cost at most 2x reading its bytes and checksumming them.
// Prints, side by side in one run, the median time of: read + CRC32 (the floor), LoadMapFile
// (mmap + validate) and LoadMap from bytes already in memory, and their ratios to the floor.
//
//   map_open_bench [map.wmesh] [--repeats N] [--exact-at-load] [--twin-at-load]
// It also says whether the file stores an exact landmark table (`waymesh build
// --exact-landmarks`) or a plan twin (`--exact-twin`; then the rows above include reading
// them). With --exact-at-load it times once what loading costs when the table is built at load
// instead (the server's --exact-landmarks on a file without one); with --twin-at-load, side
// by side, loading with the search tables but no twin and with the twin built at load (the
// server's --exact-twin on a file without one).
// Without a path it compiles a synthetic triangulated terrain (~320k triangles) to a temp file.

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/stopwatch.h"
#include "waymesh/core/plan_twin.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_file.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh {
namespace {

// A terrain of n x n square cells of 0.5 m, two triangles each, in 32 m tiles.
RepairedMesh SyntheticTerrain(int n) {
  constexpr float kCell = 0.5f, kTile = 32.0f;
  RepairedMesh m;
  for (int z = 0; z <= n; ++z) {
    for (int x = 0; x <= n; ++x) {
      m.vertices.push_back({x * kCell, std::sin(x * 0.05f) + std::cos(z * 0.07f), z * kCell});
    }
  }
  const uint32_t grid = uint32_t(std::ceil(n * kCell / kTile));
  const uint32_t row = n + 1;
  auto tri = [&](uint32_t a, uint32_t b, uint32_t c, int64_t na, int64_t nb, int64_t nc, float cx,
                 float cz) {
    m.poly_verts.insert(m.poly_verts.end(), {a, b, c});
    m.poly_neighbors.insert(m.poly_neighbors.end(), {na, nb, nc});
    m.poly_start.push_back(uint32_t(m.poly_verts.size()));
    m.detail_tris.push_back({0, 1, 2, 0});
    m.poly_area.push_back(kWalkableArea);
    m.poly_flags.push_back(1);
    m.poly_island.push_back(0);
    m.poly_tile.push_back(uint32_t(cz / kTile) * grid + uint32_t(cx / kTile));
  };
  // Cell (x, z) holds triangles 2c (v00 v10 v11) and 2c + 1 (v00 v11 v01), c = z * n + x.
  for (int z = 0; z < n; ++z) {
    for (int x = 0; x < n; ++x) {
      const int64_t c = int64_t(z) * n + x;
      const uint32_t v00 = z * row + x, v10 = v00 + 1, v01 = v00 + row, v11 = v01 + 1;
      const int64_t below = z > 0 ? 2 * (c - n) + 1 : -1, right = x + 1 < n ? 2 * (c + 1) + 1 : -1;
      const int64_t above = z + 1 < n ? 2 * (c + n) : -1, left = x > 0 ? 2 * (c - 1) : -1;
      tri(v00, v10, v11, below, right, 2 * c + 1, (x + 0.67f) * kCell, (z + 0.33f) * kCell);
      tri(v00, v11, v01, 2 * c, above, left, (x + 0.33f) * kCell, (z + 0.67f) * kCell);
    }
  }
  MapInfo& info = m.info;
  info.name = "synthetic terrain";
  info.tile_size = kTile;
  info.grid_width = info.grid_height = grid;
  info.areas[0] = {"Walkable", 1.0f, true};
  for (const Vec3& v : m.vertices) info.bounds.Extend(v);
  info.islands = {{m.polygon_count(), n * n * kCell * kCell, 0}};
  return m;
}

std::string ReadAll(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) return {};
  std::string bytes(std::filesystem::file_size(path), '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;
    done += size_t(n);
  }
  ::close(fd);
  return bytes;
}

double MedianMs(int repeats, const std::function<void()>& run) {
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i) {
    const waymesh::bench::Stopwatch watch;
    run();
    ms.push_back(watch.ElapsedMs());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int Run(int argc, char** argv) {
  std::string path;
  int repeats = 21;
  bool exact_at_load = false, twin_at_load = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--exact-at-load") == 0) {
      exact_at_load = true;
    } else if (std::strcmp(argv[i], "--twin-at-load") == 0) {
      twin_at_load = true;
    } else if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) {
      repeats = std::max(1, std::atoi(argv[++i]));
    } else {
      path = argv[i];
    }
  }
  std::string temp;
  if (path.empty()) {
    absl::StatusOr<std::string> bytes = CompileMap(SyntheticTerrain(400));
    temp = path = (std::filesystem::temp_directory_path() /
                   ("map_open_bench." + std::to_string(::getpid()) + ".wmesh"))
                      .string();
    if (!bytes.ok() || !WriteFileAtomically(path, *bytes).ok()) {
      std::fprintf(stderr, "cannot build the synthetic map\n");
      return 1;
    }
  }
  const std::shared_ptr<const std::string> in_memory =
      std::make_shared<const std::string>(ReadAll(path));
  absl::StatusOr<std::shared_ptr<const NavMap>> check = LoadMap(in_memory);
  if (!check.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), check.status().ToString().c_str());
    return 1;
  }
  const double mib = in_memory->size() / (1024.0 * 1024.0);
  const uint64_t polys = (*check)->info().polygon_count;
  const ExactLandmarkTable& stored = (*check)->search_tables()->exact_landmarks;
  const std::string stored_text =
      stored.empty() ? "none"
                     : absl::StrFormat("%d landmarks, %d bytes", stored.count(), stored.bytes());
  const PlanTwin* twin = (*check)->search_tables()->exact_twin.get();
  const std::string twin_text =
      twin == nullptr ? "none"
                      : absl::StrFormat("%d -> %d polygons, %d bytes with its tables",
                                        twin->report.polygons_before, twin->report.polygons_after,
                                        twin->bytes());
  check = absl::StatusOr<std::shared_ptr<const NavMap>>();

  volatile uLong crc_sink = 0;
  const double floor_ms = MedianMs(repeats, [&] {
    const std::string bytes = ReadAll(path);
    crc_sink = crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), uInt(bytes.size()));
  });
  const double file_ms = MedianMs(repeats, [&] {
    if (!LoadMapFile(path).ok()) std::abort();
  });
  const double memory_ms = MedianMs(repeats, [&] {
    if (!LoadMap(in_memory).ok()) std::abort();
  });

  std::printf("map %s: %.2f MiB, %llu polygons, %.1f bytes/polygon, median of %d runs\n",
              path.c_str(), mib, static_cast<unsigned long long>(polys),
              polys ? in_memory->size() / double(polys) : 0.0, repeats);
  std::printf("%-28s %10s %12s %8s\n", "operation", "ms", "MiB/s", "ratio");
  auto row = [&](const char* name, double ms) {
    std::printf("%-28s %10.3f %12.0f %8.2f\n", name, ms, mib / (ms / 1000), ms / floor_ms);
  };
  row("read + crc32 (floor)", floor_ms);
  row("LoadMapFile (mmap)", file_ms);
  row("LoadMap (bytes in memory)", memory_ms);
  std::printf("target: LoadMapFile ratio <= 2.00: %s\n",
              file_ms <= 2 * floor_ms ? "met" : "MISSED");
  std::printf("stored exact landmark table: %s\n", stored_text.c_str());
  std::printf("stored plan twin: %s\n", twin_text.c_str());
  if (exact_at_load) {
    // One run: the floods take seconds on a large map.
    const double at_load_ms = MedianMs(1, [&] {
      absl::StatusOr<std::shared_ptr<const NavMap>> map =
          LoadMapFile(path, {.search_tables = false});
      if (!map.ok()) std::abort();
      WithSearchTables(*map, {.exact_landmarks = true});
    });
    row("LoadMapFile + exact floods", at_load_ms);
  }
  if (twin_at_load) {
    // The stored sections ignored (search_tables off), then the tables with or without a twin.
    const auto load_with = [&](bool with_twin) {
      return MedianMs(std::min(repeats, 5), [&] {
        absl::StatusOr<std::shared_ptr<const NavMap>> map =
            LoadMapFile(path, {.search_tables = false});
        if (!map.ok()) std::abort();
        WithSearchTables(*map, {.exact_twin = with_twin});
      });
    };
    row("LoadMapFile, no twin", load_with(false));
    row("LoadMapFile + twin built", load_with(true));
  }
  if (!temp.empty()) std::filesystem::remove(temp);
  return 0;
}

}  // namespace
}  // namespace waymesh

int main(int argc, char** argv) { return waymesh::Run(argc, argv); }
