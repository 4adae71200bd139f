// libFuzzer target: the authoring tools' checks on any map the loader accepts. `waymesh
// validate` and `waymesh diff` run on maps nobody vetted, so CheckMap and DiffMaps must
// return findings, never crash, hang or allocate without bound (ASan/UBSan watch). CRCs are
// resealed after mutation so inputs get past the checksums to the structure.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "waymesh/checks/map_checks.h"
#include "waymesh/diff/map_diff.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_file_check.h"
#include "waymesh/format/map_tiles.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace waymesh;
  if (size > (1u << 20)) return 0;
  auto bytes = std::make_shared<std::string>(reinterpret_cast<const char*>(data), size);
  ResealMapChecksums(std::as_writable_bytes(std::span(*bytes)));
  const MapFileCheck file = CheckMapBytes(std::as_bytes(std::span(*bytes)), bytes);
  if (!file.map) return 0;
  MapCheckOptions options;
  options.max_islands = 1;
  options.min_island_area = 1.0;
  options.min_area = 1.0;
  options.max_area = 10.0;
  const Aabb& b = file.map->info().bounds;
  options.connected = {{b.min, b.max}, {b.max, b.min}};
  const MapCheckReport report = CheckMap(file.map, options);
  for (const MapFinding& f : report.findings) {
    if (f.check.empty() || f.message.empty()) __builtin_trap();
  }
  MapDiffOptions diff_options;
  diff_options.reachability_pairs = 8;
  diff_options.island_samples = 64;
  absl::StatusOr<MapDiff> diff = DiffMaps(file.map, file.map, diff_options);
  // A map compared with itself has no changes, whatever it holds.
  if (!diff.ok() || diff->HasChanges()) __builtin_trap();
  return 0;
}
