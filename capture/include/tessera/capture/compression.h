// Chunk payload compression behind a three-method interface, so the container does not care
// which codec a file uses (the file header names it).
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "tessera/capture/format.h"

namespace tessera::capture {

class Compressor {
 public:
  virtual ~Compressor() = default;
  virtual format::Codec codec() const = 0;
  // Replaces dst with the compressed form of src. False on codec failure.
  virtual bool compress(std::span<const std::byte> src, std::vector<std::byte>& dst) = 0;
  // Decompresses src into exactly dst.size() bytes. False when src is not a valid stream of
  // exactly that size: hostile input is expected here, not only our own output.
  virtual bool decompress(std::span<const std::byte> src, std::span<std::byte> dst) = 0;
};

// level: zstd compression level (negative = faster, 1 = fast default, up to 19). The
// compressor keeps one context for its lifetime: contexts are costly to create per chunk.
std::unique_ptr<Compressor> make_compressor(format::Codec codec, int level);

}  // namespace tessera::capture
