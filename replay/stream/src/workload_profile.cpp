// Workload characterisation of a frame from its access stream (workload_profile.h).
#include "tessera/stream/workload_profile.h"

#include <algorithm>
#include <utility>

#include "tessera/stream/access_stream.h"

namespace tessera::stream {

namespace {

// Set of 64-bit keys with linear probing: a frame reads millions of texture lines of which a few
// hundred thousand are distinct, so a flat table beats a node-based set by a wide margin.
class KeySet {
 public:
  KeySet() : slots_(1024, kEmpty) {}
  // True when the key was not in the set.
  bool insert(uint64_t key) {
    if (key == kEmpty) return !std::exchange(has_empty_key_, true);
    if ((size_ + 1) * 2 > slots_.size()) grow();
    if (!place(slots_, key)) return false;
    ++size_;
    return true;
  }
  uint64_t size() const { return size_ + (has_empty_key_ ? 1 : 0); }
  void clear() {
    std::fill(slots_.begin(), slots_.end(), kEmpty);
    size_ = 0;
    has_empty_key_ = false;
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  static bool place(std::vector<uint64_t>& slots, uint64_t key) {
    const size_t mask = slots.size() - 1;
    // Fibonacci hashing spreads keys that differ only in high bits (line addresses are multiples
    // of 64, primitive indices are small and dense).
    for (size_t i = (key * 0x9e3779b97f4a7c15ull) >> 20 & mask;; i = (i + 1) & mask) {
      if (slots[i] == key) return false;
      if (slots[i] == kEmpty) {
        slots[i] = key;
        return true;
      }
    }
  }
  void grow() {
    std::vector<uint64_t> bigger(slots_.size() * 2, kEmpty);
    for (uint64_t k : slots_)
      if (k != kEmpty) place(bigger, k);
    slots_.swap(bigger);
  }
  std::vector<uint64_t> slots_;
  uint64_t size_ = 0;
  bool has_empty_key_ = false;
};

double ratio(uint64_t num, uint64_t den) {
  return den == 0 ? 0.0 : static_cast<double>(num) / static_cast<double>(den);
}

}  // namespace

bool profile_frame(std::span<const uint8_t> bytes, WorkloadProfile* p, std::string* error) {
  *p = WorkloadProfile{};
  KeySet lines, pass_primitives;
  StreamReader reader(bytes);
  Event e;
  while (reader.next(e)) {
    switch (e.kind) {
      case EventKind::PassBegin:
        ++p->passes;
        p->render_area_pixels += uint64_t{e.u[1]} * e.u[2];
        p->primitives += pass_primitives.size();
        pass_primitives.clear();
        break;
      case EventKind::Draw:
        ++p->draws;
        break;
      case EventKind::VertexShade:
        p->vertices += e.u[0];
        p->vertex_instructions += e.wide;
        break;
      case EventKind::PbWrite:
        pass_primitives.insert(e.u[1]);
        break;
      case EventKind::Quad: {
        ++p->quads;
        const uint32_t coverage = e.u[2] & 0xf;
        p->fragments += quad_pixels(coverage);
        if (e.u[5] & kQuadShaded) {
          const uint32_t ran = (e.u[5] & kQuadLateDepth) ? coverage : coverage & e.u[3];
          p->shaded_fragments += quad_pixels(ran);
        }
        p->fragment_instructions += e.wide;
        p->fragment_mix.add(e.mix);
        break;
      }
      case EventKind::Texture:
        for (uint64_t line : e.lines) lines.insert(line);
        break;
      default:
        break;
    }
  }
  p->primitives += pass_primitives.size();
  p->texture_lines = lines.size();
  p->texture_bytes = p->texture_lines * kTextureLineBytes;
  p->overdraw = ratio(p->fragments, p->render_area_pixels);
  p->instructions_per_fragment = ratio(p->fragment_instructions, p->shaded_fragments);
  p->instructions_per_vertex = ratio(p->vertex_instructions, p->vertices);
  // A quad's operations are issued for its four lanes (workload_profile.h).
  const OpMixTotals& m = p->fragment_mix;
  p->alu_per_fragment = ratio(4 * m.alu, p->shaded_fragments);
  p->sfu_per_fragment = ratio(4 * m.sfu, p->shaded_fragments);
  p->varying_per_fragment = ratio(4 * m.varying, p->shaded_fragments);
  p->texture_per_fragment = ratio(4 * m.texture, p->shaded_fragments);
  p->memory_per_fragment = ratio(4 * m.memory, p->shaded_fragments);
  if (!reader.error().empty()) {
    *error = reader.error();
    return false;
  }
  return true;
}

std::vector<std::pair<std::string, double>> workload_metrics(const WorkloadProfile& p) {
  auto d = [](uint64_t v) { return static_cast<double>(v); };
  return {{"workload.texture_lines", d(p.texture_lines)},
          {"workload.texture_bytes", d(p.texture_bytes)},
          {"workload.draws", d(p.draws)},
          {"workload.primitives", d(p.primitives)},
          {"workload.quads", d(p.quads)},
          {"workload.fragments", d(p.fragments)},
          {"workload.overdraw", p.overdraw},
          {"workload.instructions_per_fragment", p.instructions_per_fragment},
          {"workload.instructions_per_vertex", p.instructions_per_vertex},
          {"workload.passes", d(p.passes)},
          {"workload.alu_per_fragment", p.alu_per_fragment},
          {"workload.sfu_per_fragment", p.sfu_per_fragment},
          {"workload.varying_per_fragment", p.varying_per_fragment},
          {"workload.texture_per_fragment", p.texture_per_fragment},
          {"workload.memory_per_fragment", p.memory_per_fragment}};
}

}  // namespace tessera::stream
