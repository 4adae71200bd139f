#pragma once
// The verbs of the `waymesh` command line. Each adds its options to the subcommand main.cc made
// for it (main.cc holds the verbs' names and summaries); when chosen it calls core/loader,
// prints, and its callback sets the process exit code.

#include <CLI/CLI.hpp>

namespace waymesh::cli {

// Exit codes shared by every verb.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the operation failed (bad file, failed check)
inline constexpr int kExitUsage = 2;    // bad arguments

// Adds the verb's options to `cmd`; sets `*exit_code` when the verb runs.
void RegisterBuild(CLI::App* cmd, int* exit_code);
void RegisterInspect(CLI::App* cmd, int* exit_code);
void RegisterDemoWorld(CLI::App* cmd, int* exit_code);
void RegisterPath(CLI::App* cmd, int* exit_code);
void RegisterValidate(CLI::App* cmd, int* exit_code);
void RegisterRender(CLI::App* cmd, int* exit_code);
void RegisterDiff(CLI::App* cmd, int* exit_code);
void RegisterBake(CLI::App* cmd, int* exit_code);
void RegisterLoadData(CLI::App* cmd, int* exit_code);
void RegisterCrowd(CLI::App* cmd, int* exit_code);

}  // namespace waymesh::cli
