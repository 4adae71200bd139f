#pragma once
// The viewer page's files (server/ui/), compiled into the server at build time
// (server/ui/embed_ui.cmake writes viewer_assets.cc). Private to the server library.

#include <span>
#include <string_view>

namespace waymesh::server {

struct ViewerAsset {
  std::string_view path;          // URL path, e.g. "/viewer.js"
  std::string_view content_type;  // from the file's extension
  std::string_view body;
};

// Every file of server/ui/ except the build script.
std::span<const ViewerAsset> ViewerAssets();

}  // namespace waymesh::server
