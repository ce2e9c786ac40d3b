// tessera: capture, inspect, replay and query. Only wiring lives here; each subcommand is in
// its own cmd_*.cpp.
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"Tessera: capture real frames, replay them through a tile-based GPU model"};
  app.require_subcommand(1);
  int exit_code = 0;
  tessera::cli::setup_capture(app, &exit_code);
  tessera::cli::setup_info(app, &exit_code);
  tessera::cli::setup_verify(app, &exit_code);
  tessera::cli::setup_query(app, &exit_code);
#if TESSERA_HAVE_REPLAY
  tessera::cli::setup_replay(app, &exit_code);
  tessera::cli::setup_sweep(app, &exit_code);
#endif
  tessera::cli::setup_schemes(app, &exit_code);
  tessera::cli::setup_report(app, &exit_code);
  tessera::cli::setup_compare(app, &exit_code);
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
