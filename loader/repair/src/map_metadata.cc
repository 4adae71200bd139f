#include "map_metadata.h"

#include <array>
#include <cmath>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#ifndef WAYMESH_VERSION_STRING
#define WAYMESH_VERSION_STRING "waymesh (unknown version)"
#endif

namespace waymesh::repair {
namespace {

// FNV-1a, 64 bit: stable across runs and platforms (absl::Hash is salted per process).
class StableHash {
 public:
  void Add(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 0x100000001b3ull;
  }
  void Add(std::string_view s) {
    const uint64_t n = s.size();
    Add(&n, sizeof n);
    Add(s.data(), s.size());
  }
  template <typename T>
  void AddVector(const std::vector<T>& v) {
    const uint64_t n = v.size();
    Add(&n, sizeof n);
    if (!v.empty()) Add(v.data(), v.size() * sizeof(T));
  }
  std::string Hex() const { return absl::StrFormat("%016x", h_); }

 private:
  uint64_t h_ = 0xcbf29ce484222325ull;
};

// A source's own hash, or one over its geometry when the export carries none.
std::string SourceHash(const SourceMesh& s) {
  if (!s.source_hash.empty()) return s.source_hash;
  StableHash h;
  h.AddVector(s.vertices);
  h.AddVector(s.poly_start);
  h.AddVector(s.poly_verts);
  h.AddVector(s.poly_area);
  return h.Hex();
}

// One export keeps its own hash so `inspect` matches the exporter; a world hashes them all.
std::string CombinedHash(std::span<const SourceMesh> sources) {
  if (sources.size() == 1) return SourceHash(sources[0]);
  StableHash h;
  for (const SourceMesh& s : sources) h.Add(SourceHash(s));
  return h.Hex();
}

std::string FileStem(std::string_view path) {
  const size_t slash = path.find_last_of("/\\");
  if (slash != std::string_view::npos) path.remove_prefix(slash + 1);
  const size_t dot = path.rfind('.');
  if (dot != std::string_view::npos && dot > 0) path = path.substr(0, dot);
  return std::string(path);
}

// Unity's built-in areas, used where no export defines them.
void SetDefaultAreas(std::array<AreaType, kMaxAreas>* areas) {
  (*areas)[0] = {"Walkable", 1.0f, false};
  (*areas)[1] = {"Not Walkable", 1.0f, false};
  (*areas)[2] = {"Jump", 2.0f, false};
}

absl::Status MergeAreas(std::span<const SourceMesh> sources, MapInfo* info) {
  SetDefaultAreas(&info->areas);
  std::array<int, kMaxAreas> defined_by;
  defined_by.fill(-1);
  for (size_t s = 0; s < sources.size(); ++s) {
    const auto& areas = sources[s].areas;
    for (size_t id = 0; id < areas.size() && id < kMaxAreas; ++id) {
      if (!areas[id]) continue;
      const AreaType& a = *areas[id];
      if (defined_by[id] >= 0) {
        const AreaType& b = info->areas[id];
        if (a.name != b.name || a.cost != b.cost) {
          return absl::InvalidArgumentError(absl::StrFormat(
              "area %d is defined as \"%s\" (cost %g) in %s but as \"%s\" (cost %g) in %s", id,
              b.name, b.cost, sources[defined_by[id]].origin, a.name, a.cost, sources[s].origin));
        }
        continue;
      }
      if (!std::isfinite(a.cost) || a.cost <= 0) {
        return absl::InvalidArgumentError(
            absl::StrFormat("%s: area %d (\"%s\") has cost %g; costs must be finite and positive",
                            sources[s].origin, id, a.name, a.cost));
      }
      info->areas[id] = {a.name, a.cost, false};
      defined_by[id] = int(s);
    }
    if (areas.size() > kMaxAreas) {
      for (size_t id = kMaxAreas; id < areas.size(); ++id) {
        if (areas[id]) {
          return absl::InvalidArgumentError(absl::StrFormat(
              "%s: area id %d is out of range (0..%d)", sources[s].origin, id, kMaxAreas - 1));
        }
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status MergeMetadata(std::span<const SourceMesh> sources, MapInfo* info) {
  if (sources.empty()) return absl::InvalidArgumentError("repair: no source meshes given");
  const SourceMesh& first = sources[0];
  info->name = first.scene_name.empty() ? FileStem(first.origin) : first.scene_name;
  const AgentSettings& g = first.agent;
  for (float f : {g.radius, g.height, g.max_slope_deg, g.step_height, g.voxel_size}) {
    if (!std::isfinite(f) || f < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(first.origin, ": agent settings hold a negative or non-finite number"));
    }
  }
  info->agent = g;
  info->source_hash = CombinedHash(sources);
  info->build_tool_version = WAYMESH_VERSION_STRING;
  return MergeAreas(sources, info);
}

}  // namespace waymesh::repair
