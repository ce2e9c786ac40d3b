// Constructed access streams whose answer is known, for the timing model's tests: a frame of
// 32x32 tiles whose quads, texture samples, vertex work, Parameter Buffer and attachment traffic
// are chosen per tile and quad.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "tessera/model/gpu_model.h"
#include "tessera/stream/access_stream.h"

namespace tessera::model::testing {

using stream::StreamWriter;

// A sample's single filter probe over `lines` (64 B blocks, one per line): case 1 for one line,
// case 3 (two blocks side by side) for two, an irregular probe for more (version 3 records, so a
// front buffer such as TFM can replay the constructed frame).
inline void write_sample(StreamWriter& w, uint32_t lane, const std::vector<uint64_t>& lines) {
  const uint8_t kind = lines.size() == 1 ? 1 : lines.size() == 2 ? 3 : stream::kProbeKindIrregular;
  const stream::TextureProbe probe{kind, 0, 0, static_cast<uint16_t>(lines.size())};
  if (lines.empty() || lines.size() > stream::kMaxBlocksPerProbe) {
    w.texture(lane, 0, 1, 1, lines);
  } else {
    w.texture(lane, 0, 1, 1, lines, stream::SampleProbes{std::span<const stream::TextureProbe>(&probe, 1), lines, 64});
  }
}

// What one quad of a constructed tile does.
struct QuadSpec {
  bool present = true;
  bool shaded = true;
  uint64_t instructions = 4;
  // Its warp's operations by class (access stream version 4); unset: what a stream without them
  // reads as, alu = ceil(instructions / 4) (stream::OpMix::legacy).
  std::optional<stream::OpMix> mix;
  // lines[lane] = the lines of that lane's samples, one sample per inner vector.
  std::vector<std::vector<uint64_t>> samples[4];
  uint32_t coverage = 0xf;
  // Texture instructions (k-th sample of each lane) that are dependent reads (paper 002).
  std::vector<uint32_t> dependent;
};

using QuadFn = std::function<QuadSpec(uint32_t tile_seq, uint32_t qx, uint32_t qy)>;

struct FrameSpec {
  uint32_t tiles_x = 1, tiles_y = 1;
  uint32_t draws = 0, vertices_per_draw = 0;  // vertex fetches of 16 B, one per vertex
  uint32_t batches_per_draw = 1;               // VertexShade events per draw (its vertices split evenly)
  uint32_t vertex_pool = 0;                    // nonzero: vertex v of every draw reads vertex (v * 37) % pool
  uint64_t vertex_instructions = 0;            // per VertexShade
  uint32_t vertex_texture_lines = 0;           // per VertexShade: one vertex texture sample of this many lines, each batch its own
  uint32_t pb_lines_per_tile = 0;              // PB-Lists line written and read per tile
  uint32_t primitives_per_tile = 1;            // Primitive events per tile (its quads split evenly)
  uint32_t attribute_lines = 0;                // PB-Attributes lines per primitive, written and read
  uint32_t load_lines = 0, store_lines = 0;    // colour: attachment lines per tile; a store is one tile row
  uint32_t store_row_lines = 1;                // 64-byte lines per colour store (tile row)
  uint32_t depth_lines = 0;                    // depth attachment lines per tile, loaded and stored
  std::optional<stream::OpMix> vertex_mix;     // per VertexShade (unset: the legacy mix of vertex_instructions)
  uint32_t subpasses = 1;                      // geometry + tiles repeated inside the pass
  std::vector<uint32_t> order;                 // tile processing order (empty: scanline)
  QuadFn quad;
};

constexpr uint64_t kPbBase = 0x4000'0000, kVertexBase = 0x5000'0000, kFbBase = 0x6000'0000, kLoadBase = 0x7000'0000;
constexpr uint64_t kAttrBase = 0x4800'0000, kVertexTextureBase = 0x5800'0000, kDepthBase = 0x6800'0000;

inline std::vector<uint8_t> buildFrame(const FrameSpec& f) {
  StreamWriter w;
  w.frame_begin(1, f.tiles_x * 32, f.tiles_y * 32);
  w.pass_begin(0, f.tiles_x * 32, f.tiles_y * 32, 32, 32, f.tiles_x, f.tiles_y);
  const uint32_t ntiles = f.tiles_x * f.tiles_y;
  std::vector<uint32_t> order = f.order;
  if (order.empty()) {
    for (uint32_t t = 0; t < ntiles; ++t) order.push_back(t);
  }
  const uint32_t nprims = std::max(1u, f.primitives_per_tile);
  uint32_t prim = 0;
  for (uint32_t sp = 0; sp < f.subpasses; ++sp) {
    const uint64_t sp_base = uint64_t{sp} << 24;
    for (uint32_t d = 0; d < f.draws; ++d) {
      w.draw(sp * f.draws + d);
      const uint32_t batches = std::max(1u, f.batches_per_draw);
      for (uint32_t b = 0; b < batches; ++b) {
        const uint32_t v0 = f.vertices_per_draw * b / batches, v1 = f.vertices_per_draw * (b + 1) / batches;
        for (uint32_t v = v0; v < v1; ++v) {
          const uint64_t vertex = f.vertex_pool ? (uint64_t{v} * 37) % f.vertex_pool : uint64_t{d} * 4096 + v;
          w.vertex_fetch(kVertexBase + sp_base + vertex * 16, 16);
        }
        if (f.vertex_texture_lines > 0) {
          std::vector<uint64_t> lines;
          const uint64_t batch = (uint64_t{sp} * f.draws + d) * batches + b;
          for (uint32_t l = 0; l < f.vertex_texture_lines; ++l) {
            lines.push_back(kVertexTextureBase + (batch * f.vertex_texture_lines + l) * 64);
          }
          w.vertex_texture(0, 0, 0, 1, lines);
        }
        w.vertex_shade(v1 - v0, f.vertex_instructions, f.vertex_mix.value_or(stream::OpMix::legacy(f.vertex_instructions)));
      }
      for (uint32_t t = 0; t < ntiles; ++t) {
        for (uint32_t l = 0; l < f.pb_lines_per_tile; ++l) {
          w.pb_write(kPbBase + sp_base + (uint64_t{t} * 64 + l) * 64, 64, d, t, 0);
        }
      }
    }
    // Attributes of every primitive the tiles will read, written once (PB-Attributes).
    const uint32_t first_prim = prim;
    for (uint32_t i = 0; i < ntiles * nprims && f.attribute_lines > 0; ++i) {
      w.pb_write(kAttrBase + (uint64_t{first_prim + i} * f.attribute_lines) * 64, 64 * f.attribute_lines,
                 first_prim + i, i / nprims, 1);
    }
    for (uint32_t seq = 0; seq < ntiles; ++seq) {
      const uint32_t t = order[seq];
      const uint32_t tx = t % f.tiles_x, ty = t / f.tiles_x;
      w.tile_begin(t, tx * 32, ty * 32, seq);
      for (uint32_t l = 0; l < f.load_lines; ++l) w.attachment_load(kLoadBase + (uint64_t{t} * 256 + l) * 64, 64, 0);
      for (uint32_t l = 0; l < f.depth_lines; ++l) {
        w.attachment_load(kDepthBase + (uint64_t{t} * 256 + l) * 64, 64, 1, stream::kAspectDepthStencil);
      }
      for (uint32_t l = 0; l < f.pb_lines_per_tile; ++l) {
        w.pb_read(kPbBase + sp_base + (uint64_t{t} * 64 + l) * 64, 64, 0, 0xffffffffu);
      }
      const uint32_t tile_prim = first_prim + t * nprims;
      for (uint32_t p = 0; p < nprims && f.attribute_lines > 0; ++p) {
        w.pb_read(kAttrBase + (uint64_t{tile_prim + p} * f.attribute_lines) * 64, 64 * f.attribute_lines, 1, tile_prim + p);
      }
      uint32_t quad_index = 0;
      for (uint32_t p = 0; p < nprims; ++p) {
        w.primitive(tile_prim + p, 0);
        for (; quad_index < 256 * (p + 1) / nprims; ++quad_index) {
          const uint32_t qx = quad_index % 16, qy = quad_index / 16;
          const QuadSpec q = f.quad(seq, qx, qy);
          if (!q.present) continue;
          uint32_t flags = q.shaded ? stream::kQuadShaded : 0u;
          for (uint32_t k : q.dependent) flags |= stream::quad_dependent_flag(k);
          w.quad(tx * 32 + qx * 2, ty * 32 + qy * 2, q.coverage, q.shaded ? q.coverage : 0u, q.shaded ? q.coverage : 0u,
                 flags, q.instructions, q.mix.value_or(stream::OpMix::legacy(q.instructions)));
          for (uint32_t lane = 0; lane < 4; ++lane) {
            for (const auto& lines : q.samples[lane]) write_sample(w, lane, lines);
          }
        }
      }
      for (uint32_t l = 0; l < f.store_lines; ++l) {
        w.attachment_store(kFbBase + (uint64_t{t} * 256 + l * f.store_row_lines) * 64, 64 * f.store_row_lines, 0);
      }
      for (uint32_t l = 0; l < f.depth_lines; ++l) {
        w.attachment_store(kDepthBase + (uint64_t{t} * 256 + l) * 64, 64, 1, stream::kAspectDepthStencil);
      }
      w.tile_end(t);
    }
    prim = first_prim + ntiles * nprims;
  }
  w.pass_end(0);
  w.frame_end();
  return w.finish();
}

inline FrameResults runModel(const std::vector<uint8_t>& bytes, const ParamSet& p, Hooks hooks = {}) {
  GpuModel model(p, std::move(hooks));
  std::string error;
  FrameResults r;
  EXPECT_TRUE(model.run(bytes, r, &error)) << error;
  return r;
}

inline ParamSet mobile4(std::initializer_list<const char*> overrides = {}) {
  ParamSet p = make_preset("mobile4");
  for (const char* o : overrides) p.apply(o);
  return p;
}

// mobile4 with one execution engine per core issuing one operation per lane a cycle: the
// mechanisms a test isolates (barriers, queues, latency hiding) in round numbers -- a quad of N
// legacy instructions (alu = N / 4) issues for N / 4 cycles, one quad at a time per core.
inline ParamSet classic(std::initializer_list<const char*> overrides = {}) {
  ParamSet p = mobile4({"core.engines=1", "core.alu_rate=1"});
  for (const char* o : overrides) p.apply(o);
  return p;
}

// A core metric (core_metrics) of every core, indexed by core.
inline std::vector<double> per_core(const FrameResults& r, const std::string& metric) {
  std::vector<double> out(r.cores.size());
  for (const CoreMetric& c : r.core_metrics) {
    if (c.metric == metric) out.at(c.core) = c.value;
  }
  return out;
}

inline double m(const FrameResults& r, const char* name) {
  const double v = r.metric(name);
  EXPECT_FALSE(std::isnan(v)) << "metric " << name << " missing";
  return v;
}

// Every quad of every tile shaded with `instructions` lane-instructions and no texture.
inline QuadFn heavy(uint64_t instructions) {
  return [instructions](uint32_t, uint32_t, uint32_t) {
    QuadSpec q;
    q.instructions = instructions;
    return q;
  };
}

// A 3x2-tile frame drawn at random from `seed`: vertex work, PB lists and attributes, colour
// stores (and loads on odd seeds), quads present, killed or shaded with random operation mixes and
// a random texture line per lane -- for invariants that must hold on any stream.
inline FrameSpec randomFrame(uint32_t seed) {
  FrameSpec f;
  f.tiles_x = 3;
  f.tiles_y = 2;
  f.draws = 2;
  f.vertices_per_draw = 96;
  f.vertex_instructions = 800;
  f.pb_lines_per_tile = 1;
  f.attribute_lines = 2;
  f.load_lines = seed % 2 ? 16 : 0;
  f.store_lines = 32;
  f.quad = [seed](uint32_t tile, uint32_t qx, uint32_t qy) {
    std::mt19937 r(seed * 7919 + tile * 257 + qy * 16 + qx);
    QuadSpec q;
    q.present = r() % 4 != 0;
    q.shaded = r() % 6 != 0;
    q.mix = stream::OpMix{static_cast<uint32_t>(r() % 200), static_cast<uint32_t>(r() % 4),
                          static_cast<uint32_t>(r() % 9), 1, static_cast<uint32_t>(r() % 2)};
    for (uint32_t lane = 0; lane < 4; ++lane) q.samples[lane].push_back({0x2000'0000 + (r() % 4096) * 64});
    return q;
  };
  return f;
}

// A stream with every event kind, texture reuse, small caches so every level misses and writes back.
inline FrameSpec mixedFrame() {
  FrameSpec f;
  f.tiles_x = 3;
  f.tiles_y = 2;
  f.draws = 3;
  f.vertices_per_draw = 200;
  f.vertex_instructions = 800;
  f.pb_lines_per_tile = 24;
  f.load_lines = 16;
  f.store_lines = 64;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    const uint32_t h = (seq * 2654435761u) ^ (qx * 40503u) ^ (qy * 9973u);
    q.present = (h % 7) != 0;
    q.shaded = (h % 5) != 0;
    q.coverage = 1 + h % 15;
    q.instructions = 20 + h % 40;
    if (!q.shaded) return q;
    for (uint32_t lane = 0; lane < 4; ++lane) {
      const uint64_t u = (seq * 8 + qx) / 2, v = (qy + lane) / 2;
      const uint64_t line = 0x1000'0000 + (v * 64 + u) * 64;
      q.samples[lane].push_back({line, line + 64});
      if (lane % 2 == 0) q.samples[lane].push_back({line + 0x10'0000});
    }
    return q;
  };
  return f;
}

inline ParamSet smallCaches() {
  return mobile4({"l1tex.size=1KiB", "l2.size=8KiB", "tile.size=1KiB", "vertex.size=1KiB"});
}

inline stream::StreamCounts recount(const std::vector<uint8_t>& bytes) {
  stream::StreamReader rd(bytes);
  stream::Event e;
  while (rd.next(e)) {
  }
  EXPECT_TRUE(rd.error().empty()) << rd.error();
  return rd.counts();
}

// Each cache counted what was sent to it (counters kept by the cache against counts taken
// elsewhere: a cache's `accesses` is its hits plus its misses, so checking that sum would restate
// the definition): the L1s the stream's texture lines, the vertex caches its vertex fetches (one
// line each in the constructed frames), the tile cache its Parameter Buffer lines, and L2 what the
// first level sent below -- every line fetch, write-back and write-through of the three.
inline void expectEveryCacheCountsItsRequests(const FrameResults& r, const stream::StreamCounts& c) {
  EXPECT_EQ(r.metric("l1tex.accesses"), static_cast<double>(c.texture_lines));
  EXPECT_EQ(r.metric("vertex.accesses"), static_cast<double>(c[stream::EventKind::VertexFetch]));
  EXPECT_EQ(r.metric("tile.accesses"), static_cast<double>(c.pb_write_bytes + c.pb_read_bytes) / 64);
  double below = 0;
  for (const char* k : {"l1tex", "vertex", "tile"}) {
    const std::string n(k);
    EXPECT_GT(r.metric(n + ".misses"), 0) << n;
    below += r.metric(n + ".fetches") + r.metric(n + ".writebacks") + r.metric(n + ".write_throughs");
  }
  EXPECT_EQ(r.metric("l2.accesses"), below);
}

// The operations of the quads the fragment shader ran (kQuadShaded), read from the stream.
inline stream::OpMixTotals shaded_mix(const std::vector<uint8_t>& bytes) {
  stream::StreamReader rd(bytes);
  stream::Event e;
  stream::OpMixTotals t;
  while (rd.next(e)) {
    if (e.kind == stream::EventKind::Quad && (e.u[5] & stream::kQuadShaded)) t.add(e.mix);
  }
  EXPECT_TRUE(rd.error().empty()) << rd.error();
  return t;
}

}  // namespace tessera::model::testing
