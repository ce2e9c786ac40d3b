// What a capture declares is held within the replay's memory budget (memory_budget.h): an image
// no Vulkan device can create, or memory objects and images beyond the budget, stop the replay
// with one line naming the capture, the frame (its present number) and the object's handle.
#include <gtest/gtest.h>
#include <unistd.h>

#include "scene.h"
#include "tessera/frontend/memory_budget.h"

namespace tessera::frontend::testing {
namespace {

cap::ImageRecord image(uint64_t handle, uint32_t width, uint32_t height, uint32_t mips = 1) {
  cap::ImageRecord r;
  r.image = handle;
  r.image_type = VK_IMAGE_TYPE_2D;
  r.format = VK_FORMAT_R8G8B8A8_UNORM;
  r.width = width, r.height = height, r.depth = 1;
  r.mip_levels = mips, r.array_layers = 1, r.samples = 1;
  return r;
}

// Replays frame 0 of the built capture within `budget`; the error of the first step that fails.
std::string replay_error(CaptureBuilder& b, MemoryBudget& budget) {
  auto reader = b.finish();
  std::string error;
  auto replay = CaptureReplay::open(*reader, budget, &error);
  if (!replay) return error;
  RecordingRenderer renderer;
  FrameResult result;
  if (!replay->replay_frame(0, renderer, &result, &error)) return error;
  return {};
}

constexpr const char* kExtentRefusal =
    " (65537x16x1, 1 mips, 1 layers): refused: extent beyond 65536, more than any Vulkan implementation reports "
    "(the largest, Mesa's panvk, 65536) (Vulkan spec \"Image Creation Limits\")";

TEST(ResourceBounds, AnImageWiderThanAnyDeviceIsRefusedNamingTheFrameAndTheImage) {
  CaptureBuilder b;
  b.begin_frame(1);
  b.object(image(0x3fe, 65537, 16));
  b.end_frame();
  MemoryBudget budget(uint64_t{1} << 40);  // the extent is refused whatever the budget
  const std::string e = replay_error(b, budget);
  EXPECT_EQ(e, b.path() + ": frame 1: image 0x3fe" + kExtentRefusal);
  EXPECT_EQ(budget.held(), 0u);
}

TEST(ResourceBounds, AnImageCreatedBeforeTheCaptureIsRefusedWhenTheReplayOpens) {
  CaptureBuilder b;
  b.object(image(0xabc0, 65537, 16));
  b.begin_frame(1);
  b.end_frame();
  MemoryBudget budget(uint64_t{1} << 40);
  EXPECT_EQ(replay_error(b, budget), b.path() + ": global records: image 0xabc0" + kExtentRefusal);
}

// 65536 is an extent a device reports (maxImageDimension1D, and 2D on Mali v11+): the budget,
// not the shape, refuses the 16 GiB of a 65536x65536 RGBA8 image.
TEST(ResourceBounds, AnImageOf65536SquaredIsRefusedByTheBudget) {
  CaptureBuilder b;
  b.begin_frame(1);
  b.object(image(0x3ff, 65536, 65536));
  b.end_frame();
  MemoryBudget budget(uint64_t{4} << 30);
  EXPECT_EQ(replay_error(b, budget),
            b.path() + ": frame 1: image 0x3ff (65536x65536x1, 1 mips, 1 layers) needs 16.0 GiB, beyond the "
                       "replay's memory budget of 4.0 GiB (0 B already held; --max-memory sets it)");
  EXPECT_EQ(budget.held(), 0u);
}

TEST(ResourceBounds, ImageShapesNoDeviceAcceptsAreRefused) {
  const auto refusal = [](cap::ImageRecord r) {
    CaptureBuilder b;
    b.begin_frame(1);
    b.object(r);
    b.end_frame();
    MemoryBudget budget(uint64_t{1} << 30);
    const std::string e = replay_error(b, budget);
    return e.substr(std::min(e.size(), b.path().size()));
  };
  EXPECT_EQ(refusal(image(0x10, 1, 1, 100)),
            ": frame 1: image 0x10 (1x1x1, 100 mips, 1 layers): refused: mip levels outside 1..1, the full mip chain "
            "of its extent (Vulkan spec \"Image Creation Limits\")");
  EXPECT_EQ(refusal(image(0x11, 0, 4)),
            ": frame 1: image 0x11 (0x4x1, 1 mips, 1 layers): refused: an extent of 0 is not an image (Vulkan spec "
            "\"Image Creation Limits\")");
  auto layers = image(0x12, 4, 4);
  layers.array_layers = 65537;
  EXPECT_EQ(refusal(layers),
            ": frame 1: image 0x12 (4x4x1, 1 mips, 65537 layers): refused: array layers outside 1..65536, more than "
            "any Vulkan implementation reports (Vulkan spec \"Image Creation Limits\")");
  // A full chain of the largest extent is an image: only the budget stands in its way.
  EXPECT_EQ(refusal(image(0x13, 65536, 1, 17)), "");
}

TEST(ResourceBounds, MemoryBeyondTheBudgetStopsTheReplayNamingTheAllocation) {
  CaptureBuilder b;
  b.object(cap::MemoryAllocRecord{0x100, 512 << 10, 0, 0});
  b.begin_frame(1);
  b.object(cap::MemoryAllocRecord{0x1ff, uint64_t{1} << 40, 0, 0});  // 1 TiB
  b.end_frame();
  MemoryBudget budget(uint64_t{1} << 20);
  EXPECT_EQ(replay_error(b, budget),
            b.path() + ": frame 1: memory 0x1ff needs 1.0 TiB, beyond the replay's memory budget of 1.0 MiB "
                       "(512.0 KiB already held; --max-memory sets it)");
}

TEST(ResourceBounds, ImagePlanesBeyondTheBudgetStopTheReplayNamingTheImage) {
  CaptureBuilder b;
  b.begin_frame(1);
  b.object(image(0x3fd, 4096, 4096));  // 64 MiB of RGBA8
  b.end_frame();
  MemoryBudget budget(uint64_t{16} << 20);
  EXPECT_EQ(replay_error(b, budget),
            b.path() + ": frame 1: image 0x3fd (4096x4096x1, 1 mips, 1 layers) needs 64.0 MiB, beyond the "
                       "replay's memory budget of 16.0 MiB (0 B already held; --max-memory sets it)");
}

TEST(ResourceBounds, ReplaysShareABudgetAndGiveItBack) {
  CaptureBuilder b;
  b.object(cap::MemoryAllocRecord{0x100, 1 << 20, 0, 0});
  b.object(image(0x200, 256, 256));  // 256 KiB
  b.begin_frame(1);
  b.object(cap::MemoryAllocRecord{0x100, 2 << 20, 0, 0});  // replaces the first: 1 MiB given back
  b.end_frame();
  auto reader = b.finish();
  MemoryBudget budget(uint64_t{8} << 20);
  std::string error;
  auto first = CaptureReplay::open(*reader, budget, &error);
  ASSERT_NE(first, nullptr) << error;
  auto second = CaptureReplay::open(*reader, budget, &error);
  ASSERT_NE(second, nullptr) << error;
  EXPECT_EQ(budget.held(), 2 * ((1u << 20) + (256u << 10)));
  RecordingRenderer renderer;
  FrameResult result;
  ASSERT_TRUE(first->replay_frame(0, renderer, &result, &error)) << error;
  EXPECT_EQ(budget.held(), (2u << 20) + (1u << 20) + 2 * (256u << 10));
  first.reset();
  second.reset();
  EXPECT_EQ(budget.held(), 0u);
}

// What each image and memory object took is given back exactly when it is re-shaped,
// re-allocated or the replay goes, whatever happened to its planes in between.
TEST(ResourceBounds, ReshapingUnderOneHandleGivesBackWhatItTook) {
  CaptureBuilder b;
  b.object(image(0x200, 64, 64));                 // 16 KiB
  b.object(cap::MemoryAllocRecord{0x100, 4096, 0, 0});
  cap::SwapchainRecord chain;
  chain.swapchain = 0x300;
  chain.format = VK_FORMAT_B8G8R8A8_UNORM;
  chain.width = 32, chain.height = 32, chain.array_layers = 1;
  chain.images = {0x301, 0x302};                   // 4 KiB each
  b.object(chain);
  b.begin_frame(1);
  b.object(image(0x200, 128, 32));                // another size: 16 KiB
  // Its contents with 4 samples (the same extent): re-shaped to 64 KiB, not left at 16.
  auto multisampled = image(0x200, 128, 32);
  multisampled.samples = VK_SAMPLE_COUNT_4_BIT;
  const std::vector<uint8_t> texels(size_t{64} << 10, 0x5a);
  multisampled.subresources = {{0, 0, 0, texels.size(), VK_IMAGE_ASPECT_COLOR_BIT}};
  multisampled.contents = b.blob(texels);
  b.object(multisampled);
  chain.width = 64, chain.height = 16;            // re-created: 4 KiB each
  b.object(chain);
  chain.width = 16, chain.height = 16;            // and again, smaller: 1 KiB each
  b.object(chain);
  b.object(cap::MemoryAllocRecord{0x100, 8192, 0, 0});
  b.end_frame();
  auto reader = b.finish();
  MemoryBudget budget(uint64_t{64} << 20);
  ASSERT_TRUE(budget.reserve(1000));  // held by someone else: untouched by this replay
  std::string error;
  auto replay = CaptureReplay::open(*reader, budget, &error);
  ASSERT_NE(replay, nullptr) << error;
  EXPECT_EQ(budget.held(), 1000u + (16u << 10) + 4096 + 2 * 4096);
  RecordingRenderer renderer;
  FrameResult result;
  ASSERT_TRUE(replay->replay_frame(0, renderer, &result, &error)) << error;
  EXPECT_EQ(result.skipped.total(), 0u);
  EXPECT_EQ(budget.held(), 1000u + (64u << 10) + 8192 + 2 * 1024);
  replay.reset();
  EXPECT_EQ(budget.held(), 1000u);
  EXPECT_FALSE(budget.over_released());
}

TEST(ResourceBounds, GivingBackMoreThanIsHeldClampsAndSaysSo) {
#ifdef NDEBUG
  MemoryBudget budget(1 << 20);
  ASSERT_TRUE(budget.reserve(100));
  budget.release(40);
  EXPECT_FALSE(budget.over_released());
  budget.release(100);
  EXPECT_EQ(budget.held(), 0u);
  EXPECT_TRUE(budget.over_released());
  EXPECT_TRUE(budget.reserve(1 << 20));  // not wrapped to a huge held
#else
  GTEST_SKIP() << "release() asserts in debug builds";
#endif
}

TEST(ResourceBounds, TheDefaultBudgetIsHalfTheLeastLimit) {
  EXPECT_EQ(MemoryBudget::default_limit_from({uint64_t{64} << 30, 0, 0, 0}), uint64_t{32} << 30);
  EXPECT_EQ(MemoryBudget::default_limit_from({uint64_t{64} << 30, uint64_t{2} << 30, 0, 0}), uint64_t{1} << 30);
  EXPECT_EQ(MemoryBudget::default_limit_from({uint64_t{64} << 30, 0, uint64_t{8} << 30, uint64_t{6} << 30}),
            uint64_t{3} << 30);
  EXPECT_EQ(MemoryBudget::default_limit_from({0, 0, 0, 0}), uint64_t{4} << 30);
  const uint64_t d = MemoryBudget::default_limit();
  EXPECT_GT(d, 0u);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) {
    EXPECT_LE(d, static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2);
  }
}

TEST(ResourceBounds, CgroupLimitsParseFromTheFilesTexts) {
  EXPECT_EQ(parse_cgroup_memory_limit("max\n"), 0u);
  EXPECT_EQ(parse_cgroup_memory_limit("2147483648\n"), uint64_t{2} << 30);
  EXPECT_EQ(parse_cgroup_memory_limit("536870912"), uint64_t{512} << 20);
  EXPECT_EQ(parse_cgroup_memory_limit("9223372036854771712\n"), 0u);  // v1 "unlimited"
  for (const char* bad : {"", "\n", "12 34", "-1", "1G", "99999999999999999999999"}) {
    EXPECT_EQ(parse_cgroup_memory_limit(bad), 0u) << bad;
  }
  const ProcCgroups v2 = parse_proc_self_cgroup("0::/user.slice/user-1000.slice/session-2.scope\n");
  EXPECT_EQ(v2.v2, "/user.slice/user-1000.slice/session-2.scope");
  EXPECT_EQ(v2.v1_memory, "");
  const ProcCgroups v1 = parse_proc_self_cgroup(
      "12:pids:/docker/abc\n11:cpu,cpuacct:/docker/abc\n4:memory:/docker/abc\n1:name=systemd:/docker/abc\n");
  EXPECT_EQ(v1.v2, "");
  EXPECT_EQ(v1.v1_memory, "/docker/abc");
  const ProcCgroups hybrid = parse_proc_self_cgroup("5:blkio,memory:/a\n0::/b");
  EXPECT_EQ(hybrid.v1_memory, "/a");
  EXPECT_EQ(hybrid.v2, "/b");
  EXPECT_EQ(parse_proc_self_cgroup("").v2, "");
  EXPECT_EQ(parse_proc_self_cgroup("garbage\n0:/x\n").v2, "");
}

TEST(ResourceBounds, MemorySizesParseWithBinaryUnitsAndRefuseWhatIsNotOne) {
  uint64_t v = 0;
  std::string e;
  EXPECT_TRUE(parse_memory_size("12G", &v, &e));
  EXPECT_EQ(v, uint64_t{12} << 30);
  EXPECT_TRUE(parse_memory_size("512M", &v, &e));
  EXPECT_EQ(v, uint64_t{512} << 20);
  EXPECT_TRUE(parse_memory_size("1073741824", &v, &e));
  EXPECT_EQ(v, uint64_t{1} << 30);
  EXPECT_TRUE(parse_memory_size("1.5GiB", &v, &e));
  EXPECT_EQ(v, uint64_t{3} << 29);
  EXPECT_TRUE(parse_memory_size("64k", &v, &e));
  EXPECT_EQ(v, uint64_t{64} << 10);
  EXPECT_TRUE(parse_memory_size("2TB", &v, &e));
  EXPECT_EQ(v, uint64_t{2} << 40);
  for (const char* bad : {"", "abc", "12X", "-1", "1e3", "G", "1.2.3G", "12 G"}) {
    EXPECT_FALSE(parse_memory_size(bad, &v, &e)) << bad;
    EXPECT_EQ(e, std::string("'") + bad + "': expected a size in bytes, or with K, M, G or T (512M, 12G)");
  }
  EXPECT_FALSE(parse_memory_size("0", &v, &e));
  EXPECT_EQ(e, "'0': the replay needs more than 0 bytes");
  EXPECT_FALSE(parse_memory_size("99999999T", &v, &e));
  EXPECT_EQ(e, "'99999999T': larger than 16 EiB");
  EXPECT_EQ(format_bytes(512), "512 B");
  EXPECT_EQ(format_bytes(uint64_t{3} << 29), "1.5 GiB");
  EXPECT_GT(MemoryBudget::default_limit(), 0u);
}

}  // namespace
}  // namespace tessera::frontend::testing
