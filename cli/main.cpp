// tessera: capture, inspect, replay and query. Only wiring lives here; each subcommand is in
// its own cmd_*.cpp.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "commands.h"

#ifndef TESSERA_VERSION
#error "TESSERA_VERSION must be defined by the build"
#endif

int main(int argc, char** argv) {
  CLI::App app{"Tessera: capture real frames, replay them through a tile-based GPU model"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tessera ") + TESSERA_VERSION);
  int exit_code = 0;
  tessera::cli::setup_capture(app, &exit_code);
  tessera::cli::setup_info(app, &exit_code);
  tessera::cli::setup_verify(app, &exit_code);
  tessera::cli::setup_query(app, &exit_code);
  tessera::cli::setup_migrate(app, &exit_code);
#if TESSERA_HAVE_REPLAY
  tessera::cli::setup_replay(app, &exit_code);
  tessera::cli::setup_sweep(app, &exit_code);
  tessera::cli::setup_diff(app, &exit_code);
#endif
  tessera::cli::setup_schemes(app, &exit_code);
  tessera::cli::setup_report(app, &exit_code);
  tessera::cli::setup_compare(app, &exit_code);

  // `tessera help [SUBCOMMAND]`, as git and cargo answer it: the same text as --help.
  std::string topic;
  CLI::App* help = app.add_subcommand("help", "Show the help of tessera, or of one subcommand");
  help->add_option("subcommand", topic, "the subcommand to explain");
  help->callback([&] {
    // App::help() would show the selected subcommand's (this one's) text: format the app's own.
    if (topic.empty()) {
      std::cout << app.get_formatter()->make_help(&app, app.get_name(), CLI::AppFormatMode::Normal);
      return;
    }
    for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
      if (sub->check_name(topic)) {
        std::cout << sub->help(app.get_name());
        return;
      }
    }
    std::cerr << "tessera help: no subcommand '" << topic << "' (tessera --help lists them)\n";
    exit_code = 2;
  });
  CLI11_PARSE(app, argc, argv);
  return exit_code;
}
