// One sweep job (sweep/sweep_job.h) with the real tessera binary on a synthetic capture: its
// database appears only when replay succeeded; a killed or failed attempt leaves none, and says
// why. The Slurm array script (sweep/sweep_slurm.h), exactly.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "results_db.h"
#include "scene.h"
#include "sweep_job.h"
#include "sweep_slurm.h"
#include "test_util.h"

#ifndef TESSERA_CLI
#error "TESSERA_CLI must name the tessera binary"
#endif

namespace tessera::sweep {
namespace {

using testing::TempPath;

class SweepJob : public ::testing::Test {
 protected:
  void SetUp() override {
    synthetic::SceneOptions scene;
    scene.frames = 2;
    scene.textures = 1;
    scene.texture_size = 16;
    ASSERT_EQ(synthetic::write_scene_file(dir_.sibling("a.tcap"), scene), "");
    const SweepFile f =
        parse_sweep_file(R"({"captures": ["a.tcap"], "frames": "2", "configs": ["mobile4", "mobile32"]})", dir_.str());
    job_ = plan_sweep(f).jobs.at(0);
    std::filesystem::create_directories(state_);
    files_ = job_files(state_, job_);
  }

  // Runs the job to its end; kill_with != 0 kills replay right after it starts.
  JobOutcome run(int kill_with = 0, uint64_t max_memory = 0) {
    const pid_t pid = start_job(TESSERA_CLI, job_, files_, 1, max_memory);
    if (kill_with != 0) ::kill(pid, kill_with);
    int status = 0;
    struct rusage usage {};
    EXPECT_EQ(::wait4(pid, &status, 0, &usage), pid);
    return finish_job(files_, status, usage, 0.5);
  }

  TempPath dir_{"study.json"};
  std::string state_ = dir_.sibling("out.db.sweep");
  Job job_;
  JobFiles files_;
};

TEST_F(SweepJob, ItsFilesAreNamedByItsKey) {
  EXPECT_EQ(files_.job, state_ + "/" + job_.key + ".job");
  EXPECT_EQ(files_.part, state_ + "/" + job_.key + ".part.db");
  EXPECT_EQ(files_.db, state_ + "/" + job_.key + ".db");
  EXPECT_EQ(files_.log, state_ + "/" + job_.key + ".log");
  EXPECT_EQ(files_.stats, state_ + "/" + job_.key + ".stats");
  EXPECT_EQ(job_files_of(files_.job).db, files_.db);
  EXPECT_EQ(state_dir_for(dir_.sibling("out.db")), state_);
  write_job_file(job_, files_.job);
  const Job back = read_job_file(files_.job);
  EXPECT_EQ(back.dir, job_.dir);
  EXPECT_EQ(back.capture, "a.tcap");
  EXPECT_EQ(back.fingerprint, job_.fingerprint);
  EXPECT_EQ(back.frames, "2");
  EXPECT_EQ(back.configs, job_.configs);
  EXPECT_EQ(back.key, job_.key);
  EXPECT_EQ(back.weight, job_.weight);
  std::ofstream(files_.job, std::ios::trunc) << "{\"dir\": 1}";
  EXPECT_THROW(read_job_file(files_.job), SweepError);
}

TEST_F(SweepJob, ASuccessfulReplayPutsItsDatabaseInPlace) {
  const JobOutcome o = run();
  ASSERT_TRUE(o.ok) << o.message;
  EXPECT_GT(o.max_rss_kib, 0);
  EXPECT_FALSE(std::filesystem::exists(files_.part));
  ASSERT_TRUE(std::filesystem::exists(files_.db));
  auto db = results::ResultsDb::open(files_.db, results::ResultsDb::Mode::kReadOnly);
  std::vector<std::string> rows;
  db->query("SELECT DISTINCT capture, frame, config FROM frame_metrics ORDER BY config",
            [&](const auto&, const results::ResultsDb::Row& r) {
              rows.push_back(r.values[0] + " " + r.values[1] + " " + r.values[2]);
            });
  // Replay ran in the sweep file's directory: the capture keeps its name as written.
  EXPECT_EQ(rows, (std::vector<std::string>{"a.tcap 2 mobile32", "a.tcap 2 mobile4"}));
  const JobOutcome stats = read_job_stats(files_);
  EXPECT_TRUE(stats.ok);
  EXPECT_EQ(stats.max_rss_kib, o.max_rss_kib);
  EXPECT_EQ(stats.seconds, 0.5);
}

TEST_F(SweepJob, AKilledReplayLeavesNoDatabase) {
  const JobOutcome o = run(SIGKILL);
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.message.rfind("tessera replay was killed by signal 9 (Killed)", 0), 0u) << o.message;
  EXPECT_FALSE(std::filesystem::exists(files_.db));
  const JobOutcome stats = read_job_stats(files_);
  EXPECT_FALSE(stats.ok);
  EXPECT_EQ(stats.message, o.message);
  // The next attempt starts clean and succeeds.
  EXPECT_TRUE(run().ok);
}

TEST_F(SweepJob, AFailedReplayIsReportedWithItsError) {
  job_.configs = {"mobile4+l1tex.size=3"};  // below the parameter's range: replay refuses it
  const JobOutcome o = run();
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.message.rfind("tessera replay exited 2: tessera replay: configuration 'mobile4+l1tex.size=3': ", 0), 0u)
      << o.message;
  EXPECT_NE(o.message.find("(log: " + files_.log + ")"), std::string::npos) << o.message;
  EXPECT_FALSE(std::filesystem::exists(files_.db));
}

// A capture beyond the job's --max-memory is refused with its own exit status: the sweep does
// not run it again (every attempt would end the same), and the stats say so for a Slurm rerun.
TEST_F(SweepJob, AReplayRefusedByItsBudgetIsMarkedRefused) {
  const JobOutcome o = run(0, 64);
  EXPECT_FALSE(o.ok);
  EXPECT_TRUE(o.refused);
  EXPECT_EQ(o.message.rfind("tessera replay exited 3: tessera replay: a.tcap: frame 1: image 0x", 0), 0u) << o.message;
  EXPECT_NE(o.message.find(", beyond the replay's memory budget of 64 B ("), std::string::npos) << o.message;
  EXPECT_FALSE(std::filesystem::exists(files_.db));
  EXPECT_TRUE(read_job_stats(files_).refused);
  // Any other failure is not a refusal, and may be retried.
  job_.configs = {"mobile4+l1tex.size=3"};
  EXPECT_FALSE(run().refused);
  EXPECT_FALSE(read_job_stats(files_).refused);
}

TEST_F(SweepJob, AWriteAheadLogLeftBehindIsNotRenamedAway) {
  std::ofstream(files_.part) << "x";
  std::ofstream(files_.part + "-wal") << "frames";
  const JobOutcome o = finish_job(files_, 0, rusage{}, 1.0);
  EXPECT_FALSE(o.ok);
  EXPECT_EQ(o.message, files_.part + ": tessera replay left a write-ahead log behind");
  EXPECT_FALSE(std::filesystem::exists(files_.db));
}

TEST(SweepSlurm, TheArrayScriptRunsOneJobFilePerTask) {
  const SweepFile f = parse_sweep_file(
      R"({"captures": ["a.tcap"], "slurm": {"partition": "batch", "time": "00:30:00", "extra": ["--nice=10"]}})",
      "/shared/study.json");
  EXPECT_EQ(sbatch_script(f, "/shared/out.db.sweep", "/opt/tessera/bin/tessera",
                          {"/shared/out.db.sweep/a-all-0123.job", "/shared/out.db.sweep/it's-all-4567.job"}),
            "#!/bin/bash\n"
            "# Written by tessera sweep /shared/study.json --slurm: one array task per sweep job, each a\n"
            "# `tessera replay` of one capture and frame range into a database of its own.\n"
            "#SBATCH --job-name=tessera-sweep\n"
            "#SBATCH --output=/shared/out.db.sweep/slurm-%A_%a.out\n"
            "#SBATCH --partition=batch\n"
            "#SBATCH --time=00:30:00\n"
            "#SBATCH --nice=10\n"
            "jobs=(\n"
            "  '/shared/out.db.sweep/a-all-0123.job'\n"
            "  '/shared/out.db.sweep/it'\\''s-all-4567.job'\n"
            ")\n"
            "exec '/opt/tessera/bin/tessera' sweep --run-job \"${jobs[$SLURM_ARRAY_TASK_ID]}\"\n");
}

}  // namespace
}  // namespace tessera::sweep
