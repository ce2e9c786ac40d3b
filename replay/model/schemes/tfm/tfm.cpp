// The TFM scheme wired into the timing model (paper 004): a Texture Filter Memory, or a 512 B
// filter cache, in front of each core's L1 texture cache (hooks.h TextureFrontBuffer), its
// metrics and the energy of its structures.
#include <memory>
#include <stdexcept>

#include "tessera/model/energy.h"
#include "tessera/model/scheme.h"
#include "tfm/filter_cache.h"
#include "tfm/footprint.h"
#include "tfm/scheme.h"
#include "tfm/texture_filter_memory.h"
#include "tfm/tfm_energy.h"

namespace tessera::model {
namespace {

using tfm::FrontKind;

// Appends the lines block `block` (of `block_bytes`) lives in.
void block_lines(uint64_t block, uint32_t block_bytes, std::vector<uint64_t>& out) {
  const uint64_t last = (block + block_bytes - 1) & ~uint64_t{63};
  for (uint64_t line = block & ~uint64_t{63}; line <= last; line += 64) out.push_back(line);
}

// One TextureFilterMemory per core. A probe's lookup misses each read their block's lines from
// L1 (the TBA holds whole 4x4 blocks, section IV).
class TfmFrontBuffer final : public TextureFrontBuffer {
 public:
  explicit TfmFrontBuffer(const tfm::TfmConfig& config) : config_(config) {}

  // Start of a frame: empty buffers, counters from zero.
  void reset(uint32_t cores) override {
    tfm_.assign(cores, tfm::TextureFilterMemory(config_.replacement));
    lines_seen_ = l1_lines_ = irregular_ = 0;
  }

  uint32_t sample(uint32_t core, const TextureSampleView& s, std::vector<uint64_t>& l1_lines) override {
    if (!s.lines.empty() && s.probes.empty())
      throw std::runtime_error("tfm: a texture sample without probe records (access stream version 3 needed)");
    tfm::TextureFilterMemory& t = tfm_.at(core);
    const uint64_t hits_before = t.counters().hits;
    const size_t l1_before = l1_lines.size();
    for (const stream::TextureProbe& p : s.probes) {
      const std::span<const uint64_t> b = s.blocks.subspan(p.first_block, p.block_count);
      tfm::ProbeResult r;
      switch (p.kind) {
        case 0: continue;  // border texels only: no memory read
        case 1: r = t.bilinear(p.level, tfm::footprint_of_case(tfm::FootprintCase::SingleBlock), {b[0], b[0], b[0], b[0]}); break;
        case 2: r = t.bilinear(p.level, tfm::footprint_of_case(tfm::FootprintCase::TwoBlocksVertical), {b[0], b[0], b[1], b[1]}); break;
        case 3: r = t.bilinear(p.level, tfm::footprint_of_case(tfm::FootprintCase::TwoBlocksHorizontal), {b[0], b[1], b[0], b[1]}); break;
        case 4: r = t.bilinear(p.level, tfm::footprint_of_case(tfm::FootprintCase::FourBlocks), {b[0], b[1], b[2], b[3]}); break;
        case 5: r = t.nearest(p.level, b[0]); break;
        default:
          r = t.irregular(p.level, b);
          ++irregular_;
          break;
      }
      for (uint32_t f = 0; f < r.fills; ++f) block_lines(r.l1_blocks[f], s.block_bytes, l1_lines);
    }
    lines_seen_ += s.lines.size();
    l1_lines_ += l1_lines.size() - l1_before;
    return static_cast<uint32_t>(t.counters().hits - hits_before);
  }

  uint32_t latency() const override { return config_.latency; }
  uint32_t fill_latency() const override { return config_.fill_latency; }

  tfm::TfmCounters totals() const {
    tfm::TfmCounters c;
    for (const auto& t : tfm_) c.add(t.counters());
    return c;
  }
  uint64_t lines_seen_ = 0, l1_lines_ = 0, irregular_ = 0;

 private:
  tfm::TfmConfig config_;
  std::vector<tfm::TextureFilterMemory> tfm_;
};

// A 512 B filter cache per core, looked up once per line of the sample (Fig. 8 cases 3, 4).
class FilterFrontBuffer final : public LineFrontBuffer {
 public:
  FilterFrontBuffer(tfm::FilterKind kind, const tfm::TfmConfig& config) : caches_(kind, 0), config_(config) {}
  // Start of a frame: empty caches, counters from zero.
  void reset(uint32_t cores) override { caches_ = tfm::FilterCaches(caches_.kind(), cores); }
  bool access(uint32_t core, uint64_t line) override { return caches_.access(core, line); }
  uint32_t latency() const override { return config_.latency; }
  uint32_t fill_latency() const override { return config_.fill_latency; }
  const tfm::FilterCaches& caches() const { return caches_; }

 private:
  tfm::FilterCaches caches_;
  tfm::TfmConfig config_;
};

double d(uint64_t v) { return static_cast<double>(v); }

class TfmInstance final : public SchemeInstance {
 public:
  explicit TfmInstance(const ParamSet& p) : config_(tfm::TfmConfig::from_params(p)) {
    if (config_.front == FrontKind::Tfm) {
      tfm_ = std::make_shared<TfmFrontBuffer>(config_);
    } else {
      filter_ = std::make_shared<FilterFrontBuffer>(filter_kind(), config_);
    }
  }
  void install(Hooks& hooks) override {
    hooks.front_buffer = tfm_ ? std::static_pointer_cast<TextureFrontBuffer>(tfm_) : filter_;
  }
  // The model resets the front buffer (buffers and counters) at the start of every frame.
  void frame_end(const MemoryHierarchy&, FrameResults& r) override {
    auto put = [&](std::string_view name, double v) { r.frame_metrics.emplace_back(std::string(name), v); };
    if (tfm_) {
      const tfm::TfmCounters c = tfm_->totals();
      put("tfm.accesses", d(c.accesses));
      put("tfm.misses", d(c.misses()));
      put("tfm.direct", d(c.direct));
      put("tfm.lookups", d(c.lookups));
      for (int k = 1; k <= 4; ++k) put("tfm.case" + std::to_string(k), d(c.cases[static_cast<size_t>(k)]));
      put("tfm.irregular", d(tfm_->irregular_));
      put("tfm.set_switches", d(c.set_switches));
      put("tfm.l1_accesses_saved", d(tfm_->lines_seen_) - d(tfm_->l1_lines_));
    } else {
      const tfm::FilterCounters& c = filter_->caches().counters();
      put("tfm.accesses", d(c.accesses));
      put("tfm.misses", d(c.fills()));
      put("tfm.lookups", d(c.accesses));
      put("tfm.l1_accesses_saved", d(c.hits));
    }
  }
  // Dynamic energy per event (tfm_energy.h) and the leakage of the arrays (two 256 B TBA sets or
  // a 512 B filter per core) at the model's SRAM leakage per KiB.
  void energy(const MemoryHierarchy& h, const EnergyParams& p, uint64_t cycles, std::vector<StructureEnergy>& out) override {
    StructureEnergy e{"tfm", true};
    if (tfm_) {
      const tfm::TfmCounters c = tfm_->totals();
      e.reads = c.accesses;
      e.writes = c.fills;
      e.dynamic_nj = tfm::front_energy_pj(c, p.tech) * 1e-3;
    } else {
      const tfm::FilterCounters& c = filter_->caches().counters();
      e.reads = c.accesses;
      e.writes = c.fills();
      e.dynamic_nj = tfm::front_energy_pj(c, filter_kind(), p.tech) * 1e-3;
    }
    const double kib = 512.0 / 1024.0 * h.config().shader_cores;
    e.leakage_nj = p.sram_leakage_nj(kib, cycles);
    out.push_back(e);
  }

 private:
  tfm::FilterKind filter_kind() const {
    return config_.front == FrontKind::FilterDirectMapped512 ? tfm::FilterKind::DirectMapped512
                                                             : tfm::FilterKind::FullyAssociative512;
  }
  tfm::TfmConfig config_;
  std::shared_ptr<TfmFrontBuffer> tfm_;
  std::shared_ptr<FilterFrontBuffer> filter_;
};

SchemeVariant variant(FrontKind kind, std::string description) {
  SchemeVariant v;
  v.name = std::string(tfm::front_name(kind));
  v.description = std::move(description);
  v.apply = [kind](ParamSet& p) { p.set("tfm.front", std::string(tfm::front_name(kind))); };
  return v;
}

}  // namespace

void register_tfm(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "tfm";
  s.paper = "004";
  s.section = "III-IV";
  s.description = "Texture Filter Memory: 2 x 4 texel-block registers with Algorithm 2 lookups in front of each L1 texture cache";
  s.preset = "mobile-256k";
  s.params = tfm::params();
  s.hooks = {HookKind::FrontBuffer};
  for (std::string_view m : tfm::kTfmMetrics) s.metrics.emplace_back(m);
  s.metrics.emplace_back("tfm.hits");
  s.metrics.emplace_back("energy.texture_path_pj_per_access");
  s.variants.push_back(variant(FrontKind::Tfm, "Texture Filter Memory in front of each L1 texture cache (sections III-IV, Algorithm 2)"));
  s.variants.push_back(variant(FrontKind::FilterDirectMapped512,
                               "512 B direct-mapped filter cache in front of each L1 texture cache (Fig. 8 case 3)"));
  s.variants.push_back(variant(FrontKind::FilterFullyAssociative512,
                               "512 B fully associative LRU filter cache in front of each L1 texture cache (Fig. 8 case 4)"));
  s.make = [](const ParamSet& p) { return std::make_unique<TfmInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
