// libFuzzer target: ImportUnityExport on arbitrary bytes must return a mesh or an error, never
// crash, hang or allocate without bound; an accepted mesh must be well formed.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "source_mesh_check.h"
#include "waymesh/import/importers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const absl::StatusOr<waymesh::SourceMesh> mesh = waymesh::ImportUnityExport(text, "fuzz.json");
  if (mesh.ok()) waymesh::fuzz::CheckSourceMesh(*mesh);
  return 0;
}
