#include "thumbnail.h"

#include <png.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tessera::report {
namespace {

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

// The box filter averages in linear light, not on the sRGB codes: light adds linearly, so the mean
// of linear values is what the eye sees of the area from further away, which is what a thumbnail is.
// Averaging the codes darkens every fine bright detail on a dark ground (edges, text, thin lines,
// highlights: a pixel-wide black and white pattern becomes code 128, about 22 % luminance, instead
// of 188, 50 %). It costs a 256-entry table on the way in and one pow() per output channel.
double srgb_to_linear(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double linear_to_srgb(double l) { return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055; }

const std::array<double, 256>& linear_of_code() {
  static const std::array<double, 256> table = [] {
    std::array<double, 256> t{};
    for (int i = 0; i < 256; ++i) t[i] = srgb_to_linear(i / 255.0);
    return t;
  }();
  return table;
}

uint8_t to_code(double unit) {
  const double v = std::round(unit * 255.0);
  return static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
}

// Output pixel o of `out` pixels along a side of `in` source pixels covers [o * in, (o + 1) * in) in
// units of 1/out source pixel, source pixel s covers [s * out, (s + 1) * out): the overlap, an
// integer, is s's weight in o, and the weights of o sum to `in`. Calls f(o, weight) for each output
// pixel that source pixel s overlaps (one or two when in >= out).
template <class F>
void overlaps(uint64_t s, uint64_t in, uint64_t out, F f) {
  const uint64_t lo = s * out, hi = (s + 1) * out;
  for (uint64_t o = lo / in; o * in < hi; ++o) {
    const uint64_t a = std::max(lo, o * in), b = std::min(hi, (o + 1) * in);
    f(o, static_cast<double>(b - a));
  }
}

}  // namespace

Image downscale_box(const Image& image, uint32_t max_width) {
  if (max_width == 0 || image.width <= max_width) return image;
  const uint64_t w = image.width, h = image.height, ow = max_width;
  uint64_t oh = (h * ow + w / 2) / w;
  if (oh == 0) oh = 1;
  const auto& lin = linear_of_code();
  // Per output pixel: alpha-premultiplied linear R, G, B and alpha, summed with integer weights.
  std::vector<double> sum(ow * oh * 4, 0.0), row(ow * 4);
  for (uint64_t y = 0; y < h; ++y) {
    std::fill(row.begin(), row.end(), 0.0);
    const uint8_t* src = image.rgba.data() + y * w * 4;
    for (uint64_t x = 0; x < w; ++x) {
      const uint8_t* p = src + x * 4;
      const double a = p[3] / 255.0;
      const double px[4] = {lin[p[0]] * a, lin[p[1]] * a, lin[p[2]] * a, a};
      overlaps(x, w, ow, [&](uint64_t o, double weight) {
        for (int c = 0; c < 4; ++c) row[o * 4 + c] += weight * px[c];
      });
    }
    overlaps(y, h, oh, [&](uint64_t o, double weight) {
      double* dst = sum.data() + o * ow * 4;
      for (uint64_t i = 0; i < ow * 4; ++i) dst[i] += weight * row[i];
    });
  }
  Image out;
  out.width = static_cast<uint32_t>(ow);
  out.height = static_cast<uint32_t>(oh);
  out.rgba.resize(ow * oh * 4);
  const double total = static_cast<double>(w) * static_cast<double>(h);  // the weights of one output pixel
  for (uint64_t i = 0; i < ow * oh; ++i) {
    const double* s = sum.data() + i * 4;
    const double a = s[3] / total;
    uint8_t* d = out.rgba.data() + i * 4;
    for (int c = 0; c < 3; ++c) d[c] = a > 0 ? to_code(linear_to_srgb(std::min(1.0, s[c] / s[3]))) : 0;
    d[3] = to_code(a);
  }
  return out;
}

bool decode_png(std::string_view bytes, Image* image, std::string* error) {
  // The simplified API reports errors through png.message instead of longjmp, so no C++ object is
  // ever skipped by a jump.
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
    const std::string message = png.message;
    png_image_free(&png);
    return fail(error, message.empty() ? "libpng failed" : message);
  }
  png.format = PNG_FORMAT_RGBA;
  if (png.width == 0 || png.height == 0 || png.width > 0x7fffffffu / 4) {
    png_image_free(&png);
    return fail(error, "unsupported size " + std::to_string(png.width) + "x" + std::to_string(png.height));
  }
  Image out;
  out.width = png.width;
  out.height = png.height;
  out.rgba.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, out.rgba.data(), static_cast<png_int_32>(out.width * 4), nullptr)) {
    const std::string message = png.message;
    png_image_free(&png);
    return fail(error, message.empty() ? "libpng failed" : message);
  }
  png_image_free(&png);
  *image = std::move(out);
  return true;
}

bool encode_png(const Image& image, std::string* png_bytes, std::string* error) {
  if (image.width == 0 || image.height == 0 || image.width > 0x7fffffffu / 4)
    return fail(error, "unsupported size " + std::to_string(image.width) + "x" + std::to_string(image.height));
  if (image.rgba.size() != uint64_t{image.width} * image.height * 4) return fail(error, "pixel data of the wrong size");
  bool opaque = true;
  for (size_t i = 3; i < image.rgba.size() && opaque; i += 4) opaque = image.rgba[i] == 255;
  // Opaque frames (every replayed one) drop the alpha channel: a quarter less to compress.
  std::vector<uint8_t> rgb;
  const uint8_t* pixels = image.rgba.data();
  if (opaque) {
    rgb.resize(image.rgba.size() / 4 * 3);
    for (size_t i = 0, j = 0; i < image.rgba.size(); i += 4, j += 3) std::memcpy(&rgb[j], &image.rgba[i], 3);
    pixels = rgb.data();
  }
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = image.width;
  png.height = image.height;
  png.format = opaque ? PNG_FORMAT_RGB : PNG_FORMAT_RGBA;
  const png_int_32 stride = static_cast<png_int_32>(PNG_IMAGE_ROW_STRIDE(png));
  std::string out(PNG_IMAGE_PNG_SIZE_MAX(png), '\0');  // the most any image of this size takes
  png_alloc_size_t size = out.size();
  const int ok = png_image_write_to_memory(&png, out.data(), &size, 0, pixels, stride, nullptr);
  const std::string message = png.message;
  png_image_free(&png);
  if (!ok) return fail(error, message.empty() ? "libpng failed" : message);
  out.resize(size);
  *png_bytes = std::move(out);
  return true;
}

bool png_thumbnail(const std::string& path, uint32_t max_width, Thumbnail* out, std::string* error) {
  // A directory opens as a stream too, and a read error there would leave only the output
  // stream's failbit: say what the file is not before reading it.
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    return fail(error, path + ": cannot read (not a regular file)");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(error, path + ": cannot read (" + std::strerror(errno) + ")");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad()) return fail(error, path + ": cannot read (" + std::strerror(errno) + ")");
  Image image;
  std::string problem;
  if (!decode_png(bytes.view(), &image, &problem)) return fail(error, path + ": cannot decode PNG (" + problem + ")");
  const Image small = downscale_box(image, max_width);
  Thumbnail t;
  if (!encode_png(small, &t.png, &problem)) return fail(error, path + ": cannot encode its thumbnail (" + problem + ")");
  t.width = small.width;
  t.height = small.height;
  t.source_width = image.width;
  t.source_height = image.height;
  *out = std::move(t);
  return true;
}

}  // namespace tessera::report
