#pragma once
// Checks that a RepairedMesh is consistent enough to compile: CompileMap indexes its arrays
// blindly afterwards, so a bug upstream becomes an error here, not a crash.

#include "absl/status/status.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh {

// OK when every array has the right length, every index is in range, every float is finite and
// the grid, strings and counts fit the `.wmesh` limits; otherwise names the first violation.
absl::Status CheckCompileInput(const RepairedMesh& mesh);

}  // namespace waymesh
