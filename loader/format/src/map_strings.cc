#include "map_strings.h"

#include "absl/strings/str_cat.h"

namespace waymesh::wmesh {
namespace {

constexpr int kFixedStrings = 3;  // name, source hash, build tool version

}  // namespace

const std::string& MapString(const MapInfo& info, int i) {
  return *MutableMapString(const_cast<MapInfo*>(&info), i);
}

std::string* MutableMapString(MapInfo* info, int i) {
  switch (i) {
    case 0:
      return &info->name;
    case 1:
      return &info->source_hash;
    case 2:
      return &info->build_tool_version;
    default:
      return &info->areas[i - kFixedStrings].name;
  }
}

std::string MapStringName(int i) {
  static constexpr const char* kNames[] = {"map name", "source hash", "build tool version"};
  return i < kFixedStrings ? kNames[i] : absl::StrCat("area ", i - kFixedStrings, " name");
}

}  // namespace waymesh::wmesh
