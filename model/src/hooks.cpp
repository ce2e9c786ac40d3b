#include "tessera/model/hooks.h"

#include <algorithm>

namespace tessera::model {

uint32_t FgXshift2Scheduler::core(const PassInfo&, const TileRef&, uint32_t, uint32_t x, uint32_t y, uint32_t cores) {
  // Quad coordinates on the screen (2x2 pixels): each quad row is the row above shifted by two
  // cores, so with 4 cores a quad's 4 neighbours are on other cores (paper 001 Fig. 6(b)).
  const uint32_t qx = x / 2, qy = y / 2;
  return (qx + 2 * qy) % cores;
}

FrontHits LineFrontBuffer::sample(uint32_t core, const TextureSampleView& s, uint64_t now, std::vector<uint64_t>& l1_lines) {
  FrontHits out{0, now + latency()};
  const size_t first = l1_lines.size();
  for (uint64_t line : s.lines) {
    uint64_t ready = 0;
    if (access(core, line, &ready)) {
      ++out.hits;
      out.ready = std::max(out.ready, ready);
    } else {
      l1_lines.push_back(line);
    }
  }
  requested_.assign(l1_lines.begin() + static_cast<std::ptrdiff_t>(first), l1_lines.end());
  return out;
}

void LineFrontBuffer::filled(uint32_t core, std::span<const uint64_t> ready) {
  for (size_t i = 0; i < ready.size() && i < requested_.size(); ++i) line_ready(core, requested_[i], ready[i]);
}

}  // namespace tessera::model
