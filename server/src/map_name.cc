#include "waymesh/server/map_name.h"

#include "absl/strings/str_cat.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::server {

std::string MapKey(absl::string_view map_id, absl::string_view agent_type) {
  if (agent_type.empty()) return std::string(map_id);
  return absl::StrCat(map_id, std::string(1, kAgentTypeSeparator), agent_type);
}

MapName SplitMapKey(absl::string_view key) {
  const size_t at = key.find(kAgentTypeSeparator);
  if (at == absl::string_view::npos) return {std::string(key), ""};
  return {std::string(key.substr(0, at)), std::string(key.substr(at + 1))};
}

absl::Status ValidateMapKey(absl::string_view key) {
  const size_t at = key.find(kAgentTypeSeparator);
  if (at == absl::string_view::npos) return ValidateMapId(key, "map id");
  if (absl::Status s = ValidateMapId(key.substr(0, at), "map id"); !s.ok()) return s;
  return ValidateMapId(key.substr(at + 1), "agent type");
}

}  // namespace waymesh::server
