// Textures (the texture unit's blocked copy of an image, paper 004 section III) built lazily from
// the front end's images and image views, cached by (image, generation, view format, subresource
// range): a render target written by an earlier pass bumps its generation (Image::touch), so a
// later pass that samples it rebuilds the copy.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "held.h"
#include "tessera/frontend/frame.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/texture/sampler.h"
#include "tessera/texture/texture.h"

namespace tessera::render {

class TextureCache {
 public:
  // The copies are held within `budget` (the renderer's, RenderConfig::budget), which must
  // outlive the cache: each is a full copy of a view's subresources, blocked and decoded (16
  // bytes a texel), so it scales with the image sizes a capture declares.
  explicit TextureCache(frontend::MemoryBudget& budget) : budget_(budget) {}

  // The texture of `view`, or null with `error` set (one line naming the image and the problem).
  // Throws frontend::ReplayLimitError when its copy would pass the budget.
  // Every view type: 1D, 2D, 3D, cube and their arrays, and 2D (array) views of a 3D image's
  // slices. The view's component swizzle goes with the texture (Texture::set_swizzle), for every
  // format: Zink's GL luminance / alpha / intensity textures are R8 or R8G8 with a swizzle, its GL
  // RGB textures RGBA with alpha swizzled to ONE.
  const texture::Texture* get(const frontend::ImageView& view, std::string& error);

  // Eviction, so that the copies held match the images a capture still samples: a capture that
  // re-creates its images (streaming, resizes) would otherwise keep a copy, and its budget, of
  // every image it ever sampled, and later frames could be refused. A copy whose image moved on
  // (a newer generation was sampled) is retired at once; retired copies may still be bound to
  // a draw of the running pass, so they are freed by end_pass(), once no draw holds them.
  void end_pass();
  // At the start of a frame, with no pass running: frees the copies not used during the frame
  // before (a texture sampled every frame is blocked and decoded once).
  void begin_frame();

 private:
  // (image, packed swizzle, view format, aspect, base mip, mips, base layer, layers | type << 32)
  using Key = std::tuple<uint64_t, uint64_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t>;
  struct Entry {
    uint64_t generation = 0;
    uint64_t frame = 0;  // the frame it was last used in
    Held held;  // the texture's host bytes, given back once it is destroyed
    std::unique_ptr<texture::Texture> texture;
    std::string error;
  };
  // Moves the copy of `e` to retired_.
  void retire(Entry& e);
  frontend::MemoryBudget& budget_;
  // Keyed without the generation (first the image handle); an entry is rebuilt when the image's
  // generation moved on, so stale copies of a render target do not accumulate.
  std::map<Key, Entry> entries_;
  std::vector<Entry> retired_;
  uint64_t frame_ = 0;
};

// VkSamplerCreateInfo as captured -> the texture unit's sampler state.
texture::SamplerState sampler_state(const capture::SamplerRecord& record);

}  // namespace tessera::render
