#include "vertex_stage.h"

#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "op_mix.h"
#include "tessera/frontend/memory_budget.h"
#include "tessera/pipeline/vertex_fetch.h"

namespace tessera::render {

// The shader batch's clip and cull distances are copied into ClipVertex::distances below: the
// limit the shader loader enforces must be the room the clipper has.
static_assert(shader::kMaxClipCullDistances == pipeline::kMaxClipCullDistances);

namespace {

// One vertex shader input location fed by a vertex attribute (Vulkan spec "Vertex Input
// Description": attributes match shader inputs by location).
struct AttributeFetch {
  uint32_t slot = 0;  // 4 * location
  uint32_t format = 0, bytes = 0;
  uint32_t offset = 0, stride = 0;
  bool per_instance = false;
  uint32_t divisor = 1;
  const frontend::VertexBufferBinding* buffer = nullptr;  // null: unbound, reads zeros
};

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
      if (attr == state.vertex_attributes.end()) continue;  // no attribute: the input reads 0
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

// One lane's attributes (Vulkan spec "Vertex Input Address Calculation"): per-vertex ones at
// vertexIndex, per-instance ones by the instance and the divisor; each read is a vertex fetch of
// the stream.
[[gnu::always_inline]] inline void fetch_attributes(const frontend::Draw& draw, const std::vector<AttributeFetch>& fetches,
                                                    uint32_t instance, int32_t vertex_index, uint32_t lane,
                                                    shader::LaneBatch& b, stream::StreamWriter* out, RenderStats& stats) {
  static constexpr std::byte kZeros[32] = {};
  for (const AttributeFetch& f : fetches) {
    uint64_t element = static_cast<uint32_t>(vertex_index);
    if (f.per_instance)
      element = f.divisor == 0 ? draw.first_instance : draw.first_instance + instance / f.divisor;
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

}  // namespace

VertexStage::VertexStage() : batch_(std::make_unique<shader::LaneBatch>()) {}
VertexStage::~VertexStage() = default;

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

  // Vertex shading, 64 lanes per batch; each distinct index is shaded once (post-transform reuse).
  const std::vector<bool> vs_writes = written_slots(module);
  const uint32_t clip_distances = ds.clip.clip_distances, cull_distances = ds.clip.cull_distances;
  shader::LaneBatch& b = *batch_;
  const uint32_t instance_index = draw.first_instance + instance;
  const shader::Bindings bindings = ds.vs_bind->bindings();
  // Vertex shader texture samples go to the stream ahead of their batch's VertexShade event.
  ds.vs_bind->textures.set_footprint_sink(
      [this](uint32_t lane, const texture::Footprint& fp) { samples_.push_back(footprint_sample(lane, fp, store_)); });
  result.vertices.resize(shade_.size());
  std::string error;
  for (size_t first = 0; first < shade_.size(); first += shader::kMaxLanes) {
    const auto n = static_cast<uint32_t>(std::min<size_t>(shader::kMaxLanes, shade_.size() - first));
    b.lane_count = n;
    for (const AttributeFetch& f : fetches)
      for (uint32_t c = 0; c < 4; ++c) std::fill_n(b.inputs[f.slot + c], n, 0u);
    for (uint32_t lane = 0; lane < n; ++lane) {
      const uint32_t vertex = shade_[first + lane];
      // Vulkan spec "Vertex Input Address Calculation": vertexIndex = index + vertexOffset.
      // Wrapping (two's complement) addition: hostile offsets must not be signed overflow.
      const int32_t vertex_index =
          draw.indexed ? static_cast<int32_t>(vertex + static_cast<uint32_t>(draw.vertex_offset))
                       : static_cast<int32_t>(vertex);
      b.vertex_index[lane] = vertex_index;
      b.instance_index[lane] = static_cast<int32_t>(instance_index);
      fetch_attributes(draw, fetches, instance, vertex_index, lane, b, out, stats);
    }
    samples_.clear();
    store_.clear();
    if (!ds.vs->executor->execute(b, bindings, error)) {
      // A shader the executor's watchdog stopped stops the replay (the replay's watchdog: a
      // shader that never ends, or one too long to replay); dropping the draw's remaining
      // vertices would give a wrong stream.
      if (ds.vs->executor->watchdog_fired()) throw frontend::ReplayLimitError(ds.name + ": vertex " + error);
      reason = "draw: vertex shader: " + error;
      return false;
    }
    for (const FootprintSample& sm : samples_) {
      if (out)
        out->vertex_texture(sm.lane, sm.level, sm.footprint_case, sm.probes, store_.lines_of(sm), store_.probes_of(sm));
      ++stats.vertex_texture_samples;
      stats.vertex_texture_lines += sm.line_count;
    }
    uint64_t instructions = 0;
    for (uint32_t lane = 0; lane < n; ++lane) {
      instructions += b.instruction_count[lane];
      pipeline::ClipVertex& cv = result.vertices[first + lane];
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
    stream::OpMix mix;
    for (uint32_t q = 0; q < (n + 3) / 4; ++q) add_quad_ops(mix, b, q);
    if (out) out->vertex_shade(n, instructions, mix);
    stats.vertices_shaded += n;
    stats.vertex_instructions += instructions;
    stats.vertex_mix.add(mix);
  }

  assemble_primitives(ds, result);
  return true;
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
