// Running one sweep job: `tessera replay` of its capture and frame range with its configurations
// into a database of its own. The database is written under a temporary name and renamed only
// when replay succeeds, so a job database that exists is complete; a killed or failed job leaves
// nothing a merge would take. Used by the local workers and by each Slurm array task alike.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sweep_plan.h"

namespace tessera::sweep {

// A job's files in the sweep's state directory, named by its key.
struct JobFiles {
  std::string job;    // KEY.job: the job (JSON), for a Slurm task
  std::string part;   // KEY.part.db: replay's database while it runs
  std::string db;     // KEY.db: the finished job's database
  std::string log;    // KEY.log: replay's output
  std::string stats;  // KEY.stats: how the last attempt ended (JSON)
};
JobFiles job_files(const std::string& state_dir, const Job& job);
JobFiles job_files_of(const std::string& job_file);  // from KEY.job

void write_job_file(const Job& job, const std::string& path);
Job read_job_file(const std::string& path);  // throws SweepError naming the file

// The state directory of a sweep writing `out_db`: OUT.sweep beside it.
std::string state_dir_for(const std::string& out_db);

// The running tessera executable (replay workers and Slurm tasks run it).
std::string self_executable();

// Starts replay for `job` (cwd: the job's directory, output to the log), after removing what an
// earlier attempt left, simulating `threads` configurations of a frame at once (replay's
// --threads). Throws SweepError when the process cannot be started.
// `max_memory` (bytes) is the job's --max-memory; 0 leaves the replay's default.
pid_t start_job(const std::string& tessera, const Job& job, const JobFiles& files, unsigned threads,
                uint64_t max_memory = 0);

struct JobOutcome {
  bool ok = false;
  // The replay refused the capture (exit study::kExitReplayRefused: the memory budget, an
  // image no device creates, a command or shader beyond what it runs): every attempt would
  // end the same, so it is not retried.
  bool refused = false;
  std::string message;  // why it failed
  double seconds = 0;
  long max_rss_kib = 0;  // peak resident memory of the replay process
};

// Ends an attempt from replay's wait status and resource usage: on success renames the
// database into place. Writes the outcome to the stats file either way.
JobOutcome finish_job(const JobFiles& files, int wait_status, const struct rusage& usage, double seconds);
JobOutcome read_job_stats(const JobFiles& files);  // ok=false with a message when there are none

// One job to its end (a Slurm array task: `tessera sweep --run-job KEY.job`); the exit code.
int run_job_file(const std::string& job_file);

}  // namespace tessera::sweep
