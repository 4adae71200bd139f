#pragma once
// Map metadata from one or more exports: name, agent and area table from the sources (first
// source wins for name and agent, areas merged by id), a source hash covering all of them and
// the build tool's version.

#include <span>

#include "absl/status/status.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::repair {

// Fills name, agent, areas (names, costs; `used` is left to the caller), source_hash and
// build_tool_version. Two sources defining one area id differently is an error naming both.
absl::Status MergeMetadata(std::span<const SourceMesh> sources, MapInfo* info);

}  // namespace waymesh::repair
