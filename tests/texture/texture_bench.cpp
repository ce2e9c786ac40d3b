// Samples per second of the texture unit: bilinear (one level) and trilinear (two levels) over a
// 512x512 RGBA8 mip chain, footprint recorded, coordinates sweeping a rotated scanline pattern.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "tessera/texture/sampler.h"

using namespace tessera::texture;

namespace {

const Texture& bench_texture() {
  static const Texture tex = [] {
    Texture t;
    std::string error;
    t.create(VK_FORMAT_R8G8B8A8_SRGB, 512, 512, 10, 1, 0x1000000, &error);
    for (uint32_t l = 0; l < t.levels(); ++l) {
      std::vector<uint8_t> data(t.level_linear_bytes(l));
      for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 37 + l);
      t.upload(l, 0, data.data(), data.size(), &error);
    }
    return t;
  }();
  return tex;
}

void run(benchmark::State& state, VkSamplerMipmapMode mode, float texels_per_pixel) {
  const Texture& tex = bench_texture();
  SamplerState s;
  s.mag_filter = s.min_filter = VK_FILTER_LINEAR;
  s.mipmap_mode = mode;
  SampleRequest r;
  r.derivatives.dsdx = texels_per_pixel / 512;
  r.derivatives.dtdy = texels_per_pixel / 512;
  Footprint fp;
  float sum = 0;
  uint32_t i = 0;
  for (auto _ : state) {
    r.s = static_cast<float>(i & 255) * r.derivatives.dsdx + 0.001f;
    r.t = static_cast<float>(i >> 8 & 255) * r.derivatives.dtdy + 0.002f;
    ++i;
    sum += sample(tex, s, r, &fp)[0] + static_cast<float>(fp.line_count);
  }
  benchmark::DoNotOptimize(sum);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

// 1.5 texels per pixel: lambda = 0.58 -> bilinear on level 1 (nearest mip), trilinear 0/1.
void BM_Bilinear(benchmark::State& state) { run(state, VK_SAMPLER_MIPMAP_MODE_NEAREST, 1.5f); }
void BM_Trilinear(benchmark::State& state) { run(state, VK_SAMPLER_MIPMAP_MODE_LINEAR, 1.5f); }

}  // namespace

BENCHMARK(BM_Bilinear);
BENCHMARK(BM_Trilinear);
BENCHMARK_MAIN();
