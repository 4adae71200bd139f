#include "coordinate_check.h"

#include <cmath>

#include "absl/strings/str_format.h"
#include "waymesh/loader/tolerances.h"

namespace waymesh::importer {

std::optional<std::string> CoordinateProblem(double value) {
  if (std::isnan(value)) return "is NaN";
  if (std::isinf(value)) return "is infinite";
  if (std::fabs(value) > tol::kMaxCoordinate) {
    return absl::StrFormat("= %g is beyond the coordinate limit of ±%g m", value,
                           tol::kMaxCoordinate);
  }
  return std::nullopt;
}

}  // namespace waymesh::importer
