// Compute shaders: workgroups of several 64-lane batches with OpControlBarrier honoured across
// them, Workgroup storage, storage buffer stores and every atomic, checked exactly; atomics and
// stores from a fragment shader skip helper invocations.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "shader_test_util.h"
#include "tessera/shader/workgroup.h"

namespace tessera::shader::testing {
namespace {

// The Result block of workgroup.comp, word by word.
struct Result {
  uint32_t mirror[256], group_sum[256], order[256], exchanged[256];
  uint32_t total, maximum, minimum, bits_or, bits_and, bits_xor, exchange, swaps, counter;
  int32_t signed_min, signed_max;
  uint32_t wrap;
};

BufferView writable(void* data, size_t bytes) {
  BufferView v;
  v.data = static_cast<const std::byte*>(data);
  v.size = bytes;
  v.writable = static_cast<std::byte*>(data);
  return v;
}

TEST(Compute, BarriersAcrossBatchesAndEveryAtomic) {
  std::string error;
  auto module = load("workgroup.comp", Stage::Compute, error);
  ASSERT_NE(module, nullptr) << error;
  Result r{};
  r.minimum = 0xffffffffu;
  r.bits_and = 0xffffffffu;
  r.signed_min = INT_MAX;
  r.signed_max = INT_MIN;
  const BufferView view = writable(&r, sizeof r);
  Bindings bindings;
  bindings.buffers = std::span<const BufferView>(&view, 1);
  WorkgroupExecutor wg(*module);
  EXPECT_EQ(wg.invocations(), 128u);
  const uint32_t count[3] = {2, 1, 1};
  for (uint32_t w = 0; w < 2; ++w) {
    const uint32_t id[3] = {w, 0, 0};
    ASSERT_TRUE(wg.run(id, count, bindings, error)) << error;
    EXPECT_GT(wg.instructions(), 128u * 20);
  }
  uint32_t xor_sum = 0;
  for (uint32_t g = 0; g < 256; ++g) {
    const uint32_t w = g / 128, i = g % 128;
    const uint32_t m = 3 * (128 * w + 127 - i) + 1;  // the mirror invocation's tile value
    ASSERT_EQ(r.mirror[g], m) << g;
    // The full workgroup sum for everyone: sum over i of 3 (128 w + i) + 1.
    ASSERT_EQ(r.group_sum[g], 24512u + 49152u * w) << g;
    xor_sum ^= m * 2654435761u;
  }
  EXPECT_EQ(r.total, 24512u + 73664u);
  EXPECT_EQ(r.maximum, 766u);
  EXPECT_EQ(r.minimum, 1u);
  EXPECT_EQ(r.bits_or, 0xffffffffu);
  EXPECT_EQ(r.bits_and, 0x80000000u);
  EXPECT_EQ(r.bits_xor, xor_sum);
  EXPECT_EQ(r.signed_min, 1 - 400);
  EXPECT_EQ(r.signed_max, 400 - 1);
  EXPECT_EQ(r.wrap, 0u);  // 256 x 2^31 wraps around
  // Invocations take their atomics one at a time, in order (workgroup, batch, lane): each
  // exchange returns the previous invocation's value, every compare-and-swap finds its g.
  EXPECT_EQ(r.exchange, 1255u);
  EXPECT_EQ(r.exchanged[0], 0u);
  for (uint32_t g = 1; g < 256; ++g) ASSERT_EQ(r.exchanged[g], 999u + g) << g;
  EXPECT_EQ(r.swaps, 256u);
  EXPECT_EQ(r.counter, 256u);
  for (uint32_t g = 0; g < 256; ++g) ASSERT_EQ(r.order[g], g) << g;
}

TEST(Compute, ReductionWithABarrierInALoop) {
  std::string error;
  auto module = load("reduce.comp", Stage::Compute, error);
  ASSERT_NE(module, nullptr) << error;
  EXPECT_EQ(module->info().local_size[0], 64u);
  EXPECT_EQ(module->info().local_size[1], 2u);
  std::vector<uint32_t> in(3 * 128), out(4, 0);
  for (uint32_t k = 0; k < in.size(); ++k) in[k] = k * k % 1000;
  BufferView views[2];
  views[0].data = reinterpret_cast<const std::byte*>(in.data());
  views[0].size = in.size() * 4;  // read-only: no writable
  views[1] = writable(out.data(), out.size() * 4);
  Bindings bindings;
  bindings.buffers = views;
  WorkgroupExecutor wg(*module);
  const uint32_t count[3] = {3, 1, 1};
  for (uint32_t w = 0; w < 3; ++w) {
    const uint32_t id[3] = {w, 0, 0};
    ASSERT_TRUE(wg.run(id, count, bindings, error)) << error;
  }
  for (uint32_t w = 0; w < 3; ++w) {
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 128; ++k) sum += in[w * 128 + k];
    EXPECT_EQ(out[w], sum) << w;
  }
  EXPECT_EQ(out[3], 384u);  // values.length() of the bound 1536 bytes
}

TEST(Compute, SpecialisedWorkgroupSizeAndLocalIds) {
  std::string error;
  auto module = load("spec_size.comp", Stage::Compute, error, {{0, 3}});
  ASSERT_NE(module, nullptr) << error;
  std::vector<uint32_t> out(8, 0xdead);
  const BufferView view = writable(out.data(), out.size() * 4);
  Bindings bindings;
  bindings.buffers = std::span<const BufferView>(&view, 1);
  WorkgroupExecutor wg(*module);
  const uint32_t id[3] = {0, 0, 0}, count[3] = {1, 1, 1};
  ASSERT_TRUE(wg.run(id, count, bindings, error)) << error;
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 2, 100, 101, 102, 0xdead, 0xdead}));
}

TEST(Compute, FragmentAtomicsSkipHelperInvocations) {
  std::string error;
  auto module = load("atomic.frag", Stage::Fragment, error);
  ASSERT_NE(module, nullptr) << error;
  uint32_t counter = 10;
  const BufferView view = writable(&counter, 4);
  Bindings bindings;
  bindings.buffers = std::span<const BufferView>(&view, 1);
  auto b = make_batch(8);
  set_quad(*b, 0, 0, 0);
  set_quad(*b, 1, 2, 0);
  b->helper = (1u << 1) | (1u << 6);
  ShaderExecutor exec(*module);
  ASSERT_TRUE(exec.execute(*b, bindings, error)) << error;
  EXPECT_EQ(counter, 16u);  // six covered lanes
  const uint32_t lanes[6] = {0, 2, 3, 4, 5, 7};
  for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(as_float(b->outputs[slot(0, 0)][lanes[k]]), static_cast<float>(10 + k));
  // Read-only binding: the atomic returns the value and stores nothing.
  BufferView read_only = view;
  read_only.writable = nullptr;
  bindings.buffers = std::span<const BufferView>(&read_only, 1);
  ASSERT_TRUE(exec.execute(*b, bindings, error)) << error;
  EXPECT_EQ(counter, 16u);
  EXPECT_EQ(as_float(b->outputs[slot(0, 0)][7]), 16.0f);
}

}  // namespace
}  // namespace tessera::shader::testing
