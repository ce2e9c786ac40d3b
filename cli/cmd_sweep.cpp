// tessera sweep FILE --db OUT [--jobs N] [--max-memory SIZE] [--retries N] [--slurm [--no-wait]] [--merge]
//               [--quiet]
// tessera sweep --example
//
// A study is captures x frame ranges x configurations (gem5 and ChampSim users run these as job
// arrays). The sweep file (JSON, sweep_file.h) names them; each (capture, frame range) is one job:
// one `tessera replay` with all the job's configurations, so each frame is shaded once per job.
// Jobs run on local workers or as a Slurm job array, each into a database of its own, and each
// finished job is merged into OUT in one transaction. A rerun skips what OUT holds and merges what
// an interrupted run finished; a failed job is reported and run again, never half-merged.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "commands.h"
#include "results_db.h"
#include "results_merge.h"
#include "sweep_file.h"
#include "sweep_job.h"
#include "sweep_plan.h"
#include "sweep_run.h"
#include "sweep_slurm.h"
#include "tessera/frontend/memory_budget.h"

namespace tessera::cli {
namespace {

struct SweepOptions {
  std::string file;
  std::string db;
  unsigned jobs = 0;
  std::string max_memory;  // --max-memory: all local workers together; empty for the default
  int retries = 1;
  bool slurm = false;
  bool no_wait = false;
  bool merge = false;
  bool example = false;
  bool quiet = false;
  std::string run_job;
};

// One sweep at a time per database: the lock is inherited by the replay workers, so a rerun
// waits for nothing an interrupted run left running.
int lock_state_dir(const std::string& state_dir, const std::string& db) {
  std::error_code ec;
  std::filesystem::create_directory(state_dir, ec);  // beside OUT, whose directory must exist
  if (ec) throw sweep::SweepError(state_dir + ": cannot create the sweep's state directory: " + ec.message());
  const std::string path = state_dir + "/lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
  if (fd < 0) throw sweep::SweepError(path + ": cannot open: " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw sweep::SweepError(db + ": another tessera sweep is using this database (" + path + ")");
  }
  return fd;
}

int run_sweep(const SweepOptions& opt) {
  if (opt.example) {
    std::printf("%s", std::string(sweep::example_sweep_file()).c_str());
    return 0;
  }
  if (!opt.run_job.empty()) return sweep::run_job_file(opt.run_job);
  if (opt.file.empty()) {
    std::fprintf(stderr, "tessera sweep: a sweep file is needed (tessera sweep --example prints one)\n");
    return 2;
  }
  if (opt.db.empty()) {
    std::fprintf(stderr, "tessera sweep: %s: --db OUT is needed (the database the sweep merges into)\n", opt.file.c_str());
    return 2;
  }
  if (opt.no_wait && !opt.slurm) {
    std::fprintf(stderr, "tessera sweep: --no-wait goes with --slurm\n");
    return 2;
  }
  if (opt.merge && opt.slurm) {
    std::fprintf(stderr, "tessera sweep: --merge merges what finished; it does not go with --slurm\n");
    return 2;
  }
  if (opt.jobs != 0 && (opt.slurm || opt.merge)) {
    std::fprintf(stderr, "tessera sweep: --jobs sets the local workers; Slurm runs one array task per job\n");
    return 2;
  }
  uint64_t max_memory = 0;
  if (!opt.max_memory.empty()) {
    std::string error;
    if (!frontend::parse_memory_size(opt.max_memory, &max_memory, &error)) {
      std::fprintf(stderr, "tessera sweep: --max-memory %s\n", error.c_str());
      return 2;
    }
    if (opt.slurm || opt.merge) {
      std::fprintf(stderr, "tessera sweep: --max-memory is shared by the local workers; a Slurm task has the memory "
                           "its sweep file asks for\n");
      return 2;
    }
  }
  try {
    const sweep::SweepFile file = sweep::read_sweep_file(opt.file);
    // Everything the file names is checked before anything is written.
    sweep::Plan plan = sweep::plan_sweep(file);
    const std::string state_dir = sweep::state_dir_for(opt.db);
    const int lock = lock_state_dir(state_dir, opt.db);
    (void)lock;  // held until exit
    const std::string active = sweep::active_slurm_job(state_dir);
    if (!active.empty() && !opt.merge) {
      throw sweep::SweepError(opt.db + ": Slurm job " + active +
                              " of an earlier submission is still queued or running; wait for it and use --merge, "
                              "or scancel " + active);
    }
    auto out = results::ResultsDb::open(opt.db);
    sweep::leave_out_merged(plan, results::merged_runs(*out));
    if (!opt.quiet) {
      const size_t jobs = plan.jobs.size() + plan.complete_jobs;
      std::printf("sweep %s: %zu capture%s x %zu frame range%s x %zu configuration%s = %zu job%s, %zu already in %s\n",
                  file.path.c_str(), plan.captures, plan.captures == 1 ? "" : "s", plan.ranges,
                  plan.ranges == 1 ? "" : "s", plan.configs.size(), plan.configs.size() == 1 ? "" : "s", jobs,
                  jobs == 1 ? "" : "s", plan.complete_jobs, opt.db.c_str());
      std::fflush(stdout);
    }
    sweep::SweepRun run(std::move(plan), state_dir, *out, opt.quiet);
    run.merge_finished();
    if (opt.merge) {
      return run.summary(active.empty() ? "submit them with --slurm (or run them here without it)"
                                        : "Slurm job " + active + " is still running; --merge again when it is done");
    }
    if (opt.slurm) {
      sweep::SlurmOptions so;
      so.wait = !opt.no_wait;
      so.retries = opt.retries;
      return sweep::run_slurm(run, file, so);
    }
    const unsigned workers = opt.jobs != 0 ? opt.jobs : sweep::available_cpus();
    return sweep::run_local(run, workers, opt.retries, max_memory);
  } catch (const sweep::SweepError& e) {
    std::fprintf(stderr, "tessera sweep: %s\n", e.what());
    return 1;
  } catch (const results::Error& e) {
    std::fprintf(stderr, "tessera sweep: %s\n", e.what());
    return 1;
  }
}

}  // namespace

void setup_sweep(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep", "Run a study: captures x frame ranges x configurations, locally or on Slurm");
  cmd->add_option("file", opt->file, "Sweep file (JSON; tessera sweep --example prints one)");
  cmd->add_option("--db", opt->db, "Results database every job is merged into (created or updated)");
  cmd->add_option("--jobs", opt->jobs, "Local workers, each one tessera replay (default: every CPU)")
      ->check(CLI::Range(1u, 4096u));
  cmd->add_option("--max-memory", opt->max_memory,
                  "Host memory for the replays of all local workers together, split among those running at once "
                  "(bytes, or 512M, 12G; default half the memory this process may have)");
  cmd->add_option("--retries", opt->retries,
                  "Runs of a failed job after its first (default 1); a job the replay refused (exit 3) is not run "
                  "again")
      ->check(CLI::Range(0, 100));
  cmd->add_flag("--slurm", opt->slurm, "Submit the jobs as one Slurm job array (sbatch) and wait for it");
  cmd->add_flag("--no-wait", opt->no_wait, "With --slurm: return once submitted; merge later with --merge");
  cmd->add_flag("--merge", opt->merge, "Merge the jobs that finished (under Slurm) into the database; run nothing");
  cmd->add_flag("--example", opt->example, "Print an example sweep file");
  cmd->add_flag("--quiet", opt->quiet, "No progress bar and no line per job");
  // What each Slurm array task runs (sweep_slurm.cpp); not for users.
  cmd->add_option("--run-job", opt->run_job, "Run one job file of a sweep's state directory")->group("");
  cmd->callback([opt, exit_code] { *exit_code = run_sweep(*opt); });
}

}  // namespace tessera::cli
