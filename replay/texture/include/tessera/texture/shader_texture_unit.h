// Adapter from the SPIR-V interpreter's image interface (tessera/shader/texture_sampler.h) to
// the texture unit: resolves the resource indices to bound textures and samplers, runs one
// sample / gather / fetch / query per active lane, and hands every lane's footprint to a sink
// (the access-stream writer).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tessera/shader/texture_sampler.h"
#include "tessera/texture/sampler.h"

namespace tessera::texture {

class ShaderTextureUnit final : public shader::TextureSampler {
 public:
  using FootprintSink = std::function<void(uint32_t lane, const Footprint&)>;

  // `resource` is the index into ShaderModule::resources(); a combined image sampler binds both
  // a texture and a sampler under the same index. Pointers must outlive the unit.
  void bind_texture(uint32_t resource, uint32_t array_element, const Texture* texture);
  void bind_sampler(uint32_t resource, uint32_t array_element, const SamplerState* sampler);
  void set_footprint_sink(FootprintSink sink) { sink_ = std::move(sink); }

  void execute(const shader::ImageRequest& request, uint32_t* const out[4]) override;

  // Counters: no stage silently drops work. Requests on unbound resources, on texel buffers or
  // subpass inputs, or whose Dim does not match the bound view (a cube request on a view without
  // whole cubes, 3D on a 2D view) return zeros and are counted here.
  // Lanes that sampled, gathered or fetched (each handed to the footprint sink); queries excluded.
  uint64_t lanes_sampled() const { return lanes_sampled_; }
  uint64_t unbound_requests() const { return unbound_; }
  uint64_t unsupported_requests() const { return unsupported_; }

 private:
  struct TextureBinding { uint32_t resource, element; const Texture* texture; };
  struct SamplerBinding { uint32_t resource, element; const SamplerState* sampler; };
  std::vector<TextureBinding> textures_;
  std::vector<SamplerBinding> samplers_;
  FootprintSink sink_;
  uint64_t lanes_sampled_ = 0, unbound_ = 0, unsupported_ = 0;
};

}  // namespace tessera::texture
