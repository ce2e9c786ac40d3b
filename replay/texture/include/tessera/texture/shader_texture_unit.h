// Adapter from the SPIR-V interpreter's image interface (tessera/shader/texture_sampler.h) to
// the texture unit: resolves the resource indices to bound textures and samplers, runs one
// sample / gather / fetch / query per active lane, and hands every lane's footprint to a sink
// (the access-stream writer).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tessera/shader/texture_sampler.h"
#include "tessera/texture/format.h"
#include "tessera/texture/sampler.h"

namespace tessera::texture {

class ShaderTextureUnit final : public shader::TextureSampler {
 public:
  using FootprintSink = std::function<void(uint32_t lane, const Footprint&)>;

  // `resource` is the index into ShaderModule::resources(); a combined image sampler binds both
  // a texture and a sampler under the same index. Pointers must outlive the unit.
  // `contents_known`: false for an image neither captured nor written before the draw (its
  // texels are zeros here, whatever the application had put in it); requests reading it are
  // counted (unknown_contents_requests).
  void bind_texture(uint32_t resource, uint32_t array_element, const Texture* texture, bool contents_known = true);
  void bind_sampler(uint32_t resource, uint32_t array_element, const SamplerState* sampler);
  // A uniform texel buffer (spec "Texel Buffers"): the view's bytes, its format and where the
  // bytes live in the simulated GPU address space. Read by OpImageFetch with Dim Buffer (GLSL
  // texelFetch on a samplerBuffer: GL texture buffer objects through Zink, e.g. skinning
  // matrices); the footprint of a fetch is the 64 B line of the texel.
  struct TexelBuffer {
    const uint8_t* data = nullptr;
    uint64_t size = 0;
    uint64_t address = 0;
    FormatInfo format;
  };
  void bind_texel_buffer(uint32_t resource, uint32_t array_element, const TexelBuffer& buffer);
  void set_footprint_sink(FootprintSink sink) { sink_ = std::move(sink); }

  void execute(const shader::ImageRequest& request, uint32_t* const out[4]) override;

  // Counters: no stage silently drops work. Requests on unbound resources, on subpass inputs, on
  // texel buffers other than fetches and size queries, or whose Dim does not match the bound view
  // (a cube request on a view without whole cubes, 3D on a 2D view) return zeros and are counted
  // here.
  // Lanes that sampled, gathered or fetched (each handed to the footprint sink); queries excluded.
  uint64_t lanes_sampled() const { return lanes_sampled_; }
  uint64_t unbound_requests() const { return unbound_; }
  uint64_t unsupported_requests() const { return unsupported_; }
  // Samples, gathers and fetches served from a texture bound with contents_known false (queries
  // of size, levels and LOD do not read its contents).
  uint64_t unknown_contents_requests() const { return unknown_contents_; }

 private:
  struct TextureBinding { uint32_t resource, element; const Texture* texture; bool contents_known; };
  struct SamplerBinding { uint32_t resource, element; const SamplerState* sampler; };
  struct TexelBufferBinding { uint32_t resource, element; TexelBuffer buffer; };
  void execute_texel_buffer(const shader::ImageRequest& request, uint32_t* const out[4]);
  std::vector<TextureBinding> textures_;
  std::vector<SamplerBinding> samplers_;
  std::vector<TexelBufferBinding> texel_buffers_;
  FootprintSink sink_;
  uint64_t lanes_sampled_ = 0, unbound_ = 0, unsupported_ = 0, unknown_contents_ = 0;
};

}  // namespace tessera::texture
