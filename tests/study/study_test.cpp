// The study as a library (study/include/tessera/study/study.h) on captures built with the capture
// writer: frames that each draw a triangle over a 4x4 target (GLSL compiled at build time, the
// render tests' shaders) and then fill a buffer and copy it to the swapchain image they present,
// so the replayed image equals the presented one exactly. What a study reports, which frames it
// reports, what reaches the sink and the database, and its one-line errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <iterator>
#include <string>
#include <thread>
#include <sys/wait.h>
#include <tuple>
#include <utility>
#include <vector>

#include "../capture/test_util.h"
#include "../frontend/capture_builder.h"
#include "../frontend/scene.h"
#include "results_db.h"
#include "tessera/study/study.h"

namespace tessera::study {
namespace {

using frontend::testing::CaptureBuilder;
using frontend::testing::Scene;
namespace cap = tessera::capture;

constexpr uint64_t kSwapchain = 0xe0, kImage0 = 0xe1;
constexpr uint64_t kVert = 0x802, kFrag = 0x803, kPipeline = 0x701;

std::vector<uint8_t> spirv(const std::string& name) {
  std::ifstream in(std::string(TESSERA_RENDER_SPV_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A pipeline of the scene's with the render tests' colour shaders: a position and a colour per
// vertex, 32 bytes apart.
void write_pipeline(CaptureBuilder& b, Scene& s) {
  const std::vector<uint8_t> vert = spirv("color.vert.spv"), frag = spirv("color.frag.spv");
  const cap::Hash128 vh = b.blob(vert), fh = b.blob(frag);
  b.object(cap::ShaderModuleRecord{kVert, vh, vert.size()});
  b.object(cap::ShaderModuleRecord{kFrag, fh, frag.size()});
  cap::GraphicsPipelineRecord p = s.pipeline(kPipeline, {});
  p.stages.clear();
  p.stages.push_back({VK_SHADER_STAGE_VERTEX_BIT, kVert, vh, "main", {}, {}});
  p.stages.push_back({VK_SHADER_STAGE_FRAGMENT_BIT, kFrag, fh, "main", {}, {}});
  p.vertex_bindings = {{0, 32, VK_VERTEX_INPUT_RATE_VERTEX, 1}};
  p.vertex_attributes = {{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16}};
  b.object(p);
}

// One triangle covering the 4x4 target, in a colour of frame p's.
void draw_triangle(CaptureBuilder& b, uint32_t p) {
  const float c = 0.1f * static_cast<float>(p);
  const float vertices[3][8] = {{-1, -1, 0, 1, c, 0.5f, 0, 1}, {3, -1, 0, 1, c, 0.5f, 0, 1}, {-1, 3, 0, 1, c, 0.5f, 0, 1}};
  std::vector<uint8_t> bytes(sizeof vertices);
  std::memcpy(bytes.data(), vertices, sizeof vertices);
  b.cmd(cap::CmdUpdateBufferRecord{Scene::kBuffer, 0, bytes});
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, kPipeline});
  b.cmd(cap::CmdBindVertexBuffersRecord{0, {Scene::kBuffer}, {0}, {}, {}});
  b.cmd(cap::CmdDrawRecord{3, 1, 0, 0});
  b.cmd(cap::CmdEndRenderPassRecord{});
}

// Frame p draws its triangle, then fills the buffer with a pattern of its own, copies 2x1 texels
// of it to the swapchain image and presents the pixels the copy wrote.
void write_capture(CaptureBuilder& b, uint32_t frames) {
  Scene s;
  s.write(b);
  write_pipeline(b, s);
  b.object(cap::SwapchainRecord{kSwapchain, VK_FORMAT_B8G8R8A8_UNORM, 0, 2, 1, 1,
                                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, {kImage0}});
  for (uint32_t p = 1; p <= frames; ++p) {
    b.begin_frame(p);
    draw_triangle(b, p);
    const uint32_t word = 0x10203000u + p;
    b.cmd(cap::CmdFillBufferRecord{Scene::kBuffer, 0, 8, word});
    cap::CmdCopyRecord copy{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, kImage0, 0, 0, 0, {}};
    copy.regions = {frontend::testing::box(0, 0, 2, 1, 0, 0, 2, 1)};
    b.cmd(copy);
    b.submit();
    std::vector<uint8_t> pixels;
    for (int texel = 0; texel < 2; ++texel) {
      for (int byte = 0; byte < 4; ++byte) pixels.push_back(static_cast<uint8_t>(word >> (8 * byte)));
    }
    b.object(cap::PresentedImageRecord{kSwapchain, 0, VK_FORMAT_B8G8R8A8_UNORM, 2, 1, b.blob(pixels)});
    b.end_frame();
  }
  (void)b.finish();
}

// Records what reaches it.
class RecordingSink final : public Sink {
 public:
  void begin() override { ++begins; }
  void progress(size_t, size_t frames, std::string_view what) override {
    ++progress_calls;
    total = frames;
    last_step = std::string(what);
  }
  void images(uint32_t present, uint32_t width, uint32_t height, std::span<const uint8_t> replayed,
              std::span<const uint8_t> presented) override {
    presents.push_back(present);
    EXPECT_EQ(width, 2u);
    EXPECT_EQ(height, 1u);
    EXPECT_TRUE(std::equal(replayed.begin(), replayed.end(), presented.begin(), presented.end()));
  }
  void finished(const StudyResults& r) override { finished_frames = r.frames.size(); }
  size_t begins = 0, progress_calls = 0, total = 0, finished_frames = 0;
  std::string last_step;
  std::vector<uint32_t> presents;
};

TEST(Study, ShadeOnlyComparesEveryFrameWithItsPresentedImage) {
  CaptureBuilder b;
  write_capture(b, 3);
  StudySpec spec;
  RecordingSink sink;
  const StudyResults r = run_study(b.path(), spec, sink);
  ASSERT_EQ(r.frames.size(), 3u);
  EXPECT_TRUE(r.runs.empty());
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.frames[i].present, i + 1);
    EXPECT_EQ(r.frames[i].width, 2u);
    ASSERT_TRUE(r.frames[i].psnr_db.has_value()) << r.frames[i].compare_note;
    EXPECT_TRUE(std::isinf(*r.frames[i].psnr_db));
    EXPECT_EQ(r.frames[i].skipped, 0u);
    EXPECT_EQ(r.frames[i].draws, 1u);
    EXPECT_EQ(r.frames[i].stats.quads, 4u);  // the 4x4 target, covered
  }
  EXPECT_EQ(sink.presents, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(sink.finished_frames, 3u);
  EXPECT_EQ(sink.total, 3u);
  EXPECT_EQ(r.capture, b.path());
  EXPECT_EQ(r.capture_frames, 3u);
  EXPECT_EQ(r.fingerprint.size(), 32u);
}

TEST(Study, OnlyTheChosenPresentsAreReportedAndSimulated) {
  CaptureBuilder b;
  write_capture(b, 3);
  StudySpec spec;
  spec.first = spec.last = 2;
  spec.configurations = {model::parse_configuration("mobile4"), model::parse_configuration("mobile4+dtexl")};
  RecordingSink sink;
  const StudyResults r = run_study(b.path(), spec, sink);
  ASSERT_EQ(r.frames.size(), 1u);
  EXPECT_EQ(r.frames[0].present, 2u);
  // Frame 3 is past the range: not even replayed.
  EXPECT_EQ(sink.total, 2u);
  EXPECT_EQ(sink.presents, (std::vector<uint32_t>{2}));
  ASSERT_EQ(r.runs.size(), 2u);
  for (const ConfigurationRun& run : r.runs) {
    ASSERT_EQ(run.frames.size(), 1u) << run.configuration.name;
    EXPECT_EQ(run.frames[0].first, 0u);
    EXPECT_FALSE(std::isnan(run.frames[0].second.metric("cycles")));
  }
  EXPECT_EQ(r.runs[1].configuration.name, "mobile4+dtexl");
}

TEST(Study, ResultsDoNotDependOnTheThreads) {
  CaptureBuilder b;
  write_capture(b, 2);
  StudySpec spec;
  spec.configurations = {model::parse_configuration("mobile4"), model::parse_configuration("mobile32"),
                         model::parse_configuration("mobile4+tcor")};
  Sink none;
  spec.threads = 1;
  const StudyResults one = run_study(b.path(), spec, none);
  spec.threads = 4;
  const StudyResults four = run_study(b.path(), spec, none);
  ASSERT_EQ(one.runs.size(), four.runs.size());
  for (size_t k = 0; k < one.runs.size(); ++k) {
    ASSERT_EQ(one.runs[k].frames.size(), 2u);
    for (size_t f = 0; f < 2; ++f) {
      const model::FrameResults &a = one.runs[k].frames[f].second, &b4 = four.runs[k].frames[f].second;
      EXPECT_GT(a.metric("cycles"), 0);
      EXPECT_EQ(a.metric("quads"), 4);
      EXPECT_EQ(a.frame_metrics, b4.frame_metrics);
      ASSERT_EQ(a.tile_metrics.size(), b4.tile_metrics.size());
      for (size_t t = 0; t < a.tile_metrics.size(); ++t) {
        EXPECT_EQ(a.tile_metrics[t].metric, b4.tile_metrics[t].metric);
        EXPECT_EQ(a.tile_metrics[t].value, b4.tile_metrics[t].value);
      }
      ASSERT_EQ(a.core_metrics.size(), b4.core_metrics.size());
      for (size_t c = 0; c < a.core_metrics.size(); ++c) EXPECT_EQ(a.core_metrics[c].value, b4.core_metrics[c].value);
    }
  }
}

// A frame's comparison, profile and model runs go on while the next frame is shaded; an error
// among them is still the first a study meets in frame order, whatever the threads.
class ThrowingSink final : public Sink {
 public:
  explicit ThrowingSink(uint32_t at) : at_(at) {}
  void images(uint32_t present, uint32_t, uint32_t, std::span<const uint8_t>, std::span<const uint8_t>) override {
    presents.push_back(present);
    if (present == at_) throw std::runtime_error("sink refused frame " + std::to_string(present));
  }
  void finished(const StudyResults&) override { ++finished_calls; }
  std::vector<uint32_t> presents;
  int finished_calls = 0;

 private:
  uint32_t at_;
};

TEST(Study, AnErrorAfterAFramesShadingIsTheFirstInFrameOrderWhateverTheThreads) {
  CaptureBuilder b;
  write_capture(b, 4);
  for (unsigned threads : {1u, 2u, 4u}) {
    for (uint32_t at : {1u, 3u}) {
      SCOPED_TRACE(std::to_string(threads) + " threads, sink throws at " + std::to_string(at));
      StudySpec spec;
      spec.threads = threads;
      spec.configurations = {model::parse_configuration("mobile4"), model::parse_configuration("mobile4+dtexl")};
      ThrowingSink sink(at);
      try {
        (void)run_study(b.path(), spec, sink);
        FAIL() << "no error";
      } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "sink refused frame " + std::to_string(at));
      }
      std::vector<uint32_t> upto;
      for (uint32_t p = 1; p <= at; ++p) upto.push_back(p);
      EXPECT_EQ(sink.presents, upto);  // in frame order, none after the error
      EXPECT_EQ(sink.finished_calls, 0);
    }
  }
}

// Two errors, the later one in frame order met first in time: the sink's progress line for the
// fourth frame's shading fails at once, while handing over the second frame's images (queued
// behind the first frame's model runs, run while the study's thread waits) sleeps and then
// fails. One after the other the second frame's images come first, so theirs is the error.
class TwoErrorSink final : public Sink {
 public:
  void progress(size_t, size_t, std::string_view what) override {
    if (what.rfind("frame 4: shading", 0) == 0) throw std::runtime_error("progress refused frame 4");
  }
  void images(uint32_t present, uint32_t, uint32_t, std::span<const uint8_t>, std::span<const uint8_t>) override {
    presents.push_back(present);
    if (present == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      throw std::runtime_error("sink refused frame 2");
    }
  }
  std::vector<uint32_t> presents;
};

TEST(Study, TheFirstErrorInFrameOrderWinsOverAnEarlierOneInTime) {
  CaptureBuilder b;
  write_capture(b, 4);
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(std::to_string(threads) + " threads");
    StudySpec spec;
    spec.threads = threads;
    spec.configurations = {model::parse_configuration("mobile4")};
    TwoErrorSink sink;
    try {
      (void)run_study(b.path(), spec, sink);
      FAIL() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), "sink refused frame 2");
    }
    EXPECT_EQ(sink.presents, (std::vector<uint32_t>{1, 2}));
  }
}

// More threads than the system gives (a thread limit): the study still runs, on the workers it
// needs (every configuration's run and the index), not one per --threads.
TEST(Study, AHugeThreadCountRunsAsTheSerialStudy) {
  CaptureBuilder b;
  write_capture(b, 2);
  StudySpec spec;
  spec.configurations = {model::parse_configuration("mobile4")};
  spec.threads = 1;
  RecordingSink one;
  const StudyResults a = run_study(b.path(), spec, one);
  spec.threads = 100000;
  RecordingSink many;
  const StudyResults c = run_study(b.path(), spec, many);
  ASSERT_EQ(a.runs.size(), c.runs.size());
  ASSERT_EQ(a.runs[0].frames.size(), c.runs[0].frames.size());
  for (size_t f = 0; f < a.runs[0].frames.size(); ++f) {
    EXPECT_EQ(a.runs[0].frames[f].second.cycles, c.runs[0].frames[f].second.cycles);
  }
}

TEST(Study, TheDatabaseSinkStoresOneRunPerConfiguration) {
  CaptureBuilder b;
  write_capture(b, 2);
  tessera::testing::TempPath path("study.db");
  auto db = results::ResultsDb::open(path.str());
  StudySpec spec;
  spec.configurations = {model::parse_configuration("mobile4"), model::parse_configuration("mobile4+dtexl")};
  DatabaseSink sink(*db);
  (void)run_study(b.path(), spec, sink);
  std::vector<std::string> rows;
  db->query("SELECT config, frame, value FROM frame_metrics WHERE metric = 'replay.psnr_db' ORDER BY config, frame",
            [&](const std::vector<std::string>&, const results::ResultsDb::Row& row) {
              std::string line;
              for (const std::string& v : row.values) line += (line.empty() ? "" : "|") + v;
              rows.push_back(line);
            });
  // An exact match is stored as 999 dB (replay_metrics).
  EXPECT_EQ(rows, (std::vector<std::string>{"mobile4|1|999.0", "mobile4|2|999.0", "mobile4+dtexl|1|999.0",
                                            "mobile4+dtexl|2|999.0"}));
}

TEST(Study, ErrorsAreOneLineNamingTheCapture) {
  RecordingSink sink;
  try {
    (void)run_study("/nonexistent/frames.tcap", StudySpec{}, sink);
    FAIL() << "no error";
  } catch (const StudyError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("/nonexistent/frames.tcap"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  CaptureBuilder b;
  write_capture(b, 2);
  StudySpec past;
  past.first = 5;
  past.last = 9;
  try {
    (void)run_study(b.path(), past, sink);
    FAIL() << "no error";
  } catch (const NoFrameInRange& e) {
    EXPECT_EQ(std::string(e.what()), b.path() + ": no captured frame among presents 5-9");
  }
  EXPECT_EQ(sink.finished_frames, 0u);
  // A configuration the model refuses is refused before the sink begins.
  StudySpec refused;
  refused.configurations = {model::parse_configuration("mobile4+l2.policy=dead-line")};
  const size_t begins = sink.begins;
  EXPECT_THROW((void)run_study(b.path(), refused, sink), model::ParamError);
  EXPECT_EQ(sink.begins, begins);
}

// What `tessera replay` prints on stderr and its exit status, for `args` after the subcommand.
std::pair<std::string, int> tessera_replay(const std::string& args) {
  const std::string command = std::string(TESSERA_CLI) + " replay " + args + " --no-model --quiet 2>&1 >/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  char buf[512];
  while (pipe != nullptr && std::fgets(buf, sizeof buf, pipe) != nullptr) out += buf;
  const int status = pipe != nullptr ? pclose(pipe) : -1;
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

// A capture like write_capture's whose frame 1 draws `vertices` vertices instead of 3.
void write_huge_draw(CaptureBuilder& b, uint32_t vertices) {
  Scene s;
  s.write(b);
  write_pipeline(b, s);
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_GRAPHICS, kPipeline});
  b.cmd(cap::CmdBindVertexBuffersRecord{0, {Scene::kBuffer}, {0}, {}, {}});
  b.cmd(cap::CmdDrawRecord{vertices, 1, 0, 0});
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  b.end_frame();
  (void)b.finish();
}

// A capture whose frame 1 dispatches fill_buffer.comp (one invocation per workgroup writing
// every word of a 64 MiB storage buffer in one loop) over x * y * z workgroups. Returns the
// shader's hash, the one the replay names it by.
std::string write_fill_dispatch(CaptureBuilder& b, uint32_t x, uint32_t y, uint32_t z) {
  constexpr uint64_t kMemory = 0x110, kBuffer = 0x210, kSetLayout = 0x520, kLayout = 0x620, kPipe = 0x720,
                     kModule = 0x804, kSet = 0xa11;
  constexpr uint64_t kBytes = uint64_t{64} << 20;
  b.object(cap::MemoryAllocRecord{kMemory, kBytes, 0, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT});
  b.object(cap::BufferRecord{kBuffer, kBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, {}});
  b.object(cap::MemoryBindRecord{kBuffer, 0, kMemory, 0});
  cap::DescriptorSetLayoutRecord sl;
  sl.layout = kSetLayout;
  sl.bindings.push_back({0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, {}});
  b.object(sl);
  cap::PipelineLayoutRecord pl;
  pl.layout = kLayout;
  pl.set_layouts = {kSetLayout};
  b.object(pl);
  const std::vector<uint8_t> comp = spirv("fill_buffer.comp.spv");
  const cap::Hash128 hash = b.blob(comp);
  b.object(cap::ShaderModuleRecord{kModule, hash, comp.size()});
  b.object(cap::ComputePipelineRecord{kPipe, kLayout, 0, {VK_SHADER_STAGE_COMPUTE_BIT, kModule, hash, "main", {}, {}}});
  b.object(cap::DescriptorSetAllocRecord{kSet, kSetLayout});
  cap::DescriptorUpdateRecord up;
  cap::DescriptorWrite w;
  w.set = kSet;
  w.binding = 0;
  w.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  w.buffers = {{kBuffer, 0, kBytes}};
  up.writes.push_back(w);
  b.object(up);
  b.begin_frame(1);
  b.cmd(cap::CmdBindPipelineRecord{VK_PIPELINE_BIND_POINT_COMPUTE, kPipe});
  b.cmd(cap::CmdBindDescriptorSetsRecord{VK_PIPELINE_BIND_POINT_COMPUTE, kLayout, 0, {kSet}, {}});
  b.cmd(cap::CmdDispatchRecord{x, y, z, 0, 0});
  b.submit();
  b.end_frame();
  (void)b.finish();
  return hash.hex();
}

TEST(StudyBounds, AShaderThatNeverEndsStopsTheStudyNamingTheFrameTheDispatchAndTheShader) {
  CaptureBuilder b;
  const std::string hash = write_fill_dispatch(b, 1, 1, 1);
  StudySpec spec;
  RecordingSink sink;
  try {
    (void)run_study(b.path(), spec, sink);
    FAIL() << "no error";
  } catch (const ReplayRefused& e) {
    EXPECT_EQ(std::string(e.what()), b.path() + ": frame 1: dispatch 0 (1x1x1 workgroups): compute shader " + hash +
                                         ": exceeded 16777216 block executions in one batch (the replay's "
                                         "watchdog: a shader that never ends, or one too long to replay)");
  }
  EXPECT_EQ(sink.finished_frames, 0u);
}

TEST(StudyBounds, ABillionVertexDrawStopsTheStudyNamingTheFrameAndTheDraw) {
  CaptureBuilder b;
  write_huge_draw(b, 1'000'000'000);
  StudySpec spec;
  spec.max_memory = uint64_t{1} << 30;
  RecordingSink sink;
  try {
    (void)run_study(b.path(), spec, sink);
    FAIL() << "no error";
  } catch (const StudyError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(b.path() + ": frame 1: draw 0 (pass 0, 1000000000 vertices x 1 instances): its vertex "
                                    "stage needs ", 0),
              0u)
        << what;
    EXPECT_NE(what.find(", beyond the replay's memory budget of 1.0 GiB ("), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  EXPECT_EQ(sink.finished_frames, 0u);
}

// A refusal exits 3 (study::kExitReplayRefused, docs/contracts.md), not 1: a sweep does not run
// again what every attempt would refuse.
TEST(StudyBounds, TheCliRefusesHostileSizesWithOneLineAndAFailingExit) {
  // A 65537-wide image: wider than any device creates, whatever the budget. And a 65536x65536
  // one, an extent a device reports: refused by the budget (16 GiB), given explicitly so the
  // test never allocates it on a large machine.
  const auto write_image = [](CaptureBuilder& b, uint32_t width, uint32_t height) {
    b.begin_frame(1);
    cap::ImageRecord huge;
    huge.image = 0x3fe;
    huge.image_type = VK_IMAGE_TYPE_2D;
    huge.format = VK_FORMAT_R8G8B8A8_UNORM;
    huge.width = width, huge.height = height;
    huge.depth = huge.mip_levels = huge.array_layers = huge.samples = 1;
    b.object(huge);
    b.end_frame();
    (void)b.finish();
  };
  CaptureBuilder wide;
  write_image(wide, 65537, 16);
  EXPECT_EQ(tessera_replay(wide.path() + " --max-memory 1G"),
            std::make_pair("tessera replay: " + wide.path() +
                               ": frame 1: image 0x3fe (65537x16x1, 1 mips, 1 layers): refused: extent beyond 65536, "
                               "more than any Vulkan implementation reports (the largest, Mesa's panvk, 65536) (Vulkan "
                               "spec \"Image Creation Limits\")\n",
                           study::kExitReplayRefused));
  CaptureBuilder image;
  write_image(image, 65536, 65536);
  EXPECT_EQ(tessera_replay(image.path() + " --max-memory 4G"),
            std::make_pair("tessera replay: " + image.path() +
                               ": frame 1: image 0x3fe (65536x65536x1, 1 mips, 1 layers) needs 16.0 GiB, beyond the "
                               "replay's memory budget of 4.0 GiB (0 B already held; --max-memory sets it)\n",
                           study::kExitReplayRefused));

  CaptureBuilder draw;
  write_huge_draw(draw, 1'000'000'000);
  auto [line, status] = tessera_replay(draw.path() + " --max-memory 1G");
  EXPECT_EQ(status, study::kExitReplayRefused);
  EXPECT_EQ(line.rfind("tessera replay: " + draw.path() +
                           ": frame 1: draw 0 (pass 0, 1000000000 vertices x 1 instances): its vertex stage needs ",
                       0),
            0u)
      << line;
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;

  // An ordinary capture under a budget too small for its memory objects.
  CaptureBuilder normal;
  write_capture(normal, 1);
  std::tie(line, status) = tessera_replay(normal.path() + " --max-memory 2K");
  EXPECT_EQ(status, study::kExitReplayRefused);
  EXPECT_EQ(line.rfind("tessera replay: " + normal.path() + ": global records: memory 0x", 0), 0u) << line;
  EXPECT_NE(line.find(", beyond the replay's memory budget of 2.0 KiB ("), std::string::npos) << line;
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
  EXPECT_EQ(tessera_replay(normal.path() + " --max-memory 64M"), std::make_pair(std::string(), 0));

  // A shader writing every word of a 64 MiB storage buffer from one invocation: stopped by the
  // watchdog. And a dispatch of 65535^3 workgroups: refused before any runs.
  CaptureBuilder endless;
  const std::string hash = write_fill_dispatch(endless, 1, 1, 1);
  EXPECT_EQ(tessera_replay(endless.path()),
            std::make_pair("tessera replay: " + endless.path() + ": frame 1: dispatch 0 (1x1x1 workgroups): compute "
                               "shader " + hash + ": exceeded 16777216 block executions in one batch (the replay's "
                               "watchdog: a shader that never ends, or one too long to replay)\n",
                           study::kExitReplayRefused));
  CaptureBuilder grid;
  (void)write_fill_dispatch(grid, 65535, 65535, 65535);
  EXPECT_EQ(tessera_replay(grid.path()),
            std::make_pair("tessera replay: " + grid.path() + ": frame 1: dispatch 0 (65535x65535x65535 workgroups): "
                               "more than 2^27 compute shader invocations, beyond what the replay runs for one "
                               "dispatch\n",
                           study::kExitReplayRefused));

  EXPECT_EQ(tessera_replay(normal.path() + " --max-memory lots"),
            std::make_pair(std::string("tessera replay: --max-memory 'lots': expected a size in bytes, or with K, M, "
                                       "G or T (512M, 12G)\n"),
                           2));
}

}  // namespace
}  // namespace tessera::study
