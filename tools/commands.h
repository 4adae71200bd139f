#pragma once
// Each verb of the `waymesh` command line registers itself on the root app. A verb parses its
// flags, calls core/loader and prints; its callback returns the process exit code.

#include <CLI/CLI.hpp>

namespace waymesh::cli {

// Exit codes shared by every verb.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // the operation failed (bad file, failed check)
inline constexpr int kExitUsage = 2;    // bad arguments

// Sets `*exit_code` when the verb runs.
void RegisterBuild(CLI::App& app, int* exit_code);
void RegisterInspect(CLI::App& app, int* exit_code);
void RegisterDemoWorld(CLI::App& app, int* exit_code);
void RegisterPath(CLI::App& app, int* exit_code);
void RegisterValidate(CLI::App& app, int* exit_code);
void RegisterRender(CLI::App& app, int* exit_code);
void RegisterDiff(CLI::App& app, int* exit_code);
void RegisterBake(CLI::App& app, int* exit_code);
void RegisterLoadData(CLI::App& app, int* exit_code);
void RegisterCrowd(CLI::App& app, int* exit_code);

}  // namespace waymesh::cli
