#include "cli_options.h"

#include "waymesh/render/map_scene.h"
#include "waymesh/render/picture_file.h"

namespace waymesh::cli {

CLI::Option* AddMapArg(CLI::App* cmd, std::string& path) {
  return AddInputFile(cmd, "map", path, "compiled map (.wmesh)");
}

CLI::Option* AddMapOutput(CLI::App* cmd, std::string& path) {
  return cmd->add_option("-o,--output", path, "compiled map to write (.wmesh)")->required();
}

CLI::Option* AddExactLandmarksFlag(CLI::App* cmd, bool& store) {
  return cmd->add_flag("--exact-landmarks", store,
                       "store the exact landmark table in the map (fewer nodes for exact "
                       "FindPath on large maps; about 60 bytes per polygon and seconds of build "
                       "time)");
}

CLI::Option* AddExactTwinFlag(CLI::App* cmd, bool& store) {
  return cmd->add_flag("--exact-twin", store,
                       "store the map's plan twin, which exact FindPath searches instead of the "
                       "map (far fewer polygons on fine meshes; stored only when it keeps at "
                       "most 2/3 of them)");
}

CLI::Option* AddPictureOutput(CLI::App* cmd, std::string& path, const std::string& description) {
  return cmd->add_option("-o,--output", path, description)
      ->check(CLI::Validator(
          [](std::string& name) {
            return render::IsPicturePath(name) ? std::string()
                                               : "'" + name + "' must end in .png or .svg";
          },
          "PICTURE"));
}

CLI::Option* AddPictureWidth(CLI::App* cmd, int& width, const std::string& description) {
  return cmd->add_option("--width", width, description)
      ->check(CLI::Range(render::kMinPictureWidth, render::kMaxPictureSide))
      ->capture_default_str();
}

CLI::Option* AddExtents(CLI::App* cmd, std::string& extents, const std::string& what) {
  return cmd
      ->add_option("--extents", extents,
                   "half size x,y,z of the box that puts " + what + " on the mesh (m)")
      ->capture_default_str();
}

}  // namespace waymesh::cli
