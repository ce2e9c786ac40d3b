// tessera capture [--frames A-B] [--frame-boundary present|submit|marker] [--readback present|passes] [--gl] -o FILE -- APP [ARGS]: runs APP with the capture layer
// enabled through the loader's environment variables, then says where the capture went.
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.h"
#include "tessera/capture/frame_range.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"

namespace tessera::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kLayerName = "VK_LAYER_TESSERA_capture";
constexpr const char* kManifest = "VkLayer_tessera_capture.json";

struct CaptureOptions {
  std::string frames = "1";
  uint32_t trigger = 0;  // > 0: capture this many frames once OUTPUT.trigger appears
  uint32_t arm_draws = 0;  // > 0 (with trigger): or once arm_frames frames in a row drew this many draws
  uint32_t arm_frames = 3;
  bool gl = false;
  std::string boundary = "present";  // what ends a frame (layer/config.h, FrameBoundary)
  std::string readback = "present";  // what is read back besides (layer/config.h, ReadbackKind)
  std::string output;
  std::vector<std::string> command;
};

// The layer beside tessera: <dir of tessera>/../layer in a build tree (build/bin/tessera and
// build/layer, docs/contracts.md), <prefix>/share/vulkan/explicit_layer.d when installed;
// TESSERA_LAYER_DIR overrides both.
std::string find_layer_dir(std::string* error) {
  fs::path dir;
  std::error_code ec;
  if (const char* env = std::getenv("TESSERA_LAYER_DIR"); env != nullptr && *env != '\0') {
    dir = env;
  } else {
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) {
      *error = "cannot locate the tessera executable: " + ec.message();
      return {};
    }
    const fs::path prefix = exe.parent_path().parent_path();
    dir = prefix / "layer";
    if (const fs::path installed = prefix / "share/vulkan/explicit_layer.d";
        !fs::exists(dir / kManifest, ec) && fs::exists(installed / kManifest, ec)) {
      dir = installed;
    }
  }
  if (!fs::exists(dir / kManifest, ec)) {
    *error = (dir / kManifest).string() + ": layer manifest not found (build the " +
             "VkLayer_tessera_capture target, or set TESSERA_LAYER_DIR)";
    return {};
  }
  return fs::absolute(dir, ec).lexically_normal().string();
}

std::string joined(const char* name, const std::string& value, bool prepend) {
  const char* old = std::getenv(name);
  if (old == nullptr || *old == '\0') return value;
  return prepend ? value + ":" + old : std::string(old) + ":" + value;
}

// Runs argv with the environment set; the child's exit code (128 + signal when killed).
int run_app(const std::vector<std::string>& command, const std::vector<std::pair<std::string, std::string>>& env,
            std::string* error) {
  std::vector<char*> argv;
  for (const auto& a : command) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    *error = std::string("fork failed: ") + std::strerror(errno);
    return -1;
  }
  if (pid == 0) {
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    execvp(argv[0], argv.data());
    std::fprintf(stderr, "tessera capture: %s: %s\n", argv[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      *error = std::string("waitpid failed: ") + std::strerror(errno);
      return -1;
    }
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

// A short summary of what was captured: frames, shaders, draws, presented images.
void print_summary(const std::string& path) {
  std::string error;
  auto reader = capture::CaptureReader::open(path, &error);
  if (!reader) {
    std::fprintf(stderr, "tessera capture: %s\n", error.c_str());
    return;
  }
  const auto& by_kind = reader->summary().records_by_kind;
  auto count = [&](uint32_t kind) {
    auto it = by_kind.find(kind);
    return it == by_kind.end() ? 0ull : static_cast<unsigned long long>(it->second);
  };
  using capture::RecordKind;
  using capture::VkRecordKind;
  auto k = [](auto e) { return static_cast<uint32_t>(e); };
  const auto draws = count(k(VkRecordKind::kCmdDraw)) + count(k(VkRecordKind::kCmdDrawIndexed)) +
                     count(k(VkRecordKind::kCmdDrawIndirect));
  const auto& frames = reader->frames();
  std::printf("capture written to %s\n", path.c_str());
  std::printf("  frames %zu", frames.size());
  if (!frames.empty()) std::printf(" (presents %u-%u)", frames.front().present, frames.back().present);
  std::printf(", draws %llu, shader modules %llu, pipelines %llu, presented images %llu, "
              "%llu bytes\n",
              draws, count(k(RecordKind::kShaderModule)),
              count(k(VkRecordKind::kGraphicsPipeline)) + count(k(VkRecordKind::kComputePipeline)),
              count(k(RecordKind::kPresentedImage)),
              static_cast<unsigned long long>(reader->summary().file_bytes));
}

int run_capture(const CaptureOptions& opt) {
  if (uint32_t first = 0, last = 0; !capture::parse_frame_range(opt.frames, &first, &last)) {
    std::fprintf(stderr, "tessera capture: --frames '%s': expected A-B or A, frames counted from 1\n",
                 opt.frames.c_str());
    return 2;
  }
  if (opt.readback != "present" && opt.readback != "passes") {
    std::fprintf(stderr, "tessera capture: --readback '%s': expected present or passes\n", opt.readback.c_str());
    return 2;
  }
  std::string error;
  const std::string layer_dir = find_layer_dir(&error);
  if (layer_dir.empty()) {
    std::fprintf(stderr, "tessera capture: %s\n", error.c_str());
    return 2;
  }
  std::error_code ec;
  // Absolute: the application may change its working directory.
  const std::string output = fs::absolute(opt.output, ec).lexically_normal().string();
  fs::remove(output, ec);  // a stale file from an earlier run must not pass for this capture
  std::vector<std::pair<std::string, std::string>> env = {
      {"VK_ADD_LAYER_PATH", joined("VK_ADD_LAYER_PATH", layer_dir, true)},
      // Listed first so the layer sits nearest the application, above any validation layer
      // the user enabled (which then also checks what the capture layer inserts).
      {"VK_INSTANCE_LAYERS", joined("VK_INSTANCE_LAYERS", kLayerName, true)},
      {"TESSERA_CAPTURE_FILE", output},
      {"TESSERA_CAPTURE_FRAMES", opt.frames},
      {"TESSERA_CAPTURE_BOUNDARY", opt.boundary},
      {"TESSERA_CAPTURE_READBACK", opt.readback},
  };
  if (opt.trigger > 0) {
    const std::string trigger = output + ".trigger";
    fs::remove(trigger, ec);  // a leftover would fire at the first present
    env.emplace_back("TESSERA_CAPTURE_TRIGGER", trigger);
    env.emplace_back("TESSERA_CAPTURE_TRIGGER_FRAMES", std::to_string(opt.trigger));
    if (opt.arm_draws > 0) {
      env.emplace_back("TESSERA_CAPTURE_ARM_DRAWS", std::to_string(opt.arm_draws));
      env.emplace_back("TESSERA_CAPTURE_ARM_FRAMES", std::to_string(opt.arm_frames));
    }
    std::printf("tessera capture: create %s (touch it) to capture the next %u frames%s\n", trigger.c_str(),
                opt.trigger,
                opt.arm_draws > 0 ? (", or wait for " + std::to_string(opt.arm_frames) + " frames in a row of at least " +
                                     std::to_string(opt.arm_draws) + " draws")
                                        .c_str()
                                  : "");
  }
  if (opt.gl) {
    // OpenGL applications reach Vulkan through Mesa's Zink driver (docs/architecture.md, "Workloads").
    env.emplace_back("MESA_LOADER_DRIVER_OVERRIDE", "zink");
    env.emplace_back("LIBGL_ALWAYS_SOFTWARE", "1");
  }
  const int code = run_app(opt.command, env, &error);
  if (code < 0) {
    std::fprintf(stderr, "tessera capture: %s\n", error.c_str());
    return 1;
  }
  if (!fs::exists(output, ec)) {
    std::fprintf(stderr,
                 "tessera capture: %s: no capture written (the application never created a "
                 "Vulkan instance with the layer; for OpenGL applications use --gl)\n",
                 output.c_str());
    return code != 0 ? code : 1;
  }
  print_summary(output);
  if (code != 0) std::fprintf(stderr, "tessera capture: %s exited with %d\n", opt.command[0].c_str(), code);
  return code;
}

}  // namespace

void setup_capture(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<CaptureOptions>();
  auto* sub = app.add_subcommand("capture", "Run an application with the capture layer and record frames");
  sub->add_option("--frames", opt->frames,
                  "Frames to capture, A-B or A (counted from 1 at each --frame-boundary)")
      ->capture_default_str();
  sub->add_option("--frame-boundary", opt->boundary,
                  "What ends a frame: present (vkQueuePresentKHR), submit (each vkQueueSubmit call with "
                  "command buffers, for applications that never present) or marker (a queue debug label named "
                  "tessera.frame_end)")
      ->check(CLI::IsMember({"present", "submit", "marker"}))
      ->capture_default_str();
  // Checked in run_capture, not by CLI11: a bad value is one line and exit status 2, as --frames.
  sub->add_option("--readback", opt->readback,
                  "What is read back from the device besides each frame's presented image and render targets: "
                  "present (nothing more) or passes (every render pass instance's attachments at its end, "
                  "render_pass_contents records, for comparing a replay pass by pass; copies in every command "
                  "buffer, layer/README.md)")
      ->capture_default_str();
  sub->add_option("--trigger", opt->trigger,
                  "Capture N frames when OUTPUT.trigger is created (the layer deletes it), "
                  "instead of --frames")
      ->check(CLI::PositiveNumber)
      ->excludes("--frames");
  sub->add_option("--arm-draws", opt->arm_draws,
                  "With --trigger: also fire once --arm-frames frames in a row each drew at least D draws "
                  "(gameplay, not a menu or title card, on a fast machine or a slow one)")
      ->check(CLI::PositiveNumber)
      ->needs("--trigger");
  sub->add_option("--arm-frames", opt->arm_frames, "Frames in a row --arm-draws needs (default 3)")
      ->check(CLI::PositiveNumber)
      ->needs("--arm-draws");
  sub->add_flag("--gl", opt->gl, "OpenGL application: run it on Vulkan through Mesa Zink");
  sub->add_option("-o,--output", opt->output, "Capture file to write (.tcap)")->required();
  sub->add_option("command", opt->command, "APP [ARGS] after --")->required();
  sub->callback([opt, exit_code] { *exit_code = run_capture(*opt); });
}

}  // namespace tessera::cli
