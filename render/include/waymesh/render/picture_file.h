#pragma once
// Writes a scene to a picture file, the format chosen by the extension: `.png` (cairo) or
// `.svg` (text). Files are replaced atomically.

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "waymesh/render/scene.h"

namespace waymesh::render {

// Whether `path` ends in .png or .svg (any case).
bool IsPicturePath(std::string_view path);

// Renders and writes `scene`; errors name the path.
absl::Status WritePicture(const Scene& scene, const std::string& path);

}  // namespace waymesh::render
