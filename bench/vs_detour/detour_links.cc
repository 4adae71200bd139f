#include "vs_detour/detour_links.h"

#include "absl/strings/str_cat.h"

namespace waymesh::bench {

absl::Status LinkAcrossTiles(const dtNavMesh& mesh, dtPolyRef from, int edge, dtPolyRef to) {
  const dtMeshTile* const_tile = nullptr;
  const dtPoly* const_poly = nullptr;
  if (dtStatusFailed(mesh.getTileAndPolyByRef(from, &const_tile, &const_poly)) ||
      !mesh.isValidPolyRef(to) || edge < 0 || edge >= const_poly->vertCount) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad Detour link ", from, ":", edge, " -> ", to));
  }
  // Detour exposes tiles read-only; the mesh is still ours and not yet shared with queries.
  dtMeshTile* tile = const_cast<dtMeshTile*>(const_tile);
  dtPoly* poly = const_cast<dtPoly*>(const_poly);
  const unsigned int index = tile->linksFreeList;
  if (index == DT_NULL_LINK) {
    return absl::ResourceExhaustedError(
        absl::StrCat("Detour tile of polygon ", from, " has no free link left"));
  }
  dtLink& link = tile->links[index];
  tile->linksFreeList = link.next;
  link.ref = to;
  link.edge = static_cast<unsigned char>(edge);
  link.side = 0xff;  // "internal" link: the portal is the whole edge, no clipping to a border
  link.bmin = 0;
  link.bmax = 0;
  link.next = poly->firstLink;
  poly->firstLink = index;
  // Queries that walk edges (moveAlongSurface, wall queries) follow links of DT_EXT_LINK edges.
  poly->neis[edge] = DT_EXT_LINK;
  return absl::OkStatus();
}

}  // namespace waymesh::bench
