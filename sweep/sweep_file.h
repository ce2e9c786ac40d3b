// The sweep file of `tessera sweep` (JSON): captures x frame ranges x configurations, with the
// Slurm resources of one task. Parsing checks the file's shape and types; whether its captures,
// configurations and parameters exist is checked when the sweep is planned (sweep_plan.h).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::sweep {

// Every problem with a sweep, its captures or its jobs: one line naming the file and the problem.
class SweepError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Resources of one Slurm array task (one sweep job), as `#SBATCH --NAME=VALUE` lines.
struct SlurmResources {
  std::vector<std::pair<std::string, std::string>> options;  // e.g. {"time", "00:30:00"}
  int max_running = 0;                                       // array throttle (--array=...%N); 0: none
  std::vector<std::string> extra;                            // further sbatch arguments, verbatim
};

struct SweepFile {
  std::string path;                 // as given
  std::string dir;                  // absolute directory of the file: capture paths are relative to it
  std::vector<std::string> captures;  // as written
  std::vector<std::string> frames;    // --frames of each job of a capture; empty: every frame, one job
  std::vector<std::string> configs;   // --config specs (empty: replay's default)
  std::string schemes;                // --schemes ("all" or a comma list); empty: none
  // Grid of parameter values: every configuration runs with every combination (keys in name order).
  std::vector<std::pair<std::string, std::vector<std::string>>> set;
  SlurmResources slurm;
};

// Throws SweepError "PATH: problem" (unreadable file, malformed JSON with line and column, unknown
// key, wrong type, bad frame range, empty list).
SweepFile read_sweep_file(const std::string& path);
// Same over text; `path` names it in errors and gives the directory captures are relative to.
SweepFile parse_sweep_file(std::string_view text, const std::string& path);

// A complete sweep file with every key, printed by `tessera sweep --example`.
std::string_view example_sweep_file();

}  // namespace tessera::sweep
