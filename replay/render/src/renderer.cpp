#include "tessera/render/renderer.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <memory>
#include <system_error>
#include <thread>
#include <utility>
#include <variant>

#include "compute_stage.h"
#include "draw_state.h"
#include "fragment_stage.h"
#include "geometry.h"
#include "held.h"
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
  vertex_mix.add(o.vertex_mix);
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
  fragment_mix.add(o.fragment_mix);
  pixels_written += o.pixels_written;
  texture_samples += o.texture_samples;
  texture_lines += o.texture_lines;
  pb_writes += o.pb_writes;
  pb_reads += o.pb_reads;
  attachment_loads += o.attachment_loads;
  attachment_stores += o.attachment_stores;
}

namespace {

// A vkCmdClearAttachments and how many primitives of the Parameter Buffer came before it: in a
// tile it applies after those and before the rest, keeping the command order per pixel.
struct PendingClear {
  size_t before_primitive = 0;
  const capture::CmdClearAttachmentsRecord* record = nullptr;
};

// What every tile of a subpass reads; nothing of it is written during the raster phase.
struct SubpassRaster {
  const pipeline::TilingConfig& tc;
  const pipeline::PolygonListBuilder& pb;
  const std::vector<std::unique_ptr<DrawState>>& draws;
  const std::vector<uint32_t>& prim_draw;
  const std::vector<PendingClear>& clears;
  uint32_t primitive_base = 0;
  int32_t area_x = 0, area_y = 0;
  bool first = false, last = false;
};

// The stages a thread of the parallel raster phase renders its tiles with, and the stream
// buffer they record into.
struct TileWorker {
  FragmentStage fragment;
  TileBuffers tiles;
  SubpassTargets targets;
  stream::StreamWriter writer;
};

// The pass's commands by subpass, split at NextSubpass; dynamic rendering arrives as a one-subpass
// pass.
std::vector<std::vector<const frontend::PassCommand*>> commands_by_subpass(const frontend::RenderPassInstance& pass) {
  std::vector<std::vector<const frontend::PassCommand*>> per_subpass(std::max<size_t>(1, pass.subpasses.size()));
  size_t current = 0;
  for (const frontend::PassCommand& cmd : pass.commands) {
    if (std::holds_alternative<frontend::NextSubpass>(cmd)) {
      if (current + 1 < per_subpass.size()) ++current;
      continue;
    }
    per_subpass[current].push_back(&cmd);
  }
  return per_subpass;
}

// The subpass's colour and depth/stencil attachments in the tile buffers (null: unused, or of no
// usable aspect).
SubpassTargets subpass_targets(const frontend::Subpass& sub, TileBuffers& tiles) {
  SubpassTargets targets;
  for (uint32_t index : sub.colors) {
    AttachmentBuffer* a = index == frontend::Subpass::kUnused ? nullptr : tiles.attachment(index);
    targets.colors.push_back(a && a->color ? a : nullptr);
  }
  if (sub.depth_stencil != frontend::Subpass::kUnused) {
    AttachmentBuffer* a = tiles.attachment(sub.depth_stencil);
    targets.depth_stencil = a && (a->depth || a->stencil) ? a : nullptr;
  }
  return targets;
}

// The subpass's sample count (spec "Multisampling"): its attachments' (Vulkan requires them to
// agree; one that disagrees with the first is left out), else its first draw's
// rasterizationSamples.
PassRaster subpass_raster(const frontend::RenderPassInstance& pass, SubpassTargets& targets,
                          const std::vector<const frontend::PassCommand*>& commands, frontend::SkipCounts& skipped) {
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
  for (const frontend::PassCommand* cmd : commands) {
    const auto* draw = std::get_if<frontend::Draw>(cmd);
    if (raster.samples != 0 || draw == nullptr) continue;
    raster.samples = pipeline::standard_samples(draw->state.samples) ? draw->state.samples : 1;
  }
  if (raster.samples == 0) raster.samples = 1;
  return raster;
}

}  // namespace

// Vertex shader invocations (vertices x instances) one draw may run. Not memory (the budget
// bounds that) but time: the replay shades a few tens of millions of vertices a second, and a
// capture declaring more (a damaged or hostile count, VkDrawIndirectCommand included) would keep
// it busy for hours. Real frames stay far below it.
constexpr uint64_t kMaxDrawInvocations = uint64_t{1} << 26;

// Host bytes the vertex stage holds per vertex of one instance (VertexStage, VertexOutput): the
// post-transform vertex with every varying slot, its index value and place in the shading
// order, its entry in the index map (about four words with the node), and at most one
// assembled primitive.
constexpr uint64_t kVertexStageBytes = sizeof(pipeline::ClipVertex) + 2 * sizeof(uint32_t) + 4 * sizeof(uint64_t) +
                                       sizeof(pipeline::AssembledPrimitive);
// What the Parameter Buffer of a subpass holds until its tiles are rendered
// (PolygonListBuilder::held_bytes, plus the draw of each primitive) is taken from the budget
// while the draws are binned, this far ahead of what it needs, so that the budget is not
// touched for every primitive.
constexpr uint64_t kBinningStep = uint64_t{1} << 20;

static_assert(RenderConfig{}.shader_block_budget == shader::ShaderExecutor::kDefaultBlockBudget,
              "the renderer's default watchdog is the executor's");

struct Renderer::Impl {
  // `given`: the configuration's budget; null for one of the renderer's own.
  explicit Impl(frontend::MemoryBudget* given, uint64_t shader_block_budget)
      : own_budget(given ? nullptr
                         : std::make_unique<frontend::MemoryBudget>(frontend::MemoryBudget::default_limit())),
        budget(given ? given : own_budget.get()),
        shaders(shader_block_budget),
        textures(*budget) {}

  stream::StreamWriter* out = nullptr;
  RenderConfig config;
  std::unique_ptr<frontend::MemoryBudget> own_budget;  // when the configuration names none
  frontend::MemoryBudget* budget = nullptr;
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
  std::vector<std::unique_ptr<TileWorker>> workers;
  size_t workers_used = 0;  // workers whose fragment bindings served the current subpass

  void render(const frontend::RenderPassInstance& pass, frontend::SkipCounts& skipped, RenderStats& st);
  // The geometry phase of a subpass: every draw resolved, its vertices shaded and its primitives
  // binned into `pb`, the clears placed between them, before any tile is rendered.
  // Throws frontend::ReplayLimitError for a draw beyond kMaxDrawInvocations or the budget
  // (`binned` holds the subpass's Parameter Buffer bytes).
  void bin_subpass(const std::vector<const frontend::PassCommand*>& commands, uint32_t pass_index,
                   const capture::Rect2D& area, const PassRaster& raster, pipeline::PolygonListBuilder& pb, Held& binned,
                   std::vector<std::unique_ptr<DrawState>>& draws, std::vector<uint32_t>& prim_draw,
                   std::vector<PendingClear>& clears, RenderStats& st, frontend::SkipCounts& skipped);
  // Counts the image instructions of the subpass's draws that the texture and storage image
  // units could not serve.
  void count_unserved_image_requests(const std::vector<std::unique_ptr<DrawState>>& draws,
                                     frontend::SkipCounts& skipped);
  // The geometry and raster phases of each subpass of `pass` (tiles configured).
  void render_subpasses(const frontend::RenderPassInstance& pass, const std::string& pass_name,
                        const std::vector<std::vector<const frontend::PassCommand*>>& per_subpass,
                        pipeline::TilingConfig& tc, const pipeline::TileOrder& order, frontend::SkipCounts& skipped,
                        RenderStats& st);
  // The raster phase of a subpass on config.threads threads; the tiles visited.
  uint32_t render_tiles_parallel(const frontend::RenderPassInstance& pass, const SubpassRaster& sr,
                                 const pipeline::TileOrder& order, const SubpassTargets& targets,
                                 RenderStats& st, frontend::SkipCounts& skipped);
};

Renderer::Renderer(stream::StreamWriter* stream, RenderConfig config) : impl_(std::make_unique<Impl>(config.budget, config.shader_block_budget)) {
  impl_->out = stream;
  if (config.tile_width == 0) config.tile_width = 32;
  if (config.tile_height == 0) config.tile_height = 32;
  if (config.threads == 0) config.threads = 1;
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
  try {
    if (!impl_->compute.run(d, impl_->shaders, impl_->textures, impl_->compute_stats, skipped, reason))
      skipped.add(reason);
  } catch (...) {
    impl_->textures.end_pass();
    throw;
  }
  impl_->textures.end_pass();
}

void Renderer::render_pass(const frontend::RenderPassInstance& pass, frontend::SkipCounts& skipped) {
  // The passes of a frame are numbered from 0 (frame.h): pass 0 starts a frame, and the texture
  // copies the last frame did not sample go.
  if (pass.index == 0) impl_->textures.begin_frame();
  RenderStats st;
  try {
    impl_->render(pass, skipped, st);
  } catch (...) {
    impl_->textures.end_pass();
    throw;
  }
  impl_->textures.end_pass();
  impl_->frame.add(st);
  impl_->passes.push_back({pass.index, st});
}

namespace {

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

// One tile of a subpass: load ops (or the kept contents), PB reads, its primitives in order with
// the clears between them, resolves and store ops (or keep).
void render_tile(const SubpassRaster& sr, uint32_t tile, uint32_t position, std::span<const uint32_t> prims,
                 std::span<const pipeline::PbAccess> reads, FragmentStage& fragment, TileBuffers& tiles,
                 const SubpassTargets& targets, stream::StreamWriter* out, RenderStats& st,
                 frontend::SkipCounts& skipped) {
  const pipeline::TilingConfig& tc = sr.tc;
  const pipeline::PixelRect rect = pipeline::tile_rect(tc, tile);
  const uint32_t tx = tile % tc.tiles_x(), ty = tile / tc.tiles_x();
  if (out) out->tile_begin(tile, tx * tc.tile_width, ty * tc.tile_height, position);
  ++st.tiles;
  tiles.begin_tile(rect);
  if (sr.first) tiles.load(out, st);
  else tiles.restore();
  for (const pipeline::PbAccess& r : reads) {
    const bool list = r.section == pipeline::PbSection::Lists;
    if (out) out->pb_read(r.address, r.size, list ? 0 : 1, list ? 0xffffffffu : sr.primitive_base + r.primitive);
    ++st.pb_reads;
  }
  size_t next_clear = 0;
  for (uint32_t p : prims) {
    for (; next_clear < sr.clears.size() && sr.clears[next_clear].before_primitive <= p; ++next_clear)
      apply_clear(*sr.clears[next_clear].record, targets, tiles, sr.area_x, sr.area_y);
    DrawState& ds = *sr.draws[sr.prim_draw[p]];
    if (out) out->primitive(sr.primitive_base + p, ds.draw->index);
    ++st.tile_primitives;
    fragment.process(sr.pb.primitives()[p], ds, targets, tiles, sr.area_x, sr.area_y, out, st, skipped);
  }
  for (; next_clear < sr.clears.size(); ++next_clear)
    apply_clear(*sr.clears[next_clear].record, targets, tiles, sr.area_x, sr.area_y);
  if (sr.last) {
    tiles.resolve();
    tiles.store(out, st);
  } else {
    tiles.keep();
  }
  if (out) out->tile_end(tile);
}

// Whether the tiles of a subpass must be rendered one after the other. A fragment shader with
// side effects (buffer and image stores, atomics) makes the result depend on the order its
// invocations run in: the Vulkan spec leaves that order undefined ("Shader Memory Access
// Ordering"; appendix "Invariance": repeatability does not hold for shaders with side effects),
// and Tessera fixes it to the tile order, which threads would not keep (an atomic counter would
// hand out different values, the last of two stores to one texel would vary). A fragment shader
// reading storage images reads them in place, possibly an image the tiles of this pass store to
// (a feedback loop), so it stays serial too. Everything else a tile reads was built before the
// raster phase (sampled images are copies, buffers are not written by the pass).
bool tiles_order_dependent(const std::vector<std::unique_ptr<DrawState>>& draws) {
  for (const auto& ds : draws) {
    if (ds->fs == nullptr) continue;
    if (ds->fs->module && ds->fs->module->info().has_side_effects) return true;
    if (ds->fs_bind && ds->fs_bind->storage_images.bound()) return true;
  }
  return false;
}

}  // namespace

uint32_t Renderer::Impl::render_tiles_parallel(const frontend::RenderPassInstance& pass, const SubpassRaster& sr,
                                               const pipeline::TileOrder& order, const SubpassTargets& targets,
                                               RenderStats& st, frontend::SkipCounts& skipped) {
  // Every tile with its primitive list, in tile order. A tile's PB reads are issued by the thread
  // that renders it: held for every tile at once they would take one entry per attribute of
  // every primitive in every tile list, several times the lists themselves.
  struct TileJob {
    uint32_t tile = 0;
    std::span<const uint32_t> prims;
    size_t worker = 0;
    RenderStats stats;
    frontend::SkipCounts skipped;
    stream::StreamWriter::Mark begin, end;
  };
  const std::vector<uint32_t> in_order = pipeline::fetch_order(sr.pb, order);
  std::vector<TileJob> jobs(in_order.size());
  for (size_t j = 0; j < in_order.size(); ++j) {
    jobs[j].tile = in_order[j];
    jobs[j].prims = sr.pb.tile_list(in_order[j]);
  }
  const auto visited = static_cast<uint32_t>(in_order.size());
  if (jobs.empty()) return visited;

  // Each thread gets its own tile buffers, fragment stage (with its own executors and texture
  // units for the draws) and stream buffer, set up here on this thread; what the set-up reports
  // was reported when the renderer's own were.
  const size_t n = std::min<size_t>(config.threads, jobs.size());
  while (workers.size() < n) workers.push_back(std::make_unique<TileWorker>());
  frontend::SkipCounts notes;
  for (size_t w = 0; w < n; ++w) {
    TileWorker& k = *workers[w];
    k.tiles.configure(pass, sr.tc.tile_width, sr.tc.tile_height, nullptr, {}, notes);
    k.targets.colors.clear();
    for (const AttachmentBuffer* a : targets.colors) k.targets.colors.push_back(a ? k.tiles.attachment(a->index) : nullptr);
    k.targets.depth_stencil = targets.depth_stencil ? k.tiles.attachment(targets.depth_stencil->index) : nullptr;
    k.fragment.clear_private();
    for (const auto& ds : sr.draws) k.fragment.attach_private(*ds, textures, notes);
    k.writer.clear();
  }
  Held saved_bytes(*budget);
  std::vector<std::vector<uint8_t>> saved = tiles.stored_planes(
      saved_bytes, "pass " + std::to_string(pass.index) + ": copying the images its tiles store (for the " +
                       std::to_string(n) + " threads of its raster phase)");

  std::atomic<size_t> next{0};
  // Whether a tile threw (a draw beyond the replay's bounds, a shader stopped by the watchdog):
  // the threads stop taking tiles.
  std::atomic<bool> threw{false};
  ThreadBudget* const shared = config.thread_budget;
  // Helper w (1..n-1) runs on pool[w]; running[w] is cleared as the helper leaves.
  std::vector<std::thread> pool(n);
  std::unique_ptr<std::atomic<bool>[]> running(new std::atomic<bool>[n]);
  for (size_t w = 0; w < n; ++w) running[w] = false;
  bool can_start = true;
  std::function<void(size_t)> work;
  // Starts helper w; false when no thread could be had (a process or cgroup limit): the threads
  // started and this one take every tile from the shared counter, so the result is the same.
  const auto start = [&](size_t w) {
    if (pool[w].joinable()) pool[w].join();
    running[w] = true;
    try {
      pool[w] = std::thread(work, w);
    } catch (...) {  // std::system_error, or bad_alloc copying the work: the caller gives the thread back
      running[w] = false;
      can_start = false;
    }
    return can_start;
  };
  // With a shared budget, the threads free now join this one (worker 0), on helpers not running.
  const auto start_free = [&] {
    for (size_t w = 1; w < n && can_start; ++w) {
      if (running[w].load(std::memory_order_acquire)) continue;
      if (!shared->try_take()) return;
      if (!start(w)) shared->give();
    }
  };
  work = [&](size_t w) {
    TileWorker& k = *workers[w];
    stream::StreamWriter* wout = out ? &k.writer : nullptr;
    std::vector<pipeline::PbAccess> tile_reads;
    try {
      for (size_t j = next++; j < jobs.size(); j = next++) {
        TileJob& job = jobs[j];
        job.worker = w;
        tile_reads.clear();
        sr.pb.tile_reads(job.tile, tile_reads);
        if (wout) job.begin = wout->mark();
        render_tile(sr, job.tile, static_cast<uint32_t>(j), job.prims, tile_reads, k.fragment, k.tiles, k.targets,
                    wout, job.stats, job.skipped);
        if (wout) job.end = wout->mark();
        if (shared == nullptr) continue;
        if (w == 0) start_free();
        else if (shared->wanted()) break;  // other work waits for this thread: worker 0 goes on
      }
    } catch (...) {
      threw = true;
      next = jobs.size();
    }
    if (w != 0 && shared != nullptr) shared->give();
    running[w].store(false, std::memory_order_release);
  };
  if (shared == nullptr) {
    for (size_t w = 1; w < n && start(w); ++w) {
    }
  } else {
    start_free();
  }
  work(0);
  for (std::thread& t : pool)
    if (t.joinable()) t.join();

  // A draw whose fragment shader fails drops its fragments in every later tile (FragmentStage):
  // which tiles those are is known only in tile order, so the tiles are rendered again, serially,
  // from the images as they were. So is a pass where a tile threw: serially, the tiles after a
  // failing draw's first failure no longer run it, so whether (and which) error is thrown is
  // decided in tile order, never by which thread reached which tile first.
  bool failed = threw;
  for (size_t w = 0; w < n; ++w) failed = failed || workers[w]->fragment.private_failed();
  if (failed) {
    tiles.restore_planes(saved);
    std::vector<pipeline::PbAccess> tile_reads;
    for (size_t j = 0; j < jobs.size(); ++j) {
      tile_reads.clear();
      sr.pb.tile_reads(jobs[j].tile, tile_reads);
      render_tile(sr, jobs[j].tile, static_cast<uint32_t>(j), jobs[j].prims, tile_reads, fragment, tiles, targets, out,
                  st, skipped);
    }
    return visited;
  }
  for (const TileJob& job : jobs) {
    if (out) out->append(workers[job.worker]->writer, job.begin, job.end);
    st.add(job.stats);
    skipped.merge(job.skipped);
  }
  for (size_t w = 0; w < n; ++w) tiles.add_stored(workers[w]->tiles);
  workers_used = n;
  return visited;
}

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

  const auto per_subpass = commands_by_subpass(pass);
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

  // A pass of several subpasses keeps its whole render area between them (TileBuffers::keep).
  Held kept(*budget);
  const std::string pass_name = "pass " + std::to_string(pass.index) + " (" + std::to_string(pass.subpasses.size()) +
                                " subpasses, " + std::to_string(area.width) + "x" + std::to_string(area.height) + ")";
  tiles.configure(pass, tc.tile_width, tc.tile_height, pass.subpasses.size() > 1 ? &kept : nullptr,
                  pass_name + ": keeping its attachments between subpasses", skipped);
  const pipeline::TileOrder& order = config.tile_order ? *config.tile_order : scanline;
  try {
    render_subpasses(pass, pass_name, per_subpass, tc, order, skipped, st);
  } catch (...) {
    // A pass beyond the replay's bounds gives back what it held (the Held objects), and the
    // memory goes with it: the kept render area and a huge draw's vertex arrays would otherwise
    // stay allocated, uncounted, for as long as the renderer lives.
    tiles.free_kept();
    vertex.release_large(vertices);
    throw;
  }
  tiles.finish();
  if (out) out->pass_end(pass.index);
}

void Renderer::Impl::render_subpasses(const frontend::RenderPassInstance& pass, const std::string& pass_name,
                                      const std::vector<std::vector<const frontend::PassCommand*>>& per_subpass,
                                      pipeline::TilingConfig& tc, const pipeline::TileOrder& order,
                                      frontend::SkipCounts& skipped, RenderStats& st) {
  const capture::Rect2D& area = pass.render_area;
  uint32_t primitive_base = 0;
  for (size_t sp = 0; sp < pass.subpasses.size(); ++sp) {
    const frontend::Subpass& sub = pass.subpasses[sp];
    const bool first = sp == 0, last = sp + 1 == pass.subpasses.size();
    SubpassTargets targets = subpass_targets(sub, tiles);
    if (!sub.inputs.empty()) skipped.add("pass: input attachments are not bound to shaders");
    const PassRaster raster = subpass_raster(pass, targets, per_subpass[sp], skipped);
    tc.samples = pipeline::standard_samples(raster.samples)->extent;

    // Geometry phase: every draw of the subpass is binned before any tile is rendered.
    pipeline::PolygonListBuilder pb(tc, config.parameter_buffer);
    geometry.begin(pb, primitive_base);
    std::vector<std::unique_ptr<DrawState>> draws;
    std::vector<uint32_t> prim_draw;
    std::vector<PendingClear> clears;
    Held binned(*budget);
    binned.take(pb.held_bytes(), pass_name + ": the tile lists of its Parameter Buffer");
    bin_subpass(per_subpass[sp], pass.index, area, raster, pb, binned, draws, prim_draw, clears, st, skipped);

    // Raster phase, tile by tile in the tile order: on config.threads threads when the tiles
    // are independent (one subpass: a later one restores what the tiles kept of the earlier).
    const SubpassRaster sr{tc, pb, draws, prim_draw, clears, primitive_base, area.x, area.y, first, last};
    reads.clear();
    workers_used = 0;
    uint32_t visited = 0;
    if (config.threads > 1 && pass.subpasses.size() == 1 && tc.tile_count() > 1 && !tiles_order_dependent(draws)) {
      visited = render_tiles_parallel(pass, sr, order, targets, st, skipped);
    } else {
      uint32_t position = 0;
      const auto visit = [&](uint32_t tile, std::span<const uint32_t> prims) {
        render_tile(sr, tile, position++, prims, reads, fragment, tiles, targets, out, st, skipped);
        reads.clear();
      };
      visited = pipeline::fetch_tiles(pb, order, visit, reads);
    }
    if (visited == 0 && tc.tile_count() != 0)
      skipped.add("pass: the tile order is not a permutation of the tiles; nothing rendered");
    primitive_base += static_cast<uint32_t>(pb.primitives().size());
    count_unserved_image_requests(draws, skipped);
  }
}

void Renderer::Impl::bin_subpass(const std::vector<const frontend::PassCommand*>& commands, uint32_t pass_index,
                                 const capture::Rect2D& area, const PassRaster& raster, pipeline::PolygonListBuilder& pb,
                                 Held& binned,
                                 std::vector<std::unique_ptr<DrawState>>& draws, std::vector<uint32_t>& prim_draw,
                                 std::vector<PendingClear>& clears, RenderStats& st, frontend::SkipCounts& skipped) {
  for (const frontend::PassCommand* cmd : commands) {
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
    // A draw too large to replay stops the replay, named by its frame-wide index and pass;
    // skipping it would leave the frame silently incomplete.
    const std::string name = "draw " + std::to_string(draw->index) + " (pass " + std::to_string(pass_index) + ", " +
                             std::to_string(draw->vertex_count) + " vertices x " +
                             std::to_string(draw->instance_count) + " instances)";
    ds->name = name;
    Held shading(*budget);
    shading.take(draw->instance_count != 0 ? uint64_t{draw->vertex_count} * kVertexStageBytes : 0,
                 name + ": its vertex stage");
    if (uint64_t{draw->vertex_count} * draw->instance_count > kMaxDrawInvocations) {
      throw frontend::ReplayLimitError(name + ": more than 2^26 vertex shader invocations, beyond what the replay "
                                              "shades for one draw");
    }
    if (out) out->draw(draw->index);
    ++st.draws;
    fragment.attach(*ds);
    // The binner asks before it stores each primitive beyond what was granted: a draw of a
    // million full-screen triangles is refused as its lists grow, not after they were allocated.
    pb.set_reserve([&binned, &pb, &name](uint64_t needed) {
      const uint64_t draw_slots = (uint64_t{pb.primitives().size()} + 1) * sizeof(uint32_t);  // prim_draw
      if (!binned.try_hold(needed + draw_slots + kBinningStep))
        binned.hold(needed + draw_slots, name + ": the primitives binned for its pass");
      return binned.bytes() - draw_slots;
    });
    const auto slot = static_cast<uint32_t>(draws.size());
    for (uint32_t instance = 0; instance < draw->instance_count; ++instance) {
      if (!vertex.run(*ds, instance, out, st, vertices, reason)) {
        skipped.add(reason);
        break;
      }
      // Rasterizer discard (spec "Rasterization"): vertices are shaded, nothing is rasterized.
      if (!draw->state.rasterizer_discard) geometry.run(*ds, slot, vertices, prim_draw, out, st);
    }
    pb.set_reserve(nullptr);
    vertex.release_large(vertices);  // `shading` gives its bytes back now
    draws.push_back(std::move(ds));
  }
}

void Renderer::Impl::count_unserved_image_requests(const std::vector<std::unique_ptr<DrawState>>& draws,
                                                   frontend::SkipCounts& skipped) {
  // Image instructions the texture unit could not serve returned zeros: count them, so no
  // sample is dropped silently. One entry per lane-request, by stage and cause.
  // The fragment shader's requests count on the workers' bindings when they shaded the tiles.
  for (const auto& ds : draws) {
    for (const auto& [bind, stage] : {std::pair{ds->vs_bind.get(), "vertex"}, std::pair{ds->fs_bind.get(), "fragment"}}) {
      if (bind == nullptr) continue;
      uint64_t unbound = bind->textures.unbound_requests(), unsupported = bind->textures.unsupported_requests();
      uint64_t unknown_contents = bind->textures.unknown_contents_requests();
      uint64_t storage_unbound = bind->storage_images.unbound_requests();
      uint64_t storage_unsupported = bind->storage_images.unsupported_requests();
      for (size_t w = 0; w < workers_used && bind == ds->fs_bind.get(); ++w) {
        if (const StageBindings* own = workers[w]->fragment.private_bindings(*ds)) {
          unbound += own->textures.unbound_requests();
          unsupported += own->textures.unsupported_requests();
          unknown_contents += own->textures.unknown_contents_requests();
          storage_unbound += own->storage_images.unbound_requests();
          storage_unsupported += own->storage_images.unsupported_requests();
        }
      }
      if (unbound) skipped.add(std::string("texture: ") + stage + " shader image instruction on an unbound image (zeros)", unbound);
      if (unsupported)
        skipped.add(std::string("texture: ") + stage + " shader image instruction on an unsupported dimensionality (zeros)", unsupported);
      // Rendered, but from zeros where the driver read the application's texels: once per draw
      // stage (replay.approximated counts draw stages).
      if (unknown_contents)
        skipped.approximate(std::string("texture: ") + stage +
                            " shader read an image whose contents the capture does not hold (zeros)");
      if (storage_unbound)
        skipped.add(std::string("storage image: ") + stage + " shader access to an unbound image (zeros, writes dropped)", storage_unbound);
      if (storage_unsupported)
        skipped.add(std::string("storage image: ") + stage + " shader access to an unsupported format or view (zeros, writes dropped)",
                    storage_unsupported);
    }
  }
}

}  // namespace tessera::render
