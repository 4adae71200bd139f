#include "commands.h"

namespace waymesh::cli {

void RegisterBuild(CLI::App& app, int* exit_code) {
  (void)app;
  (void)exit_code;
}

}  // namespace waymesh::cli
