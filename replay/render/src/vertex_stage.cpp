#include "vertex_stage.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <bit>
#include <atomic>
#include <cstring>
#include <deque>
#include <exception>
#include <thread>

#include "op_mix.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/pipeline/vertex_fetch.h"

namespace tessera::render {

// The shader batch's clip and cull distances are copied into ClipVertex::distances below: the
// limit the shader loader enforces must be the room the clipper has.
static_assert(shader::kMaxClipCullDistances == pipeline::kMaxClipCullDistances);

// One vertex shader input location fed by a vertex attribute (Vulkan spec "Vertex Input
// Description": attributes match shader inputs by location).
struct VertexStage::AttributeFetch {
  uint32_t slot = 0;  // 4 * location
  uint32_t format = 0, bytes = 0;
  uint32_t offset = 0, stride = 0;
  bool per_instance = false;
  uint32_t divisor = 1;
  const frontend::VertexBufferBinding* buffer = nullptr;  // null: unbound, reads zeros
};

struct VertexStage::Private {
  std::deque<texture::SamplerState> samplers;
  StageBindings bind;
  std::unique_ptr<shader::ShaderExecutor> executor;
};

struct VertexStage::Shaded {
  enum class Outcome : uint8_t { Shaded, Failed, Stopped, Threw };
  Outcome outcome = Outcome::Shaded;
  std::string error;             // Failed, Stopped (the executor's watchdog)
  std::exception_ptr exception;  // Threw
  std::vector<FootprintSample> samples;
  FootprintStore store;
  uint64_t instructions = 0;
  stream::OpMix mix;
  std::atomic<bool> ready{false};
};

namespace {

using AttributeFetch = VertexStage::AttributeFetch;

uint32_t index_bytes(uint32_t type) {
  return type == VK_INDEX_TYPE_UINT32 ? 4 : type == VK_INDEX_TYPE_UINT16 ? 2 : 1;
}

pipeline::IndexType index_type(uint32_t type) {
  return type == VK_INDEX_TYPE_UINT32   ? pipeline::IndexType::Uint32
         : type == VK_INDEX_TYPE_UINT16 ? pipeline::IndexType::Uint16
                                        : pipeline::IndexType::Uint8;
}

// Attribute fetch plan for every input location of the vertex shader (Vulkan spec "Vertex Input
// Description"); false with `reason` for a format the fetch does not decode.
bool plan_attribute_fetches(const frontend::Draw& draw, const shader::ShaderModule& module,
                            std::vector<AttributeFetch>& fetches, std::string& reason) {
  const capture::GraphicsPipelineRecord& state = draw.state;
  for (const shader::InterfaceVariable& var : module.info().inputs)
    for (uint32_t l = 0; l < var.location_count; ++l) {
      AttributeFetch f;
      const uint32_t location = var.location + l;
      f.slot = 4 * location;
      const auto attr = std::find_if(state.vertex_attributes.begin(), state.vertex_attributes.end(),
                                     [&](const auto& a) { return a.location == location; });
      // No attribute: the input reads 0 (bytes 0 marks it), not what an earlier batch left in
      // the lanes, so a batch shades alike on any thread's lanes.
      if (attr == state.vertex_attributes.end()) {
        fetches.push_back(f);
        continue;
      }
      f.format = attr->format;
      f.bytes = pipeline::vertex_format_bytes(attr->format);
      if (f.bytes == 0) {
        reason = "draw: vertex attribute format " + std::to_string(attr->format) + " not supported";
        return false;
      }
      f.offset = attr->offset;
      for (const auto& b : state.vertex_bindings)
        if (b.binding == attr->binding) {
          f.stride = b.stride;
          f.per_instance = b.input_rate == VK_VERTEX_INPUT_RATE_INSTANCE;
          f.divisor = b.divisor;
        }
      for (const frontend::VertexBufferBinding& vb : draw.vertex_buffers)
        if (vb.binding == attr->binding && vb.buffer != nullptr) f.buffer = &vb;
      fetches.push_back(f);
    }
  return true;
}

// The interface slots the vertex shader writes (the others reach the fragment shader as 0).
std::vector<bool> written_slots(const shader::ShaderModule& module) {
  std::vector<bool> writes(shader::kMaxInterfaceSlots, false);
  for (const shader::InterfaceVariable& var : module.info().outputs)
    for (uint32_t l = 0; l < var.location_count; ++l)
      for (uint32_t c = 0; c < var.vector_size; ++c) {
        const uint32_t s = 4 * (var.location + l) + var.component + c;
        if (s < writes.size()) writes[s] = true;
      }
  return writes;
}

// Vulkan spec "Vertex Input Address Calculation": vertexIndex = index + vertexOffset. Wrapping
// (two's complement) addition: hostile offsets must not be signed overflow.
int32_t vertex_index_of(const frontend::Draw& draw, uint32_t vertex) {
  return draw.indexed ? static_cast<int32_t>(vertex + static_cast<uint32_t>(draw.vertex_offset))
                      : static_cast<int32_t>(vertex);
}

// The element attribute `f` reads for the vertex (Vulkan spec "Vertex Input Address
// Calculation"): per-vertex ones at vertexIndex, per-instance ones by the instance and the
// divisor.
uint64_t attribute_element(const frontend::Draw& draw, const AttributeFetch& f, uint32_t instance,
                           int32_t vertex_index) {
  if (!f.per_instance) return static_cast<uint32_t>(vertex_index);
  return f.divisor == 0 ? draw.first_instance : draw.first_instance + instance / f.divisor;
}

// One lane's attributes; each read of a bound buffer is a vertex fetch of the stream.
[[gnu::always_inline]] inline void fetch_attributes(const frontend::Draw& draw, const std::vector<AttributeFetch>& fetches,
                                                    uint32_t instance, int32_t vertex_index, uint32_t lane,
                                                    shader::LaneBatch& b, stream::StreamWriter* out, RenderStats& stats) {
  static constexpr std::byte kZeros[32] = {};
  for (const AttributeFetch& f : fetches) {
    if (f.bytes == 0) continue;
    const uint64_t element = attribute_element(draw, f, instance, vertex_index);
    const std::byte* src = kZeros;
    if (f.buffer != nullptr) {
      const uint64_t rel = element * f.stride + f.offset;  // from the binding's offset
      const std::span<std::byte> bytes = f.buffer->buffer->bytes();
      const uint64_t at = f.buffer->offset + rel;
      if (rel + f.bytes <= f.buffer->size && at + f.bytes <= bytes.size()) src = bytes.data() + at;
      if (out) out->vertex_fetch(f.buffer->buffer->address + at, f.bytes);
      ++stats.vertex_fetches;
    }
    uint32_t v[4];
    if (!pipeline::fetch_vertex_attribute(f.format, src, v)) continue;
    for (uint32_t c = 0; c < 4; ++c) b.inputs[f.slot + c][lane] = v[c];
  }
}

// The VertexFetch events fetch_attributes records for a lane, written apart from the fetch: a
// batch shaded on a helper has its events written by the calling thread, in batch order.
void record_attribute_fetches(const frontend::Draw& draw, const std::vector<AttributeFetch>& fetches,
                              uint32_t instance, int32_t vertex_index, stream::StreamWriter* out, RenderStats& stats) {
  for (const AttributeFetch& f : fetches) {
    if (f.buffer == nullptr) continue;
    const uint64_t at = f.buffer->offset + attribute_element(draw, f, instance, vertex_index) * f.stride + f.offset;
    if (out) out->vertex_fetch(f.buffer->buffer->address + at, f.bytes);
    ++stats.vertex_fetches;
  }
}

// The inputs of the batch of `n` vertices at `vertices`: VertexIndex, InstanceIndex and the
// attributes (the slots of every input location zeroed first).
void load_inputs(const frontend::Draw& draw, const std::vector<AttributeFetch>& fetches, uint32_t instance,
                 const uint32_t* vertices, uint32_t n, shader::LaneBatch& b, stream::StreamWriter* out,
                 RenderStats& stats) {
  const auto instance_index = static_cast<int32_t>(draw.first_instance + instance);
  b.lane_count = n;
  for (const AttributeFetch& f : fetches)
    for (uint32_t c = 0; c < 4; ++c) std::fill_n(b.inputs[f.slot + c], n, 0u);
  for (uint32_t lane = 0; lane < n; ++lane) {
    const int32_t vertex_index = vertex_index_of(draw, vertices[lane]);
    b.vertex_index[lane] = vertex_index;
    b.instance_index[lane] = instance_index;
    fetch_attributes(draw, fetches, instance, vertex_index, lane, b, out, stats);
  }
}

// The post-transform vertices of a shaded batch, its dynamic instructions and operation mix.
void store_outputs(const DrawState& ds, const std::vector<bool>& vs_writes, const shader::LaneBatch& b,
                   pipeline::ClipVertex* vertices, uint64_t& instructions, stream::OpMix& mix) {
  const uint32_t clip_distances = ds.clip.clip_distances, cull_distances = ds.clip.cull_distances;
  const uint32_t n = b.lane_count;
  instructions = 0;
  for (uint32_t lane = 0; lane < n; ++lane) {
    instructions += b.instruction_count[lane];
    pipeline::ClipVertex& cv = vertices[lane];
    cv.position = {b.position[0][lane], b.position[1][lane], b.position[2][lane], b.position[3][lane]};
    cv.point_size = b.point_size[lane];
    for (uint32_t i = 0; i < clip_distances; ++i) cv.distances[i] = b.clip_distance[i][lane];
    for (uint32_t i = 0; i < cull_distances; ++i) cv.distances[clip_distances + i] = b.cull_distance[i][lane];
    for (size_t i = 0; i < ds.varyings.size(); ++i) {
      const uint32_t s = ds.varyings[i].slot;
      cv.varyings[i] = vs_writes[s] ? std::bit_cast<float>(b.outputs[s][lane]) : 0.0f;
    }
  }
  // Vertex invocations are shaded four to a warp: lanes 4q..4q+3 (the last quad may be partial).
  mix = {};
  for (uint32_t q = 0; q < (n + 3) / 4; ++q) add_quad_ops(mix, b, q);
}

// A shaded batch's VertexTexture events (its samples in execution order) and VertexShade event.
void record_shaded(const std::vector<FootprintSample>& samples, const FootprintStore& store, uint32_t n,
                   uint64_t instructions, const stream::OpMix& mix, stream::StreamWriter* out, RenderStats& stats) {
  for (const FootprintSample& sm : samples) {
    if (out) out->vertex_texture(sm.lane, sm.level, sm.footprint_case, sm.probes, store.lines_of(sm), store.probes_of(sm));
    ++stats.vertex_texture_samples;
    stats.vertex_texture_lines += sm.line_count;
  }
  if (out) out->vertex_shade(n, instructions, mix);
  stats.vertices_shaded += n;
  stats.vertex_instructions += instructions;
  stats.vertex_mix.add(mix);
}

}  // namespace

VertexStage::VertexStage() = default;
VertexStage::~VertexStage() = default;

void VertexStage::set_threads(unsigned threads, ThreadBudget* budget) {
  threads_ = std::max(1u, threads);
  budget_ = budget;
  while (helper_lanes_.size() + 1 < threads_) helper_lanes_.push_back(std::make_unique<Lanes>());
}

void VertexStage::attach_private(const DrawState& ds, TextureCache& textures, frontend::SkipCounts& notes) {
  private_.erase(&ds);  // a draw freed earlier may have had this address
  if (threads_ < 2 || ds.draw->vertex_count < kMinParallelVertices || ds.vs == nullptr || ds.vs->module == nullptr ||
      ds.vs_bind == nullptr)
    return;
  if (ds.vs->module->info().has_side_effects || ds.vs_bind->storage_images.bound()) return;
  std::vector<std::unique_ptr<Private>>& own = private_[&ds];
  own.clear();
  for (unsigned w = 1; w < threads_; ++w) {
    auto p = std::make_unique<Private>();
    bind_stage(ds.draw->descriptors, ds.draw->push_constants, *ds.vs->module, textures, p->samplers, p->bind, notes);
    Lanes* l = helper_lanes_[w - 1].get();
    p->bind.textures.set_footprint_sink(
        [l](uint32_t lane, const texture::Footprint& fp) { l->samples.push_back(footprint_sample(lane, fp, l->store)); });
    p->executor = std::make_unique<shader::ShaderExecutor>(*ds.vs->module, ds.vs->block_budget);
    own.push_back(std::move(p));
  }
}

std::vector<const StageBindings*> VertexStage::private_bindings(const DrawState& ds) const {
  std::vector<const StageBindings*> binds;
  const auto it = private_.find(&ds);
  if (it != private_.end())
    for (const auto& p : it->second) binds.push_back(&p->bind);
  return binds;
}

void VertexStage::clear_private() { private_.clear(); }

bool VertexStage::run(const DrawState& ds, uint32_t instance, stream::StreamWriter* out,
                      RenderStats& stats, VertexOutput& result, std::string& reason) {
  const frontend::Draw& draw = *ds.draw;
  const shader::ShaderModule& module = *ds.vs->module;
  // vertices is only resized (never cleared): every slot used is overwritten below, and
  // value-initialising 272 bytes per vertex for every draw would cost more than shading it.
  result.primitives.clear();

  std::vector<AttributeFetch> fetches;
  if (!plan_attribute_fetches(draw, module, fetches, reason)) return false;

  fetch_indices(ds, out, stats);
  result.vertices.resize(shade_.size());
  // Vertex shader texture samples go to the stream ahead of their batch's VertexShade event.
  Lanes& l = lanes_;
  ds.vs_bind->textures.set_footprint_sink(
      [&l](uint32_t lane, const texture::Footprint& fp) { l.samples.push_back(footprint_sample(lane, fp, l.store)); });

  // Vertex shading, 64 lanes per batch; each distinct index is shaded once (post-transform reuse).
  if (shade_.size() >= kMinParallelVertices && private_.count(&ds) != 0) {
    if (!run_parallel(ds, instance, fetches, out, stats, result, reason)) return false;
    assemble_primitives(ds, result);
    return true;
  }
  const std::vector<bool> vs_writes = written_slots(module);
  shader::LaneBatch& b = *l.batch;
  const shader::Bindings bindings = ds.vs_bind->bindings();
  std::string error;
  for (size_t first = 0; first < shade_.size(); first += shader::kMaxLanes) {
    const auto n = static_cast<uint32_t>(std::min<size_t>(shader::kMaxLanes, shade_.size() - first));
    load_inputs(draw, fetches, instance, shade_.data() + first, n, b, out, stats);
    l.samples.clear();
    l.store.clear();
    if (!ds.vs->executor->execute(b, bindings, error)) {
      // A shader the executor's watchdog stopped stops the replay (the replay's watchdog: a
      // shader that never ends, or one too long to replay); dropping the draw's remaining
      // vertices would give a wrong stream.
      if (ds.vs->executor->watchdog_fired()) throw frontend::ReplayLimitError(ds.name + ": vertex " + error);
      reason = "draw: vertex shader: " + error;
      return false;
    }
    uint64_t instructions = 0;
    stream::OpMix mix;
    store_outputs(ds, vs_writes, b, result.vertices.data() + first, instructions, mix);
    record_shaded(l.samples, l.store, n, instructions, mix, out, stats);
  }

  assemble_primitives(ds, result);
  return true;
}

// The batches of one instance on this thread and on helpers (one ThreadBudget thread each).
// Every thread shades the next batch not taken into its own lanes; the vertices go to their
// places in `result`, the rest of a batch (its samples, instructions, mix, outcome) is kept
// until this thread writes the batch's events, in batch order, with exactly the serial loop's
// events and counts. The VertexFetch events are written from the same plan as the reads, so
// they need not be kept. A batch that fails (or throws) ends the instance as it would serially:
// the batches before it are written, then its fetches, then the failure; batches after it that
// a helper shaded meanwhile are dropped.
bool VertexStage::run_parallel(const DrawState& ds, uint32_t instance, const std::vector<AttributeFetch>& fetches,
                               stream::StreamWriter* out, RenderStats& stats, VertexOutput& result,
                               std::string& reason) {
  const frontend::Draw& draw = *ds.draw;
  const std::vector<bool> vs_writes = written_slots(*ds.vs->module);
  const std::vector<std::unique_ptr<Private>>& own = private_.at(&ds);
  const size_t batches = (shade_.size() + shader::kMaxLanes - 1) / shader::kMaxLanes;
  while (shaded_.size() < batches) shaded_.push_back(std::make_unique<Shaded>());
  for (size_t j = 0; j < batches; ++j) shaded_[j]->ready.store(false, std::memory_order_relaxed);
  const auto count_of = [&](size_t j) {
    return static_cast<uint32_t>(std::min<size_t>(shader::kMaxLanes, shade_.size() - j * shader::kMaxLanes));
  };
  std::atomic<size_t> next{0};
  const auto shade = [&](size_t j, Lanes& l, shader::ShaderExecutor& executor, const shader::Bindings& bindings) {
    Shaded& s = *shaded_[j];
    const size_t first = j * shader::kMaxLanes;
    s.outcome = Shaded::Outcome::Shaded;
    s.error.clear();
    s.exception = nullptr;
    try {
      RenderStats counted_when_written;
      load_inputs(draw, fetches, instance, shade_.data() + first, count_of(j), *l.batch, nullptr, counted_when_written);
      l.samples.clear();
      l.store.clear();
      if (executor.execute(*l.batch, bindings, s.error))
        store_outputs(ds, vs_writes, *l.batch, result.vertices.data() + first, s.instructions, s.mix);
      else
        s.outcome = executor.watchdog_fired() ? Shaded::Outcome::Stopped : Shaded::Outcome::Failed;
      // The lanes take the kept batch's arrays: their capacity goes round without allocating.
      s.samples.swap(l.samples);
      s.store.lines.swap(l.store.lines);
      s.store.probes.swap(l.store.probes);
      s.store.blocks.swap(l.store.blocks);
    } catch (...) {
      s.outcome = Shaded::Outcome::Threw;
      s.exception = std::current_exception();
    }
    // No thread takes a batch after a failed one: it would be dropped.
    if (s.outcome != Shaded::Outcome::Shaded) next.store(batches);
    s.ready.store(true, std::memory_order_release);
  };

  // Helper w (1..threads_-1) runs on pool[w]; running[w] is cleared as it leaves.
  std::vector<std::thread> pool(threads_);
  std::unique_ptr<std::atomic<bool>[]> running(new std::atomic<bool>[threads_]);
  for (unsigned w = 0; w < threads_; ++w) running[w] = false;
  const auto helper = [&](unsigned w) {
    Lanes& l = *helper_lanes_[w - 1];
    Private& p = *own[w - 1];
    const shader::Bindings bindings = p.bind.bindings();
    for (size_t j = next++; j < batches; j = next++) {
      shade(j, l, *p.executor, bindings);
      // Other work waits for this thread: the calling thread goes on alone.
      if (budget_ != nullptr && budget_->wanted()) break;
    }
    if (budget_ != nullptr) budget_->give();
    running[w].store(false, std::memory_order_release);
  };
  // Joins the helpers however this function ends: they read its locals.
  struct Joiner {
    std::vector<std::thread>& pool;
    std::atomic<size_t>& next;
    size_t batches;
    ~Joiner() {
      next.store(batches);
      for (std::thread& t : pool)
        if (t.joinable()) t.join();
    }
  } joiner{pool, next, batches};
  bool can_start = true;
  // Starts the helpers not running, each on a thread of the budget (all at once without one);
  // a thread that cannot be had (a process or cgroup limit) leaves the batches to the others.
  const auto start_free = [&] {
    for (unsigned w = 1; w < threads_ && can_start; ++w) {
      if (running[w].load(std::memory_order_acquire)) continue;
      if (budget_ != nullptr && !budget_->try_take()) return;
      if (pool[w].joinable()) pool[w].join();
      running[w] = true;
      try {
        pool[w] = std::thread(helper, w);
      } catch (...) {
        running[w] = false;
        if (budget_ != nullptr) budget_->give();
        can_start = false;
      }
    }
  };

  // Writes the events of the batches shaded, in order, up to the first not yet shaded; false at
  // a failed one (written up to its fetches, `emitted` at it).
  size_t emitted = 0;
  const auto write_ready = [&] {
    for (; emitted < batches && shaded_[emitted]->ready.load(std::memory_order_acquire); ++emitted) {
      const Shaded& s = *shaded_[emitted];
      const size_t first = emitted * shader::kMaxLanes;
      const uint32_t n = count_of(emitted);
      for (uint32_t lane = 0; lane < n; ++lane)
        record_attribute_fetches(draw, fetches, instance, vertex_index_of(draw, shade_[first + lane]), out, stats);
      if (s.outcome != Shaded::Outcome::Shaded) return false;
      record_shaded(s.samples, s.store, n, s.instructions, s.mix, out, stats);
    }
    return true;
  };

  const shader::Bindings bindings = ds.vs_bind->bindings();
  bool failed = false;
  start_free();
  for (size_t j = next++; j < batches; j = next++) {
    shade(j, lanes_, *ds.vs->executor, bindings);
    if (!write_ready()) {
      failed = true;
      break;
    }
    if (budget_ != nullptr) start_free();
  }
  next.store(batches);
  for (std::thread& t : pool)
    if (t.joinable()) t.join();
  if (!failed && write_ready()) return true;
  const Shaded& s = *shaded_[emitted];
  if (s.outcome == Shaded::Outcome::Threw) std::rethrow_exception(s.exception);
  // As the serial loop: the executor's watchdog stops the replay, another failure the draw.
  if (s.outcome == Shaded::Outcome::Stopped) throw frontend::ReplayLimitError(ds.name + ": vertex " + s.error);
  reason = "draw: vertex shader: " + s.error;
  return false;
}

void VertexStage::release_large(VertexOutput& result) {
  const size_t bytes = indices_.capacity() * sizeof(uint32_t) + shade_.capacity() * sizeof(uint32_t) +
                       slot_of_.size() * 4 * sizeof(uint64_t) + slot_of_.bucket_count() * sizeof(void*) +
                       result.vertices.capacity() * sizeof(pipeline::ClipVertex) +
                       result.primitives.capacity() * sizeof(pipeline::AssembledPrimitive);
  if (bytes <= kKeptBytes) return;
  std::vector<uint32_t>().swap(indices_);
  std::vector<uint32_t>().swap(shade_);
  std::unordered_map<uint32_t, uint32_t>().swap(slot_of_);
  std::vector<pipeline::ClipVertex>().swap(result.vertices);
  std::vector<pipeline::AssembledPrimitive>().swap(result.primitives);
}

// Index fetch (Vulkan spec "Drawing Commands", indexed draws): each index read is a vertex-fetch
// access of the index buffer; each distinct index is shaded once (post-transform reuse), restart
// indices not at all. A non-indexed draw shades its vertices in order.
void VertexStage::fetch_indices(const DrawState& ds, stream::StreamWriter* out, RenderStats& stats) {
  const frontend::Draw& draw = *ds.draw;
  shade_.clear();
  slot_of_.clear();
  if (draw.indexed) {
    const uint32_t size = index_bytes(draw.index_type);
    const std::span<std::byte> bytes = draw.index_buffer->bytes();
    indices_.resize(draw.vertex_count);
    for (uint32_t i = 0; i < draw.vertex_count; ++i) {
      const uint64_t offset = draw.index_offset + (uint64_t{draw.first_vertex} + i) * size;
      uint32_t value = 0;  // out-of-range index reads give 0 (robust buffer access)
      if (offset < bytes.size() && bytes.size() - offset >= size) std::memcpy(&value, bytes.data() + offset, size);
      indices_[i] = value;
      if (out) out->vertex_fetch(draw.index_buffer->address + offset, size);
      ++stats.vertex_fetches;
    }
    const uint32_t restart = pipeline::restart_index(index_type(draw.index_type));
    for (uint32_t v : indices_) {
      if (ds.primitive_restart && v == restart) continue;
      if (slot_of_.emplace(v, static_cast<uint32_t>(shade_.size())).second) shade_.push_back(v);
    }
  } else {
    shade_.resize(draw.vertex_count);
    for (uint32_t i = 0; i < draw.vertex_count; ++i) shade_[i] = draw.first_vertex + i;
  }
}

// Primitive assembly (Vulkan spec "Primitive Topologies") over positions in shade_.
void VertexStage::assemble_primitives(const DrawState& ds, VertexOutput& result) {
  const frontend::Draw& draw = *ds.draw;
  if (draw.indexed) {
    result.primitives = pipeline::assemble_indexed(ds.topology, indices_, index_type(draw.index_type),
                                                   ds.primitive_restart);
    const uint32_t n = pipeline::vertices_per_primitive(ds.topology);
    for (pipeline::AssembledPrimitive& p : result.primitives)
      for (uint32_t i = 0; i < n; ++i) p.v[i] = slot_of_.at(p.v[i]);
  } else {
    result.primitives = pipeline::assemble(ds.topology, 0, draw.vertex_count);
  }
}

}  // namespace tessera::render
