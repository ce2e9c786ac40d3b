#include "scene.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "scene_frag.spv.h"
#include "scene_vert.spv.h"
#include "tessera/capture/records.h"

namespace tessera::synthetic {
namespace {

// VkFormat / usage values the records carry (from the Vulkan registry; the capture library
// itself does not depend on the Vulkan headers).
constexpr uint32_t kVkFormatR8G8B8A8Unorm = 37;
constexpr uint32_t kVkFormatB8G8R8A8Srgb = 50;
constexpr uint32_t kVkImageType2D = 1;
constexpr uint32_t kVkImageAspectColor = 0x1;
constexpr uint32_t kVkImageUsageSampledTransferDst = 0x4 | 0x2;
constexpr uint32_t kVkImageLayoutShaderReadOnly = 5;
constexpr uint32_t kVkBufferUsageVertex = 0x80;
constexpr uint32_t kVkBufferUsageUniform = 0x10;

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

float lattice(uint32_t x, uint32_t y, uint32_t octave, uint32_t seed) {
  uint64_t s = (static_cast<uint64_t>(seed) << 40) ^ (static_cast<uint64_t>(octave) << 56) ^
               (static_cast<uint64_t>(x) << 20) ^ y;
  return static_cast<float>(splitmix64(s) >> 40) / static_cast<float>(1u << 24);
}

float smooth(float t) { return t * t * (3.0f - 2.0f * t); }

// Value noise: bilinear interpolation of a random lattice with spacing `cell`.
float value_noise(float x, float y, uint32_t cell, uint32_t octave, uint32_t seed) {
  const float fx = x / static_cast<float>(cell), fy = y / static_cast<float>(cell);
  const auto ix = static_cast<uint32_t>(fx), iy = static_cast<uint32_t>(fy);
  const float tx = smooth(fx - static_cast<float>(ix)), ty = smooth(fy - static_cast<float>(iy));
  const float a = lattice(ix, iy, octave, seed), b = lattice(ix + 1, iy, octave, seed);
  const float c = lattice(ix, iy + 1, octave, seed), d = lattice(ix + 1, iy + 1, octave, seed);
  return (a + (b - a) * tx) * (1 - ty) + (c + (d - c) * tx) * ty;
}

std::byte to_unorm8(float v) { return static_cast<std::byte>(std::clamp(static_cast<int>(v * 255.0f + 0.5f), 0, 255)); }

std::span<const std::byte> word_bytes(std::span<const uint32_t> words) {
  return {reinterpret_cast<const std::byte*>(words.data()), words.size_bytes()};
}

}  // namespace

std::vector<std::byte> natural_image_rgba8(uint32_t width, uint32_t height, uint32_t seed) {
  std::vector<std::byte> out(static_cast<size_t>(width) * height * 4);
  uint64_t grain = seed * 0x2545f4914f6cdd1dull + 1;
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const auto fx = static_cast<float>(x), fy = static_cast<float>(y);
      float n = 0, weight = 0.5f;
      uint32_t cell = 64, octave = 0;
      while (cell >= 2) {
        n += weight * value_noise(fx, fy, cell, octave++, seed);
        weight *= 0.5f;
        cell /= 2;
      }
      const float m = value_noise(fx, fy, 48, 99, seed + 7);
      const float g = static_cast<float>(splitmix64(grain) & 7) / 255.0f;  // sensor-like grain
      const size_t i = (static_cast<size_t>(y) * width + x) * 4;
      out[i + 0] = to_unorm8(n * 1.1f + g);
      out[i + 1] = to_unorm8(0.6f * n + 0.4f * m + g);
      out[i + 2] = to_unorm8(0.3f + 0.5f * m * n + g);
      out[i + 3] = (seed % 3 == 0) ? to_unorm8(0.5f + m * 0.5f) : std::byte{255};
    }
  }
  return out;
}

std::vector<std::vector<std::byte>> mip_chain_rgba8(std::vector<std::byte> level0, uint32_t width, uint32_t height) {
  std::vector<std::vector<std::byte>> chain;
  chain.push_back(std::move(level0));
  while (width > 1 || height > 1) {
    const uint32_t w = std::max(1u, width / 2), h = std::max(1u, height / 2);
    const auto& src = chain.back();
    std::vector<std::byte> dst(static_cast<size_t>(w) * h * 4);
    for (uint32_t y = 0; y < h; ++y) {
      for (uint32_t x = 0; x < w; ++x) {
        for (uint32_t c = 0; c < 4; ++c) {
          unsigned sum = 0;
          for (uint32_t dy = 0; dy < 2; ++dy) {
            for (uint32_t dx = 0; dx < 2; ++dx) {
              const uint32_t sx = std::min(width - 1, 2 * x + dx), sy = std::min(height - 1, 2 * y + dy);
              sum += static_cast<unsigned>(src[(static_cast<size_t>(sy) * width + sx) * 4 + c]);
            }
          }
          dst[(static_cast<size_t>(y) * w + x) * 4 + c] = static_cast<std::byte>((sum + 2) / 4);
        }
      }
    }
    chain.push_back(std::move(dst));
    width = w;
    height = h;
  }
  return chain;
}

std::vector<std::vector<std::byte>> command_stream_records(uint32_t frame, uint32_t draws, uint32_t seed) {
  std::vector<std::vector<std::byte>> records;
  uint64_t rng = (static_cast<uint64_t>(seed) << 32) | frame;
  for (uint32_t d = 0; d < draws; ++d) {
    capture::ByteWriter w;
    w.put_varint(d % 7);                 // pipeline
    w.put_varint(d % 13);                // descriptor set
    w.put_varint(6u * (1u + d % 50));    // index count
    w.put_varint(6u * d);                // first index
    w.put_varint(0);                     // vertex offset
    w.put_varint(1);                     // instance count
    // Model-view-projection: mostly structured floats, slowly changing per frame.
    const float angle = static_cast<float>(frame) * 0.01f + static_cast<float>(d) * 0.1f;
    const float m[16] = {std::cos(angle), 0, std::sin(angle), 0, 0, 1, 0, 0, -std::sin(angle), 0, std::cos(angle), 0,
                         static_cast<float>(d % 10), static_cast<float>(d / 10), -5.0f - static_cast<float>(splitmix64(rng) & 3), 1};
    for (float v : m) w.put(v);
    records.push_back(w.take());
  }
  return records;
}

void write_scene(capture::CaptureWriter& writer, const SceneOptions& o) {
  using namespace capture;
  CaptureInfoRecord info;
  info.entries = {{"application", "tessera-synth"},
                  {"scene", "synthetic: " + std::to_string(o.textures) + " textures, " + std::to_string(o.frames) + " frames"},
                  {"note", "generated without a driver; not a real application capture"}};
  writer.write(info);
  DeviceInfoRecord dev;
  dev.api_version = (1u << 22) | (3u << 12);
  dev.device_type = 4;  // VK_PHYSICAL_DEVICE_TYPE_CPU
  dev.device_name = "synthetic (no device)";
  dev.driver_name = "none";
  dev.memory_heaps = {{1ull << 30, 1}};
  dev.memory_types = {{0, 0x7}};
  writer.write(dev);

  // Textures: content generated once, referenced from every frame (the layer records the
  // resources each frame reads; the blob store keeps one copy).
  struct Texture {
    ImageRecord rec;
    std::vector<std::byte> packed;
  };
  std::vector<Texture> textures;
  for (uint32_t t = 0; t < o.textures; ++t) {
    Texture tex;
    auto chain = mip_chain_rgba8(natural_image_rgba8(o.texture_size, o.texture_size, o.seed * 1000 + t),
                                 o.texture_size, o.texture_size);
    tex.rec.image = 0x1000 + t;
    tex.rec.image_type = kVkImageType2D;
    tex.rec.format = kVkFormatR8G8B8A8Unorm;
    tex.rec.width = tex.rec.height = o.texture_size;
    tex.rec.depth = tex.rec.array_layers = tex.rec.samples = 1;
    tex.rec.mip_levels = static_cast<uint32_t>(chain.size());
    tex.rec.usage = kVkImageUsageSampledTransferDst;
    tex.rec.layout = kVkImageLayoutShaderReadOnly;
    for (uint32_t mip = 0; mip < chain.size(); ++mip) {
      tex.rec.subresources.push_back({mip, 0, tex.packed.size(), chain[mip].size(), kVkImageAspectColor});
      tex.packed.insert(tex.packed.end(), chain[mip].begin(), chain[mip].end());
    }
    textures.push_back(std::move(tex));
  }

  std::vector<float> grid;  // 16x16 quad grid: position xyz + uv
  for (int y = 0; y <= 16; ++y) {
    for (int x = 0; x <= 16; ++x) {
      grid.insert(grid.end(), {static_cast<float>(x) / 8 - 1, static_cast<float>(y) / 8 - 1, 0, static_cast<float>(x) / 16,
                               static_cast<float>(y) / 16});
    }
  }
  const auto vertex_bytes = std::span<const std::byte>(reinterpret_cast<const std::byte*>(grid.data()), grid.size() * sizeof(float));

  for (uint32_t f = 1; f <= o.frames; ++f) {
    writer.begin_frame(f);
    writer.write(ShaderModuleRecord{1, writer.put_blob(word_bytes(kScene_vert_spv)), sizeof(kScene_vert_spv)});
    writer.write(ShaderModuleRecord{2, writer.put_blob(word_bytes(kScene_frag_spv)), sizeof(kScene_frag_spv)});
    for (auto& tex : textures) {
      tex.rec.contents = writer.put_blob(tex.packed);
      writer.write(tex.rec);
    }
    writer.write(BufferRecord{0x2000, vertex_bytes.size(), kVkBufferUsageVertex, writer.put_blob(vertex_bytes)});
    // Per-frame uniforms change every frame: a new blob each time.
    const float uniforms[4] = {static_cast<float>(f), 0.5f, 0.25f, 1.0f};
    writer.write(BufferRecord{0x2001, sizeof(uniforms), kVkBufferUsageUniform,
                              writer.put_blob({reinterpret_cast<const std::byte*>(uniforms), sizeof(uniforms)})});
    for (const auto& body : command_stream_records(f, 64, o.seed)) writer.write_record(kSyntheticCommandKind, body);
    if (f == 1) writer.write(WarningRecord{"synthetic scene: no real draw was recorded"});

    // Presented image: a tile of a texture, shifted per frame like a camera pan.
    std::vector<std::byte> present(static_cast<size_t>(o.width) * o.height * 4);
    const auto base = natural_image_rgba8(o.width + 64, o.height, o.seed);
    for (uint32_t y = 0; y < o.height; ++y) {
      std::memcpy(&present[static_cast<size_t>(y) * o.width * 4], &base[(static_cast<size_t>(y) * (o.width + 64) + f % 64) * 4],
                  static_cast<size_t>(o.width) * 4);
    }
    writer.write(PresentedImageRecord{0x3000, f % 3, kVkFormatB8G8R8A8Srgb, o.width, o.height, writer.put_blob(present)});
    writer.flush_frame();
  }
}

std::string write_scene_file(const std::string& path, const SceneOptions& options, capture::WriterOptions writer_options) {
  std::string error;
  writer_options.on_error = [&error](const std::string& e) { error = e; };
  auto writer = capture::CaptureWriter::open(path, writer_options, &error);
  if (!writer) return error;
  write_scene(*writer, options);
  if (!writer->close() && error.empty()) error = path + ": write failed";
  return error;
}

}  // namespace tessera::synthetic
