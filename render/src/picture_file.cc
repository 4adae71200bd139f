#include "waymesh/render/picture_file.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "waymesh/format/map_file.h"
#include "waymesh/render/png_writer.h"
#include "waymesh/render/svg_writer.h"

namespace waymesh::render {

bool IsPicturePath(std::string_view text) {
  const absl::string_view path(text.data(), text.size());
  return absl::EndsWithIgnoreCase(path, ".png") || absl::EndsWithIgnoreCase(path, ".svg");
}

absl::Status WritePicture(const Scene& scene, const std::string& path) {
  std::string bytes;
  if (absl::EndsWithIgnoreCase(path, ".svg")) {
    bytes = RenderSvg(scene);
  } else if (absl::EndsWithIgnoreCase(path, ".png")) {
    absl::StatusOr<std::string> png = RenderPng(scene);
    if (!png.ok()) {
      return absl::Status(png.status().code(), absl::StrCat(path, ": ", png.status().message()));
    }
    bytes = *std::move(png);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(path, ": picture must end in .png or .svg"));
  }
  return WriteFileAtomically(path, bytes);
}

}  // namespace waymesh::render
