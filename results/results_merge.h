// Merging one results database into another, for `tessera sweep`: each sweep job replays into a
// database of its own, and the sweep merges it into the sweep's database in one transaction.
#pragma once

#include <set>
#include <string>
#include <tuple>

#include "results_db.h"

namespace tessera::results {

// Merges the database `job_path` (written by `tessera replay`) into `out` in one transaction, with
// the effect that replay writing into `out` itself would have had: captures upserted by
// fingerprint, frames by present, configurations found or added by name and parameter set, each
// run created or reused (and a run of the same capture under the same name with other parameters
// deleted), and every (run, frame) the job holds cleared before the job's frame, tile and core
// rows go in. Each merged run is marked in sweep_run with `frames`. Throws Error naming the job
// database and the problem; then `out` is left as it was.
void merge_database(ResultsDb& out, const std::string& job_path, const std::string& frames);

// A run a sweep merged: (capture fingerprint, configuration name, params_hash, frames).
using MergedRun = std::tuple<std::string, std::string, std::string, std::string>;
std::set<MergedRun> merged_runs(ResultsDb& db);

}  // namespace tessera::results
