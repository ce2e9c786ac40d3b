#include "fragment_stage.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "op_mix.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/pipeline/blend.h"
#include "tessera/pipeline/depth_stencil.h"
#include "tessera/pipeline/logic_op.h"
#include "tessera/pipeline/viewport_cull.h"

namespace tessera::render {

namespace {

constexpr uint32_t kQuadsPerBatch = shader::kMaxLanes / 4;

// Vulkan spec "Depth Bias": o = m * slopeFactor + r * constantFactor, clamped by depthBiasClamp,
// where m is the maximum depth slope of the polygon and r the minimum resolvable difference of
// the depth format (2^-n for an n-bit UNORM format; for float formats 2^(e - 23) with e the
// exponent of the primitive's largest depth). Lines and points drawn for a polygon (polygon
// mode) carry its slope; those of line and point topologies have none.
float depth_bias(const capture::GraphicsPipelineRecord& s, const pipeline::ScreenTriangle& t,
                 const AttachmentBuffer* ds) {
  if (!s.depth_bias_enable || ds == nullptr || !ds->depth) return 0.0f;
  const float m = t.kind == pipeline::PrimitiveKind::Triangle ? pipeline::max_depth_slope(t) : t.depth_slope;
  float r;
  switch (ds->format.format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: r = 1.0f / 65536.0f; break;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: r = 1.0f / 16777216.0f; break;
    default: {
      const float zmax = std::max({std::fabs(t.v[0].z), std::fabs(t.v[1].z), std::fabs(t.v[2].z)});
      int e = 0;
      std::frexp(zmax, &e);  // zmax = f * 2^e with f in [0.5, 1): IEEE exponent is e - 1
      r = std::ldexp(1.0f, e - 1 - 23);
    }
  }
  float o = m * s.depth_bias_slope + r * s.depth_bias_constant;
  if (s.depth_bias_clamp > 0) o = std::min(o, s.depth_bias_clamp);
  else if (s.depth_bias_clamp < 0) o = std::max(o, s.depth_bias_clamp);
  return o;
}

// Per-sample tests of Vulkan spec chapter "Fragment Operations", in its order: depth bounds,
// stencil, depth; stencil and depth writes as the outcome dictates. Returns whether the sample
// passes. `p` indexes the tile arrays (pixel * samples + sample); `z` is the fragment depth,
// already clamped.
bool depth_stencil_test(const capture::GraphicsPipelineRecord& s, AttachmentBuffer& a, size_t p,
                        float z, bool front) {
  if (s.depth_bounds_test && a.depth) {
    const float stored = a.depth_tile[p];
    if (stored < s.min_depth_bounds || stored > s.max_depth_bounds) return false;
  }
  const capture::GraphicsPipelineRecord::StencilOpState& so = front ? s.stencil_front : s.stencil_back;
  const bool stencil = s.stencil_test && a.stencil;
  if (stencil && !pipeline::stencil_compare(so.compare_op, so.reference, a.stencil_tile[p], so.compare_mask)) {
    a.stencil_tile[p] = pipeline::stencil_update(so.fail_op, a.stencil_tile[p], so.reference, so.write_mask);
    return false;
  }
  const bool depth = s.depth_test && a.depth;
  const float zq = depth ? TileBuffers::quantize_depth(a, z) : 0.0f;
  if (depth && !pipeline::depth_compare(s.depth_compare, zq, a.depth_tile[p])) {
    if (stencil)
      a.stencil_tile[p] = pipeline::stencil_update(so.depth_fail_op, a.stencil_tile[p], so.reference, so.write_mask);
    return false;
  }
  if (stencil)
    a.stencil_tile[p] = pipeline::stencil_update(so.pass_op, a.stencil_tile[p], so.reference, so.write_mask);
  // Depth writes happen only with the depth test enabled (spec "Depth Test").
  if (depth && s.depth_write) a.depth_tile[p] = zq;
  return true;
}

float as_float(uint32_t bits, shader::ScalarType type) {
  switch (type) {
    case shader::ScalarType::Int32: return static_cast<float>(static_cast<int32_t>(bits));
    case shader::ScalarType::UInt32:
    case shader::ScalarType::Bool: return static_cast<float>(bits);
    case shader::ScalarType::Float32: break;
  }
  return std::bit_cast<float>(bits);
}

// Spec "Multisample Coverage", alpha to coverage: an implementation-chosen mask whose number of
// set bits grows with alpha (0 at 0, all at 1). Here the first round(alpha * samples) samples,
// so one sample is covered from alpha 0.5 on.
uint32_t alpha_coverage(float alpha, uint32_t samples) {
  const float a = std::isnan(alpha) ? 0.0f : std::clamp(alpha, 0.0f, 1.0f);
  const auto n = static_cast<uint32_t>(a * static_cast<float>(samples) + 0.5f);
  return n >= 32 ? ~0u : (1u << n) - 1;
}

}  // namespace

struct FragmentStage::Target {
  AttachmentBuffer* a;
  pipeline::BlendState blend;
  shader::ScalarType type;
  uint32_t slot;
  pipeline::BlendRange range;
  bool logic;      // a logic op replaces blending (spec "Logical Operations")
  bool location0;  // alpha to one, smooth line coverage act on location 0 only
};

struct FragmentStage::Context {
  const pipeline::ScreenTriangle& prim;
  DrawState& ds;
  const capture::GraphicsPipelineRecord& s;
  pipeline::PixelRect rect;
  AttachmentBuffer* dsa = nullptr;
  bool tests = false, shade = false, late = false, front = false;
  float bias = 0, zmin = 0, zmax = 1;
  Target colour[8];
  uint32_t colour_count = 0;
  float constants[4] = {0, 0, 0, 0};
  shader::Bindings bindings;
  shader::ShaderExecutor* executor = nullptr;
  bool* failed = nullptr;  // the draw's flag, or this stage's own (attach_private)
  int32_t area_x = 0, area_y = 0;
  bool smooth = false;  // a smooth line: location 0 alpha scaled by the pixel's coverage
  // Fragment built-ins the shader reads or writes (the lanes fill them only then).
  bool point_coord = false, sample_mask_in = false, sample_id = false, sample_position = false;
  bool writes_depth = false, writes_sample_mask = false;
  // Anything changing a fragment's coverage after shading (spec "Multisample Coverage").
  bool coverage_ops = false;

  Context(const pipeline::ScreenTriangle& p, DrawState& d) : prim(p), ds(d), s(d.draw->state) {}

  // Location 0's alpha of a lane, scaled by a smooth line's coverage of pixel (px, py).
  float alpha0(const shader::LaneBatch& b, uint32_t lane, int32_t px, int32_t py) const {
    float a = (ds.output_mask & 1u) ? as_float(b.outputs[3][lane], ds.output_type[0]) : 1.0f;
    if (smooth) a *= pipeline::smooth_line_coverage(prim, px, py);
    return a;
  }

  // The samples (of `mask`, the ones the lane shades) that survive the SampleMask output and
  // alpha to coverage.
  uint32_t shaded_coverage(const shader::LaneBatch& b, uint32_t lane, uint32_t mask, int32_t px, int32_t py) const {
    if (writes_sample_mask) mask &= b.sample_mask[lane];
    if (ds.alpha_to_coverage) mask &= alpha_coverage(alpha0(b, lane, px, py), ds.samples);
    return mask;
  }

  // The colour a lane writes to target t, alpha to one and smooth line coverage applied.
  void source(const Target& t, const shader::LaneBatch& b, uint32_t lane, int32_t px, int32_t py, float src[4]) const {
    for (uint32_t ch = 0; ch < 4; ++ch) src[ch] = as_float(b.outputs[t.slot + ch][lane], t.type);
    if (t.location0 && smooth) src[3] = alpha0(b, lane, px, py);
    // Alpha to one: every alpha replaced by the maximum (1.0) after the coverage is taken.
    if (ds.alpha_to_one) src[3] = 1.0f;
  }

  // The colour attachment stage for one value (pixel * samples + sample) of target t: the
  // logic op, or blending, or the source through the write mask.
  void write(const Target& t, const TileBuffers& tiles, size_t v, const float src[4]) const {
    float dst[4];
    std::copy_n(&t.a->color_tile[v * 4], 4, dst);
    if (t.logic) {
      pipeline::logic_op_color(ds.logic_op, t.a->format, t.blend.write_mask, src, dst);
    } else if (t.blend.enable) {
      static constexpr float kZero[4] = {0, 0, 0, 0};
      pipeline::blend_normalized(t.blend, t.range, constants, src, kZero, dst);
    } else {
      // What blend_normalized does with blending off: the source through the write mask.
      for (uint32_t ch = 0; ch < 4; ++ch)
        if (t.blend.write_mask & (1u << ch)) dst[ch] = src[ch];
    }
    tiles.write_color(*t.a, v, dst);
  }
};

FragmentStage::FragmentStage() : batch_(std::make_unique<shader::LaneBatch>()) {
  quads_.reserve(256);
}
FragmentStage::~FragmentStage() = default;

void FragmentStage::record(uint32_t lane, const texture::Footprint& fp) {
  samples_.push_back(footprint_sample(lane, fp, store_));
}

void FragmentStage::attach(DrawState& ds) {
  if (ds.fs_bind)
    ds.fs_bind->textures.set_footprint_sink(
        [this](uint32_t lane, const texture::Footprint& fp) { record(lane, fp); });
}

[[gnu::always_inline]] inline void FragmentStage::emit_texture_events(uint32_t units_end, size_t& next,
                                                                      stream::StreamWriter* out, RenderStats& stats) {
  for (; next < samples_.size() && samples_[next].lane / 4 < units_end; ++next) {
    const Sample& sm = samples_[next];
    if (out)
      out->texture(sm.lane % 4, sm.level, sm.footprint_case, sm.probes, store_.lines_of(sm), store_.probes_of(sm));
    ++stats.texture_samples;
    stats.texture_lines += sm.line_count;
  }
}

uint32_t FragmentStage::dependent_flags(uint32_t units_end, size_t next) const {
  // The stream marks a quad's k-th texture instruction dependent when the k-th sample of any of
  // its lanes is (access-stream.md, "Dependent texture reads").
  uint32_t flags = 0, per_lane[4] = {};
  for (; next < samples_.size() && samples_[next].lane / 4 < units_end; ++next) {
    const Sample& sm = samples_[next];
    const uint32_t k = per_lane[sm.lane % 4]++;
    if (sm.dependent) flags |= stream::quad_dependent_flag(k);
  }
  return flags;
}

void FragmentStage::attach_private(const DrawState& ds, TextureCache& textures, frontend::SkipCounts& notes) {
  if (ds.fs == nullptr || ds.fs->module == nullptr) return;
  auto own = std::make_unique<Private>();
  bind_stage(ds.draw->descriptors, ds.draw->push_constants, *ds.fs->module, textures, own->samplers, own->bind, notes);
  own->bind.textures.set_footprint_sink([this](uint32_t lane, const texture::Footprint& fp) { record(lane, fp); });
  own->executor = std::make_unique<shader::ShaderExecutor>(*ds.fs->module, ds.fs->block_budget);
  private_[&ds] = std::move(own);
}

const StageBindings* FragmentStage::private_bindings(const DrawState& ds) const {
  const auto it = private_.find(&ds);
  return it == private_.end() ? nullptr : &it->second->bind;
}

bool FragmentStage::private_failed() const {
  for (const auto& [ds, own] : private_)
    if (own->failed) return true;
  return false;
}

void FragmentStage::clear_private() { private_.clear(); }

bool FragmentStage::execute(Context& cx, frontend::SkipCounts& skipped) {
  std::string error;
  if (!cx.executor->execute(*batch_, cx.bindings, error)) {
    // A shader stopped by the executor's watchdog (one that never ends, or runs longer than the
    // replay affords) stops the replay: dropping the draw's remaining fragments would give a
    // wrong access stream and wrong pixels. On a thread of the parallel raster phase the error
    // goes back to the renderer.
    if (cx.executor->watchdog_fired()) throw frontend::ReplayLimitError(cx.ds.name + ": fragment " + error);
    skipped.add("draw: fragment shader: " + error);
    *cx.failed = true;
    return false;
  }
  // Texture events follow their quad: order the batch's samples by shading unit (a quad's
  // lanes), keeping the order of the samples within one.
  std::stable_sort(samples_.begin(), samples_.end(),
                   [](const Sample& a, const Sample& c) { return a.lane / 4 < c.lane / 4; });
  return true;
}

[[gnu::always_inline]] inline void FragmentStage::finish_quad(const pipeline::Quad& q, uint8_t ds_pass, uint8_t written,
                                                              uint32_t flags, uint64_t instructions,
                                                              const stream::OpMix& mix, bool shaded,
                                                              uint8_t shaded_pixels, uint32_t units_end, size_t& next_sample,
                                                              stream::StreamWriter* out, RenderStats& stats) {
  if (shaded) flags |= dependent_flags(units_end, next_sample);
  if (out) out->quad(static_cast<uint32_t>(q.x), static_cast<uint32_t>(q.y), q.coverage, ds_pass, written, flags, instructions, mix);
  ++stats.quads;
  stats.fragments += stream::quad_pixels(q.coverage);
  if (shaded) {
    ++stats.quads_shaded;
    stats.fragments_shaded += stream::quad_pixels(shaded_pixels);
    emit_texture_events(units_end, next_sample, out, stats);
  }
  stats.fragment_instructions += instructions;
  stats.fragment_mix.add(mix);
  stats.pixels_written += stream::quad_pixels(written);
}

// One batch of quads of the single-sample path: per quad, its fragment depths, the pixels
// alive after the early tests, and its shading unit (-1: not shaded); per unit, its quad.
struct FragmentStage::PixelBatch {
  float z[kQuadsPerBatch][4];
  uint8_t pass[kQuadsPerBatch], lanes_of[kQuadsPerBatch];
  int32_t lane_quad[kQuadsPerBatch];
};

// One batch of quads of the multisampled path: per quad and pixel, the covered samples and
// those alive after the early tests, the samples' depths; the shading units (a quad's lanes at
// the pixel centres, or at one sample) with their quad and sample, and per quad its unit for
// each sample (or for all of them).
struct FragmentStage::SampleBatch {
  uint32_t n;           // samples per pixel
  uint32_t all;         // mask of the n samples
  uint32_t sample_mask; // pSampleMask word 0, of the n samples
  bool per_sample;      // sample shading: a shading unit per covered sample
  bool centroid;        // some input is Centroid-decorated
  const pipeline::SampleGrid* grid;
  uint32_t cov[kQuadsPerBatch][4], pass[kQuadsPerBatch][4];
  float z[kQuadsPerBatch][4][pipeline::kMaxSamples];
  uint8_t unit_quad[kQuadsPerBatch], unit_sample[kQuadsPerBatch];
  uint8_t unit_of[kQuadsPerBatch][pipeline::kMaxSamples];
  uint8_t first_unit[kQuadsPerBatch], unit_count[kQuadsPerBatch];
};

namespace {

// A unit's sample of SampleBatch::unit_sample, or the pixel centre (pixel-rate shading).
constexpr uint8_t kPixelRate = 0xFF;

// The draw's state every fragment of the primitive shares: the scissored tile, which tests run,
// depth bias (spec "Depth Bias") and the depth range (spec "Depth Clamping and Range").
void set_fixed_state(FragmentStage::Context& cx, const SubpassTargets& targets, const TileBuffers& tiles,
                     int32_t area_x, int32_t area_y) {
  const DrawState& ds = cx.ds;
  const capture::GraphicsPipelineRecord& s = cx.s;
  const pipeline::ScreenTriangle& tri = cx.prim;
  const pipeline::PixelRect& tr = tiles.rect();
  cx.rect = {std::max(tr.x0, ds.scissor.x0), std::max(tr.y0, ds.scissor.y0), std::min(tr.x1, ds.scissor.x1),
             std::min(tr.y1, ds.scissor.y1)};
  cx.area_x = area_x;
  cx.area_y = area_y;
  AttachmentBuffer* dsa = cx.dsa = targets.depth_stencil;
  cx.tests = dsa != nullptr && ((s.depth_test && dsa->depth) || (s.stencil_test && dsa->stencil) ||
                                (s.depth_bounds_test && dsa->depth));
  cx.shade = ds.fs != nullptr;
  cx.late = cx.shade && ds.late_tests;
  cx.front = tri.front_facing;
  cx.bias = depth_bias(s, tri, dsa);
  // Fixed-point depth formats hold [0, 1]; depth clamp narrows that to the viewport's range
  // (spec "Depth Clamping and Range").
  cx.zmin = ds.depth_clamp ? std::max(0.0f, ds.depth_clamp_min) : 0.0f;
  cx.zmax = ds.depth_clamp ? std::min(1.0f, ds.depth_clamp_max) : 1.0f;
  cx.smooth = tri.kind == pipeline::PrimitiveKind::Line && tri.line_mode == pipeline::LineMode::Smooth;
}

// Colour targets this draw writes: location L -> attachment, blend state (spec "Blending",
// "Logical Operations", VK_EXT_color_write_enable).
void bind_colour_targets(FragmentStage::Context& cx, const SubpassTargets& targets) {
  const DrawState& ds = cx.ds;
  const capture::GraphicsPipelineRecord& s = cx.s;
  for (uint32_t l = 0; l < targets.colors.size() && l < 8; ++l) {
    AttachmentBuffer* a = targets.colors[l];
    if (a == nullptr || !(ds.output_mask & (1u << l))) continue;
    FragmentStage::Target& t = cx.colour[cx.colour_count];
    t.a = a;
    t.type = ds.output_type[l];
    t.slot = 4 * l;
    t.location0 = l == 0;
    const capture::GraphicsPipelineRecord::BlendAttachment ba =
        l < s.blend_attachments.size() ? s.blend_attachments[l]
                                       : capture::GraphicsPipelineRecord::BlendAttachment{};
    // A logic op replaces blending on every attachment; formats it does not apply to (float,
    // sRGB) take the source as it is (spec "Logical Operations"). Integer attachments never
    // blend (spec "Blending": "ignored for ... integer formats").
    t.logic = ds.logic_op_enable && pipeline::logic_op_applies(a->format);
    t.blend = {ba.blend_enable != 0 && !a->format.integer && !ds.logic_op_enable, ba.src_color, ba.dst_color,
               ba.color_op, ba.src_alpha, ba.dst_alpha, ba.alpha_op, ba.write_mask & 0xFu};
    // VK_EXT_color_write_enable: a disabled attachment is not written at all.
    if (!(ds.color_write_enable & (1u << l))) t.blend.write_mask = 0;
    // Fixed-point attachments clamp source, destination and constants (spec "Blend Operations").
    t.range = a->format.integer || a->format.is_float ? pipeline::BlendRange::Unbounded
              : a->snorm                              ? pipeline::BlendRange::Snorm
                                                      : pipeline::BlendRange::Unorm;
    if (t.blend.write_mask != 0) ++cx.colour_count;
  }
}

// The fragment built-ins the shader reads or writes (the lanes fill them only then).
void bind_shader_builtins(FragmentStage::Context& cx) {
  const shader::ShaderInfo& info = cx.ds.fs->module->info();
  cx.point_coord = info.reads_point_coord;
  cx.sample_mask_in = info.reads_sample_mask;
  cx.sample_id = info.reads_sample_id;
  cx.sample_position = info.reads_sample_position;
  cx.writes_depth = info.writes_frag_depth;
  cx.writes_sample_mask = info.writes_sample_mask;
}

}  // namespace

void FragmentStage::process(const pipeline::ScreenTriangle& tri, DrawState& ds,
                            const SubpassTargets& targets, TileBuffers& tiles, int32_t area_x,
                            int32_t area_y, stream::StreamWriter* out, RenderStats& stats,
                            frontend::SkipCounts& skipped) {
  Private* own = nullptr;
  if (!private_.empty()) {
    const auto it = private_.find(&ds);
    if (it != private_.end()) own = it->second.get();
  }
  bool& failed = own ? own->failed : ds.failed;
  if (failed) return;
  Context cx(tri, ds);
  cx.failed = &failed;
  set_fixed_state(cx, targets, tiles, area_x, area_y);
  if (cx.shade) bind_colour_targets(cx, targets);
  std::copy_n(cx.s.blend_constants, 4, cx.constants);
  if (cx.shade) {
    cx.bindings = own ? own->bind.bindings() : ds.fs_bind->bindings();
    cx.executor = own ? own->executor.get() : ds.fs->executor.get();
    bind_shader_builtins(cx);
  }
  cx.coverage_ops = cx.shade && (cx.writes_sample_mask || ds.alpha_to_coverage);
  if (ds.samples > 1) {
    process_samples(cx, tiles, out, stats, skipped);
    return;
  }
  process_pixels(cx, tiles, out, stats, skipped);
}

// ---- One sample per pixel, at its centre.

// Coverage (spec "Sample Mask Test": bit 0 is the single sample), depth and early tests of the
// batch's quads; returns the number of shading units (quads with a live pixel).
[[gnu::always_inline]] inline uint32_t FragmentStage::pixel_early_tests(const Context& cx, TileBuffers& tiles,
                                                                        size_t first, uint32_t count, PixelBatch& pb) {
  const bool tests = cx.tests, shade = cx.shade, late = cx.late, front = cx.front;
  const uint8_t sample_mask = (cx.ds.sample_mask & 1u) ? 0xF : 0x0;
  const float bias = cx.bias, zmin = cx.zmin, zmax = cx.zmax;
  uint32_t shaded = 0;
  for (uint32_t k = 0; k < count; ++k) {
    pipeline::Quad& q = quads_[first + k];
    q.coverage &= sample_mask;
    for (int i = 0; i < 4; ++i) pb.z[k][i] = std::clamp(q.depth[i] + bias, zmin, zmax);
    pb.pass[k] = q.coverage;
    if (tests && !late) {
      pb.pass[k] = 0;
      for (int i = 0; i < 4; ++i)
        if ((q.coverage >> i) & 1u)
          if (depth_stencil_test(cx.s, *cx.dsa, tiles.pixel(q.x + (i & 1), q.y + (i >> 1)), pb.z[k][i], front))
            pb.pass[k] = static_cast<uint8_t>(pb.pass[k] | (1u << i));
    }
    pb.lane_quad[k] = -1;
    if (shade && pb.pass[k] != 0) {
      pb.lane_quad[k] = static_cast<int32_t>(shaded);
      pb.lanes_of[shaded++] = static_cast<uint8_t>(k);
    }
  }
  return shaded;
}

// The shader's inputs of each lane at its pixel centre: FragCoord, helper lanes (uncovered
// pixels of a shaded quad, spec "Helper Invocations"), the interpolated varyings (spec
// "Interpolation") and the built-ins the shader reads.
[[gnu::always_inline]] inline void FragmentStage::pixel_shader_inputs(const Context& cx, size_t first, uint32_t shaded,
                                                                      const PixelBatch& pb) {
  const pipeline::ScreenTriangle& tri = cx.prim;
  const DrawState& ds = cx.ds;
  shader::LaneBatch& b = *batch_;
  b.lane_count = shaded * 4;
  b.helper = 0;
  b.front_facing = cx.front ? shader::lanes_mask(b.lane_count) : 0;
  const Varying* varyings = ds.varyings.data();
  const size_t varying_count = ds.varyings.size();
  const float* v0 = tri.v[0].varyings.data();
  const float* v1 = tri.v[1].varyings.data();
  const float* v2 = tri.v[2].varyings.data();
  const bool builtins = cx.point_coord || cx.sample_mask_in || cx.sample_id || cx.sample_position;
  for (uint32_t j = 0; j < shaded; ++j) {
    const uint32_t k = pb.lanes_of[j];
    const pipeline::Quad& q = quads_[first + k];
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t lane = 4 * j + i;
      b.frag_coord[0][lane] = static_cast<float>(cx.area_x + q.x + static_cast<int32_t>(i & 1)) + 0.5f;
      b.frag_coord[1][lane] = static_cast<float>(cx.area_y + q.y + static_cast<int32_t>(i >> 1)) + 0.5f;
      b.frag_coord[2][lane] = pb.z[k][i];
      const float* l = q.linear_bary[i];
      b.frag_coord[3][lane] = l[0] * tri.v[0].inv_w + l[1] * tri.v[1].inv_w + l[2] * tri.v[2].inv_w;
      if (!((pb.pass[k] >> i) & 1u)) b.helper |= shader::LaneMask{1} << lane;
      if (builtins) {
        // Spec "Basic Point Rasterization": s = 1/2 + (xp - xf) / size, t likewise, origin
        // upper left; at the pixel centre with one sample.
        if (cx.point_coord) {
          const bool point = tri.kind == pipeline::PrimitiveKind::Point;
          b.point_coord[0][lane] = point ? 0.5f + (static_cast<float>(q.x + static_cast<int32_t>(i & 1)) + 0.5f - tri.v[0].x) / tri.size : 0.0f;
          b.point_coord[1][lane] = point ? 0.5f + (static_cast<float>(q.y + static_cast<int32_t>(i >> 1)) + 0.5f - tri.v[0].y) / tri.size : 0.0f;
        }
        b.sample_mask_in[lane] = (pb.pass[k] >> i) & 1u;
        b.sample_id[lane] = 0;
        b.sample_position[0][lane] = b.sample_position[1][lane] = 0.5f;
      }
    }
    // The varyings of the quad's four lanes, varying by varying: the weights by lane (w[c][i]:
    // barycentric c of lane i) so each varying's four values are one expression over the lanes.
    float pw[3][4], lw[3][4];
    for (uint32_t i = 0; i < 4; ++i)
      for (uint32_t c = 0; c < 3; ++c) {
        pw[c][i] = q.bary[i][c];
        lw[c][i] = q.linear_bary[i][c];
      }
    for (size_t v = 0; v < varying_count; ++v) {
      const Varying& vr = varyings[v];
      uint32_t* dst = &b.inputs[vr.slot][4 * j];
      float value[4];
      if (vr.interp == Interp::Flat) {
        for (uint32_t i = 0; i < 4; ++i) value[i] = v0[v];
      } else {
        // pipeline::interpolate, inline: the same expression in the same order (bit-identical).
        const float(*w)[4] = vr.interp == Interp::Linear ? lw : pw;
        const float a = v0[v], c1 = v1[v], c2 = v2[v];
        for (uint32_t i = 0; i < 4; ++i) value[i] = w[0][i] * a + w[1][i] * c1 + w[2][i] * c2;
      }
      std::memcpy(dst, value, sizeof value);
    }
  }
}

// Quad k after shading: multisample coverage (discard, SampleMask output, alpha to coverage),
// late tests, colour writes, its events.
[[gnu::always_inline]] inline void FragmentStage::pixel_quad_outputs(const Context& cx, TileBuffers& tiles,
                                                                     const pipeline::Quad& q, uint32_t k,
                                                                     const PixelBatch& pb, size_t& next_sample,
                                                                     stream::StreamWriter* out, RenderStats& stats) {
  const bool tests = cx.tests, late = cx.late, front = cx.front;
  const shader::LaneBatch& b = *batch_;
  uint32_t flags = front ? stream::kQuadFrontFacing : 0u;
  uint8_t alive = pb.pass[k];
  uint64_t instructions = 0;
  stream::OpMix mix;
  const int32_t j = pb.lane_quad[k];
  if (j >= 0) {
    flags |= stream::kQuadShaded;
    const uint32_t lane0 = 4 * static_cast<uint32_t>(j);
    add_quad_ops(mix, b, static_cast<uint32_t>(j));
    for (uint32_t i = 0; i < 4; ++i) {
      instructions += b.instruction_count[lane0 + i];
      if ((b.discarded >> (lane0 + i)) & 1u) alive = static_cast<uint8_t>(alive & ~(1u << i));
    }
    if (cx.coverage_ops)
      for (uint32_t i = 0; i < 4; ++i)
        if (((alive >> i) & 1u) &&
            !cx.shaded_coverage(b, lane0 + i, 1u, q.x + static_cast<int32_t>(i & 1), q.y + static_cast<int32_t>(i >> 1)))
          alive = static_cast<uint8_t>(alive & ~(1u << i));
    if (late) {
      flags |= stream::kQuadLateDepth;
      if (tests) {
        uint8_t passed = 0;
        for (uint32_t i = 0; i < 4; ++i) {
          if (!((alive >> i) & 1u)) continue;
          const float zf = cx.writes_depth ? std::clamp(b.frag_depth[lane0 + i], cx.zmin, cx.zmax) : pb.z[k][i];
          if (depth_stencil_test(cx.s, *cx.dsa, tiles.pixel(q.x + static_cast<int32_t>(i & 1), q.y + static_cast<int32_t>(i >> 1)), zf, front))
            passed = static_cast<uint8_t>(passed | (1u << i));
        }
        alive = passed;
      }
    }
    for (uint32_t c = 0; c < cx.colour_count; ++c) {
      const Target& t = cx.colour[c];
      for (uint32_t i = 0; i < 4; ++i) {
        if (!((alive >> i) & 1u)) continue;
        const int32_t px = q.x + static_cast<int32_t>(i & 1), py = q.y + static_cast<int32_t>(i >> 1);
        float src[4];
        cx.source(t, b, lane0 + i, px, py, src);
        cx.write(t, tiles, tiles.pixel(px, py), src);
      }
    }
  } else if (late) {
    flags |= stream::kQuadLateDepth;
  }
  const uint8_t written = cx.colour_count != 0 && j >= 0 ? alive : 0;
  // Early tests report their own outcome; late ones the outcome after discard.
  const uint8_t ds_pass = tests ? (late ? (j >= 0 ? alive : 0) : pb.pass[k]) : q.coverage;
  finish_quad(q, ds_pass, written, flags, instructions, mix, j >= 0, late ? q.coverage : static_cast<uint8_t>(q.coverage & pb.pass[k]),
              static_cast<uint32_t>(j + 1), next_sample, out, stats);
}

void FragmentStage::process_pixels(Context& cx, TileBuffers& tiles, stream::StreamWriter* out, RenderStats& stats,
                                   frontend::SkipCounts& skipped) {
  quads_.clear();
  if (pipeline::rasterize(cx.prim, cx.rect, quads_) == 0) return;
  PixelBatch pb;
  for (size_t first = 0; first < quads_.size(); first += kQuadsPerBatch) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(kQuadsPerBatch, quads_.size() - first));
    const uint32_t shaded = pixel_early_tests(cx, tiles, first, count, pb);
    // Fragment shading of the quads that still have live pixels, helpers included.
    samples_.clear();
    store_.clear();
    if (shaded != 0) {
      pixel_shader_inputs(cx, first, shaded, pb);
      if (!execute(cx, skipped)) return;
    }
    size_t next_sample = 0;
    for (uint32_t k = 0; k < count; ++k) pixel_quad_outputs(cx, tiles, quads_[first + k], k, pb, next_sample, out, stats);
  }
}

// ---- More than one sample per pixel (spec "Multisampling").

// Per-sample coverage, depth and early tests of the batch's quads, and their shading units (one
// per quad with a live sample, or with sample shading one per live sample); returns the number
// of units.
[[gnu::always_inline]] inline uint32_t FragmentStage::sample_early_tests(const Context& cx, TileBuffers& tiles,
                                                                         size_t first, uint32_t count, SampleBatch& sb) {
  const uint32_t n = sb.n;
  uint32_t units = 0;
  for (uint32_t k = 0; k < count; ++k) {
    pipeline::Quad& q = quads_[first + k];
    const pipeline::QuadSamples& qs = quad_samples_[first + k];
    uint8_t pixels = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      sb.cov[k][i] = qs.covered[i] & sb.sample_mask;
      sb.pass[k][i] = sb.cov[k][i];
      if (sb.cov[k][i]) pixels = static_cast<uint8_t>(pixels | (1u << i));
      for (uint32_t smp = 0; smp < n; ++smp)
        if ((sb.cov[k][i] >> smp) & 1u) sb.z[k][i][smp] = std::clamp(qs.depth[i][smp] + cx.bias, cx.zmin, cx.zmax);
      if (cx.tests && !cx.late && sb.cov[k][i]) {
        sb.pass[k][i] = 0;
        const size_t p = tiles.pixel(q.x + static_cast<int32_t>(i & 1), q.y + static_cast<int32_t>(i >> 1)) * n;
        for (uint32_t smp = 0; smp < n; ++smp)
          if (((sb.cov[k][i] >> smp) & 1u) && depth_stencil_test(cx.s, *cx.dsa, p + smp, sb.z[k][i][smp], cx.front))
            sb.pass[k][i] |= 1u << smp;
      }
    }
    q.coverage = pixels;
    sb.first_unit[k] = static_cast<uint8_t>(units);
    const uint32_t live = sb.pass[k][0] | sb.pass[k][1] | sb.pass[k][2] | sb.pass[k][3];
    if (cx.shade) {
      if (sb.per_sample) {
        for (uint32_t smp = 0; smp < n; ++smp) {
          sb.unit_of[k][smp] = kPixelRate;
          if (!((live >> smp) & 1u)) continue;
          sb.unit_of[k][smp] = static_cast<uint8_t>(units);
          sb.unit_quad[units] = static_cast<uint8_t>(k);
          sb.unit_sample[units++] = static_cast<uint8_t>(smp);
        }
      } else if (live) {
        std::fill_n(sb.unit_of[k], n, static_cast<uint8_t>(units));
        sb.unit_quad[units] = static_cast<uint8_t>(k);
        sb.unit_sample[units++] = kPixelRate;
      }
    }
    sb.unit_count[k] = static_cast<uint8_t>(units - sb.first_unit[k]);
  }
  return units;
}

// The shader's inputs of each lane of the units: at the pixel centre (Centroid inputs at the
// first covered sample of a partly covered pixel, spec "Interpolation Decorations"), or at the
// unit's sample location with sample shading; SampleMask, SampleId and SamplePosition in.
[[gnu::always_inline]] inline void FragmentStage::sample_shader_inputs(const Context& cx, size_t first, uint32_t units,
                                                                       const SampleBatch& sb) {
  const pipeline::ScreenTriangle& tri = cx.prim;
  const DrawState& ds = cx.ds;
  const pipeline::SampleGrid& grid = *sb.grid;
  shader::LaneBatch& b = *batch_;
  b.lane_count = units * 4;
  b.helper = 0;
  b.front_facing = cx.front ? shader::lanes_mask(b.lane_count) : 0;
  for (uint32_t j = 0; j < units; ++j) {
    const uint32_t k = sb.unit_quad[j], smp = sb.unit_sample[j];
    const pipeline::Quad& q = quads_[first + k];
    for (uint32_t i = 0; i < 4; ++i) {
      const uint32_t lane = 4 * j + i;
      const int32_t px = q.x + static_cast<int32_t>(i & 1), py = q.y + static_cast<int32_t>(i >> 1);
      double x = px + 0.5, y = py + 0.5;
      float bary[3], linear[3], depth;
      const float* pb = q.bary[i];
      const float* lb = q.linear_bary[i];
      float zc = std::clamp(q.depth[i] + cx.bias, cx.zmin, cx.zmax);
      uint32_t shaded_samples = sb.pass[k][i];
      if (smp != kPixelRate) {
        x = px + static_cast<double>(grid.x[smp]) / pipeline::kSubPixelOne;
        y = py + static_cast<double>(grid.y[smp]) / pipeline::kSubPixelOne;
        pipeline::interpolate_at(tri, x, y, bary, linear, &depth);
        pb = bary, lb = linear;
        zc = std::clamp(depth + cx.bias, cx.zmin, cx.zmax);
        shaded_samples &= 1u << smp;
      }
      const float* cpb = pb;
      const float* clb = lb;
      float cbary[3], clinear[3], cdepth;
      const uint32_t cov = sb.cov[k][i];
      if (sb.centroid && smp == kPixelRate && cov != 0 && cov != sb.all) {
        // Spec "Interpolation Decorations", Centroid: a location inside the primitive; the
        // first covered sample's.
        const uint32_t c = static_cast<uint32_t>(std::countr_zero(cov));
        pipeline::interpolate_at(tri, px + static_cast<double>(grid.x[c]) / pipeline::kSubPixelOne,
                                 py + static_cast<double>(grid.y[c]) / pipeline::kSubPixelOne, cbary, clinear, &cdepth);
        cpb = cbary, clb = clinear;
      }
      b.frag_coord[0][lane] = static_cast<float>(cx.area_x + x);
      b.frag_coord[1][lane] = static_cast<float>(cx.area_y + y);
      b.frag_coord[2][lane] = zc;
      b.frag_coord[3][lane] = lb[0] * tri.v[0].inv_w + lb[1] * tri.v[1].inv_w + lb[2] * tri.v[2].inv_w;
      if (shaded_samples == 0) b.helper |= shader::LaneMask{1} << lane;
      for (size_t v = 0; v < ds.varyings.size(); ++v) {
        const Varying& vr = ds.varyings[v];
        const float* w = vr.interp == Interp::Linear ? (vr.centroid ? clb : lb) : (vr.centroid ? cpb : pb);
        const float value = vr.interp == Interp::Flat ? tri.v[0].varyings[v]
                                                      : w[0] * tri.v[0].varyings[v] + w[1] * tri.v[1].varyings[v] +
                                                            w[2] * tri.v[2].varyings[v];
        b.inputs[vr.slot][lane] = std::bit_cast<uint32_t>(value);
      }
      if (cx.point_coord) {
        const bool point = tri.kind == pipeline::PrimitiveKind::Point;
        b.point_coord[0][lane] = point ? static_cast<float>(0.5 + (x - tri.v[0].x) / tri.size) : 0.0f;
        b.point_coord[1][lane] = point ? static_cast<float>(0.5 + (y - tri.v[0].y) / tri.size) : 0.0f;
      }
      // SampleMask in: the samples this invocation covers; SampleId / SamplePosition of a
      // per-sample invocation (pixel-rate ones only happen without those built-ins).
      b.sample_mask_in[lane] = smp == kPixelRate ? cov : cov & (1u << smp);
      b.sample_id[lane] = smp == kPixelRate ? 0 : static_cast<int32_t>(smp);
      b.sample_position[0][lane] = static_cast<float>(x - px);
      b.sample_position[1][lane] = static_cast<float>(y - py);
    }
  }
}

// The late depth/stencil tests of the `alive` samples of pixel i of quad k; returns those that
// pass.
[[gnu::always_inline]] inline uint32_t FragmentStage::sample_late_tests(const Context& cx, TileBuffers& tiles,
                                                                        const pipeline::Quad& q, uint32_t k, uint32_t i,
                                                                        uint32_t alive, const SampleBatch& sb) const {
  const shader::LaneBatch& b = *batch_;
  const size_t p = tiles.pixel(q.x + static_cast<int32_t>(i & 1), q.y + static_cast<int32_t>(i >> 1)) * sb.n;
  uint32_t passed = 0;
  for (uint32_t smp = 0; smp < sb.n; ++smp) {
    if (!((alive >> smp) & 1u)) continue;
    const uint32_t lane = 4 * sb.unit_of[k][smp] + i;
    // A written FragDepth holds for every sample the invocation covers.
    const float zf = cx.writes_depth ? std::clamp(b.frag_depth[lane], cx.zmin, cx.zmax) : sb.z[k][i][smp];
    if (depth_stencil_test(cx.s, *cx.dsa, p + smp, zf, cx.front)) passed |= 1u << smp;
  }
  return passed;
}

// Each colour target's write of the `alive` samples of pixel i of quad k, each from the lane
// that shaded it.
[[gnu::always_inline]] inline void FragmentStage::sample_colour_writes(const Context& cx, const TileBuffers& tiles,
                                                                       const pipeline::Quad& q, uint32_t k, uint32_t i,
                                                                       uint32_t alive, const SampleBatch& sb) const {
  const shader::LaneBatch& b = *batch_;
  const int32_t px = q.x + static_cast<int32_t>(i & 1), py = q.y + static_cast<int32_t>(i >> 1);
  const size_t p = tiles.pixel(px, py) * sb.n;
  for (uint32_t c = 0; c < cx.colour_count; ++c) {
    const Target& t = cx.colour[c];
    float src[4];
    uint32_t lane = ~0u;
    for (uint32_t smp = 0; smp < sb.n; ++smp) {
      if (!((alive >> smp) & 1u)) continue;
      if (4 * sb.unit_of[k][smp] + i != lane) {
        lane = 4 * sb.unit_of[k][smp] + i;
        cx.source(t, b, lane, px, py, src);
      }
      cx.write(t, tiles, p + smp, src);
    }
  }
}

// Quad k after shading: the samples each pixel keeps after discard and the shading's coverage
// (spec "Multisample Coverage") and the late tests per sample, colour writes per sample, its
// events.
[[gnu::always_inline]] inline void FragmentStage::sample_quad_outputs(const Context& cx, TileBuffers& tiles,
                                                                      const pipeline::Quad& q, uint32_t k,
                                                                      const SampleBatch& sb, size_t& next_sample,
                                                                      stream::StreamWriter* out, RenderStats& stats) {
  const shader::LaneBatch& b = *batch_;
  uint32_t flags = cx.front ? stream::kQuadFrontFacing : 0u;
  uint64_t instructions = 0;
  stream::OpMix mix;
  const bool shaded = sb.unit_count[k] != 0;
  uint32_t alive[4];
  for (uint32_t i = 0; i < 4; ++i) alive[i] = sb.pass[k][i];
  if (shaded) {
    flags |= stream::kQuadShaded;
    for (uint32_t u = sb.first_unit[k]; u < sb.first_unit[k] + sb.unit_count[k]; ++u) {
      // Each unit (the quad's lanes at the pixel centres or at one sample) is a warp of its own.
      add_quad_ops(mix, b, u);
      const uint32_t mask = sb.unit_sample[u] == kPixelRate ? sb.all : 1u << sb.unit_sample[u];
      for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t lane = 4 * u + i;
        instructions += b.instruction_count[lane];
        if ((b.discarded >> lane) & 1u) alive[i] &= ~mask;
        else if (cx.coverage_ops && (alive[i] & mask))
          alive[i] &= cx.shaded_coverage(b, lane, mask, q.x + static_cast<int32_t>(i & 1), q.y + static_cast<int32_t>(i >> 1)) | ~mask;
      }
    }
  }
  if (cx.late) flags |= stream::kQuadLateDepth;
  for (uint32_t i = 0; i < 4; ++i) {
    if (!shaded) alive[i] = cx.shade ? 0 : alive[i];
    if (!shaded || !cx.late || !cx.tests || alive[i] == 0) continue;
    alive[i] = sample_late_tests(cx, tiles, q, k, i, alive[i], sb);
  }
  uint8_t written = 0, ds_pass = 0;
  for (uint32_t i = 0; i < 4; ++i) {
    if (sb.pass[k][i]) ds_pass = static_cast<uint8_t>(ds_pass | (1u << i));
    if (!shaded || alive[i] == 0) continue;
    if (cx.colour_count != 0) written = static_cast<uint8_t>(written | (1u << i));
    sample_colour_writes(cx, tiles, q, k, i, alive[i], sb);
  }
  if (cx.tests && cx.late) {
    ds_pass = 0;
    for (uint32_t i = 0; i < 4; ++i)
      if (shaded && alive[i]) ds_pass = static_cast<uint8_t>(ds_pass | (1u << i));
  } else if (!cx.tests) {
    ds_pass = q.coverage;
  }
  uint8_t live = 0;
  for (uint32_t i = 0; i < 4; ++i)
    if (sb.pass[k][i]) live = static_cast<uint8_t>(live | (1u << i));
  finish_quad(q, ds_pass, written, flags, instructions, mix, shaded, cx.late ? q.coverage : static_cast<uint8_t>(q.coverage & live),
              sb.first_unit[k] + sb.unit_count[k], next_sample, out, stats);
}

void FragmentStage::process_samples(Context& cx, TileBuffers& tiles, stream::StreamWriter* out, RenderStats& stats,
                                    frontend::SkipCounts& skipped) {
  const DrawState& ds = cx.ds;
  SampleBatch sb;
  sb.n = ds.samples;
  sb.grid = pipeline::standard_samples(sb.n);
  quads_.clear();
  quad_samples_.clear();
  if (pipeline::rasterize(cx.prim, cx.rect, *sb.grid, quads_, quad_samples_) == 0) return;
  sb.per_sample = cx.shade && ds.sample_shading;
  sb.all = (1u << sb.n) - 1;
  // Spec "Sample Mask Test": word 0 of pSampleMask against the samples' coverage.
  sb.sample_mask = ds.sample_mask & sb.all;
  // Per-sample shading spends up to n shading quads per quad: fewer quads per batch.
  const uint32_t per_batch = sb.per_sample ? std::max(1u, kQuadsPerBatch / sb.n) : kQuadsPerBatch;
  sb.centroid = false;
  for (const Varying& v : ds.varyings) sb.centroid = sb.centroid || v.centroid;

  for (size_t first = 0; first < quads_.size(); first += per_batch) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(per_batch, quads_.size() - first));
    const uint32_t units = sample_early_tests(cx, tiles, first, count, sb);
    // Shading: lanes at the pixel centres (Centroid inputs at a covered sample of a partly
    // covered pixel), or at the unit's sample location.
    samples_.clear();
    store_.clear();
    if (units != 0) {
      sample_shader_inputs(cx, first, units, sb);
      if (!execute(cx, skipped)) return;
    }
    size_t next_sample = 0;
    for (uint32_t k = 0; k < count; ++k) sample_quad_outputs(cx, tiles, quads_[first + k], k, sb, next_sample, out, stats);
  }
}

}  // namespace tessera::render
