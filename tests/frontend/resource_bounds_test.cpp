// What a capture declares is held within the replay's memory budget (memory_budget.h): an image
// no Vulkan device can create, or memory objects and images beyond the budget, stop the replay
// with one line naming the capture, the frame (its present number) and the object's handle.
#include <gtest/gtest.h>

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
    " (65536x65536x1, 1 mips, 1 layers): refused: extent beyond 32768, the largest maxImageDimension of any "
    "Vulkan device (Vulkan spec \"Image Creation Limits\")";

TEST(ResourceBounds, AnImageOf65536SquaredIsRefusedNamingTheFrameAndTheImage) {
  CaptureBuilder b;
  b.begin_frame(1);
  b.object(image(0x3fe, 65536, 65536));
  b.end_frame();
  MemoryBudget budget(uint64_t{1} << 40);  // the extent is refused whatever the budget
  const std::string e = replay_error(b, budget);
  EXPECT_EQ(e, b.path() + ": frame 1: image 0x3fe" + kExtentRefusal);
  EXPECT_EQ(budget.held(), 0u);
}

TEST(ResourceBounds, AnImageCreatedBeforeTheCaptureIsRefusedWhenTheReplayOpens) {
  CaptureBuilder b;
  b.object(image(0xabc0, 65536, 65536));
  b.begin_frame(1);
  b.end_frame();
  MemoryBudget budget(uint64_t{1} << 40);
  EXPECT_EQ(replay_error(b, budget), b.path() + ": global records: image 0xabc0" + kExtentRefusal);
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
  layers.array_layers = 5000;
  EXPECT_EQ(refusal(layers),
            ": frame 1: image 0x12 (4x4x1, 1 mips, 5000 layers): refused: array layers outside 1..4096 (Vulkan spec "
            "\"Image Creation Limits\")");
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
