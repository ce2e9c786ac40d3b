// PNG output of replayed and captured frames (`tessera replay`), through libpng's simplified API.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::image {

// Writes `width` x `height` 8-bit RGBA pixels (rows top to bottom, 4 bytes per pixel, no padding)
// to `path` as a PNG with an alpha channel. On failure returns false, sets *error (if not null) to
// one line naming the path and the problem, and removes any partial file.
bool write_png(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba8, std::string* error);

}  // namespace tessera::image
