// One lane's texture sample as the stream records it (Texture and VertexTexture events), kept
// until its batch's events are written.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "tessera/stream/access_stream.h"
#include "tessera/texture/sampler.h"

namespace tessera::render {

struct FootprintSample {
  uint32_t lane, level, footprint_case, probes, first_line, line_count, first_probe, first_block, block_count,
      block_bytes;
  bool dependent;  // its coordinates came from an earlier sample (paper 002: not prefetchable)
};

// The lines, probe records and blocks of a batch's samples, one after the other.
struct FootprintStore {
  std::vector<uint64_t> lines;
  std::vector<stream::TextureProbe> probes;
  std::vector<uint64_t> blocks;

  void clear() {
    lines.clear();
    probes.clear();
    blocks.clear();
  }
  std::span<const uint64_t> lines_of(const FootprintSample& s) const {
    return std::span<const uint64_t>(lines.data() + s.first_line, s.line_count);
  }
  // The sample's probes, with first_block relative to its own blocks.
  stream::SampleProbes probes_of(const FootprintSample& s) const {
    return {std::span<const stream::TextureProbe>(probes.data() + s.first_probe, s.probes),
            std::span<const uint64_t>(blocks.data() + s.first_block, s.block_count), s.block_bytes};
  }
};

// The sample of `lane` with footprint `fp`: its finest mip level, first case and probe count;
// its lines, probes and blocks are appended to `store`.
inline FootprintSample footprint_sample(uint32_t lane, const texture::Footprint& fp, FootprintStore& store) {
  FootprintSample s;
  s.lane = lane;
  s.level = fp.level_count ? std::min(fp.levels[0], fp.level_count > 1 ? fp.levels[1] : fp.levels[0]) : 0;
  s.footprint_case = static_cast<uint32_t>(fp.first_case);
  s.probes = fp.probe_count;
  s.dependent = fp.dependent;
  s.first_line = static_cast<uint32_t>(store.lines.size());
  s.line_count = fp.line_count;
  s.first_probe = static_cast<uint32_t>(store.probes.size());
  s.first_block = static_cast<uint32_t>(store.blocks.size());
  s.block_count = fp.block_count;
  s.block_bytes = fp.block_bytes;
  store.lines.insert(store.lines.end(), fp.lines, fp.lines + fp.line_count);
  for (uint32_t p = 0; p < fp.probe_count; ++p) {
    const texture::ProbeRecord& r = fp.probes[p];
    store.probes.push_back(stream::TextureProbe{static_cast<uint8_t>(r.kind), r.level, r.first_block, r.block_count});
  }
  store.blocks.insert(store.blocks.end(), fp.blocks, fp.blocks + fp.block_count);
  return s;
}

}  // namespace tessera::render
