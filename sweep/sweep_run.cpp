#include "sweep_run.h"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <thread>

#include "results_merge.h"
#include "tessera/frontend/memory_budget.h"

namespace tessera::sweep {
namespace {

std::string clock_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

}  // namespace

unsigned available_cpus() {
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

SweepRun::SweepRun(Plan plan, std::string state_dir, results::ResultsDb& out, bool quiet)
    : plan_(std::move(plan)),
      state_dir_(std::move(state_dir)),
      out_(out),
      quiet_(quiet),
      terminal_(!quiet && isatty(fileno(stderr))),
      merged_(plan_.jobs.size(), false),
      given_up_(plan_.jobs.size(), false),
      start_(std::chrono::steady_clock::now()) {
  for (const Job& j : plan_.jobs) total_weight_ += j.weight;
}

std::vector<size_t> SweepRun::pending() const {
  std::vector<size_t> out;
  for (size_t i = 0; i < merged_.size(); ++i) {
    if (!merged_[i] && !given_up_[i]) out.push_back(i);
  }
  return out;
}

std::string SweepRun::describe(size_t job) const {
  const Job& j = plan_.jobs[job];
  return j.capture + (j.frames.empty() ? "" : " frames " + j.frames) + " (" + std::to_string(j.configs.size()) +
         " configuration" + (j.configs.size() == 1 ? "" : "s") + ")";
}

void SweepRun::clear_progress() {
  if (progress_shown_) std::fprintf(stderr, "\r%*s\r", 100, "");
  progress_shown_ = false;
}

bool SweepRun::merge(size_t job) {
  const JobFiles f = files(job);
  try {
    results::merge_database(out_, f.db, frames_label(plan_.jobs[job].frames));
  } catch (const results::Error& e) {
    give_up(job, e.what());
    return false;
  }
  // The rows are in the sweep's database now; the job's database and file are done with.
  std::error_code ec;
  std::filesystem::remove(f.db, ec);
  std::filesystem::remove(f.job, ec);
  merged_[job] = true;
  merged_weight_ += plan_.jobs[job].weight;
  return true;
}

void SweepRun::merge_finished() {
  for (size_t i = 0; i < plan_.jobs.size(); ++i) {
    if (merged_[i] || !std::filesystem::exists(files(i).db)) continue;
    if (merge(i)) {
      ++merged_earlier_;
      if (!quiet_) {
        clear_progress();
        std::printf("merged %s, finished earlier\n", describe(i).c_str());
      }
    }
  }
}

void SweepRun::attempt_ended(size_t job, const JobOutcome& o, bool retry) {
  clear_progress();
  if (!o.ok) {
    if (!retry) {
      give_up(job, o.message);
      return;
    }
    std::fprintf(stderr, "tessera sweep: %s failed after %.1f s, running it again: %s\n", describe(job).c_str(),
                 o.seconds, o.message.c_str());
    std::fflush(stderr);
    return;
  }
  if (o.max_rss_kib > peak_rss_kib_) {
    peak_rss_kib_ = o.max_rss_kib;
    peak_job_ = describe(job);
  }
  if (!merge(job)) return;
  ++merged_now_;
  run_weight_ += plan_.jobs[job].weight;
  if (!quiet_) {
    std::printf("[%zu/%zu] %s: %.1f s, peak memory %.0f MiB, merged\n", merged_now_ + merged_earlier_,
                plan_.jobs.size(), describe(job).c_str(), o.seconds, static_cast<double>(o.max_rss_kib) / 1024.0);
    std::fflush(stdout);
  }
}

void SweepRun::give_up(size_t job, const std::string& why) {
  clear_progress();
  given_up_[job] = true;
  failures_.push_back(describe(job) + ": " + why);
}

void SweepRun::show_progress(size_t running, const std::string& note) {
  if (!terminal_ || total_weight_ == 0) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double fraction = static_cast<double>(merged_weight_) / static_cast<double>(total_weight_);
  const int width = 24;
  const int filled = static_cast<int>(fraction * width);
  // The rate of this run's own work (jobs merged from earlier runs took no time here); a job's
  // weight is the frames it shades times its configurations plus one.
  std::string eta = "--";
  if (run_weight_ > 0) {
    eta = clock_text(elapsed * static_cast<double>(total_weight_ - merged_weight_) / static_cast<double>(run_weight_));
  }
  const size_t done = merged_now_ + merged_earlier_;
  std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu jobs, %zu running, %s elapsed, ETA %s %-20.20s", filled,
               "########################", width - filled, "", done, plan_.jobs.size(), running,
               clock_text(elapsed).c_str(), eta.c_str(), note.c_str());
  std::fflush(stderr);
  progress_shown_ = true;
}

int SweepRun::summary(const std::string& next_step) {
  clear_progress();
  const size_t total = plan_.jobs.size() + plan_.complete_jobs;
  const size_t left = static_cast<size_t>(std::count(merged_.begin(), merged_.end(), false));
  std::printf("sweep: %zu job%s: %zu run now, %zu finished earlier, %zu already in %s, %zu not done\n", total,
              total == 1 ? "" : "s", merged_now_, merged_earlier_, plan_.complete_jobs, out_.path().c_str(), left);
  if (peak_rss_kib_ > 0) {
    std::printf("peak memory of a replay worker: %.0f MiB (%s)\n", static_cast<double>(peak_rss_kib_) / 1024.0,
                peak_job_.c_str());
  }
  for (const std::string& f : failures_) std::fprintf(stderr, "tessera sweep: failed: %s\n", f.c_str());
  if (left > 0) {
    std::fprintf(stderr, "tessera sweep: %zu job%s not done: %s\n", left, left == 1 ? "" : "s", next_step.c_str());
    return 1;
  }
  return 0;
}

int run_local(SweepRun& run, unsigned workers, int retries, uint64_t max_memory) {
  const std::string tessera = self_executable();
  std::deque<size_t> queue;
  for (size_t j : run.pending()) queue.push_back(j);
  // At most one worker a job: the cores and the memory are split among the workers that run at
  // once, not among --jobs when the plan has fewer jobs.
  workers = static_cast<unsigned>(std::clamp<size_t>(queue.size(), 1, std::max(1u, workers)));
  // The workers share the cores: each job's replay simulates its configurations on its share.
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency() / workers);
  // And the memory: each job's replay holds at most its share, so the workers together stay
  // within the total (by default what one replay would take).
  const uint64_t memory = (max_memory != 0 ? max_memory : frontend::MemoryBudget::default_limit()) / workers;
  struct Running {
    size_t job;
    std::chrono::steady_clock::time_point start;
  };
  std::map<pid_t, Running> running;
  std::vector<int> attempts(run.plan().jobs.size(), 0);
  while (!queue.empty() || !running.empty()) {
    while (running.size() < workers && !queue.empty()) {
      const size_t j = queue.front();
      queue.pop_front();
      ++attempts[j];
      try {
        const pid_t pid = start_job(tessera, run.plan().jobs[j], run.files(j), threads, memory);
        running.emplace(pid, Running{j, std::chrono::steady_clock::now()});
      } catch (const SweepError& e) {
        run.give_up(j, e.what());
      }
    }
    if (running.empty()) continue;
    run.show_progress(running.size());
    int status = 0;
    struct rusage usage {};
    const pid_t pid = ::wait4(-1, &status, WNOHANG, &usage);
    if (pid == 0 || (pid < 0 && errno == EINTR)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // redraws the elapsed time
      continue;
    }
    if (pid < 0) throw SweepError(std::string("waiting for the replay workers: ") + std::strerror(errno));
    const auto it = running.find(pid);
    if (it == running.end()) continue;  // not a worker
    const Running r = it->second;
    running.erase(it);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - r.start).count();
    const JobOutcome o = finish_job(run.files(r.job), status, usage, seconds);
    const bool retry = !o.ok && !o.refused && attempts[r.job] <= retries;
    run.attempt_ended(r.job, o, retry);
    if (retry) queue.push_back(r.job);
  }
  return run.summary();
}

}  // namespace tessera::sweep
