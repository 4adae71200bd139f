#pragma once
// How a served map is named. A map baked for several agent sizes (Unity's agent types: the same
// town for humans and for ogres) is one file per agent type in the maps directory:
// `town.wmesh` is the default bake and `town@ogre.wmesh` the one for agent type "ogre". The
// registry keys maps by the file name without `.wmesh` ("town", "town@ogre"); requests name
// map_id and agent_type separately.

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace waymesh::server {

inline constexpr char kAgentTypeSeparator = '@';

struct MapName {
  std::string map_id;
  std::string agent_type;  // empty = the default bake
};

// The registry key of `map_id` baked for `agent_type` ("town", "town@ogre").
std::string MapKey(absl::string_view map_id, absl::string_view agent_type);
// The map id and agent type of a registry key (the inverse of MapKey).
MapName SplitMapKey(absl::string_view key);
// A map file's name without `.wmesh` must be `<map_id>` or `<map_id>@<agent_type>`, both
// following the map id rules (request_validation.h).
absl::Status ValidateMapKey(absl::string_view key);

}  // namespace waymesh::server
