// End-to-end tests of vkscene on the real Vulkan driver (Mesa lavapipe here): headless and in a
// window under Xvfb, checking exit codes, error lines and the dumped last frame.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

namespace fs = std::filesystem;

fs::path& workDir() {
    static fs::path dir;
    return dir;
}

// A private XDG_RUNTIME_DIR and scratch folder for every run (X and Mesa warn without one).
class Environment : public ::testing::Environment {
public:
    void SetUp() override {
        std::string templ = (fs::temp_directory_path() / "vkscene_e2e_XXXXXX").string();
        ASSERT_NE(mkdtemp(templ.data()), nullptr);
        workDir() = templ;
        const fs::path runtime = workDir() / "xdg";
        fs::create_directory(runtime);
        chmod(runtime.c_str(), 0700);
        setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(workDir(), ignored);
    }
};

struct Result {
    int exitCode = -1;
    std::string out;
    std::string err;
};

std::string slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `prefix vkscene args` through the shell; prefix holds env assignments or xvfb-run.
Result run(const std::string& prefix, const std::string& args) {
    const fs::path out = workDir() / "stdout.txt";
    const fs::path err = workDir() / "stderr.txt";
    const std::string command = prefix + " '" VKSCENE_BINARY "' " + args + " >'" + out.string() +
                                "' 2>'" + err.string() + "'";
    const int status = std::system(command.c_str());
    Result r;
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

const std::string kXvfb = "xvfb-run -a -s '-screen 0 1280x720x24'";

struct Ppm {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> rgb;
};

Ppm readPpm(const fs::path& path) {
    Ppm ppm;
    std::ifstream in(path, std::ios::binary);
    std::string magic;
    unsigned maxValue = 0;
    in >> magic >> ppm.width >> ppm.height >> maxValue;
    in.get();  // the single whitespace after the header
    if (magic != "P6" || maxValue != 255) return {};
    ppm.rgb.resize(static_cast<std::size_t>(ppm.width) * ppm.height * 3);
    in.read(reinterpret_cast<char*>(ppm.rgb.data()), static_cast<std::streamsize>(ppm.rgb.size()));
    if (in.gcount() != static_cast<std::streamsize>(ppm.rgb.size())) return {};
    return ppm;
}

struct Stats {
    std::size_t pixels = 0;
    std::size_t distinct = 0;
    std::size_t cyan = 0;     // render-to-texture clear colour (scene.h kRttClear)
    std::size_t magenta = 0;  // render-to-texture flat blades (scene.h kRttBlade)
};

Stats analyse(const Ppm& ppm) {
    Stats s;
    std::unordered_set<std::uint32_t> colours;
    for (std::size_t i = 0; i + 2 < ppm.rgb.size(); i += 3) {
        const std::uint8_t r = ppm.rgb[i], g = ppm.rgb[i + 1], b = ppm.rgb[i + 2];
        colours.insert(static_cast<std::uint32_t>(r) << 16 | static_cast<std::uint32_t>(g) << 8 |
                       b);
        if (r == 0 && g == 255 && b == 255) ++s.cyan;
        if (r == 255 && g == 0 && b == 255) ++s.magenta;
        ++s.pixels;
    }
    s.distinct = colours.size();
    return s;
}

// A textured, lit, blended scene has thousands of colours; a blank or single-pass frame has a
// handful. The screen showing the render-to-texture target covers several percent of the frame
// at 640x360, and only that pass produces exact cyan and magenta.
void expectDetailedFrame(const Ppm& ppm, std::uint32_t width, std::uint32_t height) {
    ASSERT_EQ(ppm.width, width);
    ASSERT_EQ(ppm.height, height);
    const Stats s = analyse(ppm);
    EXPECT_GT(s.distinct, 2000u) << "frame looks blank or untextured";
    EXPECT_GT(s.cyan, s.pixels / 100) << "render-to-texture clear colour missing from the frame";
    EXPECT_GT(s.magenta, s.pixels / 400) << "render-to-texture blades missing from the frame";
}

bool validationLayerInstalled() {
    for (const char* dir :
         {"/usr/share/vulkan/explicit_layer.d", "/usr/local/share/vulkan/explicit_layer.d",
          "/etc/vulkan/explicit_layer.d"}) {
        if (fs::exists(fs::path(dir) / "VkLayer_khronos_validation.json")) return true;
    }
    return false;
}

TEST(VksceneE2E, HeadlessRendersTexturedFrameWithRenderToTexture) {
    const fs::path ppm = workDir() / "headless.ppm";
    const Result r = run("", "--headless --frames 5 --width 640 --height 360 --dump-last-frame '" +
                              ppm.string() + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("vkscene: 5 frames"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("headless"), std::string::npos) << r.out;
    // 1 ground + 40 cubes indexed; screen + 4 panes + 8 blades non-indexed.
    EXPECT_NE(r.out.find("per frame 54 draws (41 indexed, 13 non-indexed, 4 blended, 8 "
                         "render-to-texture), 6 mipmapped textures"),
              std::string::npos)
        << r.out;
    expectDetailedFrame(readPpm(ppm), 640, 360);
}

TEST(VksceneE2E, WindowedUnderXvfbPresentsAndDumps) {
    const fs::path ppm = workDir() / "windowed.ppm";
    const Result r = run(kXvfb, "--frames 5 --width 640 --height 360 --dump-last-frame '" +
                                 ppm.string() + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("windowed, fifo present"), std::string::npos) << r.out;
    expectDetailedFrame(readPpm(ppm), 640, 360);
}

// Shrinking the window mid-run makes the app recreate its swapchain (and framebuffers, depth
// buffer, readback buffer) at the new size, validation-clean, and keep presenting.
TEST(VksceneE2E, WindowResizeRecreatesSwapchain) {
    const fs::path ppm = workDir() / "resized.ppm";
    const std::string validate = validationLayerInstalled() ? "--validate " : "";
    const Result r = run(kXvfb, validate + "--frames 8 --width 640 --height 360 --resize-at 4 "
                                           "--dump-last-frame '" + ppm.string() + "'");
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_NE(r.out.find("320x180 windowed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(", 1 swapchain recreation(s)"), std::string::npos) << r.out;
    expectDetailedFrame(readPpm(ppm), 320, 180);
}

TEST(VksceneE2E, AnimationDependsOnFrameNumberOnly) {
    const fs::path a = workDir() / "a.ppm";
    const fs::path b = workDir() / "b.ppm";
    const fs::path c = workDir() / "c.ppm";
    const fs::path w = workDir() / "w.ppm";
    const std::string size = " --width 320 --height 180 --dump-last-frame ";
    ASSERT_EQ(run("", "--headless --frames 7" + size + "'" + a.string() + "'").exitCode, 0);
    ASSERT_EQ(run("", "--headless --frames 7" + size + "'" + b.string() + "'").exitCode, 0);
    ASSERT_EQ(run("", "--headless --frames 40" + size + "'" + c.string() + "'").exitCode, 0);
    ASSERT_EQ(run(kXvfb, "--frames 7" + size + "'" + w.string() + "'").exitCode, 0);
    const std::string first = slurp(a);
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first, slurp(b)) << "same frame number, different image";
    EXPECT_EQ(first, slurp(w)) << "windowed and headless frame 7 differ";
    EXPECT_NE(first, slurp(c)) << "the scene does not animate";
}

// The ground's sampler really filters anisotropically: the same frame with anisotropy off
// differs (lavapipe supports samplerAnisotropy; the summary line says which was used).
TEST(VksceneE2E, AnisotropicSamplerChangesTheGround) {
    const fs::path on = workDir() / "aniso16.ppm";
    const fs::path off = workDir() / "aniso1.ppm";
    const std::string args = "--headless --frames 2 --width 320 --height 180 --dump-last-frame ";
    const Result r16 = run("", args + "'" + on.string() + "'");
    const Result r1 = run("", "--anisotropy 1 " + args + "'" + off.string() + "'");
    ASSERT_EQ(r16.exitCode, 0) << r16.err;
    ASSERT_EQ(r1.exitCode, 0) << r1.err;
    EXPECT_NE(r16.out.find("anisotropy 16x"), std::string::npos) << r16.out;
    EXPECT_NE(r1.out.find("anisotropy off (trilinear)"), std::string::npos) << r1.out;
    const Ppm a = readPpm(on);
    const Ppm b = readPpm(off);
    ASSERT_EQ(a.rgb.size(), b.rgb.size());
    ASSERT_FALSE(a.rgb.empty());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < a.rgb.size(); i += 3) {
        if (a.rgb[i] != b.rgb[i] || a.rgb[i + 1] != b.rgb[i + 1] || a.rgb[i + 2] != b.rgb[i + 2]) {
            ++differing;
        }
    }
    // The ground covers roughly the lower half of the frame; most of it is seen at an angle.
    EXPECT_GT(differing, a.rgb.size() / 3 / 10);
}

TEST(VksceneE2E, ValidationAndSynchronizationValidationClean) {
    if (!validationLayerInstalled()) GTEST_SKIP() << "vulkan-validationlayers not installed";
    const fs::path ppm = workDir() / "validated.ppm";
    const std::string args = "--validate --frames 4 --width 320 --height 180 --dump-last-frame '" +
                             ppm.string() + "'";
    const Result headless = run("", "--headless " + args);
    EXPECT_EQ(headless.exitCode, 0) << headless.err;
    EXPECT_EQ(headless.err.find("validation"), std::string::npos) << headless.err;
    const Result windowed = run(kXvfb, args);
    EXPECT_EQ(windowed.exitCode, 0) << windowed.err;
    EXPECT_EQ(windowed.err.find("validation"), std::string::npos) << windowed.err;
    // Layers enabled through the environment, as the capture launcher does: the loader's notice
    // about VK_INSTANCE_LAYERS is not a validation message.
    const Result env = run("VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation", "--headless " + args);
    EXPECT_EQ(env.exitCode, 0) << env.err;
    EXPECT_EQ(env.err.find("validation"), std::string::npos) << env.err;
}

// Every failure is exactly one line on stderr, prefixed with the program name.
void expectOneLineError(const Result& r, int code, const std::string& needle) {
    EXPECT_EQ(r.exitCode, code);
    ASSERT_FALSE(r.err.empty());
    const std::size_t ours = r.err.rfind("vkscene: ");
    ASSERT_NE(ours, std::string::npos) << r.err;
    const std::string line = r.err.substr(ours);
    EXPECT_EQ(line.find('\n'), line.size() - 1) << "not one line: " << line;
    EXPECT_NE(line.find(needle), std::string::npos) << line;
}

TEST(VksceneE2E, BadCommandLineIsOneLineErrorWithExitCode2) {
    expectOneLineError(run("", "--frames 0"), 2, "--frames");
    expectOneLineError(run("", "--frames 12x"), 2, "'12x'");
    expectOneLineError(run("", "--width"), 2, "needs a value");
    expectOneLineError(run("", "--present-mode vsync"), 2, "vsync");
    expectOneLineError(run("", "--anisotropy 17"), 2, "--anisotropy");
    expectOneLineError(run("", "--headless --resize-at 3"), 2, "--resize-at needs a window");
    expectOneLineError(run("", "--bogus"), 2, "unknown option '--bogus'");
}

TEST(VksceneE2E, MissingDriverIsOneLineError) {
    const fs::path icd = workDir() / "no_such_icd.json";
    // Both the old and the new loader variable, so no installed driver is found.
    const std::string noDriver =
        "VK_ICD_FILENAMES='" + icd.string() + "' VK_DRIVER_FILES='" + icd.string() + "'";
    const Result r = run(noDriver, "--headless --frames 1");
    expectOneLineError(r, 1, "no Vulkan");
}

TEST(VksceneE2E, MissingDisplayIsOneLineError) {
    expectOneLineError(run("env -u DISPLAY", "--frames 1"), 1, "cannot connect to X display");
}

// The dump file is opened before rendering: a million frames would take hours, so only an
// early failure finishes within the timeout (which would exit 124 instead of 1).
TEST(VksceneE2E, UnwritableDumpFailsBeforeRendering) {
    expectOneLineError(run("timeout 30", "--headless --frames 1000000 --dump-last-frame "
                                         "/nonexistent-dir/frame.ppm"),
                       1, "cannot write /nonexistent-dir/frame.ppm");
}

}  // namespace

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::AddGlobalTestEnvironment(new Environment);
    return RUN_ALL_TESTS();
}
