// The full timing model (gpu_model.h) on a realistic synthetic frame stream, issue 5 point 10:
// texture accesses simulated per second, per preset, and the time of running both presets.
//
// The frame imitates what the functional renderer records for a textured scene: 1280x704 pixels
// in 32x32 tiles, Z-order traversal, three draws binned into a Parameter Buffer, per tile two
// overlapping full-tile primitives each sampling one of four 1024x1024 RGBA8 textures in 4x4
// blocks (paper 004 layout) magnified 1.3x with a per-primitive offset: one bilinear sample per
// covered pixel (1-4 lines), 30 instructions per lane. Same texture pattern as model_bench.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tessera/model/gpu_model.h"
#include "tessera/stream/access_stream.h"

namespace tessera::model {
namespace {

uint32_t compact(uint32_t i) {
  uint32_t x = 0;
  for (uint32_t b = 0; b < 16; ++b) x |= ((i >> (2 * b)) & 1u) << b;
  return x;
}

std::vector<uint8_t> realisticFrame(uint64_t* texture_lines) {
  constexpr uint32_t kTilesX = 40, kTilesY = 22, kTile = 32, kTex = 1024, kBlocksPerRow = kTex / 4;
  constexpr uint64_t kPb = 0x4000'0000, kFb = 0x6000'0000;
  stream::StreamWriter w;
  w.frame_begin(1, kTilesX * kTile, kTilesY * kTile);
  w.pass_begin(0, kTilesX * kTile, kTilesY * kTile, kTile, kTile, kTilesX, kTilesY);
  // Geometry: 3 draws of 2000 vertices (32 B each), 40 instructions per vertex; every tile gets
  // one PB-Lists line per draw and the two primitives' attributes.
  for (uint32_t d = 0; d < 3; ++d) {
    w.draw(d);
    for (uint32_t v = 0; v < 2000; ++v) w.vertex_fetch(0x5000'0000 + (uint64_t{d} * 2000 + v) * 32, 32);
    for (uint32_t b = 0; b < 2000 / 32; ++b) w.vertex_shade(32, 32 * 40);
    for (uint32_t t = 0; t < kTilesX * kTilesY; ++t) w.pb_write(kPb + (uint64_t{t} * 4 + d) * 64, 64, d, t, 0);
  }
  for (uint32_t p = 0; p < 2; ++p) w.pb_write(kPb + 0x100'0000 + p * 128, 128, p, 0, 1);
  uint32_t seq = 0;
  for (uint32_t z = 0; z < 64 * 64; ++z) {
    const uint32_t tx = compact(z), ty = compact(z >> 1);
    if (tx >= kTilesX || ty >= kTilesY) continue;
    const uint32_t tile = ty * kTilesX + tx;
    w.tile_begin(tile, tx * kTile, ty * kTile, seq++);
    for (uint32_t d = 0; d < 3; ++d) w.pb_read(kPb + (uint64_t{tile} * 4 + d) * 64, 64, 0, 0xffffffffu);
    for (uint32_t layer = 0; layer < 2; ++layer) w.pb_read(kPb + 0x100'0000 + layer * 128, 128, 1, layer);
    for (uint32_t layer = 0; layer < 2; ++layer) {
      w.primitive(layer, layer);
      const uint32_t texture = (tx / 8 + ty / 8 + layer) % 4;
      const uint64_t base = 0x1000'0000ull + uint64_t{texture} * kTex * kTex * 4;
      const double offset_u = layer * 173.0, offset_v = layer * 91.0;
      for (uint32_t qy = 0; qy < kTile / 2; ++qy) {
        for (uint32_t qx = 0; qx < kTile / 2; ++qx) {
          const uint32_t x = tx * kTile + qx * 2, y = ty * kTile + qy * 2;
          w.quad(x, y, 0xf, 0xf, 0xf, stream::kQuadShaded, 4 * 30);
          for (uint32_t lane = 0; lane < 4; ++lane) {
            const double u = (x + (lane & 1)) / 1.3 + offset_u, v = (y + (lane >> 1)) / 1.3 + offset_v;
            const uint32_t u0 = static_cast<uint32_t>(u) % kTex, v0 = static_cast<uint32_t>(v) % kTex;
            const uint32_t u1 = (u0 + 1) % kTex, v1 = (v0 + 1) % kTex;
            uint64_t lines[4];
            uint32_t n = 0;
            for (uint32_t t = 0; t < 4; ++t) {
              const uint32_t bu = ((t & 1) ? u1 : u0) / 4, bv = ((t >> 1) ? v1 : v0) / 4;
              const uint64_t line = base + (uint64_t{bv} * kBlocksPerRow + bu) * 64;
              bool seen = false;
              for (uint32_t k = 0; k < n; ++k) seen |= lines[k] == line;
              if (!seen) lines[n++] = line;
            }
            w.texture(lane, 0, n == 1 ? 1 : n == 4 ? 4 : 2, 1, std::span<const uint64_t>(lines, n));
          }
        }
      }
    }
    for (uint32_t l = 0; l < kTile * kTile * 4 / 64; ++l) w.attachment_store(kFb + (uint64_t{tile} * 64 + l) * 64, 64, 0);
    w.tile_end(tile);
  }
  w.pass_end(0);
  w.frame_end();
  *texture_lines = w.counts().texture_lines;
  return w.finish();
}

struct Frame {
  std::vector<uint8_t> bytes;
  uint64_t texture_lines = 0;
  std::unique_ptr<IndexedFrame> indexed;  // indexed once, run by every configuration
};

const Frame& frame() {
  static const Frame f = [] {
    Frame r;
    r.bytes = realisticFrame(&r.texture_lines);
    std::string error;
    r.indexed = IndexedFrame::build(r.bytes, &error);
    return r;
  }();
  return f;
}

void BM_StreamDecode(benchmark::State& state) {
  const Frame& f = frame();
  uint64_t n = 0;
  for (auto _ : state) {
    stream::StreamReader rd(f.bytes);
    stream::Event e;
    while (rd.next(e)) ++n;
  }
  benchmark::DoNotOptimize(n);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * f.texture_lines));
  state.counters["stream_bytes"] = static_cast<double>(f.bytes.size());
}

// Checking and indexing the frame's structure, done once per frame for all configurations.
void BM_IndexFrame(benchmark::State& state) {
  const Frame& f = frame();
  std::string error;
  for (auto _ : state) {
    auto indexed = IndexedFrame::build(f.bytes, &error);
    benchmark::DoNotOptimize(indexed.get());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * f.texture_lines));
}

// One configuration on the indexed frame (its raster pass decodes the tiles' quads and samples).
void runPreset(benchmark::State& state, const char* preset) {
  const Frame& f = frame();
  ParamSet p = make_preset(preset);
  GpuModel model(p);
  FrameResults r;
  std::string error;
  for (auto _ : state) {
    if (!model.run(*f.indexed, r, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  // Items = texture line accesses simulated (the dominant event of a frame).
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * f.texture_lines));
  state.counters["texture_lines"] = static_cast<double>(f.texture_lines);
  state.counters["cycles"] = static_cast<double>(r.cycles);
  state.counters["l1_hit_rate"] = r.metric("l1tex.hits") / r.metric("l1tex.accesses");
  state.counters["l2_accesses"] = r.metric("l2.accesses");
  state.counters["replication"] = r.replication_avg;
  for (const auto& [name, value] : r.frame_metrics) {
    if (name.rfind("sim.events.", 0) == 0) state.counters[name.substr(11)] = value;
  }
}

void BM_TimingModelMobile4(benchmark::State& state) { runPreset(state, "mobile4"); }
void BM_TimingModelMobile32(benchmark::State& state) { runPreset(state, "mobile32"); }

// "Simulate many": both presets over the same stream, one after the other.
void BM_BothPresets(benchmark::State& state) {
  const Frame& f = frame();
  GpuModel m4(make_preset("mobile4")), m32(make_preset("mobile32"));
  FrameResults r;
  std::string error;
  for (auto _ : state) {
    if (!m4.run(*f.indexed, r, &error) || !m32.run(*f.indexed, r, &error)) {
      state.SkipWithError(error.c_str());
      return;
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * f.texture_lines * 2));
}

BENCHMARK(BM_StreamDecode)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_IndexFrame)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimingModelMobile4)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimingModelMobile32)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BothPresets)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tessera::model

BENCHMARK_MAIN();
