// Planning a sweep (sweep/sweep_plan.h): the configurations replay would run, the jobs, and
// what a database that already holds some runs leaves to do.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tessera/study/configurations.h"
#include "results_db.h"
#include "scene.h"
#include "sweep_plan.h"
#include "tessera/model/configuration.h"
#include "test_util.h"

namespace tessera::sweep {
namespace {

using testing::TempPath;

std::vector<std::string> names(const std::vector<SweepConfig>& configs) {
  std::vector<std::string> out;
  for (const auto& c : configs) out.push_back(c.name);
  return out;
}

SweepFile file_with(const std::string& json) { return parse_sweep_file(json, "study.json"); }

std::string plan_error(const SweepFile& f) {
  try {
    plan_sweep(f);
  } catch (const SweepError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SweepConfigs, TheGridMultipliesTheConfigurations) {
  const auto configs = sweep_configs(file_with(
      R"({"captures": ["a.tcap"], "configs": ["mobile4", "mobile32"],
          "set": {"l1tex.size": ["16KiB", "32KiB"], "l2.size": ["1MiB", "2MiB"]}})"));
  EXPECT_EQ(names(configs), (std::vector<std::string>{
                                "mobile4+l1tex.size=16KiB+l2.size=1MiB", "mobile4+l1tex.size=16KiB+l2.size=2MiB",
                                "mobile4+l1tex.size=32KiB+l2.size=1MiB", "mobile4+l1tex.size=32KiB+l2.size=2MiB",
                                "mobile32+l1tex.size=16KiB+l2.size=1MiB", "mobile32+l1tex.size=16KiB+l2.size=2MiB",
                                "mobile32+l1tex.size=32KiB+l2.size=1MiB", "mobile32+l1tex.size=32KiB+l2.size=2MiB"}));
}

TEST(SweepConfigs, NamesAndParametersAreReplays) {
  // The names replay gives with --config, --schemes and --set, and the parameter sets it stores.
  const auto configs = sweep_configs(file_with(
      R"({"captures": ["a.tcap"], "configs": ["mobile4"], "schemes": "dtexl", "set": {"l1tex.size": "32KiB"}})"));
  const std::vector<std::string> specs = study::run_specs({"mobile4"}, "dtexl");
  const auto replay = model::build_configurations(specs, "", "", {"l1tex.size=32KiB"});
  ASSERT_EQ(configs.size(), replay.size());
  ASSERT_GE(configs.size(), 2u);
  TempPath db_path("r.db");
  auto db = results::ResultsDb::open(db_path.str());
  db->begin();
  for (size_t i = 0; i < replay.size(); ++i) {
    EXPECT_EQ(configs[i].name, replay[i].name);
    const int64_t id = db->put_config(replay[i].name, study::stored_params(replay[i].params));
    std::string stored;
    db->query("SELECT params_hash FROM config WHERE config_id = " + std::to_string(id),
              [&](const auto&, const results::ResultsDb::Row& r) { stored = r.values[0]; });
    EXPECT_EQ(configs[i].params_hash, stored) << configs[i].name;
  }
  db->commit();
}

TEST(SweepConfigs, TheExampleRuns) {
  // tessera sweep --example: each preset with every DTexL variant, times two L1 sizes.
  const auto configs = sweep_configs(parse_sweep_file(example_sweep_file(), "example.json"));
  const size_t variants = study::run_specs({"mobile4"}, "dtexl").size();
  EXPECT_EQ(configs.size(), 2 * variants * 2);
  EXPECT_EQ(configs.front().name, "mobile4+l1tex.size=16KiB+l2.size=2MiB");
  EXPECT_EQ(configs.back().name.rfind("mobile4-64k+dtexl", 0), 0u) << configs.back().name;
}

TEST(SweepConfigs, AGridKeyAppliesWhereTheParameterExists) {
  const auto configs = sweep_configs(file_with(
      R"({"captures": ["a.tcap"], "configs": ["mobile4", "mobile4+dtexl"],
          "set": {"dtexl.grouping": ["CG-square", "CG-xrect"]}})"));
  EXPECT_EQ(names(configs), (std::vector<std::string>{"mobile4", "mobile4+dtexl+dtexl.grouping=CG-square",
                                                      "mobile4+dtexl+dtexl.grouping=CG-xrect"}));
}

TEST(SweepConfigs, UnknownNamesAreRefusedNamingTheFile) {
  auto error = [](const std::string& json) {
    try {
      sweep_configs(file_with(json));
    } catch (const SweepError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(error(R"({"captures": ["a.tcap"], "configs": ["mobile5"]})").rfind(
                "study.json: configs: configuration 'mobile5': unknown preset 'mobile5' (known: mobile4, mobile32", 0),
            0u);
  EXPECT_EQ(error(R"({"captures": ["a.tcap"], "configs": ["mobile4+nope"]})"),
            "study.json: configs: configuration 'mobile4+nope': unknown scheme 'nope' (tessera schemes --list names every one)");
  EXPECT_EQ(error(R"({"captures": ["a.tcap"], "schemes": "nope"})"),
            "study.json: schemes: unknown scheme 'nope' (tessera schemes lists them)");
  EXPECT_EQ(error(R"({"captures": ["a.tcap"], "configs": ["mobile4"], "set": {"dtexl.grouping": "CG-xrect"}})"),
            "study.json: set: no configuration of this sweep has the parameter 'dtexl.grouping' (a parameter of "
            "scheme dtexl)");
  EXPECT_EQ(error(R"({"captures": ["a.tcap"], "configs": ["mobile4"], "set": {"l1tex.sise": "32KiB"}})").rfind(
                "study.json: set: unknown parameter 'l1tex.sise'", 0),
            0u);
  EXPECT_EQ(error(R"({"captures": ["a.tcap"], "configs": ["mobile4"], "set": {"l1tex.size": "big"}})").rfind(
                "study.json: set: configuration 'mobile4+l1tex.size=big': ", 0),
            0u);
  // A scheme's check against the GPU, made when its model is built.
  EXPECT_EQ(error(R"({"captures": ["a.tcap"], "configs": ["mobile32+dtexl-group-cg-triangle"]})"),
            "study.json: configuration 'mobile32+dtexl-group-cg-triangle': dtexl.grouping=CG-triangle needs 4 shader "
            "cores (gpu.shader_cores is 32)");
}

class SweepPlan : public ::testing::Test {
 protected:
  void SetUp() override {
    synthetic::SceneOptions scene;
    scene.frames = 4;  // presents 1-4
    scene.textures = 1;
    scene.texture_size = 16;
    ASSERT_EQ(synthetic::write_scene_file(dir_.sibling("a.tcap"), scene), "");
    scene.seed = 2;
    ASSERT_EQ(synthetic::write_scene_file(dir_.sibling("b.tcap"), scene), "");
  }
  SweepFile sweep(const std::string& body) { return parse_sweep_file(body, dir_.sibling("study.json")); }

  TempPath dir_{"study.json"};
};

TEST_F(SweepPlan, OneJobPerCaptureAndFrameRange) {
  const SweepFile f = sweep(R"({"captures": ["a.tcap", "b.tcap"], "frames": ["2", "3-4"], "configs": ["mobile4", "mobile32"]})");
  const Plan plan = plan_sweep(f);
  EXPECT_EQ(plan.captures, 2u);
  EXPECT_EQ(plan.ranges, 2u);
  EXPECT_EQ(plan.complete_jobs, 0u);
  ASSERT_EQ(plan.jobs.size(), 4u);
  EXPECT_EQ(plan.jobs[0].capture, "a.tcap");
  EXPECT_EQ(plan.jobs[0].frames, "2");
  EXPECT_EQ(plan.jobs[1].frames, "3-4");
  EXPECT_EQ(plan.jobs[2].capture, "b.tcap");
  EXPECT_EQ(plan.jobs[0].dir, f.dir);
  EXPECT_EQ(plan.jobs[0].configs, (std::vector<std::string>{"mobile4", "mobile32"}));
  // Frames shaded (every frame up to the range's last) x (configurations + 1).
  EXPECT_EQ(plan.jobs[0].weight, 2u * 3u);
  EXPECT_EQ(plan.jobs[1].weight, 4u * 3u);
  EXPECT_EQ(plan.jobs[0].key.rfind("a-2-", 0), 0u) << plan.jobs[0].key;
  EXPECT_EQ(plan.jobs[1].key.rfind("a-3-4-", 0), 0u) << plan.jobs[1].key;
  EXPECT_NE(plan.jobs[0].fingerprint, plan.jobs[2].fingerprint);
  // The same sweep plans the same keys.
  EXPECT_EQ(plan_sweep(f).jobs[3].key, plan.jobs[3].key);

  const Plan all_frames = plan_sweep(sweep(R"({"captures": ["a.tcap"]})"));
  ASSERT_EQ(all_frames.jobs.size(), 1u);
  EXPECT_EQ(all_frames.jobs[0].frames, "");
  EXPECT_EQ(frames_label(all_frames.jobs[0].frames), "all");
  EXPECT_EQ(all_frames.jobs[0].configs, (std::vector<std::string>{"mobile4", "mobile32"}));  // replay's default
}

TEST_F(SweepPlan, WhatTheDatabaseHoldsIsLeftOut) {
  const SweepFile f = sweep(R"({"captures": ["a.tcap", "b.tcap"], "frames": "3-4", "configs": ["mobile4", "mobile32"]})");
  const Plan fresh = plan_sweep(f);
  std::set<results::MergedRun> merged;
  // Every configuration of a.tcap's job, and mobile4 of b.tcap's; mobile32 of b.tcap over other
  // frames does not count.
  for (const SweepConfig& c : fresh.configs) merged.insert({fresh.jobs[0].fingerprint, c.name, c.params_hash, "3-4"});
  merged.insert({fresh.jobs[1].fingerprint, fresh.configs[0].name, fresh.configs[0].params_hash, "3-4"});
  merged.insert({fresh.jobs[1].fingerprint, fresh.configs[1].name, fresh.configs[1].params_hash, "all"});
  Plan rest = plan_sweep(f);
  leave_out_merged(rest, merged);
  EXPECT_EQ(rest.complete_jobs, 1u);
  ASSERT_EQ(rest.jobs.size(), 1u);
  EXPECT_EQ(rest.jobs[0].capture, "b.tcap");
  EXPECT_EQ(rest.jobs[0].configs, (std::vector<std::string>{"mobile32"}));
  EXPECT_NE(rest.jobs[0].key, fresh.jobs[1].key);  // another job: its database is another file
  // Another parameter set under the same name is not the same run.
  std::set<results::MergedRun> other;
  for (const SweepConfig& c : fresh.configs) other.insert({fresh.jobs[0].fingerprint, c.name, "0", "3-4"});
  Plan again = plan_sweep(f);
  leave_out_merged(again, other);
  EXPECT_EQ(again.complete_jobs, 0u);
}

TEST_F(SweepPlan, CapturesThatCannotBeUsedAreNamed) {
  EXPECT_EQ(plan_error(sweep(R"({"captures": ["a.tcap", "missing.tcap"]})")),
            dir_.sibling("study.json") + ": captures[1]: " + dir_.sibling("missing.tcap") +
                ": cannot open: No such file or directory");
  std::filesystem::copy_file(dir_.sibling("a.tcap"), dir_.sibling("copy.tcap"));
  EXPECT_EQ(plan_error(sweep(R"({"captures": ["a.tcap", "copy.tcap"]})")),
            dir_.sibling("study.json") + ": captures[1]: copy.tcap is the same capture as a.tcap");
  EXPECT_EQ(plan_error(sweep(R"({"captures": ["a.tcap"], "frames": ["1-2", "7-9"]})")),
            dir_.sibling("study.json") + ": frames '7-9': a.tcap holds presents 1-4, none in the range");
}

}  // namespace
}  // namespace tessera::sweep
