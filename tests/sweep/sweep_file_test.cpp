// The sweep file (sweep/sweep_file.h): what each key means, and one line naming the file and
// the problem for every kind of bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sweep_file.h"
#include "test_util.h"

namespace tessera::sweep {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_sweep_file(text, "study.json");
  } catch (const SweepError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SweepFile, TheExampleHasEveryKey) {
  const SweepFile f = parse_sweep_file(example_sweep_file(), "/studies/example.json");
  EXPECT_EQ(f.path, "/studies/example.json");
  EXPECT_EQ(f.dir, "/studies");
  EXPECT_EQ(f.captures, (std::vector<std::string>{"vkcube.tcap", "glmark2-texture.tcap", "vkscene.tcap"}));
  EXPECT_EQ(f.frames, (std::vector<std::string>{"3-4"}));
  EXPECT_EQ(f.configs, (std::vector<std::string>{"mobile4", "mobile4-64k"}));
  EXPECT_EQ(f.schemes, "dtexl");
  ASSERT_EQ(f.set.size(), 2u);  // keys in name order
  EXPECT_EQ(f.set[0].first, "l1tex.size");
  EXPECT_EQ(f.set[0].second, (std::vector<std::string>{"16KiB", "32KiB"}));
  EXPECT_EQ(f.set[1].first, "l2.size");
  EXPECT_EQ(f.set[1].second, (std::vector<std::string>{"2MiB"}));
  const std::vector<std::pair<std::string, std::string>> options = {
      {"cpus-per-task", "1"}, {"mem", "4G"}, {"partition", "batch"}, {"time", "00:30:00"}};
  EXPECT_EQ(f.slurm.options, options);
  EXPECT_EQ(f.slurm.max_running, 50);
  EXPECT_EQ(f.slurm.extra, (std::vector<std::string>{"--nice=10"}));
}

TEST(SweepFile, OptionalKeysAndTheirShorterForms) {
  const SweepFile f = parse_sweep_file(
      R"({"captures": "a.tcap", "frames": ["1-2", "5", "3-4"], "configs": "mobile32",
          "schemes": ["dtexl", "tcor"], "set": {"l1tex.size": [16384, 32768], "l2.ways": 16}})",
      "dir/s.json");
  EXPECT_EQ(f.dir, (std::filesystem::current_path() / "dir").string());
  EXPECT_EQ(f.captures, (std::vector<std::string>{"a.tcap"}));
  EXPECT_EQ(f.frames, (std::vector<std::string>{"1-2", "5", "3-4"}));
  EXPECT_EQ(f.configs, (std::vector<std::string>{"mobile32"}));
  EXPECT_EQ(f.schemes, "dtexl,tcor");
  EXPECT_EQ(f.set[0].second, (std::vector<std::string>{"16384", "32768"}));
  EXPECT_EQ(f.set[1].second, (std::vector<std::string>{"16"}));
  EXPECT_TRUE(f.slurm.options.empty());
  EXPECT_EQ(f.slurm.max_running, 0);

  const SweepFile minimal = parse_sweep_file(R"({"captures": ["a.tcap"]})", "s.json");
  EXPECT_TRUE(minimal.frames.empty());
  EXPECT_TRUE(minimal.configs.empty());
  EXPECT_TRUE(minimal.schemes.empty());
  EXPECT_TRUE(minimal.set.empty());
}

TEST(SweepFile, BadInputIsOneLineNamingTheFileAndTheProblem) {
  EXPECT_EQ(error_of("{\"captures\": [\"a.tcap\",]}"),
            "study.json: not valid JSON: parse error at line 1, column 24: syntax error while parsing value - "
            "unexpected ']'; expected '[', '{', or a literal");
  // A number no double holds is the file's fault too (found by fuzz_specs: it escaped as an
  // exception of the JSON library and ended the process).
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "slurm": {"max_running": 5e1555}})"),
            "study.json: not valid JSON: number overflow parsing '5e1555'");
  EXPECT_EQ(error_of("[\"a.tcap\"]"), "study.json: expected a JSON object with \"captures\" (tessera sweep --example prints one)");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "frame": "1-2"})"),
            "study.json: unknown key 'frame' (known: captures, frames, configs, schemes, set, slurm)");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "configs": ["mobile4"], "configs": ["mobile32"]})"),
            "study.json: key 'configs' appears twice in one object");
  EXPECT_EQ(error_of(R"({"frames": "1-2"})"),
            "study.json: no \"captures\" (a list of .tcap files, relative to the sweep file)");
  EXPECT_EQ(error_of(R"({"captures": []})"), "study.json: captures: empty list");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap", 7]})"), "study.json: captures[1]: expected a string, found number");
  EXPECT_EQ(error_of(R"({"captures": [""]})"), "study.json: captures[0]: empty string");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "frames": "2-1"})"),
            "study.json: frames: '2-1' is not a frame range (A-B or A, presents counted from 1)");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "frames": ["1-3", "0"]})"),
            "study.json: frames[1]: '0' is not a frame range (A-B or A, presents counted from 1)");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "frames": ["1-3", "5-9", "9-12"]})"),
            "study.json: frames: ranges '5-9' and '9-12' overlap");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "set": ["l1tex.size"]})"),
            "study.json: set: expected an object of parameter values, found array");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "set": {"l1tex.size": []}})"), "study.json: set.l1tex.size: empty list");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "set": {"l1tex.size": ["16KiB", "16KiB"]}})"),
            "study.json: set.l1tex.size: value '16KiB' listed twice");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "set": {"l1tex.size": ["16KiB+x"]}})"),
            "study.json: set.l1tex.size: '16KiB+x': a value cannot hold '+' (it separates a configuration's parts)");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "set": {"l1tex.size": [{"a": 1}]}})"),
            "study.json: set.l1tex.size[0]: expected a string or a number, found object");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "slurm": {"partiton": "x"}})"),
            "study.json: slurm: unknown key 'partiton' (known: partition, account, qos, time, mem, mem-per-cpu, "
            "cpus-per-task, constraint, gres, max-running, extra)");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "slurm": {"cpus-per-task": "2"}})"),
            "study.json: slurm.cpus-per-task: expected a whole number of CPUs from 1");
  EXPECT_EQ(error_of(R"({"captures": ["a.tcap"], "slurm": {"max-running": 0}})"),
            "study.json: slurm.max-running: expected a whole number of tasks from 1");
  EXPECT_EQ(error_of("{\"captures\": [\"a.tcap\"], \"slurm\": {\"time\": \"1:00\\n#SBATCH --x\"}}"),
            "study.json: slurm.time: a line break inside a value");
}

TEST(SweepFile, AnUnreadableFileIsNamed) {
  testing::TempPath path("missing.json");
  try {
    read_sweep_file(path.str());
    FAIL();
  } catch (const SweepError& e) {
    EXPECT_EQ(std::string(e.what()), path.str() + ": cannot read the sweep file: No such file or directory");
  }
}

}  // namespace
}  // namespace tessera::sweep
