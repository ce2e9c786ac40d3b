// Accesses simulated per second for the baseline hierarchy (4 private L1 texture caches + L2 +
// DRAM, preset mobile4) on a synthetic texture-like stream, until replay produces real streams.
//
// The stream imitates a tile-based renderer: 32x32 tiles in Z order over a 1280x704 screen,
// quads of 2x2 pixels assigned to the 4 shader cores by a fine-grained interleave (paper 001
// FG-xshift2 shape), each pixel a bilinear sample of one of a few 1024x1024 RGBA8 textures stored
// in 4x4-texel 64 B blocks (paper 004 layout), magnified about 1.3x with a per-triangle offset,
// so neighbouring quads share blocks and neighbouring cores replicate them (paper 000 Fig. 1).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tessera/model/hierarchy.h"
#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model {
namespace {

uint32_t mortonX(uint32_t i) {
  uint32_t x = 0;
  for (uint32_t b = 0; b < 16; ++b) x |= ((i >> (2 * b)) & 1u) << b;
  return x;
}

std::vector<MemRequest> textureStream(uint32_t cores) {
  constexpr uint32_t kTilesX = 40, kTilesY = 22, kTile = 32, kTex = 1024, kBlocksPerRow = kTex / 4;
  std::vector<MemRequest> out;
  out.reserve(7'000'000);
  std::mt19937 rng(7);
  for (uint32_t z = 0; z < 64 * 64; ++z) {
    const uint32_t tx = mortonX(z), ty = mortonX(z >> 1);
    if (tx >= kTilesX || ty >= kTilesY) continue;
    // Two overlapping "triangles" per tile, each with its own texture and offset.
    for (uint32_t layer = 0; layer < 2; ++layer) {
      const uint32_t texture = (tx / 8 + ty / 8 + layer) % 4;
      const uint64_t base = 0x1000'0000ull + uint64_t{texture} * kTex * kTex * 4;
      const double offset_u = layer * 173.0, offset_v = layer * 91.0;
      for (uint32_t qy = 0; qy < kTile / 2; ++qy) {
        for (uint32_t qx = 0; qx < kTile / 2; ++qx) {
          const uint16_t core = static_cast<uint16_t>((qx + 2 * (qy % 2)) % cores);
          for (uint32_t p = 0; p < 4; ++p) {
            const double px = tx * kTile + qx * 2 + (p & 1), py = ty * kTile + qy * 2 + (p >> 1);
            const double u = px / 1.3 + offset_u, v = py / 1.3 + offset_v;
            const uint32_t u0 = static_cast<uint32_t>(u) % kTex, v0 = static_cast<uint32_t>(v) % kTex;
            const uint32_t u1 = (u0 + 1) % kTex, v1 = (v0 + 1) % kTex;
            // Distinct 4x4 blocks touched by the 2x2 bilinear footprint.
            uint64_t blocks[4];
            uint32_t n = 0;
            for (uint32_t t = 0; t < 4; ++t) {
              const uint32_t bu = ((t & 1) ? u1 : u0) / 4, bv = ((t >> 1) ? v1 : v0) / 4;
              const uint64_t b = uint64_t{bv} * kBlocksPerRow + bu;
              bool seen = false;
              for (uint32_t k = 0; k < n; ++k) seen |= blocks[k] == b;
              if (!seen) blocks[n++] = b;
            }
            for (uint32_t k = 0; k < n; ++k) {
              MemRequest r;
              r.addr = base + blocks[k] * 64 + (rng() % 16) * 4;
              r.unit = core;
              out.push_back(r);
            }
          }
        }
      }
    }
  }
  return out;
}

const std::vector<MemRequest>& stream4() {
  static const std::vector<MemRequest> s = textureStream(4);
  return s;
}

void runHierarchy(benchmark::State& state, bool replication) {
  const std::vector<MemRequest>& s = stream4();
  ParamSet p = make_preset("mobile4");
  p.set("stats.replication", replication ? "true" : "false");
  MemoryHierarchy h(HierarchyConfig::from_params(p));
  uint64_t now = 0;
  uint64_t latency_sum = 0;
  for (auto _ : state) {
    for (const MemRequest& r : s) {
      latency_sum += h.access(r, now).latency;
      now += 1;
    }
  }
  benchmark::DoNotOptimize(latency_sum);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * s.size()));
  const CacheCounters l1 = h.l1tex_totals();
  state.counters["stream"] = static_cast<double>(s.size());
  state.counters["l1_hit_rate"] = static_cast<double>(l1.hits) / static_cast<double>(l1.accesses);
  state.counters["l2_hit_rate"] =
      static_cast<double>(h.l2().counters().hits) / static_cast<double>(h.l2().counters().accesses);
  if (replication) {
    const auto& hist = h.replication_histogram();
    double total = 0;
    for (uint64_t v : hist) total += static_cast<double>(v);
    state.counters["replicated_frac"] = (total - static_cast<double>(hist[1])) / total;
  }
}

void BM_BaselineHierarchy(benchmark::State& state) { runHierarchy(state, false); }
void BM_BaselineHierarchyWithReplication(benchmark::State& state) { runHierarchy(state, true); }

// The L1 texture caches alone (no L2/DRAM, no dispatch): the floor of the per-access cost.
void BM_L1LruOnly(benchmark::State& state) {
  const std::vector<MemRequest>& s = stream4();
  CacheConfig c;
  c.size_bytes = 16 * 1024;
  c.ways = 4;
  std::vector<SetAssocCache<LruPolicy>> l1;
  for (int i = 0; i < 4; ++i) l1.emplace_back(c);
  uint64_t hits = 0;
  for (auto _ : state) {
    for (const MemRequest& r : s) hits += l1[r.unit].access(r.addr, false, 0, AccessInfo{}).hit;
  }
  benchmark::DoNotOptimize(hits);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * s.size()));
}

BENCHMARK(BM_BaselineHierarchy)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BaselineHierarchyWithReplication)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_L1LruOnly)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace tessera::model

BENCHMARK_MAIN();
