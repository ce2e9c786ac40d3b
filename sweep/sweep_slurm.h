// The Slurm backend of `tessera sweep`: one sbatch job array with one task per pending sweep job
// (each task runs `tessera sweep --run-job KEY.job`), resources per task from the sweep file's
// "slurm" object. The submitting sweep waits for the array, merging each job as its database
// appears, resubmits failed tasks, or returns at once (--no-wait) for a later --merge. Captures,
// the sweep's state directory and the tessera executable must be on a filesystem every node sees.
#pragma once

#include <string>

#include "sweep_file.h"
#include "sweep_run.h"

namespace tessera::sweep {

struct SlurmOptions {
  bool wait = true;
  int retries = 1;
  double poll_seconds = 2;
};

// Submits the pending jobs and, with opt.wait, sees them through; the exit code.
int run_slurm(SweepRun& run, const SweepFile& file, const SlurmOptions& opt);

// The id of the Slurm job an earlier submission of this sweep left queued or running; empty
// when there is none. Throws SweepError when squeue cannot tell.
std::string active_slurm_job(const std::string& state_dir);

// The job array script for these jobs (index = position in `jobs`).
std::string sbatch_script(const SweepFile& file, const std::string& state_dir, const std::string& tessera,
                          const std::vector<std::string>& job_files);

}  // namespace tessera::sweep
