// Storage images of a shader stage (SPIR-V OpImageRead, OpImageWrite, image atomics through
// OpImageTexelPointer, OpImageQuerySize): texels read and written in place in the front end's
// images (linear, per layer and mip, frame.h), no sampler, no texture unit. Writes touch the
// image so a later draw that samples it rebuilds its texture.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/frontend/frame.h"
#include "tessera/shader/texture_sampler.h"

namespace tessera::render {

class StorageImageUnit final : public shader::StorageImages {
 public:
  // `resource` indexes ShaderModule::resources(); the view must outlive the unit.
  void bind(uint32_t resource, uint32_t array_element, frontend::ImageView* view);
  void execute(const shader::ImageRequest& request, uint32_t* const out[4]) override;

  // Requests on unbound images, and on formats or operations this unit does not handle (texel
  // buffers, packed integer formats, atomics on formats other than R32_UINT / R32_SINT): zeros,
  // writes dropped, counted.
  uint64_t unbound_requests() const { return unbound_; }
  uint64_t unsupported_requests() const { return unsupported_; }
  // Whether any image is bound (its texels are then read in place, not from a copy).
  bool bound() const { return !bindings_.empty(); }

 private:
  struct Binding {
    uint32_t resource, element;
    frontend::ImageView* view;
  };
  std::vector<Binding> bindings_;
  uint64_t unbound_ = 0, unsupported_ = 0;
};

}  // namespace tessera::render
