// The lower bound on Attribute Cache misses of paper 003 section V-A (used in Figs. 11-13):
// miss_lower_bound (tessera/model/miss_lower_bound.h, shared with the unified tile cache's bound)
// in primitives, with CP the maximum number of primitives the Attribute Cache can hold.
#pragma once

#include <cstdint>
#include <span>

#include "tessera/model/miss_lower_bound.h"

namespace tessera::model::tcor {

// CP of a TCOR Attribute Cache for a frame whose primitives have varying attribute counts
// (histogram[n] = primitives with n attributes): the most primitives that fit at once, i.e. the
// smallest ones first, limited by the Attribute Buffer's lines and the Primitive Buffer's lines.
// (A baseline line-per-attribute cache is the same with unlimited primitive lines.)
uint64_t max_primitives_held(std::span<const uint64_t> histogram, uint64_t attribute_lines, uint64_t primitive_lines);

}  // namespace tessera::model::tcor
