// Throughput of binning and rasterization on a 1280x720 scene of random triangles (not run by
// ctest). Reports triangles binned per second and quads rasterized per second.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "tessera/pipeline/binning.h"
#include "tessera/pipeline/raster.h"
#include "tessera/pipeline/tile_fetch.h"
#include "tessera/pipeline/viewport_cull.h"

namespace {

using namespace tessera::pipeline;

constexpr uint32_t kWidth = 1280, kHeight = 720;

// Random triangles with vertices within `extent` pixels of a random centre, 8 varying floats.
std::vector<ScreenTriangle> scene(int count, float extent) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> cx(0, kWidth), cy(0, kHeight), d(-extent, extent);
  std::vector<ScreenTriangle> tris;
  while (static_cast<int>(tris.size()) < count) {
    ScreenTriangle t;
    const float x = cx(rng), y = cy(rng);
    for (int i = 0; i < 3; ++i) {
      t.v[i].x = x + d(rng);
      t.v[i].y = y + d(rng);
      t.v[i].z = 0.5f;
      t.v[i].inv_w = 1;
    }
    t.varying_count = 8;
    snap(t);
    if (t.area2 != 0) tris.push_back(t);
  }
  return tris;
}

TilingConfig tiling() {
  TilingConfig c;
  c.width = kWidth;
  c.height = kHeight;
  return c;
}

void BM_BinTriangles(benchmark::State& state) {
  const auto tris = scene(static_cast<int>(state.range(0)), 40);
  uint64_t entries = 0;
  for (auto _ : state) {
    PolygonListBuilder pb(tiling());
    for (const ScreenTriangle& t : tris) entries += pb.bin(t);
    benchmark::DoNotOptimize(pb.writes().data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
  state.counters["tiles_per_triangle"] =
      static_cast<double>(entries) / static_cast<double>(state.iterations() * static_cast<uint64_t>(state.range(0)));
}
BENCHMARK(BM_BinTriangles)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_RasterizeQuads(benchmark::State& state) {
  const auto tris = scene(static_cast<int>(state.range(0)), 40);
  const TilingConfig c = tiling();
  PolygonListBuilder pb(c);
  for (const ScreenTriangle& t : tris) pb.bin(t);
  uint64_t quads_total = 0;
  std::vector<Quad> quads;
  std::vector<PbAccess> reads;
  for (auto _ : state) {
    reads.clear();
    fetch_tiles(pb, ScanlineOrder{}, [&](uint32_t tile, std::span<const uint32_t> prims) {
      const PixelRect rect = tile_rect(c, tile);
      for (uint32_t p : prims) {
        quads.clear();
        quads_total += rasterize(pb.primitives()[p], rect, quads);
        benchmark::DoNotOptimize(quads.data());
      }
    }, reads);
  }
  state.SetItemsProcessed(static_cast<int64_t>(quads_total));
  state.counters["quads_per_frame"] = static_cast<double>(quads_total) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_RasterizeQuads)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
