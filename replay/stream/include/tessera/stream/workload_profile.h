// Workload characterisation of one frame, computed from its access stream so that it describes
// exactly what every GPU-model configuration replays (docs/architecture.md, "Workloads": describe the suite as
// the papers' Table I describes their games: texture footprint, draws, overdraw).
//
// Definitions (all per frame):
//   texture_lines     distinct 64 B lines read by Texture events (the texel blocks of paper 004's
//                     blocked layout), whatever the mip level or the number of reads
//   texture_bytes     texture_lines x 64: the texture footprint, distinct texture bytes sampled
//                     (a line is the unit the texture caches fetch; partial lines count whole)
//   draws             Draw events (draws the renderer rendered; skipped draws leave none)
//   primitives        primitives binned: distinct PbWrite primitives, counted per pass
//   quads             Quad events (2x2 fragment groups with at least one covered sample)
//   fragments         covered pixels: popcount of every Quad's coverage mask
//   passes            PassBegin events (render pass instances)
//   render_area_pixels  sum over passes of render-area width x height
//   overdraw          fragments / render_area_pixels: fragments per pixel of the surfaces the
//                     frame rasterised into. Per render-area pixel rather than per presented
//                     pixel because a tile-based GPU bins and shades each pass on its own:
//                     off-screen passes (shadow maps, reduced-size post-processing) and full-screen
//                     passes would otherwise read as overdraw of the screen. The pass count is
//                     reported beside it, so the per-presented-pixel figure is recoverable.
//   shaded_fragments  non-helper lanes the fragment shader ran (coverage of late-tested quads,
//                     coverage & depth/stencil pass of early-tested ones; kQuadShaded quads only)
//   instructions_per_fragment  fragment instructions (helper lanes included: they are work the
//                     shader cores do) / shaded_fragments
//   fragment_mix      sums of the Quad events' operation mixes (OpMix: operations each quad's
//                     warp issued; a version 3 stream's are OpMix::legacy)
//   alu_per_fragment, sfu_per_fragment, varying_per_fragment, texture_per_fragment,
//   memory_per_fragment  4 x fragment_mix.<class> / shaded_fragments: a quad's operations are
//                     issued for its four lanes, so a fully covered quad of a shader without
//                     divergence gives the shader's count per invocation, and helper lanes,
//                     lanes idle in a divergent quad and per-sample shading raise it, as helper
//                     lanes raise instructions_per_fragment
//   vertices, vertex_instructions  sums over VertexShade events
//   instructions_per_vertex    vertex_instructions / vertices
// A ratio with a zero denominator is 0.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "tessera/stream/access_stream.h"

namespace tessera::stream {

struct WorkloadProfile {
  uint64_t texture_lines = 0;
  uint64_t texture_bytes = 0;
  uint64_t draws = 0;
  uint64_t primitives = 0;
  uint64_t quads = 0;
  uint64_t fragments = 0;
  uint64_t passes = 0;
  uint64_t render_area_pixels = 0;
  uint64_t shaded_fragments = 0;
  uint64_t fragment_instructions = 0;
  OpMixTotals fragment_mix;
  uint64_t vertices = 0;
  uint64_t vertex_instructions = 0;
  double overdraw = 0;
  double instructions_per_fragment = 0;
  double instructions_per_vertex = 0;
  double alu_per_fragment = 0, sfu_per_fragment = 0, varying_per_fragment = 0, texture_per_fragment = 0,
         memory_per_fragment = 0;
};

inline constexpr uint64_t kTextureLineBytes = 64;

// Scans one frame's encoded stream. Damaged input returns false with *error set to the reader's
// "byte N: problem"; the profile then holds what was read up to the damage.
bool profile_frame(std::span<const uint8_t> stream, WorkloadProfile* profile, std::string* error);

// The profile as the frame metrics `tessera replay` stores: workload.texture_lines,
// workload.texture_bytes, workload.draws, workload.primitives, workload.quads, workload.fragments,
// workload.overdraw, workload.instructions_per_fragment, workload.instructions_per_vertex,
// workload.passes, workload.alu_per_fragment, workload.sfu_per_fragment,
// workload.varying_per_fragment, workload.texture_per_fragment, workload.memory_per_fragment.
std::vector<std::pair<std::string, double>> workload_metrics(const WorkloadProfile& profile);

}  // namespace tessera::stream
