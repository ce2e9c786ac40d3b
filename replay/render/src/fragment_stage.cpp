#include "fragment_stage.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <bit>
#include <cmath>

#include "tessera/pipeline/blend.h"
#include "tessera/pipeline/depth_stencil.h"

namespace tessera::render {

namespace {

constexpr uint32_t kQuadsPerBatch = shader::kMaxLanes / 4;

// Vulkan spec "Depth Bias": o = m * slopeFactor + r * constantFactor, clamped by depthBiasClamp,
// where m is the maximum depth slope of the triangle and r the minimum resolvable difference of
// the depth format (2^-n for an n-bit UNORM format; for float formats 2^(e - 23) with e the
// exponent of the triangle's largest depth).
float depth_bias(const capture::GraphicsPipelineRecord& s, const pipeline::ScreenTriangle& t,
                 const AttachmentBuffer* ds) {
  if (!s.depth_bias_enable || ds == nullptr || !ds->depth) return 0.0f;
  const float x1 = t.v[1].x - t.v[0].x, y1 = t.v[1].y - t.v[0].y, z1 = t.v[1].z - t.v[0].z;
  const float x2 = t.v[2].x - t.v[0].x, y2 = t.v[2].y - t.v[0].y, z2 = t.v[2].z - t.v[0].z;
  const float det = x1 * y2 - x2 * y1;
  float m = 0.0f;
  if (det != 0.0f) {
    const float dzdx = (z1 * y2 - z2 * y1) / det, dzdy = (x1 * z2 - x2 * z1) / det;
    m = std::max(std::fabs(dzdx), std::fabs(dzdy));
  }
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
// passes. `z` is the fragment depth, already clamped.
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

}  // namespace

FragmentStage::FragmentStage() : batch_(std::make_unique<shader::LaneBatch>()) {
  quads_.reserve(256);
}
FragmentStage::~FragmentStage() = default;

void FragmentStage::record(uint32_t lane, const texture::Footprint& fp) {
  samples_.push_back(footprint_sample(lane, fp, lines_));
}

void FragmentStage::attach(DrawState& ds) {
  if (ds.fs_bind)
    ds.fs_bind->textures.set_footprint_sink(
        [this](uint32_t lane, const texture::Footprint& fp) { record(lane, fp); });
}

void FragmentStage::process(const pipeline::ScreenTriangle& tri, DrawState& ds,
                            const SubpassTargets& targets, TileBuffers& tiles, int32_t area_x,
                            int32_t area_y, stream::StreamWriter* out, RenderStats& stats,
                            frontend::SkipCounts& skipped) {
  if (ds.failed) return;
  const capture::GraphicsPipelineRecord& s = ds.draw->state;
  const pipeline::PixelRect& tr = tiles.rect();
  const pipeline::PixelRect rect{std::max(tr.x0, ds.scissor.x0), std::max(tr.y0, ds.scissor.y0),
                                 std::min(tr.x1, ds.scissor.x1), std::min(tr.y1, ds.scissor.y1)};
  quads_.clear();
  if (pipeline::rasterize(tri, rect, quads_) == 0) return;

  AttachmentBuffer* dsa = targets.depth_stencil;
  const bool tests = dsa != nullptr &&
                     ((s.depth_test && dsa->depth) || (s.stencil_test && dsa->stencil) ||
                      (s.depth_bounds_test && dsa->depth));
  const bool shade = ds.fs != nullptr;
  const bool late = shade && ds.late_tests;
  const bool front = tri.front_facing;
  // Sample mask (spec "Sample Mask Test"): bit 0 is the single sample.
  const uint8_t sample_mask = (s.sample_mask & 1u) ? 0xF : 0x0;
  const float bias = depth_bias(s, tri, dsa);
  // Fixed-point depth formats hold [0, 1]; depth clamp narrows that to the viewport's range
  // (spec "Depth Clamping and Range").
  const float zmin = ds.depth_clamp ? std::max(0.0f, ds.depth_clamp_min) : 0.0f;
  const float zmax = ds.depth_clamp ? std::min(1.0f, ds.depth_clamp_max) : 1.0f;

  // Colour targets this draw writes: location L -> attachment, blend state.
  struct Target {
    AttachmentBuffer* a;
    pipeline::BlendState blend;
    shader::ScalarType type;
    uint32_t slot;
    pipeline::BlendRange range;
  };
  Target colour[8];
  uint32_t colour_count = 0;
  if (shade)
    for (uint32_t l = 0; l < targets.colors.size() && l < 8; ++l) {
      AttachmentBuffer* a = targets.colors[l];
      if (a == nullptr || !(ds.output_mask & (1u << l))) continue;
      Target& t = colour[colour_count];
      t.a = a;
      t.type = ds.output_type[l];
      t.slot = 4 * l;
      const capture::GraphicsPipelineRecord::BlendAttachment ba =
          l < s.blend_attachments.size() ? s.blend_attachments[l]
                                         : capture::GraphicsPipelineRecord::BlendAttachment{};
      // Integer attachments never blend (spec "Blending": "ignored for ... integer formats").
      t.blend = {ba.blend_enable != 0 && !a->format.integer, ba.src_color, ba.dst_color, ba.color_op,
                 ba.src_alpha, ba.dst_alpha, ba.alpha_op, ba.write_mask & 0xFu};
      // Fixed-point attachments clamp source, destination and constants (spec "Blend Operations").
      t.range = a->format.integer || a->format.is_float ? pipeline::BlendRange::Unbounded
                : a->snorm                              ? pipeline::BlendRange::Snorm
                                                        : pipeline::BlendRange::Unorm;
      if (t.blend.write_mask != 0) ++colour_count;
    }

  float constants[4];
  std::copy_n(s.blend_constants, 4, constants);
  const shader::Bindings bindings = shade ? ds.fs_bind->bindings() : shader::Bindings{};
  shader::LaneBatch& b = *batch_;
  std::string error;
  float z[kQuadsPerBatch][4];
  uint8_t pass[kQuadsPerBatch], lanes_of[kQuadsPerBatch];
  int32_t lane_quad[kQuadsPerBatch];

  for (size_t first = 0; first < quads_.size(); first += kQuadsPerBatch) {
    const auto count = static_cast<uint32_t>(std::min<size_t>(kQuadsPerBatch, quads_.size() - first));
    uint32_t shaded = 0;
    // Coverage, depth and early tests.
    for (uint32_t k = 0; k < count; ++k) {
      pipeline::Quad& q = quads_[first + k];
      q.coverage &= sample_mask;
      for (int i = 0; i < 4; ++i) z[k][i] = std::clamp(q.depth[i] + bias, zmin, zmax);
      pass[k] = q.coverage;
      if (tests && !late) {
        pass[k] = 0;
        for (int i = 0; i < 4; ++i)
          if ((q.coverage >> i) & 1u)
            if (depth_stencil_test(s, *dsa, tiles.pixel(q.x + (i & 1), q.y + (i >> 1)), z[k][i], front))
              pass[k] = static_cast<uint8_t>(pass[k] | (1u << i));
      }
      lane_quad[k] = -1;
      if (shade && pass[k] != 0) {
        lane_quad[k] = static_cast<int32_t>(shaded);
        lanes_of[shaded++] = static_cast<uint8_t>(k);
      }
    }

    // Fragment shading of the quads that still have live pixels, helpers included.
    samples_.clear();
    lines_.clear();
    if (shaded != 0) {
      b.lane_count = shaded * 4;
      b.helper = 0;
      b.front_facing = front ? shader::lanes_mask(b.lane_count) : 0;
      const Varying* varyings = ds.varyings.data();
      const size_t varying_count = ds.varyings.size();
      const float* v0 = tri.v[0].varyings.data();
      const float* v1 = tri.v[1].varyings.data();
      const float* v2 = tri.v[2].varyings.data();
      for (uint32_t j = 0; j < shaded; ++j) {
        const uint32_t k = lanes_of[j];
        const pipeline::Quad& q = quads_[first + k];
        for (uint32_t i = 0; i < 4; ++i) {
          const uint32_t lane = 4 * j + i;
          b.frag_coord[0][lane] = static_cast<float>(area_x + q.x + static_cast<int32_t>(i & 1)) + 0.5f;
          b.frag_coord[1][lane] = static_cast<float>(area_y + q.y + static_cast<int32_t>(i >> 1)) + 0.5f;
          b.frag_coord[2][lane] = z[k][i];
          const float* l = q.linear_bary[i];
          b.frag_coord[3][lane] = l[0] * tri.v[0].inv_w + l[1] * tri.v[1].inv_w + l[2] * tri.v[2].inv_w;
          if (!((pass[k] >> i) & 1u)) b.helper |= shader::LaneMask{1} << lane;
          const float* pb = q.bary[i];
          const float* lb = q.linear_bary[i];
          for (size_t v = 0; v < varying_count; ++v) {
            const Varying& vr = varyings[v];
            // pipeline::interpolate, inline: the same expression in the same order (bit-identical).
            const float* w = vr.interp == Interp::Linear ? lb : pb;
            const float value = vr.interp == Interp::Flat
                                    ? v0[v]
                                    : w[0] * v0[v] + w[1] * v1[v] + w[2] * v2[v];
            b.inputs[vr.slot][lane] = std::bit_cast<uint32_t>(value);
          }
        }
      }
      if (!ds.fs->executor->execute(b, bindings, error)) {
        skipped.add("draw: fragment shader: " + error);
        ds.failed = true;
        return;
      }
      // Texture events follow their quad: order the batch's samples by quad, keeping the order
      // of the samples within a quad.
      std::stable_sort(samples_.begin(), samples_.end(),
                       [](const Sample& a, const Sample& c) { return a.lane / 4 < c.lane / 4; });
    }

    // Late tests, blending, events.
    size_t next_sample = 0;
    for (uint32_t k = 0; k < count; ++k) {
      const pipeline::Quad& q = quads_[first + k];
      uint32_t flags = front ? stream::kQuadFrontFacing : 0u;
      uint8_t alive = pass[k];
      uint64_t instructions = 0;
      const int32_t j = lane_quad[k];
      if (j >= 0) {
        flags |= stream::kQuadShaded;
        const uint32_t lane0 = 4 * static_cast<uint32_t>(j);
        for (uint32_t i = 0; i < 4; ++i) {
          instructions += b.instruction_count[lane0 + i];
          if ((b.discarded >> (lane0 + i)) & 1u) alive = static_cast<uint8_t>(alive & ~(1u << i));
        }
        if (late) {
          flags |= stream::kQuadLateDepth;
          if (tests) {
            uint8_t passed = 0;
            const bool writes_depth = ds.fs->module->info().writes_frag_depth;
            for (uint32_t i = 0; i < 4; ++i) {
              if (!((alive >> i) & 1u)) continue;
              const float zf = writes_depth ? std::clamp(b.frag_depth[lane0 + i], zmin, zmax) : z[k][i];
              if (depth_stencil_test(s, *dsa, tiles.pixel(q.x + static_cast<int32_t>(i & 1), q.y + static_cast<int32_t>(i >> 1)), zf, front))
                passed = static_cast<uint8_t>(passed | (1u << i));
            }
            alive = passed;
          }
        }
        for (uint32_t c = 0; c < colour_count; ++c) {
          Target& t = colour[c];
          for (uint32_t i = 0; i < 4; ++i) {
            if (!((alive >> i) & 1u)) continue;
            const uint32_t lane = lane0 + i;
            float src[4];
            for (uint32_t ch = 0; ch < 4; ++ch) src[ch] = as_float(b.outputs[t.slot + ch][lane], t.type);
            const size_t p = tiles.pixel(q.x + static_cast<int32_t>(i & 1), q.y + static_cast<int32_t>(i >> 1));
            float dst[4];
            std::copy_n(&t.a->color_tile[p * 4], 4, dst);
            if (t.blend.enable) {
              static constexpr float kZero[4] = {0, 0, 0, 0};
              pipeline::blend_normalized(t.blend, t.range, constants, src, kZero, dst);
            } else {
              // What blend_normalized does with blending off: the source through the write mask.
              for (uint32_t ch = 0; ch < 4; ++ch)
                if (t.blend.write_mask & (1u << ch)) dst[ch] = src[ch];
            }
            tiles.write_color(*t.a, p, dst);
          }
        }
      } else if (late) {
        flags |= stream::kQuadLateDepth;
      }
      const uint8_t written = colour_count != 0 && j >= 0 ? alive : 0;
      // Early tests report their own outcome; late ones the outcome after discard.
      const uint8_t ds_pass = tests ? (late ? (j >= 0 ? alive : 0) : pass[k]) : q.coverage;
      if (out) out->quad(static_cast<uint32_t>(q.x), static_cast<uint32_t>(q.y), q.coverage, ds_pass, written, flags, instructions);
      ++stats.quads;
      stats.fragments += static_cast<uint64_t>(std::popcount(q.coverage));
      if (j >= 0) {
        ++stats.quads_shaded;
        stats.fragments_shaded += static_cast<uint64_t>(std::popcount(late ? q.coverage : static_cast<uint8_t>(q.coverage & pass[k])));
      }
      stats.fragment_instructions += instructions;
      stats.pixels_written += static_cast<uint64_t>(std::popcount(written));
      for (; next_sample < samples_.size() && samples_[next_sample].lane / 4 == static_cast<uint32_t>(j); ++next_sample) {
        const Sample& sm = samples_[next_sample];
        if (out)
          out->texture(sm.lane % 4, sm.level, sm.footprint_case, sm.probes,
                       std::span<const uint64_t>(lines_.data() + sm.first_line, sm.line_count));
        ++stats.texture_samples;
        stats.texture_lines += sm.line_count;
      }
    }
  }
}

}  // namespace tessera::render
