// Running a planned sweep: local workers (this file) or a Slurm job array (sweep_slurm.cpp),
// both through sweep_job.h, and the merging, reporting and progress they share. Each finished
// job is merged into the sweep's database in one transaction and its database removed.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "results_db.h"
#include "sweep_job.h"
#include "sweep_plan.h"

namespace tessera::sweep {

class SweepRun {
 public:
  SweepRun(Plan plan, std::string state_dir, results::ResultsDb& out, bool quiet);

  const Plan& plan() const { return plan_; }
  const std::string& state_dir() const { return state_dir_; }
  const std::string& out_path() const { return out_.path(); }
  JobFiles files(size_t job) const { return job_files(state_dir_, plan_.jobs[job]); }
  bool merged(size_t job) const { return merged_[job]; }
  // Jobs to run: not merged, not given up, in plan order.
  std::vector<size_t> pending() const;

  // Merges every job whose database an earlier run or a Slurm task left.
  void merge_finished();
  // An attempt ended: on success merges the job; prints a line either way (`retry`: it will run again).
  void attempt_ended(size_t job, const JobOutcome& outcome, bool retry);
  // A job that will not run again this time, and why (reported in the summary).
  void give_up(size_t job, const std::string& why);

  // Progress line on a terminal: jobs merged, `running`, elapsed time and ETA.
  void show_progress(size_t running, const std::string& note = "");
  // The closing summary, with `next_step` for jobs not done; the exit code (0 only when every
  // job of the sweep is merged).
  int summary(const std::string& next_step = "run the same command again to run them");

  std::string describe(size_t job) const;  // "vkcube.tcap frames 3-4 (5 configurations)"

 private:
  bool merge(size_t job);
  void clear_progress();

  Plan plan_;
  std::string state_dir_;
  results::ResultsDb& out_;
  bool quiet_;
  bool terminal_;
  std::vector<bool> merged_, given_up_;
  std::vector<std::string> failures_;
  std::chrono::steady_clock::time_point start_;
  uint64_t total_weight_ = 0, merged_weight_ = 0, run_weight_ = 0;  // run_weight_: merged after running now
  size_t merged_now_ = 0, merged_earlier_ = 0;
  long peak_rss_kib_ = 0;
  std::string peak_job_;
  bool progress_shown_ = false;
};

// Runs the pending jobs on `workers` local processes (no more than there are jobs); a failed
// attempt runs again up to `retries` times, unless the replay refused the capture
// (JobOutcome::refused). The workers running at once share the cores and `max_memory` (bytes
// for all of them; 0: the replay's default budget, MemoryBudget::default_limit()), each job
// taking its share as --threads and --max-memory. Returns the summary's exit code.
int run_local(SweepRun& run, unsigned workers, int retries, uint64_t max_memory = 0);

// Every CPU this process may run on.
unsigned available_cpus();

}  // namespace tessera::sweep
