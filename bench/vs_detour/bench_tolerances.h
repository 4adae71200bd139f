#pragma once
// Tolerances of the Detour comparison, with their units.

#include "waymesh/core/tolerances.h"

namespace waymesh::tol {

// A polygon corner whose two edges turn by less than this sine (plan view; covers float jitter
// of welded exports and the slightly reflex corners kConvexity admits) is straight. The Detour
// comparison cuts polygons there: Detour's raycast leaves by the wrong one of two such edges.
inline constexpr float kCollinearSine = 1e-3f;
// Relative tolerance of the published Polyanya optimal lengths (6 significant digits): a path
// shorter than optimum * (1 - this) means a broken mesh or query.
inline constexpr double kPublishedLengthTolerance = 1e-4;
// Two raycasts of the same ray agree when their reached fractions differ by less than this.
inline constexpr float kRayFractionAgreement = 1e-3f;

}  // namespace waymesh::tol
