#include "vs_detour/query_set.h"

#include <fstream>
#include <random>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace waymesh::bench {
namespace {

// Draws per pair before giving up on a map whose islands are all tiny.
constexpr uint32_t kMaxDrawsPerPair = 100;

uint32_t IslandOf(const NavMap& map, PolyRef ref) {
  return map.tile(ref.tile()).poly_island[ref.poly()];
}

}  // namespace

absl::StatusOr<std::vector<QueryCase>> LoadPolyanyaExpected(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::vector<QueryCase> out;
  std::string line;
  for (int line_number = 1; std::getline(in, line); ++line_number) {
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty() || text.front() == '#') continue;
    std::vector<absl::string_view> fields =
        absl::StrSplit(text, absl::ByAnyChar(" \t,"), absl::SkipEmpty());
    double v[5];
    bool ok = fields.size() == 5;
    for (size_t i = 0; ok && i < 5; ++i) ok = absl::SimpleAtod(fields[i], &v[i]);
    if (!ok || v[4] < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", line_number, ": expected `sx sy gx gy length` (5 numbers, length >= 0)"));
    }
    out.push_back({Vec3{float(v[0]), 0, float(v[1])}, Vec3{float(v[2]), 0, float(v[3])}, v[4]});
  }
  if (out.empty()) return absl::InvalidArgumentError(absl::StrCat(path, ": no queries"));
  return out;
}

std::vector<QueryCase> RandomReachablePairs(NavQuery& query, uint32_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const QueryFilter filter;
  std::vector<QueryCase> out;
  for (uint64_t draws = 0; out.size() < count && draws < uint64_t{count} * kMaxDrawsPerPair;
       ++draws) {
    const absl::StatusOr<std::optional<SurfacePoint>> drawn_a = query.RandomPoint(filter, rng);
    const absl::StatusOr<std::optional<SurfacePoint>> drawn_b = query.RandomPoint(filter, rng);
    if (!drawn_a.ok() || !drawn_b.ok() || !*drawn_a || !*drawn_b) break;
    const std::optional<SurfacePoint>& a = *drawn_a;
    const std::optional<SurfacePoint>& b = *drawn_b;
    if (IslandOf(query.map(), a->poly) != IslandOf(query.map(), b->poly)) continue;
    out.push_back({a->pos, b->pos, -1});
  }
  return out;
}

}  // namespace waymesh::bench
