// Planning a sweep: the sweep file's configurations (replay's specs, --schemes expansion, the
// "set" grid) and its jobs, one per (capture, frame range), each with the configurations the
// results database does not hold yet for it.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "results_merge.h"
#include "sweep_file.h"

namespace tessera::sweep {

// A configuration of the sweep, as `tessera replay --config` names it and the database keys it.
struct SweepConfig {
  std::string name;
  std::string params_hash;
};

// One `tessera replay` of one capture over one frame range with several configurations, run in
// the sweep file's directory.
struct Job {
  std::string dir;          // absolute: replay runs here, so the capture keeps its name as written
  std::string capture;      // as written in the sweep file
  std::string fingerprint;  // of the capture's content
  std::string frames;       // --frames; empty: every frame
  std::vector<std::string> configs;  // --config specs, those not yet in the database
  uint64_t frames_shaded = 0;  // every frame up to the range's last (state carries forward)
  std::string key;          // names the job's files: <capture stem>-<frames>-<16 hex digits>
  uint64_t weight = 0;      // for the ETA: frames shaded x (configurations + 1)
};

struct Plan {
  std::vector<SweepConfig> configs;  // every configuration of the sweep
  size_t captures = 0;
  size_t ranges = 0;                 // frame ranges per capture
  std::vector<Job> jobs;             // jobs with configurations to run
  size_t complete_jobs = 0;          // jobs whose every configuration the database holds
};

// "all" for a job over every frame: the frames column of sweep_run.
std::string frames_label(const std::string& frames);

// The configuration specs of the sweep: replay's specs for "configs" and "schemes", each with
// every combination of the "set" grid (a key applied to the configurations that have it, as
// replay's --set). Throws SweepError naming the file for an unknown preset, scheme or parameter.
std::vector<SweepConfig> sweep_configs(const SweepFile& file);

// Opens every capture (throws SweepError naming the file and the capture when one cannot be
// used, two are the same capture, or a frame range selects none of a capture's frames) and
// plans the jobs, each with every configuration.
Plan plan_sweep(const SweepFile& file);

// Leaves out of each job the configurations `merged` holds for it, and the jobs left with none;
// names each remaining job by what it runs.
void leave_out_merged(Plan& plan, const std::set<results::MergedRun>& merged);

}  // namespace tessera::sweep
