// The suite's frame thumbnails (tessera report --png): a frame PNG that tessera replay wrote, read
// with libpng, shrunk with a box filter to at most kThumbnailMaxWidth pixels wide and encoded again
// as a PNG in memory, which the page embeds instead of the full-size file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::report {

// The page draws each thumbnail 240 CSS pixels wide (report_page.css, .thumb img): twice that keeps
// it sharp on a high-DPI screen.
inline constexpr uint32_t kThumbnailMaxWidth = 480;

// 8-bit RGBA pixels, sRGB, straight (not premultiplied) alpha, rows top to bottom, 4 bytes per
// pixel, no padding.
struct Image {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;
};

// `image` at most `max_width` (> 0) pixels wide: an image no wider is returned as it is; a wider one
// becomes max_width x round(height * max_width / width) pixels (at least 1 high), each output pixel
// the area-weighted mean of the source pixels its rectangle covers (a box filter: a source pixel
// that straddles two output pixels counts in both by the fraction in each). The mean is taken in
// linear light on alpha-premultiplied colour, then converted back to sRGB (thumbnail.cpp says why).
Image downscale_box(const Image& image, uint32_t max_width);

// A PNG file's bytes as `Image` (libpng converts grey, palette and 16-bit PNGs). On failure returns
// false and sets *error to the problem, libpng's message, without a file name.
bool decode_png(std::string_view bytes, Image* image, std::string* error);

// `image` as PNG bytes (RGB when every pixel is opaque, RGBA otherwise). On failure returns false and
// sets *error to the problem, libpng's message.
bool encode_png(const Image& image, std::string* png, std::string* error);

struct Thumbnail {
  std::string png;  // the thumbnail's PNG bytes
  uint32_t width = 0, height = 0;  // the thumbnail's size
  uint32_t source_width = 0, source_height = 0;  // the file's
};

// The PNG file `path` read, shrunk to at most `max_width` wide (downscale_box) and encoded again. On
// failure returns false and sets *error to one line naming the file and the problem, as
// "PATH: cannot read (No such file or directory)" or "PATH: cannot decode PNG (libpng's message)".
bool png_thumbnail(const std::string& path, uint32_t max_width, Thumbnail* out, std::string* error);

}  // namespace tessera::report
