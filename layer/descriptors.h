// Conversion of descriptor writes into capture records, shared by vkUpdateDescriptorSets,
// update templates and push descriptors.
#pragma once

#include <vector>

#include "layer_state.h"

namespace tessera::layer {

cap::DescriptorWrite convert_write(const VkWriteDescriptorSet& w);
// A template update expanded into plain writes: what replay sees is independent of templates.
std::vector<cap::DescriptorWrite> expand_template(
    const std::vector<VkDescriptorUpdateTemplateEntry>& entries, uint64_t set, const void* data);

}  // namespace tessera::layer
