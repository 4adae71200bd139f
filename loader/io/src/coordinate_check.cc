#include "waymesh/io/coordinate_check.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "waymesh/core/tolerances.h"
#include "waymesh/io/number_text.h"

namespace waymesh::importer {

std::optional<std::string> CoordinateProblem(double value) {
  if (std::isnan(value)) return "is NaN";
  if (std::isinf(value)) return "is infinite";
  if (std::fabs(value) > tol::kMaxCoordinate) {
    return absl::StrCat("= ", NumberText(value), " is beyond the coordinate limit of ±",
                        NumberText(tol::kMaxCoordinate), " m");
  }
  return std::nullopt;
}

}  // namespace waymesh::importer
