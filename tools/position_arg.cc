#include "position_arg.h"

#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::cli {

absl::StatusOr<Vec3> ParsePosition(std::string_view text, std::string_view flag) {
  const std::vector<absl::string_view> parts =
      absl::StrSplit(absl::string_view(text.data(), text.size()), ',');
  double v[3];
  bool ok = parts.size() == 3;
  for (size_t i = 0; ok && i < 3; ++i) {
    ok = absl::SimpleAtod(parts[i], &v[i]) && std::isfinite(v[i]) &&
         std::fabs(v[i]) <= tol::kMaxCoordinate;
  }
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s '%s' must be a position x,y,z (three numbers within ±%g m)", flag, text,
                        tol::kMaxCoordinate));
  }
  return Vec3{float(v[0]), float(v[1]), float(v[2])};
}

absl::StatusOr<std::vector<std::pair<Vec3, Vec3>>> ParsePositionPairs(
    const std::vector<std::pair<std::string, std::string>>& texts, std::string_view flag) {
  std::vector<std::pair<Vec3, Vec3>> pairs;
  for (const auto& [a, b] : texts) {
    absl::StatusOr<Vec3> pa = ParsePosition(a, flag);
    if (!pa.ok()) return pa.status();
    absl::StatusOr<Vec3> pb = ParsePosition(b, flag);
    if (!pb.ok()) return pb.status();
    pairs.emplace_back(*pa, *pb);
  }
  return pairs;
}

absl::StatusOr<Vec3> ParseHalfExtents(std::string_view text, std::string_view flag) {
  absl::StatusOr<Vec3> v = ParsePosition(text, flag);
  if (!v.ok() || v->x < 0 || v->y < 0 || v->z < 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s '%s' must be three non-negative numbers x,y,z (box half size, metres)", flag, text));
  }
  return v;
}

}  // namespace waymesh::cli
