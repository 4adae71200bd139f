#pragma once
// PNG bytes of a scene, rasterised with cairo (antialiased).

#include <string>

#include "absl/status/statusor.h"
#include "waymesh/render/scene.h"

namespace waymesh::render {

// The encoded PNG; errors when cairo cannot allocate the canvas or encode.
absl::StatusOr<std::string> RenderPng(const Scene& scene);

// Frees the process-wide font caches of cairo and fontconfig that drawing text fills (leak
// checkers report them otherwise). Only while no thread is rendering, e.g. before a tool exits;
// a later RenderPng sets them up again.
void ReleaseRenderCaches();

}  // namespace waymesh::render
