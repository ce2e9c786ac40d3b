#include "tessera/render/renderer.h"

#include <vulkan/vulkan_core.h>

#include <memory>
#include <variant>

#include "compute_stage.h"
#include "draw_state.h"
#include "fragment_stage.h"
#include "geometry.h"
#include "shader_cache.h"
#include "texture_cache.h"
#include "tile_buffer.h"
#include "vertex_stage.h"

namespace tessera::render {

void RenderStats::add(const RenderStats& o) {
  passes += o.passes;
  tiles += o.tiles;
  draws += o.draws;
  draws_skipped += o.draws_skipped;
  vertices_shaded += o.vertices_shaded;
  vertex_instructions += o.vertex_instructions;
  vertex_fetches += o.vertex_fetches;
  vertex_texture_samples += o.vertex_texture_samples;
  vertex_texture_lines += o.vertex_texture_lines;
  primitives_binned += o.primitives_binned;
  tile_primitives += o.tile_primitives;
  quads += o.quads;
  quads_shaded += o.quads_shaded;
  fragments += o.fragments;
  fragments_shaded += o.fragments_shaded;
  fragment_instructions += o.fragment_instructions;
  pixels_written += o.pixels_written;
  texture_samples += o.texture_samples;
  texture_lines += o.texture_lines;
  pb_writes += o.pb_writes;
  pb_reads += o.pb_reads;
  attachment_loads += o.attachment_loads;
  attachment_stores += o.attachment_stores;
}

struct Renderer::Impl {
  stream::StreamWriter* out = nullptr;
  RenderConfig config;
  pipeline::ScanlineOrder scanline;
  ShaderCache shaders;
  TextureCache textures;
  VertexStage vertex;
  GeometryStage geometry;
  FragmentStage fragment;
  TileBuffers tiles;
  VertexOutput vertices;
  std::vector<pipeline::PbAccess> reads;
  ComputeStage compute;
  ComputeStats compute_stats;
  RenderStats frame;
  std::vector<PassStats> passes;

  void render(const frontend::RenderPassInstance& pass, frontend::SkipCounts& skipped, RenderStats& st);
};

Renderer::Renderer(stream::StreamWriter* stream, RenderConfig config) : impl_(std::make_unique<Impl>()) {
  impl_->out = stream;
  if (config.tile_width == 0) config.tile_width = 32;
  if (config.tile_height == 0) config.tile_height = 32;
  impl_->config = config;
}

Renderer::~Renderer() = default;

const RenderStats& Renderer::frame_stats() const { return impl_->frame; }
const std::vector<PassStats>& Renderer::pass_stats() const { return impl_->passes; }
const ComputeStats& Renderer::compute_stats() const { return impl_->compute_stats; }
void Renderer::reset_stats() {
  impl_->frame = {};
  impl_->passes.clear();
  impl_->compute_stats = {};
}

void Renderer::dispatch(const frontend::Dispatch& d, frontend::SkipCounts& skipped) {
  std::string reason;
  if (!impl_->compute.run(d, impl_->shaders, impl_->textures, impl_->compute_stats, skipped, reason)) skipped.add(reason);
}

void Renderer::render_pass(const frontend::RenderPassInstance& pass, frontend::SkipCounts& skipped) {
  RenderStats st;
  impl_->render(pass, skipped, st);
  impl_->frame.add(st);
  impl_->passes.push_back({pass.index, st});
}

namespace {

// A vkCmdClearAttachments and how many primitives of the Parameter Buffer came before it: in a
// tile it applies after those and before the rest, keeping the command order per pixel.
struct PendingClear {
  size_t before_primitive = 0;
  const capture::CmdClearAttachmentsRecord* record = nullptr;
};

void apply_clear(const capture::CmdClearAttachmentsRecord& r, const SubpassTargets& targets,
                 TileBuffers& tiles, int32_t area_x, int32_t area_y) {
  for (const auto& att : r.attachments) {
    AttachmentBuffer* a = nullptr;
    if (att.aspect & VK_IMAGE_ASPECT_COLOR_BIT) {
      if (att.color_attachment < targets.colors.size()) a = targets.colors[att.color_attachment];
    } else {
      a = targets.depth_stencil;
    }
    if (a == nullptr) continue;
    for (const auto& rect : r.rects) {
      const pipeline::PixelRect pr{rect.rect.x - area_x, rect.rect.y - area_y,
                                   static_cast<int32_t>(rect.rect.x + static_cast<int64_t>(rect.rect.width) - area_x),
                                   static_cast<int32_t>(rect.rect.y + static_cast<int64_t>(rect.rect.height) - area_y)};
      tiles.clear(*a, att.aspect, att.value, pr);
    }
  }
}

}  // namespace

void Renderer::Impl::render(const frontend::RenderPassInstance& pass, frontend::SkipCounts& skipped,
                            RenderStats& st) {
  const capture::Rect2D& area = pass.render_area;
  // A render area no device could have (Vulkan requires offset >= 0 and offset + extent within
  // the framebuffer, itself at most maxFramebufferWidth/Height; 32768 bounds every real device)
  // is refused before tile counts, tile buffers or Parameter Buffer lists are sized from it.
  constexpr int64_t kMaxExtent = 32768;
  if (area.x < 0 || area.y < 0 || int64_t{area.x} + area.width > kMaxExtent ||
      int64_t{area.y} + area.height > kMaxExtent) {
    for (const frontend::PassCommand& cmd : pass.commands)
      if (std::holds_alternative<frontend::Draw>(cmd)) ++st.draws_skipped;
    skipped.add("pass: render area outside 0..32768 (not rendered)");
    return;
  }
  pipeline::TilingConfig tc;
  tc.width = area.width;
  tc.height = area.height;
  tc.tile_width = config.tile_width;
  tc.tile_height = config.tile_height;
  if (out) out->pass_begin(pass.index, tc.width, tc.height, tc.tile_width, tc.tile_height, tc.tiles_x(), tc.tiles_y());
  st.passes = 1;

  // Commands split at NextSubpass; dynamic rendering arrives as a one-subpass pass.
  std::vector<std::vector<const frontend::PassCommand*>> per_subpass(std::max<size_t>(1, pass.subpasses.size()));
  size_t current = 0;
  for (const frontend::PassCommand& cmd : pass.commands) {
    if (std::holds_alternative<frontend::NextSubpass>(cmd)) {
      if (current + 1 < per_subpass.size()) ++current;
      continue;
    }
    per_subpass[current].push_back(&cmd);
  }
  if (pass.subpasses.empty()) {
    for (const auto* cmd : per_subpass[0])
      if (std::holds_alternative<frontend::Draw>(*cmd)) {
        skipped.add("draw: render pass instance has no subpass");
        ++st.draws_skipped;
      }
    if (out) out->pass_end(pass.index);
    return;
  }
  if (pass.layers > 1) skipped.add("pass: layered rendering, first layer only");

  tiles.configure(pass, tc.tile_width, tc.tile_height, pass.subpasses.size() > 1, skipped);
  const pipeline::TileOrder& order = config.tile_order ? *config.tile_order : scanline;
  uint32_t primitive_base = 0;
  for (size_t sp = 0; sp < pass.subpasses.size(); ++sp) {
    const frontend::Subpass& sub = pass.subpasses[sp];
    const bool first = sp == 0, last = sp + 1 == pass.subpasses.size();
    SubpassTargets targets;
    for (uint32_t index : sub.colors) {
      AttachmentBuffer* a = index == frontend::Subpass::kUnused ? nullptr : tiles.attachment(index);
      targets.colors.push_back(a && a->color ? a : nullptr);
    }
    if (sub.depth_stencil != frontend::Subpass::kUnused) {
      AttachmentBuffer* a = tiles.attachment(sub.depth_stencil);
      targets.depth_stencil = a && (a->depth || a->stencil) ? a : nullptr;
    }
    if (!sub.inputs.empty()) skipped.add("pass: input attachments are not bound to shaders");
    // The subpass's sample count is its attachments' (Vulkan requires them to agree); one that
    // disagrees with the first is left out.
    PassRaster raster;
    raster.limits = pass.limits;
    raster.samples = targets.depth_stencil ? targets.depth_stencil->samples : 0;
    for (AttachmentBuffer*& a : targets.colors) {
      if (a == nullptr) continue;
      if (raster.samples == 0) raster.samples = a->samples;
      if (a->samples != raster.samples) {
        skipped.add("pass: attachments of one subpass with different sample counts (the others not written)");
        a = nullptr;
      }
    }
    if (targets.depth_stencil && targets.depth_stencil->samples != raster.samples) targets.depth_stencil = nullptr;
    // Without attachments the pipelines' rasterizationSamples decides (the first draw's).
    for (const frontend::PassCommand* cmd : per_subpass[sp]) {
      const auto* draw = std::get_if<frontend::Draw>(cmd);
      if (raster.samples != 0 || draw == nullptr) continue;
      raster.samples = pipeline::standard_samples(draw->state.samples) ? draw->state.samples : 1;
    }
    if (raster.samples == 0) raster.samples = 1;
    tc.samples = pipeline::standard_samples(raster.samples)->extent;

    // Geometry phase: every draw of the subpass is binned before any tile is rendered.
    pipeline::PolygonListBuilder pb(tc, config.parameter_buffer);
    geometry.begin(pb, primitive_base);
    std::vector<std::unique_ptr<DrawState>> draws;
    std::vector<uint32_t> prim_draw;
    std::vector<PendingClear> clears;
    for (const frontend::PassCommand* cmd : per_subpass[sp]) {
      if (const auto* clear = std::get_if<frontend::ClearAttachments>(cmd)) {
        clears.push_back({pb.primitives().size(), &clear->record});
        continue;
      }
      const auto* draw = std::get_if<frontend::Draw>(cmd);
      if (draw == nullptr) continue;
      auto ds = std::make_unique<DrawState>();
      std::string reason;
      if (!resolve_draw(*draw, area.x, area.y, area.width, area.height, raster, shaders, textures, *ds, reason, skipped)) {
        skipped.add(reason);
        ++st.draws_skipped;
        continue;
      }
      if (out) out->draw(draw->index);
      ++st.draws;
      fragment.attach(*ds);
      const auto slot = static_cast<uint32_t>(draws.size());
      for (uint32_t instance = 0; instance < draw->instance_count; ++instance) {
        if (!vertex.run(*ds, instance, out, st, vertices, reason)) {
          skipped.add(reason);
          break;
        }
        // Rasterizer discard (spec "Rasterization"): vertices are shaded, nothing is rasterized.
        if (!draw->state.rasterizer_discard) geometry.run(*ds, slot, vertices, prim_draw, out, st);
      }
      draws.push_back(std::move(ds));
    }

    // Raster phase, tile by tile in the tile order.
    reads.clear();
    uint32_t position = 0;
    const auto visit = [&](uint32_t tile, std::span<const uint32_t> prims) {
      const pipeline::PixelRect rect = pipeline::tile_rect(tc, tile);
      const uint32_t tx = tile % tc.tiles_x(), ty = tile / tc.tiles_x();
      if (out) out->tile_begin(tile, tx * tc.tile_width, ty * tc.tile_height, position);
      ++position;
      ++st.tiles;
      tiles.begin_tile(rect);
      if (first) tiles.load(out, st);
      else tiles.restore();
      for (const pipeline::PbAccess& r : reads) {
        const bool list = r.section == pipeline::PbSection::Lists;
        if (out) out->pb_read(r.address, r.size, list ? 0 : 1, list ? 0xffffffffu : primitive_base + r.primitive);
        ++st.pb_reads;
      }
      reads.clear();
      size_t next_clear = 0;
      for (uint32_t p : prims) {
        for (; next_clear < clears.size() && clears[next_clear].before_primitive <= p; ++next_clear)
          apply_clear(*clears[next_clear].record, targets, tiles, area.x, area.y);
        DrawState& ds = *draws[prim_draw[p]];
        if (out) out->primitive(primitive_base + p, ds.draw->index);
        ++st.tile_primitives;
        fragment.process(pb.primitives()[p], ds, targets, tiles, area.x, area.y, out, st, skipped);
      }
      for (; next_clear < clears.size(); ++next_clear)
        apply_clear(*clears[next_clear].record, targets, tiles, area.x, area.y);
      if (last) {
        tiles.resolve();
        tiles.store(out, st);
      } else {
        tiles.keep();
      }
      if (out) out->tile_end(tile);
    };
    if (pipeline::fetch_tiles(pb, order, visit, reads) == 0 && tc.tile_count() != 0)
      skipped.add("pass: the tile order is not a permutation of the tiles; nothing rendered");
    primitive_base += static_cast<uint32_t>(pb.primitives().size());
    // Image instructions the texture unit could not serve returned zeros: count them, so no
    // sample is dropped silently. One entry per lane-request, by stage and cause.
    for (const auto& ds : draws) {
      for (const auto& [bind, stage] : {std::pair{ds->vs_bind.get(), "vertex"}, std::pair{ds->fs_bind.get(), "fragment"}}) {
        if (bind == nullptr) continue;
        if (const uint64_t n = bind->textures.unbound_requests())
          skipped.add(std::string("texture: ") + stage + " shader image instruction on an unbound image (zeros)", n);
        if (const uint64_t n = bind->textures.unsupported_requests())
          skipped.add(std::string("texture: ") + stage + " shader image instruction on an unsupported dimensionality (zeros)", n);
        if (const uint64_t n = bind->storage_images.unbound_requests())
          skipped.add(std::string("storage image: ") + stage + " shader access to an unbound image (zeros, writes dropped)", n);
        if (const uint64_t n = bind->storage_images.unsupported_requests())
          skipped.add(std::string("storage image: ") + stage + " shader access to an unsupported format or view (zeros, writes dropped)", n);
      }
    }
  }
  tiles.finish();
  if (out) out->pass_end(pass.index);
}

}  // namespace tessera::render
