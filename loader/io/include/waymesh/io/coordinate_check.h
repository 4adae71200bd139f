#pragma once
// The one rule every importer applies to a coordinate: finite and within tol::kMaxCoordinate.

#include <optional>
#include <string>

namespace waymesh::importer {

// Why `value` cannot be a coordinate ("is NaN", "is infinite", "= 3e+07 is beyond ±1e+06 m"),
// or nullopt when it is acceptable. Callers prefix the place.
std::optional<std::string> CoordinateProblem(double value);

}  // namespace waymesh::importer
