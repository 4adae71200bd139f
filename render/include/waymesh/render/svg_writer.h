#pragma once
// SVG text of a scene, written by hand: one element per scene item, map polygons as <polygon>.

#include <string>

#include "waymesh/render/scene.h"

namespace waymesh::render {

// A standalone SVG 1.1 document.
std::string RenderSvg(const Scene& scene);

}  // namespace waymesh::render
