// Synthetic scene: writes a capture file without any Vulkan driver. The data looks like what
// the layer records from a game (textures with mip chains, vertex/index buffers, SPIR-V,
// presented images), so the capture library can be tested and benchmarked on realistic bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tessera/capture/writer.h"

namespace tessera::synthetic {

struct SceneOptions {
  uint32_t frames = 3;
  uint32_t textures = 6;         // each seen in every frame: stored once by content
  uint32_t texture_size = 256;   // base level, square, RGBA8, full mip chain
  uint32_t width = 320, height = 180;  // presented image
  uint32_t seed = 1;
};

// RGBA8 texel data that compresses like photographs and game textures do: several octaves of
// smooth value noise plus fine grain, not constant or random bytes.
std::vector<std::byte> natural_image_rgba8(uint32_t width, uint32_t height, uint32_t seed);

// The full mip chain of an RGBA8 image (level 0 first), 2x2 box filter: what apps upload.
std::vector<std::vector<std::byte>> mip_chain_rgba8(std::vector<std::byte> level0, uint32_t width, uint32_t height);

// Records of a small indexed-draw command stream for one frame: many small records of mixed
// integer fields, as a frame's commands look. Kind is kSyntheticCommandKind.
std::vector<std::vector<std::byte>> command_stream_records(uint32_t frame, uint32_t draws, uint32_t seed);
inline constexpr uint32_t kSyntheticCommandKind = 0xFFFF0001u;  // test range, see records.h

// Writes the scene through `writer`: global session/device records, then `frames` frames.
void write_scene(capture::CaptureWriter& writer, const SceneOptions& options);

// Convenience: creates `path`, writes the scene, closes. Returns "" or the error line.
std::string write_scene_file(const std::string& path, const SceneOptions& options,
                             capture::WriterOptions writer_options = {});

}  // namespace tessera::synthetic
