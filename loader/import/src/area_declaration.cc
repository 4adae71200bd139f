#include "waymesh/import/area_declaration.h"

#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::importer {

absl::Status ReadAreaDeclaration(const JsonNode& entry, std::vector<std::string>& declared_at,
                                 std::vector<std::optional<AreaType>>& areas) {
  absl::StatusOr<JsonNode> id_node = entry.Get("id");
  if (!id_node.ok()) return id_node.status();
  absl::StatusOr<int64_t> id = id_node->AsInt(0, kMaxAreas - 1);
  if (!id.ok()) return id.status();
  if (!declared_at[*id].empty()) {
    return id_node->Error(
        absl::StrCat("= ", *id, " is declared twice (also at ", declared_at[*id], ")"));
  }
  declared_at[*id] = entry.path();
  absl::StatusOr<JsonNode> name = entry.Get("name");
  if (!name.ok()) return name.status();
  absl::StatusOr<std::string> name_text = name->AsString();
  if (!name_text.ok()) return name_text.status();
  absl::StatusOr<JsonNode> cost = entry.Get("cost");
  if (!cost.ok()) return cost.status();
  absl::StatusOr<double> cost_value = cost->AsNumber();
  if (!cost_value.ok()) return cost_value.status();
  if (!(*cost_value > 0) || *cost_value > tol::kMaxCoordinate) {
    return cost->Error(absl::StrCat("= ", *cost_value, " must be positive (and at most ",
                                    tol::kMaxCoordinate, ")"));
  }
  if (areas.size() <= size_t(*id)) areas.resize(*id + 1);
  areas[*id] = AreaType{*std::move(name_text), static_cast<float>(*cost_value), false};
  return absl::OkStatus();
}

}  // namespace waymesh::importer
