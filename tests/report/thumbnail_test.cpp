// The suite's frame thumbnails (report/thumbnail.h): constructed images written as PNG files, shrunk
// to at most 480 pixels wide, and the thumbnail's PNG decoded again: its size and the box-filtered
// (linear-light) values at known pixels, a narrow image kept as it is, and the one-line errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "thumbnail.h"

namespace tessera::report {
namespace {

namespace fs = std::filesystem;

struct Rgba {
  uint8_t r, g, b, a;
  bool operator==(const Rgba&) const = default;
};

void PrintTo(const Rgba& p, std::ostream* os) {
  *os << "(" << int(p.r) << ", " << int(p.g) << ", " << int(p.b) << ", " << int(p.a) << ")";
}

Image image(uint32_t w, uint32_t h) {
  Image im;
  im.width = w;
  im.height = h;
  im.rgba.assign(size_t{w} * h * 4, 0);
  return im;
}

void set(Image& im, uint32_t x, uint32_t y, Rgba p) {
  uint8_t* d = im.rgba.data() + (size_t{y} * im.width + x) * 4;
  d[0] = p.r, d[1] = p.g, d[2] = p.b, d[3] = p.a;
}

Rgba at(const Image& im, uint32_t x, uint32_t y) {
  const uint8_t* d = im.rgba.data() + (size_t{y} * im.width + x) * 4;
  return {d[0], d[1], d[2], d[3]};
}

// The sRGB code whose linear value is the mean of codes a and b's (the filter's arithmetic, by the
// standard's formulas).
uint8_t linear_mean(double a, double b) {
  auto lin = [](double c) { c /= 255; return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
  const double l = (lin(a) + lin(b)) / 2;
  const double s = l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1 / 2.4) - 0.055;
  return static_cast<uint8_t>(std::lround(s * 255));
}

class ReportThumbnails : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tessera-thumbnail-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const Image& im) {
    std::string png, error;
    EXPECT_TRUE(encode_png(im, &png, &error)) << error;
    return write_bytes(name, png);
  }
  std::string write_bytes(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static Image thumbnail_of(const std::string& path, Thumbnail* t) {
    std::string error;
    EXPECT_TRUE(png_thumbnail(path, kThumbnailMaxWidth, t, &error)) << error;
    Image back;
    EXPECT_TRUE(decode_png(t->png, &back, &error)) << error;
    EXPECT_EQ(back.width, t->width);
    EXPECT_EQ(back.height, t->height);
    return back;
  }

  fs::path dir_;
};

// 1000x10, opaque: columns 0-499 red, 500-999 blue, except rows 0-2, which are white, and column
// 1, which is black. 1000 -> 480 columns (each output column covers 25/12 source columns) and
// 10 -> round(10 * 0.48) = 5 rows (2 each).
TEST_F(ReportThumbnails, WideImageIsBoxFilteredTo480WideInLinearLight) {
  Image im = image(1000, 10);
  for (uint32_t y = 0; y < 10; ++y) {
    for (uint32_t x = 0; x < 1000; ++x) {
      Rgba p = x < 500 ? Rgba{255, 0, 0, 255} : Rgba{0, 0, 255, 255};
      if (y < 3) p = {255, 255, 255, 255};
      if (x == 1) p = {0, 0, 0, 255};
      set(im, x, y, p);
    }
  }
  Thumbnail t;
  const Image th = thumbnail_of(write("wide.png", im), &t);
  EXPECT_EQ(t.source_width, 1000u);
  EXPECT_EQ(t.source_height, 10u);
  ASSERT_EQ(th.width, 480u);
  ASSERT_EQ(th.height, 5u);
  // Inside a block the colour is kept exactly, opaque.
  EXPECT_EQ(at(th, 100, 3), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(at(th, 200, 4), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(at(th, 400, 4), (Rgba{0, 0, 255, 255}));
  EXPECT_EQ(at(th, 300, 0), (Rgba{255, 255, 255, 255}));
  // The red/blue edge falls on an output edge (500 * 0.48 = 240): no mixing either side.
  EXPECT_EQ(at(th, 239, 3), (Rgba{255, 0, 0, 255}));
  EXPECT_EQ(at(th, 240, 3), (Rgba{0, 0, 255, 255}));
  // Output row 1 is source rows 2 (white) and 3 (red): green and blue are the mean of 255 and 0 in
  // linear light, 188, not 128.
  const uint8_t half = linear_mean(255, 0);
  EXPECT_EQ(half, 188);
  EXPECT_EQ(at(th, 100, 1), (Rgba{255, half, half, 255}));
  EXPECT_EQ(at(th, 300, 1), (Rgba{half, half, 255, 255}));
  // Output column 0 covers source columns 0, 1 and 1/12 of 2: in rows 6-7 (red), 13/25 of it is red
  // and 12/25 the black column: red is the sRGB code of linear 13/25.
  {
    const double s = 1.055 * std::pow(13.0 / 25.0, 1 / 2.4) - 0.055;
    EXPECT_EQ(at(th, 0, 3), (Rgba{static_cast<uint8_t>(std::lround(s * 255)), 0, 0, 255}));
  }
}

// Transparency: the mean is of premultiplied colour, so a transparent pixel's colour adds nothing.
TEST_F(ReportThumbnails, TransparentPixelsDoNotTintTheMean) {
  Image im = image(960, 2);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 960; ++x) set(im, x, y, x % 2 ? Rgba{0, 255, 0, 0} : Rgba{200, 100, 50, 255});
  Thumbnail t;
  const Image th = thumbnail_of(write("alpha.png", im), &t);
  ASSERT_EQ(th.width, 480u);
  ASSERT_EQ(th.height, 1u);
  EXPECT_EQ(at(th, 17, 0), (Rgba{200, 100, 50, 128}));
}

TEST_F(ReportThumbnails, NarrowImageKeepsItsSizeAndPixels) {
  Image im = image(480, 3);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 480; ++x)
      set(im, x, y, {static_cast<uint8_t>(x), static_cast<uint8_t>(y * 100), static_cast<uint8_t>(x / 2), 255});
  Thumbnail t;
  const Image th = thumbnail_of(write("narrow.png", im), &t);
  EXPECT_EQ(th.width, 480u);
  EXPECT_EQ(th.height, 3u);
  EXPECT_EQ(th.rgba, im.rgba);

  const Image small = image(7, 300);
  const Image th2 = thumbnail_of(write("small.png", small), &t);
  EXPECT_EQ(th2.width, 7u);
  EXPECT_EQ(th2.height, 300u);
}

TEST_F(ReportThumbnails, TallImageKeepsItsAspectRatio) {
  const Image th = downscale_box(image(1920, 1080), 480);
  EXPECT_EQ(th.width, 480u);
  EXPECT_EQ(th.height, 270u);
  const Image sliver = downscale_box(image(5000, 1), 480);  // 0.096 rows: at least one
  EXPECT_EQ(sliver.width, 480u);
  EXPECT_EQ(sliver.height, 1u);
}

TEST_F(ReportThumbnails, UnreadableFileIsOneLineNamingIt) {
  Thumbnail t;
  std::string error;
  const std::string missing = (dir_ / "missing.png").string();
  EXPECT_FALSE(png_thumbnail(missing, kThumbnailMaxWidth, &t, &error));
  EXPECT_EQ(error, missing + ": cannot read (No such file or directory)");
  // A directory where a frame PNG should be is unreadable, not an undecodable PNG.
  EXPECT_FALSE(png_thumbnail(dir_.string(), kThumbnailMaxWidth, &t, &error));
  EXPECT_EQ(error, dir_.string() + ": cannot read (not a regular file)");

  const std::string text = write_bytes("text.png", "not a PNG at all\n");
  EXPECT_FALSE(png_thumbnail(text, kThumbnailMaxWidth, &t, &error));
  EXPECT_EQ(error.rfind(text + ": cannot decode PNG (", 0), 0u) << error;
  EXPECT_EQ(error.back(), ')');
  EXPECT_EQ(error.find('\n'), std::string::npos);

  // A PNG cut short: its header reads, its pixels do not.
  Image noise = image(600, 400);
  uint32_t seed = 1;
  for (auto& byte : noise.rgba) byte = static_cast<uint8_t>((seed = seed * 1664525u + 1013904223u) >> 24);
  std::string png;
  ASSERT_TRUE(encode_png(noise, &png, &error)) << error;
  const std::string cut = write_bytes("cut.png", png.substr(0, png.size() / 2));
  EXPECT_FALSE(png_thumbnail(cut, kThumbnailMaxWidth, &t, &error));
  EXPECT_EQ(error.rfind(cut + ": cannot decode PNG (", 0), 0u) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace tessera::report
