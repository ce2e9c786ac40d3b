#include "sweep_job.h"
#include "tessera/study/study.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace tessera::sweep {
namespace {

using nlohmann::json;

// The last non-empty line of a log: replay's one-line error.
std::string last_line(const std::string& path) {
  std::ifstream in(path);
  std::string line, last;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  }
  if (last.size() > 300) last = last.substr(0, 300) + "...";
  return last;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw SweepError(tmp + ": cannot write: " + std::strerror(errno));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw SweepError(path + ": cannot write: " + std::strerror(errno));
}

std::string describe_status(int status, const std::string& log) {
  std::string what;
  if (WIFEXITED(status)) {
    what = "tessera replay exited " + std::to_string(WEXITSTATUS(status));
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    what = "tessera replay was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  } else {
    what = "tessera replay ended with wait status " + std::to_string(status);
  }
  const std::string line = last_line(log);
  return line.empty() ? what : what + ": " + line;
}

}  // namespace

JobFiles job_files_of(const std::string& job_file) {
  std::string stem = job_file;
  if (stem.size() > 4 && stem.compare(stem.size() - 4, 4, ".job") == 0) stem.resize(stem.size() - 4);
  return {stem + ".job", stem + ".part.db", stem + ".db", stem + ".log", stem + ".stats"};
}

JobFiles job_files(const std::string& state_dir, const Job& job) { return job_files_of(state_dir + "/" + job.key + ".job"); }

std::string state_dir_for(const std::string& out_db) {
  return std::filesystem::absolute(out_db).lexically_normal().string() + ".sweep";
}

void write_job_file(const Job& job, const std::string& path) {
  const json j = {{"dir", job.dir},       {"capture", job.capture}, {"fingerprint", job.fingerprint},
                  {"frames", job.frames}, {"configs", job.configs}, {"key", job.key},
                  {"weight", job.weight}};
  write_file_atomically(path, j.dump(2) + "\n");
}

Job read_job_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw SweepError(path + ": cannot read the job file: " + std::strerror(errno));
  try {
    const json j = json::parse(in);
    Job job;
    job.dir = j.at("dir").get<std::string>();
    job.capture = j.at("capture").get<std::string>();
    job.fingerprint = j.at("fingerprint").get<std::string>();
    job.frames = j.at("frames").get<std::string>();
    job.configs = j.at("configs").get<std::vector<std::string>>();
    job.key = j.at("key").get<std::string>();
    job.weight = j.at("weight").get<uint64_t>();
    if (job.configs.empty()) throw SweepError(path + ": a job file with no configuration");
    return job;
  } catch (const json::exception& e) {
    throw SweepError(path + ": not a sweep job file: " + e.what());
  }
}

std::string self_executable() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec) throw SweepError("/proc/self/exe: cannot find the tessera executable: " + ec.message());
  return exe.string();
}

pid_t start_job(const std::string& tessera, const Job& job, const JobFiles& files, unsigned threads,
                uint64_t max_memory) {
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
    const std::string leftover = files.part + suffix;
    if (::unlink(leftover.c_str()) != 0 && errno != ENOENT) {
      throw SweepError(leftover + ": cannot remove what an earlier attempt left: " + std::strerror(errno));
    }
  }
  std::vector<std::string> args = {tessera, "replay", job.capture, "--db", files.part, "--quiet",
                                   "--threads", std::to_string(std::max(1u, threads))};
  if (!job.frames.empty()) args.insert(args.end(), {"--frames", job.frames});
  if (max_memory != 0) args.insert(args.end(), {"--max-memory", std::to_string(max_memory)});
  for (const std::string& c : job.configs) args.insert(args.end(), {"--config", c});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // Prepared before fork: the child calls only async-signal-safe functions.
  const std::string chdir_failed = "tessera sweep: " + job.dir + ": cannot change to the sweep file's directory\n";
  const std::string exec_failed = "tessera sweep: " + tessera + ": cannot run\n";
  const int log = ::open(files.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) throw SweepError(files.log + ": cannot write the job's log: " + std::strerror(errno));
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid == 0) {
#if defined(__linux__)
    // A worker dies with the sweep that started it: a killed sweep leaves nothing running.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
#endif
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    if (::chdir(job.dir.c_str()) != 0) {
      [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, chdir_failed.data(), chdir_failed.size());
      ::_exit(127);
    }
    ::execv(tessera.c_str(), argv.data());
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, exec_failed.data(), exec_failed.size());
    ::_exit(127);
  }
  const int fork_errno = errno;
  ::close(log);
  if (null >= 0) ::close(null);
  if (pid < 0) throw SweepError("cannot start tessera replay for " + job.capture + ": " + std::strerror(fork_errno));
  return pid;
}

JobOutcome finish_job(const JobFiles& files, int wait_status, const struct rusage& usage, double seconds) {
  JobOutcome o;
  o.seconds = seconds;
  o.max_rss_kib = usage.ru_maxrss;  // Linux: kilobytes
  auto record = [&] {
    const json stats = {{"ok", o.ok},           {"refused", o.refused},
                        {"message", o.message}, {"seconds", o.seconds},
                        {"max_rss_kib", o.max_rss_kib}};
    write_file_atomically(files.stats, stats.dump() + "\n");
  };
  if (!WIFEXITED(wait_status) || WEXITSTATUS(wait_status) != 0) {
    o.refused = WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == study::kExitReplayRefused;
    o.message = describe_status(wait_status, files.log) + " (log: " + files.log + ")";
  } else if (struct stat st {}; ::stat(files.part.c_str(), &st) != 0) {
    o.message = files.part + ": tessera replay succeeded but wrote no database";
  } else if (::stat((files.part + "-wal").c_str(), &st) == 0 && st.st_size > 0) {
    // SQLite folds the write-ahead log into the database when its last connection closes; one
    // left behind would hold rows the renamed database lacks.
    o.message = files.part + ": tessera replay left a write-ahead log behind";
  } else {
    // The outcome is recorded before the database takes its final name: whoever sees the
    // database also finds its numbers.
    o.ok = true;
    record();
    if (std::rename(files.part.c_str(), files.db.c_str()) == 0) return o;
    o.ok = false;
    o.message = files.db + ": cannot rename the finished job's database: " + std::strerror(errno);
  }
  record();
  return o;
}

JobOutcome read_job_stats(const JobFiles& files) {
  JobOutcome o;
  std::ifstream in(files.stats);
  if (!in) {
    o.message = "no outcome recorded (" + files.stats + " missing)";
    return o;
  }
  try {
    const json j = json::parse(in);
    o.ok = j.at("ok").get<bool>();
    o.message = j.at("message").get<std::string>();
    o.seconds = j.at("seconds").get<double>();
    o.max_rss_kib = j.at("max_rss_kib").get<long>();
    o.refused = j.value("refused", false);  // absent from the stats of an earlier version
  } catch (const json::exception& e) {
    o.message = files.stats + ": unreadable: " + e.what();
  }
  return o;
}

int run_job_file(const std::string& job_file) {
  try {
    const Job job = read_job_file(job_file);
    const JobFiles files = job_files_of(job_file);
    const auto t0 = std::chrono::steady_clock::now();
    // A Slurm array task uses the CPUs its sweep file asked for (cpus-per-task), one by default.
    unsigned threads = 1;
    if (const char* cpus = std::getenv("SLURM_CPUS_PER_TASK")) threads = static_cast<unsigned>(std::max(1L, std::atol(cpus)));
    const pid_t pid = start_job(self_executable(), job, files, threads);
    int status = 0;
    struct rusage usage {};
    while (::wait4(pid, &status, 0, &usage) < 0) {
      if (errno != EINTR) throw SweepError(std::string("waiting for tessera replay: ") + std::strerror(errno));
    }
    const JobOutcome o =
        finish_job(files, status, usage, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (!o.ok) {
      std::fprintf(stderr, "tessera sweep: %s: %s\n", job.key.c_str(), o.message.c_str());
      return 1;
    }
    std::printf("%s: %zu configurations in %.1f s, peak memory %.0f MiB\n", job.key.c_str(), job.configs.size(),
                o.seconds, static_cast<double>(o.max_rss_kib) / 1024.0);
    return 0;
  } catch (const SweepError& e) {
    std::fprintf(stderr, "tessera sweep: %s\n", e.what());
    return 1;
  }
}

}  // namespace tessera::sweep
