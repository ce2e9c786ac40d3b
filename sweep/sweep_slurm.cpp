#include "sweep_slurm.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace tessera::sweep {
namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

// Runs a command (found on PATH), collecting its standard output and error; the exit code, 127
// when it cannot be run.
int run_command(const std::vector<std::string>& args, std::string* out, std::string* err) {
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw SweepError(std::string("pipe: ") + std::strerror(errno));
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) throw SweepError(std::string("pipe: ") + std::strerror(errno));
  std::vector<std::string> copy = args;
  std::vector<char*> argv;
  for (std::string& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    ::dup2(err_pipe[1], STDERR_FILENO);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (pid < 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    throw SweepError("cannot run " + args[0] + ": " + std::strerror(errno));
  }
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {out, err};
  int open_fds = 2;
  while (open_fds > 0) {
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[4096];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
  return s.substr(start);
}

std::string first_line(const std::string& text) {
  const std::string t = trim(text);
  return t.substr(0, t.find('\n'));
}

// Tasks of `job_id` squeue still lists (queued or running).
size_t queued_tasks(const std::string& job_id) {
  std::string out, err;
  const int rc = run_command({"squeue", "--noheader", "--jobs", job_id, "--format", "%i"}, &out, &err);
  if (rc == 127) throw SweepError("squeue: cannot run it (install Slurm's client commands, Debian slurm-client)");
  // Once the controller has forgotten a finished job, squeue calls its id invalid.
  if (rc != 0 && err.find("Invalid job id") != std::string::npos) return 0;
  if (rc != 0) throw SweepError("squeue --jobs " + job_id + ": " + first_line(err));
  size_t n = 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) n += trim(line).empty() ? 0 : 1;
  return n;
}

std::string submission_file(const std::string& state_dir) { return state_dir + "/slurm-job"; }

std::string submit(const std::string& script, const std::string& array, const std::string& state_dir) {
  std::string out, err;
  const int rc = run_command({"sbatch", "--parsable", "--array=" + array, script}, &out, &err);
  if (rc == 127) throw SweepError("sbatch: cannot run it (install Slurm's client commands, Debian slurm-client)");
  if (rc != 0) throw SweepError("sbatch " + script + ": " + first_line(err.empty() ? out : err));
  // --parsable: "jobid" or "jobid;cluster".
  const std::string id = first_line(out).substr(0, first_line(out).find(';'));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
    throw SweepError("sbatch " + script + ": unexpected answer '" + first_line(out) + "'");
  }
  std::ofstream(submission_file(state_dir), std::ios::trunc) << id << "\n";
  return id;
}

}  // namespace

std::string sbatch_script(const SweepFile& file, const std::string& state_dir, const std::string& tessera,
                          const std::vector<std::string>& job_files) {
  std::string s = "#!/bin/bash\n";
  s += "# Written by tessera sweep " + file.path + " --slurm: one array task per sweep job, each a\n";
  s += "# `tessera replay` of one capture and frame range into a database of its own.\n";
  s += "#SBATCH --job-name=tessera-sweep\n";
  s += "#SBATCH --output=" + state_dir + "/slurm-%A_%a.out\n";
  for (const auto& [key, value] : file.slurm.options) s += "#SBATCH --" + key + "=" + value + "\n";
  for (const std::string& extra : file.slurm.extra) s += "#SBATCH " + extra + "\n";
  s += "jobs=(\n";
  for (const std::string& j : job_files) s += "  " + shell_quote(j) + "\n";
  s += ")\n";
  s += "exec " + shell_quote(tessera) + " sweep --run-job \"${jobs[$SLURM_ARRAY_TASK_ID]}\"\n";
  return s;
}

std::string active_slurm_job(const std::string& state_dir) {
  std::ifstream in(submission_file(state_dir));
  std::string id;
  if (!(in >> id)) return "";
  try {
    if (queued_tasks(id) > 0) return id;
  } catch (const SweepError& e) {
    throw SweepError(std::string(e.what()) + " (Slurm job " + id + " of this sweep may still run; if not, remove " +
                     submission_file(state_dir) + ")");
  }
  std::filesystem::remove(submission_file(state_dir));  // done with: no squeue needed next time
  return "";
}

int run_slurm(SweepRun& run, const SweepFile& file, const SlurmOptions& opt) {
  const std::vector<size_t> jobs = run.pending();
  if (jobs.empty()) return run.summary();
  std::vector<std::string> job_files;
  for (size_t j : jobs) {
    const JobFiles f = run.files(j);
    write_job_file(run.plan().jobs[j], f.job);
    std::filesystem::remove(f.stats);
    job_files.push_back(f.job);
  }
  const std::string script = run.state_dir() + "/sweep.sbatch";
  {
    std::ofstream out(script, std::ios::trunc);
    out << sbatch_script(file, run.state_dir(), self_executable(), job_files);
    if (!out.flush()) throw SweepError(script + ": cannot write: " + std::strerror(errno));
  }
  std::string array = "0-" + std::to_string(jobs.size() - 1);
  if (file.slurm.max_running > 0) array += "%" + std::to_string(file.slurm.max_running);
  std::string id = submit(script, array, run.state_dir());
  std::printf("submitted Slurm job %s: %zu array task%s (%s)\n", id.c_str(), jobs.size(), jobs.size() == 1 ? "" : "s",
              script.c_str());
  std::fflush(stdout);
  if (!opt.wait) {
    std::printf("when it is done: tessera sweep %s --db %s --merge\n", file.path.c_str(), run.out_path().c_str());
    return 0;
  }
  std::map<size_t, int> attempts;  // array index -> attempts so far
  for (size_t i = 0; i < jobs.size(); ++i) attempts[i] = 1;
  std::vector<size_t> submitted(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) submitted[i] = i;
  while (true) {
    // Merge each job as its database appears; stop when squeue no longer lists the array.
    bool queued = true;
    while (queued) {
      queued = queued_tasks(id) > 0;
      for (size_t i : submitted) {
        const size_t j = jobs[i];
        if (!run.merged(j) && std::filesystem::exists(run.files(j).db)) {
          JobOutcome o = read_job_stats(run.files(j));
          o.ok = true;
          run.attempt_ended(j, o, false);
        }
      }
      run.show_progress(0, "Slurm job " + id);
      if (queued) std::this_thread::sleep_for(std::chrono::duration<double>(opt.poll_seconds));
    }
    std::vector<size_t> again;
    for (size_t i : submitted) {
      const size_t j = jobs[i];
      if (run.merged(j)) continue;
      JobOutcome o = read_job_stats(run.files(j));
      if (o.ok) o.message = "the task ended before its database was in place";
      o.ok = false;
      o.message += " (Slurm log: " + run.state_dir() + "/slurm-" + id + "_" + std::to_string(i) + ".out)";
      const bool retry = !o.refused && attempts[i] <= opt.retries;
      run.attempt_ended(j, o, retry);
      if (retry) again.push_back(i);
    }
    if (again.empty()) {
      std::filesystem::remove(submission_file(run.state_dir()));
      break;
    }
    std::string list;
    for (size_t i : again) {
      if (!list.empty()) list += ',';
      list += std::to_string(i);
      ++attempts[i];
      std::filesystem::remove(run.files(jobs[i]).stats);
    }
    id = submit(script, list, run.state_dir());
    std::printf("resubmitted %zu failed task%s as Slurm job %s\n", again.size(), again.size() == 1 ? "" : "s",
                id.c_str());
    submitted = again;
  }
  return run.summary();
}

}  // namespace tessera::sweep
