#pragma once
// Command-line options several verbs share: input files that must exist, the compiled map
// argument and output, picture outputs and the --extents box.

#include <CLI/CLI.hpp>
#include <string>

namespace waymesh::cli {

// A required option or positional (no dashes in `name`) naming one or more files that exist.
template <typename T>
CLI::Option* AddInputFile(CLI::App* cmd, const std::string& name, T& target,
                          const std::string& description) {
  return cmd->add_option(name, target, description)->required()->check(CLI::ExistingFile);
}

// The positional "map": the compiled map (.wmesh) the verb works on.
CLI::Option* AddMapArg(CLI::App* cmd, std::string& path);

// The required `-o,--output`: the compiled map (.wmesh) the verb writes.
CLI::Option* AddMapOutput(CLI::App* cmd, std::string& path);

// `--exact-landmarks` of build and bake: store the map's exact landmark table in it.
CLI::Option* AddExactLandmarksFlag(CLI::App* cmd, bool& store);
// --exact-twin: store the map's plan twin (plan_twin.h), which exact FindPath searches.
CLI::Option* AddExactTwinFlag(CLI::App* cmd, bool& store);

// `-o,--output`: a picture to write, whose name ends in .png or .svg.
CLI::Option* AddPictureOutput(CLI::App* cmd, std::string& path, const std::string& description);

// `--width`: a picture width in pixels within what the renderer draws.
CLI::Option* AddPictureWidth(CLI::App* cmd, int& width, const std::string& description);

// `--extents`: the half size x,y,z of the box that puts `what` on the mesh.
CLI::Option* AddExtents(CLI::App* cmd, std::string& extents, const std::string& what);

}  // namespace waymesh::cli
