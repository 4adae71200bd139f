// `waymesh`: build, inspect and query navigation maps from the command line.

#include <iostream>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"waymesh: compile Unity navmesh exports into .wmesh maps and query them"};
  app.set_version_flag("--version", WAYMESH_VERSION_STRING);
  app.require_subcommand(1);
  int exit_code = waymesh::cli::kExitOk;
  waymesh::cli::RegisterBuild(app, &exit_code);
  waymesh::cli::RegisterInspect(app, &exit_code);
  waymesh::cli::RegisterDemoWorld(app, &exit_code);
  waymesh::cli::RegisterPath(app, &exit_code);
  waymesh::cli::RegisterValidate(app, &exit_code);
  waymesh::cli::RegisterRender(app, &exit_code);
  waymesh::cli::RegisterDiff(app, &exit_code);
  waymesh::cli::RegisterBake(app, &exit_code);
  waymesh::cli::RegisterLoadData(app, &exit_code);
  waymesh::cli::RegisterCrowd(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : waymesh::cli::kExitUsage;
  }
  return exit_code;
}
