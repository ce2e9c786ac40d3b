// PNG output: bytes read back by libpng equal the bytes written; bad paths and images fail with
// one line naming the path.
#include "png_writer.h"

#include <gtest/gtest.h>
#include <png.h>

#include <cstring>
#include <filesystem>
#include <vector>

#include "test_util.h"

namespace tessera::image {
namespace {

using testing::TempPath;

// Reads a PNG back as 8-bit RGBA with libpng's simplified API.
bool read_png(const std::string& path, uint32_t* width, uint32_t* height, std::vector<uint8_t>* rgba) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, path.c_str())) return false;
  image.format = PNG_FORMAT_RGBA;
  rgba->resize(PNG_IMAGE_SIZE(image));
  *width = image.width;
  *height = image.height;
  const bool ok = png_image_finish_read(&image, nullptr, rgba->data(), 0, nullptr) != 0;
  png_image_free(&image);
  return ok;
}

TEST(PngWriter, WritesBytesThatReadBackEqual) {
  TempPath path("frame.png");
  const uint32_t width = 37, height = 11;  // odd sizes: no row padding assumptions
  std::vector<uint8_t> rgba(width * height * 4);
  for (size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<uint8_t>((i * 131 + i / 7) & 0xff);
  std::string error;
  ASSERT_TRUE(write_png(path.str(), width, height, rgba.data(), &error)) << error;
  uint32_t w = 0, h = 0;
  std::vector<uint8_t> back;
  ASSERT_TRUE(read_png(path.str(), &w, &h, &back));
  EXPECT_EQ(w, width);
  EXPECT_EQ(h, height);
  EXPECT_EQ(back, rgba);
}

TEST(PngWriter, BadPathFailsNamingThePath) {
  TempPath dir("unused");
  const std::string path = dir.sibling("no-such-directory/frame.png");
  const std::vector<uint8_t> rgba(4, 0);
  std::string error;
  EXPECT_FALSE(write_png(path, 1, 1, rgba.data(), &error));
  EXPECT_NE(error.find(path), std::string::npos) << error;
  EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(PngWriter, EmptyImageOrNoPixelsFailsWithoutAFile) {
  TempPath path("empty.png");
  const std::vector<uint8_t> rgba(4, 0);
  std::string error;
  EXPECT_FALSE(write_png(path.str(), 0, 5, rgba.data(), &error));
  EXPECT_NE(error.find(path.str()), std::string::npos) << error;
  EXPECT_NE(error.find("empty image (0x5)"), std::string::npos) << error;
  EXPECT_FALSE(write_png(path.str(), 1, 1, nullptr, &error));
  EXPECT_NE(error.find("no pixel data"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(path.str()));
}

}  // namespace
}  // namespace tessera::image
