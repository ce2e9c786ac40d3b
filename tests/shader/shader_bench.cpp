// Interpreter throughput on a typical textured, lit fragment shader (glsl/textured.frag) over
// batches of quads. Reports SPIR-V lane-instructions per second (sum of the per-lane dynamic
// instruction counts) and fragments per second. The texture unit is a cheap procedural
// stand-in so the figure measures the interpreter, not texture filtering.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "shader_test_util.h"

namespace {

using namespace tessera::shader;
using namespace tessera::shader::testing;

class CheckerSampler final : public TextureSampler {
 public:
  void execute(const ImageRequest& r, uint32_t* const out[4]) override {
    for (uint32_t l = 0; l < r.lane_count; ++l) {
      float u = r.coord[0][l] * 8.0f, v = r.coord[1][l] * 8.0f;
      float c = ((static_cast<int>(std::floor(u)) + static_cast<int>(std::floor(v))) & 1) ? 1.0f : 0.25f;
      out[0][l] = fbits(c);
      out[1][l] = fbits(c * 0.5f);
      out[2][l] = fbits(0.75f);
      out[3][l] = fbits(1.0f);
    }
  }
};

void BM_TexturedFragment(benchmark::State& state) {
  const uint32_t lanes = static_cast<uint32_t>(state.range(0));
  std::string error;
  auto module = load("textured.frag", Stage::Fragment, error);
  if (!module) {
    state.SkipWithError(error.c_str());
    return;
  }
  ShaderExecutor exec(*module);
  std::vector<std::byte> ubo(48);
  const float material[12] = {0.3f, 0.8f, 0.5f, 0.0f, 0.1f, 0.1f, 0.12f, 0.0f, 0.6f, 0.6f, 0.6f, 16.0f};
  std::memcpy(ubo.data(), material, sizeof material);
  BufferView views[2] = {{}, {}};
  for (uint32_t i = 0; i < module->resources().size() && i < 2; ++i)
    if (module->resources()[i].kind == ResourceKind::UniformBuffer) views[i] = {ubo.data(), ubo.size()};
  CheckerSampler sampler;
  Bindings bind;
  bind.buffers = std::span<const BufferView>(views, module->resources().size());
  bind.sampler = &sampler;

  auto batch = make_batch(lanes);
  for (uint32_t q = 0; q < lanes / 4; ++q) set_quad(*batch, q, (q % 8) * 2, (q / 8) * 2);
  for (uint32_t l = 0; l < lanes; ++l) {
    batch->inputs[slot(0, 0)][l] = fbits(batch->frag_coord[0][l] / 64.0f);
    batch->inputs[slot(0, 1)][l] = fbits(batch->frag_coord[1][l] / 64.0f);
    for (uint32_t c = 0; c < 3; ++c) {
      batch->inputs[slot(1, c)][l] = fbits(0.2f + 0.1f * static_cast<float>(c) + 0.01f * static_cast<float>(l));
      batch->inputs[slot(2, c)][l] = fbits(0.5f - 0.2f * static_cast<float>(c));
    }
  }
  uint64_t lane_instructions = 0, fragments = 0;
  for (auto _ : state) {
    if (!exec.execute(*batch, bind, error)) {
      state.SkipWithError(error.c_str());
      return;
    }
    benchmark::DoNotOptimize(batch->outputs[0][0]);
    for (uint32_t l = 0; l < lanes; ++l) lane_instructions += batch->instruction_count[l];
    fragments += lanes;
  }
  state.counters["lane_instr_per_s"] = benchmark::Counter(static_cast<double>(lane_instructions), benchmark::Counter::kIsRate);
  state.counters["fragments_per_s"] = benchmark::Counter(static_cast<double>(fragments), benchmark::Counter::kIsRate);
  state.counters["instr_per_fragment"] = static_cast<double>(lane_instructions) / static_cast<double>(fragments ? fragments : 1);
}
BENCHMARK(BM_TexturedFragment)->Arg(4)->Arg(16)->Arg(64);

// Divergent control flow (glsl/nested.frag: nested loops, switch, early returns) with a
// different trip count in every lane: measures the cost of masks and block scheduling.
void BM_DivergentLoops(benchmark::State& state) {
  const uint32_t lanes = static_cast<uint32_t>(state.range(0));
  std::string error;
  auto module = load("nested.frag", Stage::Fragment, error);
  if (!module) {
    state.SkipWithError(error.c_str());
    return;
  }
  ShaderExecutor exec(*module);
  auto batch = make_batch(lanes);
  for (uint32_t l = 0; l < lanes; ++l) batch->inputs[slot(0, 0)][l] = (l * 7u) % 40u;
  uint64_t lane_instructions = 0;
  for (auto _ : state) {
    if (!exec.execute(*batch, {}, error)) {
      state.SkipWithError(error.c_str());
      return;
    }
    benchmark::DoNotOptimize(batch->outputs[0][0]);
    for (uint32_t l = 0; l < lanes; ++l) lane_instructions += batch->instruction_count[l];
  }
  state.counters["lane_instr_per_s"] = benchmark::Counter(static_cast<double>(lane_instructions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DivergentLoops)->Arg(4)->Arg(64);

}  // namespace

BENCHMARK_MAIN();
