#pragma once
// Attaches authored off-mesh links (ladders, jumps) to the repaired mesh: each end goes to the
// polygon nearest in plan view within the link radius, preferring the floor nearest in height
// (within radius + tol::kOffMeshLinkHeight vertically). A link with an end off the mesh is
// dropped and reported. Negative costs become distance times the link area's cost.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "waymesh/mesh/repaired_mesh.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::repair {

struct LinkResolution {
  std::vector<ResolvedOffMeshLink> links;  // id = index into the input span
  uint64_t dropped = 0;
  std::vector<std::string> findings;
};

// `mesh` needs vertices, polygons, detail_tris and info.areas; `names` names each link in
// findings (same length as `links`).
LinkResolution ResolveOffMeshLinks(const RepairedMesh& mesh,
                                   std::span<const SourceOffMeshLink> links,
                                   std::span<const std::string> names);

}  // namespace waymesh::repair
