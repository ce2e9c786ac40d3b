#include "tcor/lower_bound.h"

#include <algorithm>

namespace tessera::model::tcor {

uint64_t max_primitives_held(std::span<const uint64_t> histogram, uint64_t attribute_lines, uint64_t primitive_lines) {
  uint64_t held = 0, room = attribute_lines;
  for (uint64_t n = 1; n < histogram.size() && held < primitive_lines; ++n) {
    const uint64_t take = std::min({histogram[n], room / n, primitive_lines - held});
    held += take;
    room -= take * n;
  }
  return held;
}

}  // namespace tessera::model::tcor
