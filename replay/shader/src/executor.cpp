// The interpreter: one dispatch per instruction for all lanes of a batch (SoA registers).
//
// Divergence: every lane carries the index of the next block it must run. The scheduler always
// runs the lowest-numbered block any live lane is waiting for, with the mask of exactly those
// lanes. Because SPIR-V orders blocks so that dominators come first and structured constructs
// are laid out before their merge blocks (SPIR-V spec 2.16.1, 2.11 "Structured Control Flow"),
// lanes that left a construct early wait at its merge block until the others arrive, which is
// the reconvergence a SIMD GPU performs; quads therefore stay together for derivatives.
// OpPhi values are written as parallel copies when a lane takes an edge.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>

#include "program.h"
#include "tessera/shader/shader_module.h"

namespace tessera::shader {
namespace {

inline float F(uint32_t u) { return std::bit_cast<float>(u); }
inline uint32_t U(float f) { return std::bit_cast<uint32_t>(f); }
inline int32_t S(uint32_t u) { return static_cast<int32_t>(u); }
inline uint32_t B(bool b) { return b ? 1u : 0u; }

// Float -> int conversions of out-of-range values are undefined in SPIR-V but must not be
// undefined behaviour here: saturate, NaN -> 0.
inline uint32_t f_to_s(float f) {
  if (!(f == f)) return 0;
  if (f <= -2147483648.0f) return 0x80000000u;
  if (f >= 2147483648.0f) return 0x7fffffffu;
  return static_cast<uint32_t>(static_cast<int32_t>(f));
}
inline uint32_t f_to_u(float f) {
  if (!(f > 0.0f)) return 0;
  if (f >= 4294967296.0f) return 0xffffffffu;
  return static_cast<uint32_t>(f);
}
inline uint32_t sdiv(uint32_t ua, uint32_t ub) {
  int64_t a = S(ua), b = S(ub);
  if (b == 0) return 0;
  return static_cast<uint32_t>(static_cast<int64_t>(a / b));
}
inline uint32_t srem(uint32_t ua, uint32_t ub) {
  int64_t a = S(ua), b = S(ub);
  if (b == 0) return 0;
  return static_cast<uint32_t>(a % b);
}
inline uint32_t smod(uint32_t ua, uint32_t ub) {  // sign follows the divisor
  int64_t a = S(ua), b = S(ub);
  if (b == 0) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return static_cast<uint32_t>(r);
}
inline float fsign(float a) { return a > 0.0f ? 1.0f : (a < 0.0f ? -1.0f : 0.0f); }
inline uint32_t find_msb_u(uint32_t v) { return v == 0 ? 0xffffffffu : 31u - static_cast<uint32_t>(std::countl_zero(v)); }

// IEEE half <-> float, round to nearest even (GLSL.std.450 PackHalf2x16 / UnpackHalf2x16).
uint32_t float_to_half(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t e = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (e == 0xffu) return sign | 0x7c00u | (mant ? 0x200u : 0u);
  int32_t exp = static_cast<int32_t>(e) - 127 + 15;
  if (exp >= 31) return sign | 0x7c00u;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1u);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return sign | h;
  }
  uint32_t h = (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return sign | h;
}
float half_to_float(uint32_t h) {
  uint32_t sign = (h & 0x8000u) << 16;
  uint32_t e = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (e == 0) {
    float v = std::ldexp(static_cast<float>(mant), -24);
    return sign ? -v : v;
  }
  if (e == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((e + 112u) << 23) | (mant << 13));
}
uint32_t pack_norm(float v, bool is_signed, uint32_t bits) {
  float scale = static_cast<float>((1u << (is_signed ? bits - 1 : bits)) - 1u);
  float c = is_signed ? std::fmin(std::fmax(v, -1.0f), 1.0f) : std::fmin(std::fmax(v, 0.0f), 1.0f);
  int32_t q = static_cast<int32_t>(std::nearbyint(c * scale));
  return static_cast<uint32_t>(q) & ((1u << bits) - 1u);
}
float unpack_norm(uint32_t field, bool is_signed, uint32_t bits) {
  if (!is_signed) return static_cast<float>(field) / static_cast<float>((1u << bits) - 1u);
  int32_t v = static_cast<int32_t>(field << (32 - bits)) >> (32 - bits);
  return std::fmax(static_cast<float>(v) / static_cast<float>((1u << (bits - 1)) - 1u), -1.0f);
}
uint32_t bitfield_mask(uint32_t offset, uint32_t count) {
  if (count == 0 || offset >= 32) return 0;
  uint32_t m = count >= 32 ? 0xffffffffu : ((1u << count) - 1u);
  return m << offset;
}

struct Machine {
  uint32_t* regs;
  uint32_t n;  // lanes to process (multiple of 4, <= kMaxLanes)
  alignas(64) uint32_t act[kMaxLanes];
  LaneMask mask = 0;
  bool full = false;  // every one of the n lanes is active: writes need no blend

  uint32_t* R(uint32_t r) { return regs + static_cast<size_t>(r) * kMaxLanes; }

  void set_mask(LaneMask m) {
    mask = m;
    full = m == lanes_mask(n);
    for (uint32_t l = 0; l < n; ++l) act[l] = ((m >> l) & 1u) ? 0xffffffffu : 0u;
  }

  // d[l] = v(l) for the active lanes l < n. The lane count and the mask are read into locals
  // first: a store through d could otherwise alias them (they are uint32_t like the registers),
  // which keeps the compiler from vectorising the loop. A full mask writes without the blend
  // (the blend with an all-ones mask is the value itself, so the result is the same).
  template <class Value>
  [[gnu::always_inline]] void lanes(uint32_t* d, Value v) const {
    const uint32_t nl = n;
    if (full) {
      for (uint32_t l = 0; l < nl; ++l) d[l] = v(l);
    } else {
      const uint32_t* __restrict ac = act;
      for (uint32_t l = 0; l < nl; ++l) d[l] = (v(l) & ac[l]) | (d[l] & ~ac[l]);
    }
  }

  template <class Fn>
  void cw1(const Inst& in, Fn f) {
    for (uint32_t c = 0; c < in.n; ++c) {
      uint32_t* d = R(in.d + c);
      const uint32_t* a = R(in.a + c * in.sa);
      lanes(d, [&](uint32_t l) { return f(a[l]); });
    }
  }
  template <class Fn>
  void cw2(const Inst& in, Fn f) {
    for (uint32_t c = 0; c < in.n; ++c) {
      uint32_t* d = R(in.d + c);
      const uint32_t* a = R(in.a + c * in.sa);
      const uint32_t* b = R(in.b + c * in.sb);
      lanes(d, [&](uint32_t l) { return f(a[l], b[l]); });
    }
  }
  template <class Fn>
  void cw3(const Inst& in, Fn f) {
    for (uint32_t c = 0; c < in.n; ++c) {
      uint32_t* d = R(in.d + c);
      const uint32_t* a = R(in.a + c * in.sa);
      const uint32_t* b = R(in.b + c * in.sb);
      const uint32_t* e = R(in.c + c * in.sc);
      lanes(d, [&](uint32_t l) { return f(a[l], b[l], e[l]); });
    }
  }
  void put(uint32_t* d, uint32_t l, uint32_t v) { d[l] = (v & act[l]) | (d[l] & ~act[l]); }

  // The four values of quad q (lanes 4q+{0,1,2,3}) as derivatives read them, value(lane) giving a
  // lane's value. A lane outside the current mask (a branch it did not take, a killed
  // invocation) was not written in this batch: its register holds what an earlier batch on this
  // executor left there. Derivatives in such non-uniform control flow are undefined (Vulkan spec,
  // "Derivative Operations"), but reading the leftover would make the result depend on which
  // batches ran before, so the stream and image would depend on how tiles are spread over
  // threads: such lanes read the quad's first active lane instead.
  template <class Value>
  void quad_values(uint32_t q, Value value, float v[4]) const {
    const uint32_t active = static_cast<uint32_t>(mask >> q) & 0xfu;
    const uint32_t first = active != 0 ? static_cast<uint32_t>(std::countr_zero(active)) : 0;
    for (uint32_t k = 0; k < 4; ++k) v[k] = value(q + ((active >> k) & 1u ? k : first));
  }

  // Derivatives across the 2x2 quad: lanes 4q+{0,1,2,3} = {TL, TR, BL, BR}.
  void derivative(const Inst& in, bool y, bool fine, bool width) {
    for (uint32_t c = 0; c < in.n; ++c) {
      uint32_t* d = R(in.d + c);
      const uint32_t* a = R(in.a + c);
      for (uint32_t q = 0; q < n; q += 4) {
        float v[4];
        quad_values(q, [a](uint32_t l) { return F(a[l]); }, v);
        const float v0 = v[0], v1 = v[1], v2 = v[2], v3 = v[3];
        float dx_top = v1 - v0, dx_bot = fine ? v3 - v2 : dx_top;
        float dy_left = v2 - v0, dy_right = fine ? v3 - v1 : dy_left;
        float r[4];
        if (width) {
          r[0] = std::fabs(dx_top) + std::fabs(dy_left);
          r[1] = std::fabs(dx_top) + std::fabs(dy_right);
          r[2] = std::fabs(dx_bot) + std::fabs(dy_left);
          r[3] = std::fabs(dx_bot) + std::fabs(dy_right);
        } else if (y) {
          r[0] = r[2] = dy_left;
          r[1] = r[3] = dy_right;
        } else {
          r[0] = r[1] = dx_top;
          r[2] = r[3] = dx_bot;
        }
        for (uint32_t k = 0; k < 4; ++k) put(d, q + k, U(r[k]));
      }
    }
  }
};

float determinant(const float* m, uint32_t n) {  // column-major m[c*n + r]
  auto at = [&](uint32_t c, uint32_t r) { return m[c * n + r]; };
  if (n == 2) return at(0, 0) * at(1, 1) - at(1, 0) * at(0, 1);
  if (n == 3)
    return at(0, 0) * (at(1, 1) * at(2, 2) - at(2, 1) * at(1, 2)) -
           at(1, 0) * (at(0, 1) * at(2, 2) - at(2, 1) * at(0, 2)) +
           at(2, 0) * (at(0, 1) * at(1, 2) - at(1, 1) * at(0, 2));
  float det = 0.0f;
  for (uint32_t c = 0; c < 4; ++c) {
    float minor[9];
    uint32_t k = 0;
    for (uint32_t cc = 0; cc < 4; ++cc) {
      if (cc == c) continue;
      for (uint32_t r = 1; r < 4; ++r) minor[k++] = at(cc, r);
    }
    float sub = determinant(minor, 3);
    det += ((c & 1u) ? -1.0f : 1.0f) * at(c, 0) * sub;
  }
  return det;
}

void inverse(const float* m, uint32_t n, float* out) {  // adjugate / determinant
  float det = determinant(m, n);
  float inv_det = 1.0f / det;
  for (uint32_t c = 0; c < n; ++c) {
    for (uint32_t r = 0; r < n; ++r) {
      // cofactor of element (row c, column r) of m -> out(col c, row r) transposed
      float minor[9];
      uint32_t k = 0;
      for (uint32_t cc = 0; cc < n; ++cc) {
        if (cc == c) continue;
        for (uint32_t rr = 0; rr < n; ++rr) {
          if (rr == r) continue;
          minor[k++] = m[cc * n + rr];
        }
      }
      float cof = (n == 2) ? minor[0] : determinant(minor, n - 1);
      if ((c + r) & 1u) cof = -cof;
      out[r * n + c] = cof * inv_det;  // adjugate is the transpose of the cofactor matrix
    }
  }
}

}  // namespace

// The run of one batch, kept between start() and resume() so a compute batch can wait at a
// barrier while the other batches of its workgroup catch up.
struct ShaderExecutor::State {
  LaneBatch* batch = nullptr;
  Bindings bindings;
  uint32_t n = 0;                // lanes processed (lane_count rounded up to whole quads)
  LaneMask launched = 0, alive = 0, waiting = 0, cur_mask = 0, helper_state = 0, discarded = 0;
  uint32_t cur = 0;
  uint64_t block_budget = 0;
  bool done = false;
  bool watchdog = false;  // the run stopped because block_budget ran out
  uint16_t next[kMaxLanes];
};

ShaderExecutor::ShaderExecutor(const ShaderModule& module, uint64_t block_budget)
    : module_(module), block_budget_(block_budget), state_(std::make_unique<State>()) {
  const Program& p = module.program();
  registers_.assign(static_cast<size_t>(p.register_count) * kMaxLanes, 0u);
  for (auto [reg, bits] : p.constants)
    for (uint32_t l = 0; l < kMaxLanes; ++l) registers_[static_cast<size_t>(reg) * kMaxLanes + l] = bits;
}

ShaderExecutor::~ShaderExecutor() = default;

bool ShaderExecutor::watchdog_fired() const { return state_->watchdog; }

bool ShaderExecutor::execute(LaneBatch& batch, const Bindings& bindings, std::string& error) {
  if (batch.lane_count > kMaxLanes) {
    state_->watchdog = false;
    error = "lane batch larger than kMaxLanes";
    return false;
  }
  start(batch, bindings);
  for (;;) {
    // A lone batch passes its barriers as soon as all its lanes arrive.
    switch (resume(error)) {
      case Status::Done: return true;
      case Status::Error: return false;
      case Status::Barrier: break;
    }
  }
}

void ShaderExecutor::start(LaneBatch& batch, const Bindings& bindings) {
  const Program& p = module_.program();
  State& st = *state_;
  st.batch = &batch;
  st.bindings = bindings;
  st.done = batch.lane_count == 0 || batch.lane_count > kMaxLanes;
  if (st.done) return;
  uint32_t* regs = registers_.data();
  const auto R = [regs](uint32_t r) { return regs + static_cast<size_t>(r) * kMaxLanes; };
  st.n = (batch.lane_count + 3u) & ~3u;
  const uint32_t n = st.n;
  st.launched = lanes_mask(batch.lane_count);
  st.helper_state = batch.helper & st.launched;
  st.discarded = 0;
  st.waiting = 0;
  st.alive = st.launched;
  st.cur = 0;
  st.cur_mask = st.alive;
  st.block_budget = block_budget_;
  st.watchdog = false;
  for (uint32_t l = 0; l < kMaxLanes; ++l) st.next[l] = 0;

  // Prologue: variables, then interface inputs.
  for (auto [first, count] : p.zero_ranges) std::memset(R(first), 0, sizeof(uint32_t) * kMaxLanes * count);
  for (const PhiCopy& c : p.init_copies) std::memcpy(R(c.dst), R(c.src), sizeof(uint32_t) * kMaxLanes);
  const uint32_t* size = batch.workgroup_size;
  for (const IoCopy& io : p.inputs) {
    uint32_t* d = R(io.reg);
    const uint32_t c = io.index < 3 ? io.index : 0;
    switch (io.kind) {
      case IoKind::Slot: std::memcpy(d, batch.inputs[io.index], sizeof(uint32_t) * n); break;
      case IoKind::FragCoord: for (uint32_t l = 0; l < n; ++l) d[l] = U(batch.frag_coord[io.index][l]); break;
      case IoKind::FrontFacing: for (uint32_t l = 0; l < n; ++l) d[l] = B((batch.front_facing >> l) & 1u); break;
      case IoKind::HelperInvocation: for (uint32_t l = 0; l < n; ++l) d[l] = B((st.helper_state >> l) & 1u); break;
      case IoKind::VertexIndex: for (uint32_t l = 0; l < n; ++l) d[l] = static_cast<uint32_t>(batch.vertex_index[l]); break;
      case IoKind::InstanceIndex: for (uint32_t l = 0; l < n; ++l) d[l] = static_cast<uint32_t>(batch.instance_index[l]); break;
      // Compute built-ins (SPIR-V "BuiltIn"): GlobalInvocationId = WorkgroupId * WorkgroupSize +
      // LocalInvocationId; LocalInvocationIndex = z * sx * sy + y * sx + x.
      case IoKind::LocalInvocationId: std::memcpy(d, batch.local_invocation_id[c], sizeof(uint32_t) * n); break;
      case IoKind::GlobalInvocationId:
        for (uint32_t l = 0; l < n; ++l) d[l] = batch.workgroup_id[c] * size[c] + batch.local_invocation_id[c][l];
        break;
      case IoKind::WorkgroupId: for (uint32_t l = 0; l < n; ++l) d[l] = batch.workgroup_id[c]; break;
      case IoKind::NumWorkgroups: for (uint32_t l = 0; l < n; ++l) d[l] = batch.num_workgroups[c]; break;
      case IoKind::LocalInvocationIndex:
        for (uint32_t l = 0; l < n; ++l)
          d[l] = (batch.local_invocation_id[2][l] * size[1] + batch.local_invocation_id[1][l]) * size[0] +
                 batch.local_invocation_id[0][l];
        break;
      case IoKind::PointCoord: for (uint32_t l = 0; l < n; ++l) d[l] = U(batch.point_coord[io.index][l]); break;
      case IoKind::SampleId: for (uint32_t l = 0; l < n; ++l) d[l] = static_cast<uint32_t>(batch.sample_id[l]); break;
      case IoKind::SamplePosition: for (uint32_t l = 0; l < n; ++l) d[l] = U(batch.sample_position[io.index][l]); break;
      case IoKind::SampleMaskIn: std::memcpy(d, batch.sample_mask_in, sizeof(uint32_t) * n); break;
      default: std::memset(d, 0, sizeof(uint32_t) * n); break;
    }
  }
  for (uint32_t l = 0; l < n; ++l) batch.instruction_count[l] = 0;
  std::fill(std::begin(batch.quad_ops), std::end(batch.quad_ops), OpCounts{});
}

ShaderExecutor::Status ShaderExecutor::resume(std::string& error) {
  const Program& p = module_.program();
  const ShaderInfo& info = module_.info();
  State& st = *state_;
  if (st.done) return Status::Done;
  LaneBatch& batch = *st.batch;
  const Bindings& bindings = st.bindings;
  Machine m;
  m.regs = registers_.data();
  m.n = st.n;
  const uint32_t n = m.n;
  const LaneMask launched = st.launched;
  LaneMask helper_state = st.helper_state;
  LaneMask discarded = st.discarded;
  LaneMask alive = st.alive;
  LaneMask waiting = 0;  // resuming: every lane that waited at the barrier goes on
  uint32_t cur = st.cur;
  LaneMask cur_mask = st.cur_mask;
  uint16_t* next = st.next;
  uint64_t block_budget = st.block_budget;
  if (st.waiting != 0) {
    // Continue with the lowest block any lane waits for (the barrier's continuation).
    uint32_t best = 0xffffffffu;
    for (LaneMask b = alive; b != 0; b &= b - 1) best = std::min<uint32_t>(best, next[std::countr_zero(b)]);
    cur = best;
    cur_mask = 0;
    for (LaneMask b = alive; b != 0; b &= b - 1)
      if (next[std::countr_zero(b)] == best) cur_mask |= LaneMask{1} << std::countr_zero(b);
    st.waiting = 0;
  }

  auto buffer_view = [&](uint32_t index) -> BufferView {
    if (index == kPushConstants) return bindings.push_constants;
    if (index < bindings.buffers.size()) return bindings.buffers[index];
    return {};
  };

  auto take_edge = [&](uint32_t e, LaneMask lanes) -> uint32_t {
    const Edge& edge = p.edges[e];
    if (lanes == 0) return edge.target;
    for (uint32_t k = 0; k < edge.copy_count; ++k) {
      const PhiCopy& c = p.copies[edge.copy_first + k];
      uint32_t* d = m.R(c.dst);
      const uint32_t* s = m.R(c.src);
      if (lanes == cur_mask) {
        m.lanes(d, [s](uint32_t l) { return s[l]; });
      } else {
        for (uint32_t l = 0; l < n; ++l)
          if ((lanes >> l) & 1u) d[l] = s[l];
      }
    }
    for (LaneMask b = lanes; b != 0; b &= b - 1) next[std::countr_zero(b)] = static_cast<uint16_t>(edge.target);
    return edge.target;
  };
  // Operations of the blocks run since the quads running them last changed (below).
  OpCounts pending;
  LaneMask pending_lanes = 0, pending_quads = 0;
  auto flush_ops = [&]() {
    for (LaneMask q = pending_quads; q != 0; q &= q - 1) {
      OpCounts& c = batch.quad_ops[std::countr_zero(q) >> 2];
      for (uint32_t k = 0; k < kOpClassCount; ++k) c.ops[k] += pending.ops[k];
    }
    pending = OpCounts{};
  };
  // Saves the run for the next resume() (a barrier) or marks it finished.
  auto suspend = [&](bool finished) {
    flush_ops();
    st.helper_state = helper_state;
    st.discarded = discarded;
    st.alive = alive;
    st.waiting = waiting;
    st.cur = cur;
    st.cur_mask = cur_mask;
    st.block_budget = block_budget;
    st.done = finished;
  };

  // Watchdog: a shader may loop forever, and the replay cannot tell that from one that would
  // end after more blocks than it can afford to run. The executor stops the batch and says so,
  // and the caller decides (the replay stops: the rest of the shader's work would be missing
  // from the access stream).
  while (true) {
    if (block_budget-- == 0) {
      error = "shader " + info.hash + ": exceeded " + std::to_string(block_budget_) +
              " block executions in one batch (the replay's watchdog: a shader that never ends, or one too long "
              "to replay)";
      suspend(true);
      st.watchdog = true;
      return Status::Error;
    }
    m.set_mask(cur_mask);
    const Block& blk = p.blocks[cur];
    for (uint32_t l = 0; l < n; ++l) batch.instruction_count[l] += m.act[l] & blk.spirv_count;
    if (blk.has_ops) {
      // Operation classes: the block issues once for each quad with an active lane. Blocks run
      // with the same quads (uniform control flow, a loop's iterations) pile up in `pending`, and
      // only a change of those quads spreads it over them: a block costs a compare and five adds.
      if (cur_mask != pending_lanes) {
        LaneMask quads = cur_mask | (cur_mask >> 1);
        quads = (quads | (quads >> 2)) & 0x1111111111111111ull;  // bit 4q: a lane of quad q
        if (quads != pending_quads) {
          flush_ops();
          pending_quads = quads;
        }
        pending_lanes = cur_mask;
      }
      for (uint32_t k = 0; k < kOpClassCount; ++k) pending.ops[k] += blk.ops.ops[k];
    }
    const Inst* ip = p.insts.data() + blk.first;
    const Inst* end = ip + blk.count;
    for (; ip != end; ++ip) {
      const Inst& in = *ip;
      switch (in.op) {
        case IOp::Copy:
          // Component by component in order, as before (overlapping runs copy alike).
          for (uint32_t c = 0; c < in.n; ++c) {
            uint32_t* d = m.R(in.d + c);
            const uint32_t* a = m.R(in.a + c);
            if (m.full) std::memmove(d, a, sizeof(uint32_t) * n);
            else m.lanes(d, [a](uint32_t l) { return a[l]; });
          }
          break;
#define UF(OP, EXPR) case IOp::OP: m.cw1(in, [](uint32_t ua) { float a = F(ua); return U(EXPR); }); break;
#define BF(OP, EXPR) case IOp::OP: m.cw2(in, [](uint32_t ua, uint32_t ub) { float a = F(ua), b = F(ub); return U(EXPR); }); break;
#define TF(OP, EXPR) case IOp::OP: m.cw3(in, [](uint32_t ua, uint32_t ub, uint32_t uc) { float a = F(ua), b = F(ub), c = F(uc); return U(EXPR); }); break;
#define CF(OP, EXPR) case IOp::OP: m.cw2(in, [](uint32_t ua, uint32_t ub) { float a = F(ua), b = F(ub); return B(EXPR); }); break;
#define UI(OP, EXPR) case IOp::OP: m.cw1(in, [](uint32_t a) { return static_cast<uint32_t>(EXPR); }); break;
#define BI(OP, EXPR) case IOp::OP: m.cw2(in, [](uint32_t a, uint32_t b) { return static_cast<uint32_t>(EXPR); }); break;
        UF(FNeg, -a)
        UF(FAbs, std::fabs(a))
        UF(FSign, fsign(a))
        UF(Floor, std::floor(a))
        UF(Ceil, std::ceil(a))
        UF(Fract, a - std::floor(a))
        UF(Trunc, std::trunc(a))
        UF(Round, std::round(a))
        UF(RoundEven, std::nearbyint(a))
        UF(Sqrt, std::sqrt(a))
        UF(InverseSqrt, 1.0f / std::sqrt(a))
        UF(Exp, std::exp(a))
        UF(Exp2, std::exp2(a))
        UF(Log, std::log(a))
        UF(Log2, std::log2(a))
        UF(Sin, std::sin(a))
        UF(Cos, std::cos(a))
        UF(Tan, std::tan(a))
        UF(Asin, std::asin(a))
        UF(Acos, std::acos(a))
        UF(Atan, std::atan(a))
        UF(Sinh, std::sinh(a))
        UF(Cosh, std::cosh(a))
        UF(Tanh, std::tanh(a))
        UF(Radians, a * 0.017453292519943295f)
        UF(Degrees, a * 57.29577951308232f)
        BF(FAdd, a + b)
        BF(FSub, a - b)
        BF(FMul, a * b)
        BF(FDiv, a / b)
        BF(FRem, std::fmod(a, b))
        BF(FMod, a - b * std::floor(a / b))
        BF(Pow, std::pow(a, b))
        BF(Atan2, std::atan2(a, b))
        BF(FMin, b < a ? b : a)
        BF(FMax, a < b ? b : a)
        BF(NMin, std::fmin(a, b))
        BF(NMax, std::fmax(a, b))
        BF(Step, b < a ? 0.0f : 1.0f)
        TF(FClamp, std::fmin(std::fmax(a, b), c))
        TF(FMix, a + (b - a) * c)
        // The Vulkan spec's precision for Fma is "inherited from OpFMul followed by OpFAdd", and
        // the optimizer fuses a multiply and an add into Fma (normalise.cpp, for the operation
        // counts): both round twice here, as Mesa's llvmpipe does (its NIR lowers ffma32), so a
        // fused multiply-add of the optimizer's leaves the value unchanged.
        TF(Fma, a * b + c)
        case IOp::SmoothStep:
          m.cw3(in, [](uint32_t ua, uint32_t ub, uint32_t uc) {
            float e0 = F(ua), e1 = F(ub), x = F(uc);
            float t = std::fmin(std::fmax((x - e0) / (e1 - e0), 0.0f), 1.0f);
            return U(t * t * (3.0f - 2.0f * t));
          });
          break;
        UI(SNegate, 0u - a)
        UI(Not, ~a)
        UI(SAbs, S(a) < 0 ? 0u - a : a)
        UI(SSign, S(a) > 0 ? 1u : (S(a) < 0 ? 0xffffffffu : 0u))
        UI(LogicalNot, a ^ 1u)
        UI(FindILsb, a == 0 ? 0xffffffffu : static_cast<uint32_t>(std::countr_zero(a)))
        UI(FindUMsb, find_msb_u(a))
        UI(FindSMsb, find_msb_u(S(a) < 0 ? ~a : a))
        UI(BitCount, std::popcount(a))
        UI(BitReverse, [](uint32_t v) {
          uint32_t r = 0;
          for (int i = 0; i < 32; ++i) r |= ((v >> i) & 1u) << (31 - i);
          return r;
        }(a))
        case IOp::Ldexp: m.cw2(in, [](uint32_t a, uint32_t b) { return U(std::ldexp(F(a), std::clamp(S(b), -300, 300))); }); break;
        case IOp::BitFieldUExtract:
          m.cw3(in, [](uint32_t a, uint32_t off, uint32_t cnt) {
            return (a & bitfield_mask(off, cnt)) >> (off & 31u);
          });
          break;
        case IOp::BitFieldSExtract:
          m.cw3(in, [](uint32_t a, uint32_t off, uint32_t cnt) {
            if (cnt == 0 || off >= 32 || cnt > 32 - off) return 0u;
            uint32_t shl = 32u - off - cnt;
            return static_cast<uint32_t>(static_cast<int32_t>(a << shl) >> (shl + off));
          });
          break;
        case IOp::BitFieldInsert:
          for (uint32_t c = 0; c < in.n; ++c) {
            uint32_t* d = m.R(in.d + c);
            const uint32_t* base = m.R(in.a + c);
            const uint32_t* ins = m.R(in.b + c);
            const uint32_t* off = m.R(in.c);
            const uint32_t* cnt = m.R(in.x);
            for (uint32_t l = 0; l < n; ++l) {
              uint32_t mk = bitfield_mask(off[l], cnt[l]);
              m.put(d, l, (base[l] & ~mk) | ((ins[l] << (off[l] & 31u)) & mk));
            }
          }
          break;
        case IOp::QuantizeToF16:
          m.cw1(in, [](uint32_t a) { return U(half_to_float(float_to_half(F(a)))); });
          break;
        case IOp::IAddCarry: case IOp::ISubBorrow: case IOp::UMulExtended: case IOp::SMulExtended:
          for (uint32_t c = 0; c < in.n; ++c) {
            const uint32_t* a = m.R(in.a + c);
            const uint32_t* bb = m.R(in.b + c);
            uint32_t* lo = m.R(in.d + c);
            uint32_t* hi = m.R(in.d + in.n + c);
            for (uint32_t l = 0; l < n; ++l) {
              uint32_t r0 = 0, r1 = 0;
              switch (in.op) {
                case IOp::IAddCarry: r0 = a[l] + bb[l]; r1 = B(r0 < a[l]); break;
                case IOp::ISubBorrow: r0 = a[l] - bb[l]; r1 = B(a[l] < bb[l]); break;
                case IOp::UMulExtended: {
                  uint64_t p64 = uint64_t{a[l]} * bb[l];
                  r0 = static_cast<uint32_t>(p64);
                  r1 = static_cast<uint32_t>(p64 >> 32);
                  break;
                }
                default: {
                  int64_t p64 = int64_t{S(a[l])} * S(bb[l]);
                  r0 = static_cast<uint32_t>(static_cast<uint64_t>(p64));
                  r1 = static_cast<uint32_t>(static_cast<uint64_t>(p64) >> 32);
                  break;
                }
              }
              m.put(lo, l, r0);
              m.put(hi, l, r1);
            }
          }
          break;
        case IOp::ModfStruct: case IOp::FrexpStruct:
          for (uint32_t c = 0; c < in.n; ++c) {
            const uint32_t* a = m.R(in.a + c);
            uint32_t* first = m.R(in.d + c);
            uint32_t* second = m.R(in.d + in.n + c);
            for (uint32_t l = 0; l < n; ++l) {
              float x = F(a[l]);
              if (in.op == IOp::ModfStruct) {
                float whole = std::trunc(x);
                m.put(first, l, U(std::isinf(x) ? std::copysign(0.0f, x) : x - whole));
                m.put(second, l, U(whole));
              } else {
                int e = 0;
                float mant = std::frexp(x, &e);
                m.put(first, l, U(mant));
                m.put(second, l, static_cast<uint32_t>(e));
              }
            }
          }
          break;
        case IOp::VectorExtractDynamic: {
          uint32_t* d = m.R(in.d);
          const uint32_t* idx = m.R(in.b);
          for (uint32_t l = 0; l < n; ++l) {
            uint32_t k = idx[l] < in.n ? idx[l] : in.n - 1u;  // out of range: undefined, stay inside
            m.put(d, l, m.R(in.a + k)[l]);
          }
          break;
        }
        case IOp::VectorInsertDynamic: {
          const uint32_t* idx = m.R(in.c);
          const uint32_t* v = m.R(in.b);
          for (uint32_t c = 0; c < in.n; ++c) {
            uint32_t* d = m.R(in.d + c);
            const uint32_t* a = m.R(in.a + c);
            for (uint32_t l = 0; l < n; ++l) m.put(d, l, idx[l] == c ? v[l] : a[l]);
          }
          break;
        }
        case IOp::PackHalf2x16: case IOp::PackUnorm2x16: case IOp::PackSnorm2x16:
        case IOp::PackUnorm4x8: case IOp::PackSnorm4x8: {
          const uint32_t bits = in.n == 2 ? 16u : 8u;
          const bool sgn = in.op == IOp::PackSnorm2x16 || in.op == IOp::PackSnorm4x8;
          for (uint32_t l = 0; l < n; ++l) {
            uint32_t r = 0;
            for (uint32_t c = 0; c < in.n; ++c) {
              float v = F(m.R(in.a + c)[l]);
              uint32_t field = in.op == IOp::PackHalf2x16 ? float_to_half(v) : pack_norm(v, sgn, bits);
              r |= field << (c * bits);
            }
            m.put(m.R(in.d), l, r);
          }
          break;
        }
        case IOp::UnpackHalf2x16: case IOp::UnpackUnorm2x16: case IOp::UnpackSnorm2x16:
        case IOp::UnpackUnorm4x8: case IOp::UnpackSnorm4x8: {
          const uint32_t bits = in.n == 2 ? 16u : 8u;
          const bool sgn = in.op == IOp::UnpackSnorm2x16 || in.op == IOp::UnpackSnorm4x8;
          for (uint32_t l = 0; l < n; ++l) {
            uint32_t packed = m.R(in.a)[l];
            for (uint32_t c = 0; c < in.n; ++c) {
              uint32_t field = (packed >> (c * bits)) & ((1u << bits) - 1u);
              float v = in.op == IOp::UnpackHalf2x16 ? half_to_float(field) : unpack_norm(field, sgn, bits);
              m.put(m.R(in.d + c), l, U(v));
            }
          }
          break;
        }
        BI(IAdd, a + b)
        BI(ISub, a - b)
        BI(IMul, a * b)
        BI(SDiv, sdiv(a, b))
        BI(UDiv, b == 0 ? 0u : a / b)
        BI(SRem, srem(a, b))
        BI(SMod, smod(a, b))
        BI(UMod, b == 0 ? 0u : a % b)
        BI(Shl, a << (b & 31u))
        BI(ShrL, a >> (b & 31u))
        BI(ShrA, static_cast<uint32_t>(S(a) >> (b & 31u)))
        BI(And, a & b)
        BI(Or, a | b)
        BI(Xor, a ^ b)
        BI(SMin, S(b) < S(a) ? b : a)
        BI(SMax, S(a) < S(b) ? b : a)
        BI(UMin, b < a ? b : a)
        BI(UMax, a < b ? b : a)
        BI(IEq, B(a == b))
        BI(INe, B(a != b))
        BI(SLt, B(S(a) < S(b)))
        BI(SGt, B(S(a) > S(b)))
        BI(SLe, B(S(a) <= S(b)))
        BI(SGe, B(S(a) >= S(b)))
        BI(ULt, B(a < b))
        BI(UGt, B(a > b))
        BI(ULe, B(a <= b))
        BI(UGe, B(a >= b))
        CF(FOrdEq, a == b)
        CF(FOrdNe, a < b || a > b)
        CF(FOrdLt, a < b)
        CF(FOrdGt, a > b)
        CF(FOrdLe, a <= b)
        CF(FOrdGe, a >= b)
        CF(FUnordEq, !(a < b || a > b))
        CF(FUnordNe, a != b)
        CF(FUnordLt, !(a >= b))
        CF(FUnordGt, !(a <= b))
        CF(FUnordLe, !(a > b))
        CF(FUnordGe, !(a < b))
        case IOp::SClamp:
          m.cw3(in, [](uint32_t x, uint32_t lo, uint32_t hi) {
            int32_t v = S(x) < S(lo) ? S(lo) : S(x);
            return static_cast<uint32_t>(S(hi) < v ? S(hi) : v);
          });
          break;
        case IOp::UClamp:
          m.cw3(in, [](uint32_t x, uint32_t lo, uint32_t hi) {
            uint32_t v = x < lo ? lo : x;
            return hi < v ? hi : v;
          });
          break;
        case IOp::IsNan: m.cw1(in, [](uint32_t a) { return B(std::isnan(F(a))); }); break;
        case IOp::IsInf: m.cw1(in, [](uint32_t a) { return B(std::isinf(F(a))); }); break;
        case IOp::FToS: m.cw1(in, [](uint32_t a) { return f_to_s(F(a)); }); break;
        case IOp::FToU: m.cw1(in, [](uint32_t a) { return f_to_u(F(a)); }); break;
        case IOp::SToF: m.cw1(in, [](uint32_t a) { return U(static_cast<float>(S(a))); }); break;
        case IOp::UToF: m.cw1(in, [](uint32_t a) { return U(static_cast<float>(a)); }); break;
        case IOp::Select: m.cw3(in, [](uint32_t c, uint32_t a, uint32_t b) { return c ? a : b; }); break;
#undef UF
#undef BF
#undef TF
#undef CF
#undef UI
#undef BI
        case IOp::Dot: case IOp::Length: case IOp::Distance: {
          // Per lane the same sum as one loop over the components (0 + x0 y0 + x1 y1 + ...),
          // accumulated component by component across the lanes.
          alignas(64) float acc[kMaxLanes];
          for (uint32_t l = 0; l < n; ++l) acc[l] = 0.0f;
          for (uint32_t c = 0; c < in.n; ++c) {
            const uint32_t* a = m.R(in.a + c);
            const uint32_t* b = m.R((in.op == IOp::Length ? in.a : in.b) + c);
            if (in.op == IOp::Distance) {
              for (uint32_t l = 0; l < n; ++l) {
                const float x = F(a[l]) - F(b[l]);
                acc[l] += x * x;
              }
            } else {
              for (uint32_t l = 0; l < n; ++l) acc[l] += F(a[l]) * F(b[l]);
            }
          }
          if (in.op == IOp::Dot) m.lanes(m.R(in.d), [&acc](uint32_t l) { return U(acc[l]); });
          else m.lanes(m.R(in.d), [&acc](uint32_t l) { return U(std::sqrt(acc[l])); });
          break;
        }
        case IOp::Any: case IOp::All: {
          uint32_t* d = m.R(in.d);
          for (uint32_t l = 0; l < n; ++l) {
            bool any = false, all = true;
            for (uint32_t c = 0; c < in.n; ++c) {
              bool v = m.R(in.a + c)[l] != 0;
              any |= v;
              all &= v;
            }
            m.put(d, l, B(in.op == IOp::Any ? any : all));
          }
          break;
        }
        case IOp::Normalize: {
          // Per lane: acc = 0 + x0 x0 + x1 x1 + ..., inv = 1 / sqrt(acc), d = x inv.
          alignas(64) float inv[kMaxLanes];
          for (uint32_t l = 0; l < n; ++l) inv[l] = 0.0f;
          for (uint32_t c = 0; c < in.n; ++c) {
            const uint32_t* a = m.R(in.a + c);
            for (uint32_t l = 0; l < n; ++l) inv[l] += F(a[l]) * F(a[l]);
          }
          for (uint32_t l = 0; l < n; ++l) inv[l] = 1.0f / std::sqrt(inv[l]);
          // The destination may be the source's registers: each component reads its own
          // source row before writing its destination row.
          for (uint32_t c = 0; c < in.n; ++c) {
            const uint32_t* a = m.R(in.a + c);
            m.lanes(m.R(in.d + c), [a, &inv](uint32_t l) { return U(F(a[l]) * inv[l]); });
          }
          break;
        }
        case IOp::Cross:
          for (uint32_t l = 0; l < n; ++l) {
            float a0 = F(m.R(in.a)[l]), a1 = F(m.R(in.a + 1)[l]), a2 = F(m.R(in.a + 2)[l]);
            float b0 = F(m.R(in.b)[l]), b1 = F(m.R(in.b + 1)[l]), b2 = F(m.R(in.b + 2)[l]);
            m.put(m.R(in.d), l, U(a1 * b2 - b1 * a2));
            m.put(m.R(in.d + 1), l, U(a2 * b0 - b2 * a0));
            m.put(m.R(in.d + 2), l, U(a0 * b1 - b0 * a1));
          }
          break;
        case IOp::Reflect:  // I - 2 dot(N, I) N
          for (uint32_t l = 0; l < n; ++l) {
            float dt = 0.0f;
            for (uint32_t c = 0; c < in.n; ++c) dt += F(m.R(in.a + c)[l]) * F(m.R(in.b + c)[l]);
            for (uint32_t c = 0; c < in.n; ++c)
              m.put(m.R(in.d + c), l, U(F(m.R(in.a + c)[l]) - 2.0f * dt * F(m.R(in.b + c)[l])));
          }
          break;
        case IOp::Refract:  // GLSL.std.450 Refract(I, N, eta)
          for (uint32_t l = 0; l < n; ++l) {
            float dt = 0.0f;
            for (uint32_t c = 0; c < in.n; ++c) dt += F(m.R(in.a + c)[l]) * F(m.R(in.b + c)[l]);
            float eta = F(m.R(in.c)[l]);
            float k = 1.0f - eta * eta * (1.0f - dt * dt);
            for (uint32_t c = 0; c < in.n; ++c) {
              float r = k < 0.0f ? 0.0f : eta * F(m.R(in.a + c)[l]) - (eta * dt + std::sqrt(k)) * F(m.R(in.b + c)[l]);
              m.put(m.R(in.d + c), l, U(r));
            }
          }
          break;
        case IOp::FaceForward:  // dot(Nref, I) < 0 ? N : -N
          for (uint32_t l = 0; l < n; ++l) {
            float dt = 0.0f;
            for (uint32_t c = 0; c < in.n; ++c) dt += F(m.R(in.c + c)[l]) * F(m.R(in.b + c)[l]);
            for (uint32_t c = 0; c < in.n; ++c) {
              float v = F(m.R(in.a + c)[l]);
              m.put(m.R(in.d + c), l, U(dt < 0.0f ? v : -v));
            }
          }
          break;
        case IOp::MatTimesVec: {
          const uint32_t rows = in.n, cols = in.m;
          for (uint32_t r = 0; r < rows; ++r) {
            uint32_t* d = m.R(in.d + r);
            float acc[kMaxLanes];
            for (uint32_t l = 0; l < n; ++l) acc[l] = 0.0f;
            for (uint32_t c = 0; c < cols; ++c) {
              const uint32_t* mc = m.R(in.a + c * rows + r);
              const uint32_t* v = m.R(in.b + c);
              for (uint32_t l = 0; l < n; ++l) acc[l] += F(mc[l]) * F(v[l]);
            }
            m.lanes(d, [&acc](uint32_t l) { return U(acc[l]); });
          }
          break;
        }
        case IOp::Determinant: case IOp::MatrixInverse: {
          const uint32_t order = in.n;
          for (uint32_t l = 0; l < n; ++l) {
            if (!((m.mask >> l) & 1u)) continue;
            float mat[16], out[16];
            for (uint32_t k = 0; k < order * order; ++k) mat[k] = F(m.R(in.a + k)[l]);
            if (in.op == IOp::Determinant) {
              m.R(in.d)[l] = U(determinant(mat, order));
            } else {
              inverse(mat, order, out);
              for (uint32_t k = 0; k < order * order; ++k) m.R(in.d + k)[l] = U(out[k]);
            }
          }
          break;
        }
        case IOp::OffsetMad: {
          uint32_t* d = m.R(in.d);
          const uint32_t* prev = m.R(in.a);
          const uint32_t* idx = m.R(in.b);
          const uint32_t k = in.c;
          if (in.sb) m.lanes(d, [prev, idx, k](uint32_t l) { return prev[l] + idx[l] * k; });
          else m.lanes(d, [idx, k](uint32_t l) { return idx[l] * k; });
          break;
        }
        case IOp::LoadDynamic: case IOp::StoreDynamic: {
          const MemAccess& ma = p.mem[in.x];
          const uint32_t* dyn = m.R(ma.dyn);
          for (uint32_t l = 0; l < n; ++l) {
            if (!((m.mask >> l) & 1u)) continue;
            // Out-of-range indices clamp to the variable (robust access: never outside it).
            int64_t off = static_cast<int64_t>(S(dyn[l])) + ma.static_off;
            if (off < 0) off = 0;
            if (off > ma.limit) off = ma.limit;
            uint32_t base = ma.base + static_cast<uint32_t>(off);
            for (uint32_t c = 0; c < in.n; ++c) {
              if (in.op == IOp::LoadDynamic) m.R(in.d + c)[l] = m.R(base + c)[l];
              else m.R(base + c)[l] = m.R(in.a + c)[l];
            }
          }
          break;
        }
        case IOp::LoadBuffer: {
          const MemAccess& ma = p.mem[in.x];
          const BufferView bv = buffer_view(ma.buffer);
          const uint32_t* dyn = ma.has_dyn ? m.R(ma.dyn) : nullptr;
          for (uint32_t c = 0; c < in.n; ++c) {
            uint32_t* d = m.R(in.d + c);
            const uint64_t leaf = uint64_t{ma.base} + ma.leaf_offsets[c];
            if (dyn == nullptr) {  // uniform address: one read for all lanes
              uint32_t v = 0;
              if (bv.data != nullptr && leaf + 4 <= bv.size) std::memcpy(&v, bv.data + leaf, 4);
              m.lanes(d, [v](uint32_t) { return v; });
            } else {
              for (uint32_t l = 0; l < n; ++l) {
                uint64_t off = leaf + static_cast<uint64_t>(static_cast<int64_t>(S(dyn[l])));
                uint32_t v = 0;
                if (bv.data != nullptr && off + 4 <= bv.size) std::memcpy(&v, bv.data + off, 4);
                m.put(d, l, v);
              }
            }
          }
          break;
        }
        case IOp::DPdxFine: m.derivative(in, false, true, false); break;
        case IOp::DPdyFine: m.derivative(in, true, true, false); break;
        case IOp::DPdxCoarse: m.derivative(in, false, false, false); break;
        case IOp::DPdyCoarse: m.derivative(in, true, false, false); break;
        case IOp::FwidthFine: m.derivative(in, false, true, true); break;
        case IOp::FwidthCoarse: m.derivative(in, false, false, true); break;
        case IOp::Demote:
          // SPIR-V spec OpDemoteToHelperInvocation: the lane keeps running as a helper (so
          // derivatives stay defined) but its outputs are discarded.
          discarded |= m.mask;
          helper_state |= m.mask;
          break;
        case IOp::IsHelper:
          for (uint32_t l = 0; l < n; ++l) m.put(m.R(in.d), l, B((helper_state >> l) & 1u));
          break;
        case IOp::Image: {
          const ImageInst& im = p.images[in.x];
          if (im.storage ? bindings.storage_images == nullptr : bindings.sampler == nullptr) {
            error = im.storage ? "shader uses storage images but no StorageImages unit is bound"
                               : "shader uses images but no TextureSampler is bound";
            suspend(true);
            return Status::Error;
          }
          ImageRequest r = im.proto;
          r.lane_count = n;
          r.active = m.mask;
          // Helper invocations' writes have no effect (spec "Helper Invocations").
          r.writes = m.mask & ~helper_state;
          alignas(64) float coord[4][kMaxLanes];
          alignas(64) int32_t icoord[4][kMaxLanes];
          alignas(64) float ddx[3][kMaxLanes], ddy[3][kMaxLanes];
          alignas(64) float qdx[3][kMaxLanes], qdy[3][kMaxLanes];
          alignas(64) float dref[kMaxLanes], lod[kMaxLanes], bias[kMaxLanes], min_lod[kMaxLanes];
          alignas(64) int32_t ilod[kMaxLanes];
          alignas(64) uint32_t out[4][kMaxLanes];
          uint32_t ncoord = im.proj ? im.coord_n - 1 : im.coord_n;
          if (ncoord > 4) ncoord = 4;
          r.coord_components = ncoord;
          const uint32_t* q = im.proj ? m.R(im.coord + im.coord_n - 1) : nullptr;
          for (uint32_t c = 0; c < ncoord; ++c) {
            const uint32_t* s = m.R(im.coord + c);
            if (im.integer_coords) {
              for (uint32_t l = 0; l < n; ++l) icoord[c][l] = S(s[l]);
              r.icoord[c] = icoord[c];
            } else {
              for (uint32_t l = 0; l < n; ++l) coord[c][l] = q ? F(s[l]) / F(q[l]) : F(s[l]);
              r.coord[c] = coord[c];
            }
          }
          uint32_t dims = 2;
          switch (r.dim) {
            case ImageDim::Dim1D: case ImageDim::Buffer: dims = 1; break;
            case ImageDim::Dim3D: case ImageDim::Cube: dims = 3; break;
            default: dims = 2; break;
          }
          if (dims > ncoord) dims = ncoord;
          // Coarse per-quad derivatives of the (projected) coordinates; helper lanes supply the
          // neighbours (Vulkan spec 16.5.3 "Scale Factor Operation").
          const auto quad_differences = [&](float (*dx_out)[kMaxLanes], float (*dy_out)[kMaxLanes]) {
            for (uint32_t c = 0; c < dims; ++c) {
              for (uint32_t qd = 0; qd < n; qd += 4) {
                float v[4];
                m.quad_values(qd, [&coord, c](uint32_t l) { return coord[c][l]; }, v);
                const float dx = v[1] - v[0];
                const float dy = v[2] - v[0];
                for (uint32_t k = 0; k < 4; ++k) {
                  dx_out[c][qd + k] = dx;
                  dy_out[c][qd + k] = dy;
                }
              }
            }
          };
          if (im.quad_derivatives) {
            quad_differences(qdx, qdy);
            for (uint32_t c = 0; c < dims; ++c) {
              r.quad_ddx[c] = qdx[c];
              r.quad_ddy[c] = qdy[c];
            }
          }
          if (im.implicit_derivatives) {
            quad_differences(ddx, ddy);
            for (uint32_t c = 0; c < dims; ++c) {
              r.ddx[c] = ddx[c];
              r.ddy[c] = ddy[c];
            }
          } else if (im.has_grad) {
            for (uint32_t c = 0; c < dims; ++c) {
              for (uint32_t l = 0; l < n; ++l) {
                ddx[c][l] = F(m.R(im.grad_x + c)[l]);
                ddy[c][l] = F(m.R(im.grad_y + c)[l]);
              }
              r.ddx[c] = ddx[c];
              r.ddy[c] = ddy[c];
            }
          }
          if (im.has_dref) {
            for (uint32_t l = 0; l < n; ++l) dref[l] = q ? F(m.R(im.dref)[l]) / F(q[l]) : F(m.R(im.dref)[l]);
            r.dref = dref;
          }
          if (im.has_lod) {
            const uint32_t* s = m.R(im.lod);
            for (uint32_t l = 0; l < n; ++l) {
              lod[l] = im.lod_is_int ? static_cast<float>(S(s[l])) : F(s[l]);
              ilod[l] = im.lod_is_int ? S(s[l]) : static_cast<int32_t>(f_to_s(F(s[l])));
            }
            r.lod = lod;
            r.ilod = ilod;
          }
          if (im.has_bias) {
            for (uint32_t l = 0; l < n; ++l) bias[l] = F(m.R(im.bias)[l]);
            r.bias = bias;
          }
          if (im.has_min_lod) {
            for (uint32_t l = 0; l < n; ++l) min_lod[l] = F(m.R(im.min_lod)[l]);
            r.min_lod = min_lod;
          }
          alignas(64) uint32_t texel[4][kMaxLanes];
          if (im.texel_n != 0) {  // OpImageWrite: the texel's components, missing ones 0
            for (uint32_t c = 0; c < 4; ++c) {
              if (c < im.texel_n) std::memcpy(texel[c], m.R(im.texel + c), sizeof(uint32_t) * n);
              else std::memset(texel[c], 0, sizeof(uint32_t) * n);
              r.texel[c] = texel[c];
            }
          }
          std::memset(out, 0, sizeof out);
          uint32_t* const outs[4] = {out[0], out[1], out[2], out[3]};
          if (im.storage) bindings.storage_images->execute(r, outs);
          else bindings.sampler->execute(r, outs);
          for (uint32_t c = 0; c < im.dst_n && c < 4; ++c) {
            const uint32_t* o = out[c];
            m.lanes(m.R(im.dst + c), [o](uint32_t l) { return o[l]; });
          }
          break;
        }
        case IOp::StoreBuffer: {
          // Stores of the lanes that are not helpers, in lane order; out of range: dropped.
          const MemAccess& ma = p.mem[in.x];
          const BufferView bv = buffer_view(ma.buffer);
          if (bv.writable == nullptr) break;
          const uint32_t* dyn = ma.has_dyn ? m.R(ma.dyn) : nullptr;
          const LaneMask lanes = m.mask & ~helper_state;
          for (uint32_t c = 0; c < in.n; ++c) {
            const uint32_t* v = m.R(in.a + c);
            const uint64_t leaf = uint64_t{ma.base} + ma.leaf_offsets[c];
            for (LaneMask b = lanes; b != 0; b &= b - 1) {
              const int l = std::countr_zero(b);
              const uint64_t off = leaf + (dyn ? static_cast<uint64_t>(static_cast<int64_t>(S(dyn[l]))) : 0);
              if (off + 4 <= bv.size && off + 4 > off) std::memcpy(bv.writable + off, &v[l], 4);
            }
          }
          break;
        }
        case IOp::LoadShared: case IOp::StoreShared: {
          // Workgroup storage, scalar-indexed like register variables; out-of-range indices
          // clamp to the variable (never outside it).
          const MemAccess& ma = p.mem[in.x];
          uint32_t* mem = bindings.workgroup_memory;
          const uint32_t* dyn = ma.has_dyn ? m.R(ma.dyn) : nullptr;
          const LaneMask lanes = in.op == IOp::LoadShared ? m.mask : m.mask & ~helper_state;
          for (LaneMask b = lanes; b != 0; b &= b - 1) {
            const int l = std::countr_zero(b);
            int64_t off = (dyn ? static_cast<int64_t>(S(dyn[l])) : 0) + ma.static_off;
            off = std::clamp<int64_t>(off, 0, ma.limit);
            const uint32_t at = ma.base + static_cast<uint32_t>(off);
            for (uint32_t c = 0; c < in.n; ++c) {
              if (in.op == IOp::LoadShared) m.R(in.d + c)[l] = mem ? mem[at + c] : 0u;
              else if (mem) mem[at + c] = m.R(in.a + c)[l];
            }
          }
          break;
        }
        case IOp::ArrayLength: {
          const BufferView bv = buffer_view(in.x);
          const uint32_t len = bv.size > in.b ? static_cast<uint32_t>(std::min<uint64_t>((bv.size - in.b) / in.c, UINT32_MAX)) : 0u;
          for (uint32_t l = 0; l < n; ++l) m.put(m.R(in.d), l, len);
          break;
        }
        case IOp::Atomic: {
          // One lane at a time in lane order: each read-modify-write is atomic with respect to
          // every other ("Atomic Instructions"). Helper invocations do not take part.
          const AtomicInst& a = p.atomics[in.x];
          const LaneMask lanes = m.mask & ~helper_state;
          const uint32_t* value = m.R(a.value);
          const uint32_t* comparator = m.R(a.comparator);
          uint32_t* result = a.has_result ? m.R(a.result) : nullptr;
          if (a.where == AtomicInst::Where::Image) {
            const ImageInst& im = p.images[a.mem];
            if (bindings.storage_images == nullptr) {
              error = "shader uses storage images but no StorageImages unit is bound";
              suspend(true);
              return Status::Error;
            }
            ImageRequest r = im.proto;
            r.lane_count = n;
            r.active = lanes;
            r.writes = lanes;
            alignas(64) int32_t icoord[4][kMaxLanes];
            alignas(64) uint32_t out[4][kMaxLanes];
            for (uint32_t c = 0; c < im.coord_n && c < 4; ++c) {
              for (uint32_t l = 0; l < n; ++l) icoord[c][l] = S(m.R(im.coord + c)[l]);
              r.icoord[c] = icoord[c];
            }
            r.coord_components = std::min(im.coord_n, 4u);
            r.texel[0] = value;
            r.comparator = comparator;
            std::memset(out, 0, sizeof out);
            uint32_t* const outs[4] = {out[0], out[1], out[2], out[3]};
            bindings.storage_images->execute(r, outs);
            if (result)
              for (LaneMask b = lanes; b != 0; b &= b - 1) result[std::countr_zero(b)] = out[0][std::countr_zero(b)];
            break;
          }
          const MemAccess& ma = p.mem[a.mem];
          const uint32_t* dyn = ma.has_dyn ? m.R(ma.dyn) : nullptr;
          for (LaneMask b = lanes; b != 0; b &= b - 1) {
            const int l = std::countr_zero(b);
            uint32_t old = 0;
            if (a.where == AtomicInst::Where::Shared) {
              uint32_t* mem = bindings.workgroup_memory;
              int64_t off = (dyn ? static_cast<int64_t>(S(dyn[l])) : 0) + ma.static_off;
              const uint32_t at = ma.base + static_cast<uint32_t>(std::clamp<int64_t>(off, 0, ma.limit));
              if (mem) {
                old = mem[at];
                mem[at] = atomic_result(a.op, old, value[l], comparator[l]);
              }
            } else {
              const BufferView bv = buffer_view(ma.buffer);
              const uint64_t off = uint64_t{ma.base} + (dyn ? static_cast<uint64_t>(static_cast<int64_t>(S(dyn[l]))) : 0);
              if (bv.data != nullptr && off + 4 <= bv.size && off + 4 > off) {
                std::memcpy(&old, bv.data + off, 4);
                const uint32_t now = atomic_result(a.op, old, value[l], comparator[l]);
                if (bv.writable != nullptr) std::memcpy(bv.writable + off, &now, 4);
              }
            }
            if (result) result[l] = old;
          }
          break;
        }
      }
    }

    // Terminator.
    bool uniform = false;
    uint32_t uniform_target = 0;
    switch (blk.term) {
      case Terminator::Branch:
        uniform_target = take_edge(blk.edge[0], cur_mask);
        uniform = true;
        break;
      case Terminator::CondBranch: {
        const uint32_t* c = m.R(blk.cond);
        LaneMask t = 0;
        for (uint32_t l = 0; l < n; ++l) t |= static_cast<LaneMask>(c[l] != 0) << l;
        t &= cur_mask;
        LaneMask f = cur_mask & ~t;
        if (f == 0) { uniform_target = take_edge(blk.edge[0], t); uniform = true; }
        else if (t == 0) { uniform_target = take_edge(blk.edge[1], f); uniform = true; }
        else { take_edge(blk.edge[0], t); take_edge(blk.edge[1], f); }
        break;
      }
      case Terminator::Switch: {
        const uint32_t* sel = m.R(blk.cond);
        LaneMask remaining = cur_mask;
        for (uint32_t k = 0; k < blk.case_count && remaining != 0; ++k) {
          const SwitchCase& sc = p.cases[blk.case_first + k];
          LaneMask hit = 0;
          for (uint32_t l = 0; l < n; ++l) hit |= static_cast<LaneMask>(sel[l] == sc.literal) << l;
          hit &= remaining;
          if (hit == 0) continue;
          take_edge(sc.edge, hit);
          remaining &= ~hit;
        }
        take_edge(blk.edge[0], remaining);
        break;
      }
      case Terminator::Kill:
        discarded |= cur_mask;
        alive &= ~cur_mask;
        break;
      case Terminator::Return: case Terminator::Unreachable:
        alive &= ~cur_mask;
        break;
      case Terminator::Barrier:
        // The lanes wait here until the whole workgroup arrived (resume()).
        take_edge(blk.edge[0], cur_mask);
        waiting |= cur_mask;
        break;
    }
    if (alive == 0) break;
    if (uniform && cur_mask == alive) {
      cur = uniform_target;
      continue;
    }
    const LaneMask runnable = alive & ~waiting;
    if (runnable == 0) {
      suspend(false);
      return Status::Barrier;
    }
    // Lowest block any live lane that is not at a barrier waits for.
    uint32_t best = 0xffffffffu;
    for (LaneMask b = runnable; b != 0; b &= b - 1) {
      uint32_t nb = next[std::countr_zero(b)];
      if (nb < best) best = nb;
    }
    cur = best;
    cur_mask = 0;
    for (LaneMask b = runnable; b != 0; b &= b - 1) {
      int l = std::countr_zero(b);
      if (next[l] == best) cur_mask |= LaneMask{1} << l;
    }
  }

  // Epilogue: outputs.
  for (uint32_t l = 0; l < n; ++l) {
    batch.point_size[l] = 1.0f;
    batch.frag_depth[l] = info.stage == Stage::Fragment ? batch.frag_coord[2][l] : 0.0f;
  }
  for (const IoCopy& io : p.outputs) {
    const uint32_t* s = m.R(io.reg);
    switch (io.kind) {
      case IoKind::Slot: std::memcpy(batch.outputs[io.index], s, sizeof(uint32_t) * n); break;
      case IoKind::Position: for (uint32_t l = 0; l < n; ++l) batch.position[io.index][l] = F(s[l]); break;
      case IoKind::PointSize: for (uint32_t l = 0; l < n; ++l) batch.point_size[l] = F(s[l]); break;
      case IoKind::ClipDistance: for (uint32_t l = 0; l < n; ++l) batch.clip_distance[io.index][l] = F(s[l]); break;
      case IoKind::CullDistance: for (uint32_t l = 0; l < n; ++l) batch.cull_distance[io.index][l] = F(s[l]); break;
      case IoKind::FragDepth: for (uint32_t l = 0; l < n; ++l) batch.frag_depth[l] = F(s[l]); break;
      case IoKind::SampleMaskOut: std::memcpy(batch.sample_mask, s, sizeof(uint32_t) * n); break;
      default: break;
    }
  }
  batch.discarded = discarded & launched;
  suspend(true);
  return Status::Done;
}

}  // namespace tessera::shader
