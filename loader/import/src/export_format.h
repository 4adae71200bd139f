#pragma once

#include <cstdint>
#include <string_view>

namespace waymesh {

// The name and version that open a Waymesh navmesh export: the JSON the Unity editor exporter
// (exporters/unity) and the demo-world generator write, and the Unity-export importer reads. One
// definition for the C++ writer and reader, so the two cannot drift apart.
inline constexpr std::string_view kExportFormatName = "waymesh-navmesh-export";
inline constexpr int64_t kExportFormatVersion = 1;

}  // namespace waymesh
