// libFuzzer target: obstacle files (`waymesh path --obstacles`) on arbitrary bytes. A file is
// read or refused with a message, never a crash, a hang or unbounded memory; an accepted file is
// written and read back to the same obstacles, and every obstacle it gives has a footprint.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/obstacle_file/obstacle_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<std::vector<waymesh::Obstacle>> obstacles =
      waymesh::ParseObstacleFile(text, "fuzz.json");
  if (!obstacles.ok()) {
    if (obstacles.status().message().empty()) std::abort();  // errors always say why
    return 0;
  }
  for (const waymesh::Obstacle& o : *obstacles) {
    const waymesh::Footprint f = waymesh::ObstacleFootprint(o, waymesh::AgentSettings{});
    if (f.outline.size() < 3 || !(f.y_min <= f.y_max)) std::abort();
  }
  const std::string written = waymesh::ObstacleFileJson(*obstacles);
  const absl::StatusOr<std::vector<waymesh::Obstacle>> again =
      waymesh::ParseObstacleFile(written, "written.json");
  if (!again.ok() || waymesh::ObstacleFileJson(*again) != written) std::abort();
  return 0;
}
