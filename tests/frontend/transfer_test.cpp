// Transfers executed by the front end, checked byte for byte: buffer copies, updates and fills;
// buffer <-> image with row length; image copies (BC blocks too); blits (NEAREST, LINEAR,
// mirrored, format conversion); resolves (sample average) and multisampled copies; colour and
// depth/stencil clears. Also captured image contents, state carried from frame to frame, and the
// presented image.
#include <gtest/gtest.h>

#include <numeric>

#include "scene.h"

namespace tessera::frontend::testing {
namespace {

cap::ImageRecord image_record(uint64_t handle, uint32_t format, uint32_t w, uint32_t h,
                              uint32_t samples = 1) {
  cap::ImageRecord img;
  img.image = handle;
  img.image_type = VK_IMAGE_TYPE_2D;
  img.format = format;
  img.width = w;
  img.height = h;
  img.depth = img.mip_levels = img.array_layers = 1;
  img.samples = samples;
  img.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  return img;
}

// Memory bytes 0..255 as captured at frame start.
void pattern_memory(CaptureBuilder& b) {
  std::vector<uint8_t> bytes(256);
  std::iota(bytes.begin(), bytes.end(), uint8_t{0});
  b.object(cap::MemoryContentsRecord{Scene::kMemory, 0, 256, b.blob(bytes)});
}

std::vector<uint8_t> memory(Replayed& r, uint64_t offset, size_t n) {
  const auto& m = r.replay->find_memory(Scene::kMemory)->bytes;
  std::vector<uint8_t> out(n);
  std::memcpy(out.data(), m.data() + offset, n);
  return out;
}

TEST(FrontendTransfer, BufferCopyUpdateAndFill) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  pattern_memory(b);
  cap::CmdCopyRecord copy{cap::CmdCopyRecord::kBufferToBuffer, Scene::kBuffer, Scene::kBuffer2,
                          0, 0, 0, {}};
  cap::CopyRegion region;
  region.src_offset_bytes = 4, region.dst_offset_bytes = 8, region.size_bytes = 6;
  copy.regions = {region};
  b.cmd(copy);
  b.cmd(cap::CmdUpdateBufferRecord{Scene::kBuffer2, 40, {0xde, 0xad, 0xbe, 0xef}});
  b.cmd(cap::CmdFillBufferRecord{Scene::kBuffer2, 64, 8, 0xaabbccddu});
  b.cmd(cap::CmdFillBufferRecord{Scene::kBuffer2, 500, VK_WHOLE_SIZE, 0x01020304u});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  EXPECT_EQ(r->result.transfers, 4u);
  EXPECT_EQ(memory(*r, 1024 + 8, 6), (std::vector<uint8_t>{4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(memory(*r, 1024 + 40, 4), (std::vector<uint8_t>{0xde, 0xad, 0xbe, 0xef}));
  EXPECT_EQ(memory(*r, 1024 + 64, 9),
            (std::vector<uint8_t>{0xdd, 0xcc, 0xbb, 0xaa, 0xdd, 0xcc, 0xbb, 0xaa, 0}));
  // WHOLE_SIZE: 12 bytes to the buffer's end (512).
  EXPECT_EQ(memory(*r, 1024 + 500, 12),
            (std::vector<uint8_t>{4, 3, 2, 1, 4, 3, 2, 1, 4, 3, 2, 1}));
  EXPECT_EQ(memory(*r, 1024 + 499, 1), (std::vector<uint8_t>{0}));
}

TEST(FrontendTransfer, BufferToImageWithRowLengthAndBack) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  pattern_memory(b);
  // 2x2 texels at (1, 1) from offset 4, rows 8 texels (32 bytes) apart.
  cap::CmdCopyRecord up{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, Scene::kTarget, 0, 0, 0, {}};
  cap::CopyRegion r1 = box(0, 0, 0, 0, 1, 1, 3, 3);
  r1.src_offset_bytes = 4;
  r1.buffer_row_length = 8;
  up.regions = {r1};
  b.cmd(up);
  // The whole image back into buffer 2 at 16, tightly packed.
  cap::CmdCopyRecord down{cap::CmdCopyRecord::kImageToBuffer, Scene::kTarget, Scene::kBuffer2, 0, 0, 0, {}};
  cap::CopyRegion r2 = box(0, 0, 4, 4, 0, 0, 0, 0);
  r2.dst_offset_bytes = 16;
  down.regions = {r2};
  b.cmd(down);
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  const Image* img = r->replay->find_image(Scene::kTarget);
  ASSERT_NE(img, nullptr);
  EXPECT_TRUE(img->defined);
  std::vector<uint8_t> expect(64, 0);
  for (int y = 0; y < 2; ++y) {
    for (int i = 0; i < 8; ++i) {
      expect[(1 + y) * 16 + 4 + i] = static_cast<uint8_t>(4 + y * 32 + i);
    }
  }
  EXPECT_EQ(img->subresource(Aspect::ColorOrDepth, 0, 0), expect);
  EXPECT_EQ(memory(*r, 1024 + 16, 64), expect);
}

TEST(FrontendTransfer, ResolveAveragesTheSamplesAndMultisampledCopiesKeepThemAll) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  // A 2x1 RGBA8 image with 4 samples whose contents the capture carries (frame.h: sample s of
  // the subresource is the single-sample layout at s * 8 bytes).
  cap::ImageRecord ms = image_record(0x3a0, VK_FORMAT_R8G8B8A8_UNORM, 2, 1, 4);
  const std::vector<uint8_t> samples = {0,   255, 10, 255, 1, 2, 3, 4,    // sample 0: pixel 0, 1
                                        40,  255, 20, 255, 5, 6, 7, 8,    // sample 1
                                        80,  0,   30, 255, 9, 10, 11, 12,  // sample 2
                                        120, 0,   41, 255, 13, 14, 15, 16};  // sample 3
  ms.subresources = {{0, 0, 0, samples.size(), VK_IMAGE_ASPECT_COLOR_BIT}};
  ms.contents = b.blob(samples);
  b.object(ms);
  b.object(image_record(0x3a1, VK_FORMAT_R8G8B8A8_UNORM, 2, 1));
  b.object(image_record(0x3a2, VK_FORMAT_R8G8B8A8_UNORM, 2, 1, 4));
  b.begin_frame(1);
  cap::CmdCopyRecord resolve{cap::CmdCopyRecord::kResolve, 0x3a0, 0x3a1, 0, 0, 0, {}};
  resolve.regions = {box(0, 0, 2, 1, 0, 0, 2, 1)};
  b.cmd(resolve);
  cap::CmdCopyRecord copy{cap::CmdCopyRecord::kImageToImage, 0x3a0, 0x3a2, 0, 0, 0, {}};
  copy.regions = {box(1, 0, 2, 1, 0, 0, 1, 1)};
  b.cmd(copy);
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  // Averages in float, then UNORM round to nearest: R (0+40+80+120)/4 = 60, G 127.5 -> 128,
  // B 25.25 -> 25; pixel 1 (1+5+9+13)/4 = 7 ...
  EXPECT_EQ(r->replay->find_image(0x3a1)->subresource(Aspect::ColorOrDepth, 0, 0),
            (std::vector<uint8_t>{60, 128, 25, 255, 7, 8, 9, 10}));
  // The copy moves pixel 1 of every sample to pixel 0 of the same sample.
  const auto& dst = r->replay->find_image(0x3a2)->subresource(Aspect::ColorOrDepth, 0, 0);
  ASSERT_EQ(dst.size(), 32u);
  for (uint32_t smp = 0; smp < 4; ++smp) {
    EXPECT_EQ(std::vector<uint8_t>(dst.begin() + smp * 8, dst.begin() + smp * 8 + 4),
              std::vector<uint8_t>(samples.begin() + smp * 8 + 4, samples.begin() + smp * 8 + 8))
        << "sample " << smp;
  }
}

TEST(FrontendTransfer, ImageCopyAndCompressedBlocks) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.object(image_record(0x361, VK_FORMAT_R8G8B8A8_UNORM, 4, 4));
  b.object(image_record(0x370, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 8, 8));
  b.object(image_record(0x371, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 8, 8));
  b.begin_frame(1);
  pattern_memory(b);
  cap::CmdCopyRecord up{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, 0x361, 0, 0, 0, {}};
  up.regions = {box(0, 0, 0, 0, 0, 0, 4, 4)};
  b.cmd(up);
  cap::CmdCopyRecord copy{cap::CmdCopyRecord::kImageToImage, 0x361, Scene::kTarget, 0, 0, 0, {}};
  copy.regions = {box(2, 0, 4, 1, 0, 3, 2, 4)};
  b.cmd(copy);
  // BC1: 2x2 blocks of 8 bytes from the buffer, then block (0, 0) to block (1, 1).
  cap::CmdCopyRecord bc{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, 0x370, 0, 0, 0, {}};
  bc.regions = {box(0, 0, 0, 0, 0, 0, 8, 8)};
  b.cmd(bc);
  cap::CmdCopyRecord bc2{cap::CmdCopyRecord::kImageToImage, 0x370, 0x371, 0, 0, 0, {}};
  bc2.regions = {box(0, 0, 4, 4, 4, 4, 8, 8)};
  b.cmd(bc2);
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  std::vector<uint8_t> pattern(64);
  std::iota(pattern.begin(), pattern.end(), uint8_t{0});
  EXPECT_EQ(r->replay->find_image(0x361)->subresource(Aspect::ColorOrDepth, 0, 0), pattern);
  const auto& target = r->replay->find_image(Scene::kTarget)->subresource(Aspect::ColorOrDepth, 0, 0);
  std::vector<uint8_t> row3(target.begin() + 48, target.begin() + 56);
  EXPECT_EQ(row3, (std::vector<uint8_t>{8, 9, 10, 11, 12, 13, 14, 15}));
  const auto& bc_src = r->replay->find_image(0x370)->subresource(Aspect::ColorOrDepth, 0, 0);
  ASSERT_EQ(bc_src.size(), 32u);
  EXPECT_EQ(bc_src, std::vector<uint8_t>(pattern.begin(), pattern.begin() + 32));
  const auto& bc_dst = r->replay->find_image(0x371)->subresource(Aspect::ColorOrDepth, 0, 0);
  std::vector<uint8_t> expect(32, 0);
  std::iota(expect.begin() + 24, expect.end(), uint8_t{0});
  EXPECT_EQ(bc_dst, expect);
}

TEST(FrontendTransfer, Bc7ImageHoldsItsBlocks) {
  // BC7 (UNORM and SRGB) is held like the other BC formats: 16-byte 4x4 blocks, here 2x2 of them.
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.object(image_record(0x372, VK_FORMAT_BC7_SRGB_BLOCK, 8, 8));
  b.object(image_record(0x373, VK_FORMAT_BC7_UNORM_BLOCK, 4, 4));
  b.begin_frame(1);
  pattern_memory(b);
  cap::CmdCopyRecord up{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, 0x372, 0, 0, 0, {}};
  up.regions = {box(0, 0, 0, 0, 0, 0, 8, 8)};
  b.cmd(up);
  // Block (1, 1) of the SRGB image to the UNORM image: a copy between compatible formats.
  cap::CmdCopyRecord copy{cap::CmdCopyRecord::kImageToImage, 0x372, 0x373, 0, 0, 0, {}};
  copy.regions = {box(4, 4, 8, 8, 0, 0, 4, 4)};
  b.cmd(copy);
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  std::vector<uint8_t> pattern(64);
  std::iota(pattern.begin(), pattern.end(), uint8_t{0});
  EXPECT_EQ(r->replay->find_image(0x372)->subresource(Aspect::ColorOrDepth, 0, 0), pattern);
  EXPECT_EQ(r->replay->find_image(0x373)->subresource(Aspect::ColorOrDepth, 0, 0),
            std::vector<uint8_t>(pattern.begin() + 48, pattern.end()));
}

TEST(FrontendTransfer, BlitNearestLinearMirroredAndConverted) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.object(image_record(0x380, VK_FORMAT_R8_UNORM, 4, 4));
  b.object(image_record(0x381, VK_FORMAT_R8_UNORM, 2, 2));
  b.object(image_record(0x382, VK_FORMAT_R8_UNORM, 2, 2));
  b.object(image_record(0x383, VK_FORMAT_R8_UNORM, 4, 1));
  b.object(image_record(0x384, VK_FORMAT_B8G8R8A8_SRGB, 1, 1));
  b.object(image_record(0x385, VK_FORMAT_R32_SFLOAT, 1, 1));
  b.object(image_record(0x386, VK_FORMAT_R16_SFLOAT, 1, 1));
  b.begin_frame(1);
  // R8 4x4 with texel (x, y) = 10 x + 40 y at buffer offset 0; RGBA8 (128, 64, 255, 128) at
  // 16; 1.5f at 20.
  std::vector<uint8_t> bytes(24);
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) bytes[y * 4 + x] = static_cast<uint8_t>(10 * x + 40 * y);
  }
  bytes[16] = 128, bytes[17] = 64, bytes[18] = 255, bytes[19] = 128;
  const float f = 1.5f;
  std::memcpy(&bytes[20], &f, 4);
  b.object(cap::MemoryContentsRecord{Scene::kMemory, 0, 24, b.blob(bytes)});
  cap::CmdCopyRecord up{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, 0x380, 0, 0, 0, {}};
  up.regions = {box(0, 0, 0, 0, 0, 0, 4, 4)};
  b.cmd(up);
  b.object(image_record(0x387, VK_FORMAT_R8G8B8A8_UNORM, 1, 1));
  cap::CmdCopyRecord up2{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, 0x387, 0, 0, 0, {}};
  up2.regions = {box(0, 0, 0, 0, 0, 0, 1, 1)};
  up2.regions[0].src_offset_bytes = 16;
  b.cmd(up2);
  cap::CmdCopyRecord up3{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, 0x385, 0, 0, 0, {}};
  up3.regions = {box(0, 0, 0, 0, 0, 0, 1, 1)};
  up3.regions[0].src_offset_bytes = 20;
  b.cmd(up3);
  cap::CmdCopyRecord nearest{cap::CmdCopyRecord::kBlit, 0x380, 0x381, 0, 0, VK_FILTER_NEAREST, {}};
  nearest.regions = {box(0, 0, 4, 4, 0, 0, 2, 2)};
  b.cmd(nearest);
  cap::CmdCopyRecord linear{cap::CmdCopyRecord::kBlit, 0x380, 0x382, 0, 0, VK_FILTER_LINEAR, {}};
  linear.regions = {box(0, 0, 4, 4, 0, 0, 2, 2)};
  b.cmd(linear);
  cap::CmdCopyRecord mirror{cap::CmdCopyRecord::kBlit, 0x380, 0x383, 0, 0, VK_FILTER_NEAREST, {}};
  mirror.regions = {box(0, 1, 4, 2, 4, 0, 0, 1)};  // row 1, flipped in x
  b.cmd(mirror);
  cap::CmdCopyRecord srgb{cap::CmdCopyRecord::kBlit, 0x387, 0x384, 0, 0, VK_FILTER_NEAREST, {}};
  srgb.regions = {box(0, 0, 1, 1, 0, 0, 1, 1)};
  b.cmd(srgb);
  cap::CmdCopyRecord half{cap::CmdCopyRecord::kBlit, 0x385, 0x386, 0, 0, VK_FILTER_NEAREST, {}};
  half.regions = {box(0, 0, 1, 1, 0, 0, 1, 1)};
  b.cmd(half);
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  auto plane = [&](uint64_t h) { return r->replay->find_image(h)->subresource(Aspect::ColorOrDepth, 0, 0); };
  // NEAREST: destination centre (x + 0.5) * 2 falls in source texel 2x + 1.
  EXPECT_EQ(plane(0x381), (std::vector<uint8_t>{50, 70, 130, 150}));
  // LINEAR: the centre lies between four texels: their average.
  EXPECT_EQ(plane(0x382), (std::vector<uint8_t>{25, 45, 105, 125}));
  EXPECT_EQ(plane(0x383), (std::vector<uint8_t>{70, 60, 50, 40}));
  // UNORM -> sRGB (B, G, R, A order): 128 -> 188, 64 -> 137, 255 -> 255; alpha stays linear.
  EXPECT_EQ(plane(0x384), (std::vector<uint8_t>{255, 137, 188, 128}));
  // 1.5f -> half 0x3e00.
  EXPECT_EQ(plane(0x386), (std::vector<uint8_t>{0x00, 0x3e}));
}

TEST(FrontendTransfer, ColourAndDepthStencilClears) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.object(image_record(0x390, VK_FORMAT_R8G8B8A8_SRGB, 2, 1));
  auto ds = image_record(0x391, VK_FORMAT_D24_UNORM_S8_UINT, 2, 1);
  ds.mip_levels = 2;
  b.object(ds);
  b.object(image_record(0x392, VK_FORMAT_R16G16B16A16_SFLOAT, 1, 1));
  b.begin_frame(1);
  cap::CmdClearImageRecord c{0x390, 0, 0, {}, {{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}}};
  c.value.words[0] = fbits(0.5f), c.value.words[1] = fbits(0.0f);
  c.value.words[2] = fbits(1.0f), c.value.words[3] = fbits(0.5f);
  b.cmd(c);
  // Depth and stencil of mip 0 and 1, then depth again of mip 1 only.
  cap::CmdClearImageRecord d{0x391, 0, 1, {},
                             {{VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0,
                               VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS}}};
  d.value.words[0] = fbits(0.5f);
  d.value.words[1] = 7;
  b.cmd(d);
  cap::CmdClearImageRecord d2{0x391, 0, 1, {}, {{VK_IMAGE_ASPECT_DEPTH_BIT, 1, 1, 0, 1}}};
  d2.value.words[0] = fbits(1.0f);
  d2.value.words[1] = 99;
  b.cmd(d2);
  cap::CmdClearImageRecord h{0x392, 0, 0, {}, {{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}}};
  h.value.words[0] = fbits(0.25f), h.value.words[1] = fbits(-2.0f);
  h.value.words[2] = fbits(0.0f), h.value.words[3] = fbits(1.0f);
  b.cmd(h);
  b.submit();
  b.end_frame();
  auto r = replay(b);
  ASSERT_EQ(r->result.skipped.total(), 0u) << reasons(r->result);
  const Image* colour = r->replay->find_image(0x390);
  // Linear 0.5 -> sRGB 188; alpha 0.5 -> 128.
  EXPECT_EQ(colour->subresource(Aspect::ColorOrDepth, 0, 0),
            (std::vector<uint8_t>{188, 0, 255, 128, 188, 0, 255, 128}));
  const Image* depth = r->replay->find_image(0x391);
  EXPECT_EQ(depth->subresource(Aspect::ColorOrDepth, 0, 0),
            (std::vector<uint8_t>{0, 0, 0x80, 0, 0, 0, 0x80, 0}));
  EXPECT_EQ(depth->subresource(Aspect::Stencil, 0, 0), (std::vector<uint8_t>{7, 7}));
  EXPECT_EQ(depth->subresource(Aspect::ColorOrDepth, 0, 1),
            (std::vector<uint8_t>{0xff, 0xff, 0xff, 0}));
  EXPECT_EQ(depth->subresource(Aspect::Stencil, 0, 1), (std::vector<uint8_t>{7}));
  EXPECT_EQ(r->replay->find_image(0x392)->subresource(Aspect::ColorOrDepth, 0, 0),
            (std::vector<uint8_t>{0x00, 0x34, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3c}));
}

TEST(FrontendTransfer, CapturedImageContentsAndUnsupportedFormatsAreCounted) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  auto ds = image_record(0x3a0, VK_FORMAT_D24_UNORM_S8_UINT, 2, 1);
  b.object(ds);
  b.object(image_record(0x3a1, VK_FORMAT_ASTC_4x4_UNORM_BLOCK, 4, 4));
  b.begin_frame(1);
  // Frame-start contents: depth (8 bytes) at 0, stencil (2 bytes) at 16.
  std::vector<uint8_t> blob(18, 0);
  blob[0] = 1, blob[4] = 2, blob[16] = 5, blob[17] = 6;
  ds.contents = b.blob(blob);
  ds.subresources = {{0, 0, 0, 8, VK_IMAGE_ASPECT_DEPTH_BIT}, {0, 0, 16, 2, VK_IMAGE_ASPECT_STENCIL_BIT}};
  b.object(ds);
  cap::CmdCopyRecord copy{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, 0x3a1, 0, 0, 0, {}};
  copy.regions = {box(0, 0, 0, 0, 0, 0, 4, 4)};
  b.cmd(copy);
  b.cmd(cap::CmdDispatchRecord{1, 1, 1, 0, 0});
  b.submit();
  b.end_frame();
  auto r = replay(b);
  const Image* img = r->replay->find_image(0x3a0);
  EXPECT_TRUE(img->defined);
  EXPECT_EQ(img->subresource(Aspect::ColorOrDepth, 0, 0), (std::vector<uint8_t>{1, 0, 0, 0, 2, 0, 0, 0}));
  EXPECT_EQ(img->subresource(Aspect::Stencil, 0, 0), (std::vector<uint8_t>{5, 6}));
  EXPECT_NE(img->address, r->replay->find_image(0x3a1)->address);
  EXPECT_EQ(img->address % 4096, 0u);
  EXPECT_EQ(skipped(r->result, "image: format 157 not supported"), 1u);
  EXPECT_EQ(skipped(r->result, "copy buffer to image: image format 157 not supported"), 1u);
  EXPECT_EQ(skipped(r->result, "dispatch: no compute pipeline bound"), 1u);
  EXPECT_EQ(r->result.skipped.total(), 3u) << reasons(r->result);
}

TEST(FrontendTransfer, StateCarriesOverFramesAndThePresentedImageIsReported) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  constexpr uint64_t kSwapchain = 0xe0, kImage0 = 0xe1, kImage1 = 0xe2;
  b.object(cap::SwapchainRecord{kSwapchain, VK_FORMAT_B8G8R8A8_UNORM, 0, 2, 1, 1,
                                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, {kImage0, kImage1}});
  b.begin_frame(1);
  b.cmd(cap::CmdFillBufferRecord{Scene::kBuffer, 0, 8, 0x11223344u});
  b.submit();
  const std::vector<uint8_t> pixels = {1, 2, 3, 4, 5, 6, 7, 8};
  b.object(cap::PresentedImageRecord{kSwapchain, 1, VK_FORMAT_B8G8R8A8_UNORM, 2, 1, b.blob(pixels)});
  cap::RenderTargetContentsRecord rt;
  rt.present = 1;
  rt.image = Scene::kTarget;
  rt.format = VK_FORMAT_R8G8B8A8_UNORM;
  rt.width = rt.height = 4;
  rt.contents = b.blob(std::vector<uint8_t>(64, 3));
  rt.subresources = {{0, 0, 0, 64, VK_IMAGE_ASPECT_COLOR_BIT}};
  b.object(rt);
  b.end_frame();
  b.begin_frame(2);
  cap::CmdCopyRecord up{cap::CmdCopyRecord::kBufferToImage, Scene::kBuffer, kImage1, 0, 0, 0, {}};
  up.regions = {box(0, 0, 0, 0, 0, 0, 2, 1)};
  b.cmd(up);
  b.submit();
  b.end_frame();
  auto reader = b.finish();
  std::string error;
  auto replay = CaptureReplay::open(*reader, &error);
  ASSERT_NE(replay, nullptr) << error;
  ASSERT_EQ(replay->frame_count(), 2u);
  RecordingRenderer renderer;
  FrameResult r0, r1;
  ASSERT_TRUE(replay->replay_frame(0, renderer, &r0, &error)) << error;
  EXPECT_EQ(r0.present, 1u);
  ASSERT_TRUE(r0.presented.has_value());
  EXPECT_EQ(r0.presented->swapchain_image, kImage1);
  EXPECT_EQ(r0.presented->width, 2u);
  EXPECT_EQ(r0.presented->pixels, pixels);
  ASSERT_EQ(r0.render_targets.size(), 1u);
  EXPECT_EQ(r0.render_targets[0], rt);
  const Image* img = replay->find_image(kImage1);
  ASSERT_NE(img, nullptr);
  EXPECT_TRUE(img->swapchain);
  EXPECT_FALSE(img->defined);
  ASSERT_TRUE(replay->replay_frame(1, renderer, &r1, &error)) << error;
  EXPECT_EQ(r1.present, 2u);
  EXPECT_FALSE(r1.presented.has_value());
  EXPECT_TRUE(img->defined);
  EXPECT_EQ(img->subresource(Aspect::ColorOrDepth, 0, 0),
            (std::vector<uint8_t>{0x44, 0x33, 0x22, 0x11, 0x44, 0x33, 0x22, 0x11}));
  EXPECT_EQ(r0.skipped.total() + r1.skipped.total(), 0u) << reasons(r0) << reasons(r1);
}

// `tessera capture --readback passes` writes each pass's attachments as the captured device left
// them; the replay hands them on in file order, in the frame they belong to, and skips nothing.
TEST(FrontendTransfer, PassContentsAreCollectedPerFrameInFileOrder) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.cmd(Scene::begin_pass());
  b.cmd(cap::CmdEndRenderPassRecord{});
  b.submit();
  cap::RenderPassContentsRecord first;
  first.present = 1;
  first.pass = 0;
  first.image = Scene::kTarget;
  first.format = VK_FORMAT_R8G8B8A8_UNORM;
  first.width = first.height = 4;
  first.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  first.layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  first.contents = b.blob(std::vector<uint8_t>(64, 7));
  cap::RenderPassContentsRecord second = first;
  second.pass = 1;
  second.contents = b.blob(std::vector<uint8_t>(64, 9));
  b.object(first);
  b.object(second);
  b.end_frame();
  b.begin_frame(2);
  b.end_frame();
  auto reader = b.finish();
  std::string error;
  auto replay = CaptureReplay::open(*reader, &error);
  ASSERT_NE(replay, nullptr) << error;
  RecordingRenderer renderer;
  FrameResult r0, r1;
  ASSERT_TRUE(replay->replay_frame(0, renderer, &r0, &error)) << error;
  EXPECT_EQ(r0.passes, 2u);
  ASSERT_EQ(r0.pass_contents.size(), 2u);
  EXPECT_EQ(r0.pass_contents[0], first);
  EXPECT_EQ(r0.pass_contents[1], second);
  EXPECT_TRUE(r0.render_targets.empty());
  EXPECT_EQ(r0.skipped.total(), 0u) << reasons(r0);
  ASSERT_TRUE(replay->replay_frame(1, renderer, &r1, &error)) << error;
  EXPECT_TRUE(r1.pass_contents.empty());
}

TEST(FrontendTransfer, DamagedPassContentsStopTheReplayWithOneLine) {
  CaptureBuilder b;
  Scene s;
  s.write(b);
  b.begin_frame(1);
  b.raw(cap::kind_of<cap::RenderPassContentsRecord>(), {std::byte{1}, std::byte{2}});  // cut short
  b.end_frame();
  auto reader = b.finish();
  std::string error;
  auto replay = CaptureReplay::open(*reader, &error);
  ASSERT_NE(replay, nullptr) << error;
  RecordingRenderer renderer;
  FrameResult result;
  EXPECT_FALSE(replay->replay_frame(0, renderer, &result, &error));
  EXPECT_EQ(error, b.path() + ": frame 1: render_pass_contents record does not decode");
}

}  // namespace
}  // namespace tessera::frontend::testing
