// The tessera CLI's subcommands, one file each (after CLI11's examples/subcom_in_files).
// Each setup_* adds its subcommand with its options to the parent app; when the subcommand is
// chosen, its run function stores the process exit code in *exit_code.
#pragma once

#include <CLI/CLI.hpp>

namespace tessera::cli {

void setup_capture(CLI::App& app, int* exit_code);
void setup_info(CLI::App& app, int* exit_code);
void setup_verify(CLI::App& app, int* exit_code);
void setup_query(CLI::App& app, int* exit_code);
void setup_migrate(CLI::App& app, int* exit_code);
void setup_schemes(CLI::App& app, int* exit_code);
void setup_replay(CLI::App& app, int* exit_code);
void setup_report(CLI::App& app, int* exit_code);
void setup_compare(CLI::App& app, int* exit_code);
void setup_sweep(CLI::App& app, int* exit_code);
void setup_diff(CLI::App& app, int* exit_code);

}  // namespace tessera::cli
