#include "png_writer.h"

#include <png.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tessera::image {
namespace {

bool fail(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

bool write_png(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba8, std::string* error) {
  const std::string prefix = "cannot write PNG '" + path + "': ";
  if (width == 0 || height == 0) return fail(error, prefix + "empty image (" + std::to_string(width) + "x" +
                                                        std::to_string(height) + ")");
  // The simplified API takes the row stride as png_int_32 and PNG limits each side to 2^31 - 1.
  if (width > 0x7fffffffu / 4 || height > 0x7fffffffu)
    return fail(error, prefix + "image too large (" + std::to_string(width) + "x" + std::to_string(height) + ")");
  if (rgba8 == nullptr) return fail(error, prefix + "no pixel data");

  // Opened here rather than by png_image_write_to_file so the error can say why (errno).
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return fail(error, prefix + std::strerror(errno));

  // The simplified API reports errors through image.message instead of longjmp, so no C++ object
  // is ever skipped by a jump.
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = PNG_FORMAT_RGBA;
  const int ok = png_image_write_to_stdio(&image, file, 0, rgba8, static_cast<png_int_32>(width * 4), nullptr);
  const std::string message = image.message;
  png_image_free(&image);
  const bool flushed = std::fflush(file) == 0;
  const int flush_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (!ok || !flushed || !closed) {
    std::remove(path.c_str());
    if (!ok) return fail(error, prefix + (message.empty() ? std::string("libpng failed") : message));
    return fail(error, prefix + std::strerror(flushed ? errno : flush_errno));
  }
  return true;
}

}  // namespace tessera::image
