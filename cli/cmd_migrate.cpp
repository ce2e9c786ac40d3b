// tessera migrate DB: brings a results database written by an earlier Tessera up to this build's
// schema (schema/sqlite, numbered migrations), in place. tessera replay and sweep do the same when
// they write; query and report read only, and refuse an older schema rather than rewrite a file
// they were asked to read.
#include <cstdio>
#include <filesystem>
#include <string>

#include "commands.h"
#include "results_db.h"

namespace tessera::cli {
namespace {

int run_migrate(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    std::fprintf(stderr, "tessera migrate: %s: no such results database\n", path.c_str());
    return 1;
  }
  try {
    const int before = results::ResultsDb::open(path, results::ResultsDb::Mode::kReadOnly)->schema_version();
    if (before == results::latest_schema_version()) {
      std::printf("%s: schema version %d, up to date\n", path.c_str(), before);
      return 0;
    }
    const auto bytes_before = std::filesystem::file_size(path);
    auto db = results::ResultsDb::open(path);
    // A migration can drop a table (version 3 the per-tile rows): give its pages back.
    db->vacuum();
    std::printf("%s: schema version %d -> %d, %.1f MB -> %.1f MB\n", path.c_str(), before, db->schema_version(),
                static_cast<double>(bytes_before) / 1e6, static_cast<double>(std::filesystem::file_size(path)) / 1e6);
    return 0;
  } catch (const results::Error& e) {
    std::fprintf(stderr, "tessera migrate: %s\n", e.what());
    return 1;
  }
}

}  // namespace

void setup_migrate(CLI::App& app, int* exit_code) {
  auto path = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("migrate", "Bring a results database written by an earlier Tessera up to this build's schema");
  cmd->add_option("db", *path, "Results database (SQLite)")->required();
  cmd->callback([path, exit_code] { *exit_code = run_migrate(*path); });
}

}  // namespace tessera::cli
