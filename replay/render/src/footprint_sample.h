// One lane's texture sample as the stream records it (Texture and VertexTexture events), kept
// until its batch's events are written.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tessera/texture/sampler.h"

namespace tessera::render {

struct FootprintSample {
  uint32_t lane, level, footprint_case, probes, first_line, line_count;
  bool dependent;  // its coordinates came from an earlier sample (paper 002: not prefetchable)
};

// The sample of `lane` with footprint `fp`: its finest mip level, first case and probe count;
// its lines are appended to `lines` (first_line, line_count index them there).
inline FootprintSample footprint_sample(uint32_t lane, const texture::Footprint& fp, std::vector<uint64_t>& lines) {
  FootprintSample s;
  s.lane = lane;
  s.level = fp.level_count ? std::min(fp.levels[0], fp.level_count > 1 ? fp.levels[1] : fp.levels[0]) : 0;
  s.footprint_case = static_cast<uint32_t>(fp.first_case);
  s.probes = fp.probe_count;
  s.dependent = fp.dependent;
  s.first_line = static_cast<uint32_t>(lines.size());
  s.line_count = fp.line_count;
  lines.insert(lines.end(), fp.lines, fp.lines + fp.line_count);
  return s;
}

}  // namespace tessera::render
