// The TFM scheme wired into the timing model (paper 004): a Texture Filter Memory, or a 512 B
// filter cache, in front of each core's L1 texture cache (hooks.h TextureFrontBuffer), its
// metrics and the energy of its structures.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "tessera/model/energy.h"
#include "tessera/model/scheme.h"
#include "tessera/stream/texture_probe.h"
#include "tfm/filter_cache.h"
#include "tfm/footprint.h"
#include "tfm/scheme.h"
#include "tfm/texture_filter_memory.h"
#include "tfm/tfm_energy.h"

namespace tessera::model {
namespace {

using tfm::FrontKind;

// Appends the lines block `block` (of `block_bytes`) lives in; returns how many.
uint32_t block_lines(uint64_t block, uint32_t block_bytes, std::vector<uint64_t>& out) {
  const uint64_t last = (block + block_bytes - 1) & ~uint64_t{63};
  uint32_t n = 0;
  for (uint64_t line = block & ~uint64_t{63}; line <= last; line += 64, ++n) out.push_back(line);
  return n;
}

void require_probes(const TextureSampleView& s, const char* front) {
  if (!s.lines.empty() && s.probes.empty())
    throw std::runtime_error(std::string(front) + ": a texture sample without probe records (access stream version 3 needed)");
}

// What every front buffer counts beside its own counters: the baseline's line requests (one per
// distinct line of a sample) and the lines it read from L1 instead.
struct LineCounts {
  uint64_t lines_seen = 0, l1_lines = 0;
  double saved() const { return static_cast<double>(lines_seen) - static_cast<double>(l1_lines); }
};

// One TextureFilterMemory per core. A probe's lookup misses each read their block's lines from
// L1 (the TBA holds whole 4x4 blocks, section IV); the buffer they fill is ready when the last
// of those lines is served.
class TfmFrontBuffer final : public TextureFrontBuffer {
 public:
  explicit TfmFrontBuffer(const tfm::TfmConfig& config) : config_(config) {}

  // Start of a frame: empty buffers, counters from zero.
  void reset(uint32_t cores) override {
    tfm_.assign(cores, tfm::TextureFilterMemory(config_.replacement));
    lines_ = {};
    irregular_ = 0;
  }

  FrontHits sample(uint32_t core, const TextureSampleView& s, uint64_t now, std::vector<uint64_t>& l1_lines) override {
    require_probes(s, "tfm");
    tfm::TextureFilterMemory& t = tfm_.at(core);
    const uint64_t hits_before = t.counters().hits;
    const size_t l1_before = l1_lines.size();
    uint64_t ready = now + config_.latency;
    pending_.clear();
    // Trilinear when the probes span two levels (the finer level's, then the coarser's).
    bool trilinear = false;
    for (const stream::TextureProbe& p : s.probes) trilinear |= p.level != s.probes.front().level;
    t.begin_sample(trilinear);
    for (const stream::TextureProbe& p : s.probes) {
      const std::span<const uint64_t> b = s.blocks.subspan(p.first_block, p.block_count);
      const auto kind = static_cast<stream::ProbeKind>(p.kind);
      tfm::ProbeResult r;
      if (kind == stream::ProbeKind::None) continue;  // border texels only: no memory read
      if (stream::is_bilinear_case(kind)) {
        const auto& texel_block = stream::kCaseTexelBlock[p.kind];
        r = t.bilinear(p.level, tfm::footprint_of_case(static_cast<tfm::FootprintCase>(p.kind)),
                       {b[texel_block[0]], b[texel_block[1]], b[texel_block[2]], b[texel_block[3]]});
      } else if (kind == stream::ProbeKind::SingleTexel) {
        r = t.nearest(p.level, b[0]);
      } else {
        r = t.irregular(p.level, b);
        ++irregular_;
      }
      ready = std::max(ready, r.hit_ready);
      for (uint32_t f = 0; f < r.fills; ++f)
        pending_.push_back(Fill{r.fill_slots[f], block_lines(r.l1_blocks[f], s.block_bytes, l1_lines)});
    }
    lines_.lines_seen += s.lines.size();
    lines_.l1_lines += l1_lines.size() - l1_before;
    return FrontHits{static_cast<uint32_t>(t.counters().hits - hits_before), ready};
  }

  // A filled block is present when the last of its lines is.
  void filled(uint32_t core, std::span<const uint64_t> ready) override {
    size_t i = 0;
    for (const Fill& f : pending_) {
      uint64_t block_ready = 0;
      for (uint32_t k = 0; k < f.lines && i < ready.size(); ++k) block_ready = std::max(block_ready, ready[i++]);
      tfm_.at(core).set_ready(f.slot, block_ready);
    }
  }

  uint32_t latency() const override { return config_.latency; }
  uint32_t fill_latency() const override { return config_.fill_latency; }

  tfm::TfmCounters totals() const {
    tfm::TfmCounters c;
    for (const auto& t : tfm_) c.add(t.counters());
    return c;
  }
  LineCounts lines_;
  uint64_t irregular_ = 0;

 private:
  struct Fill {
    tfm::TbaSlot slot;
    uint32_t lines = 0;
  };
  tfm::TfmConfig config_;
  std::vector<tfm::TextureFilterMemory> tfm_;
  std::vector<Fill> pending_;  // the last sample's fills, in the order of its L1 lines
};

// The texel reads of Algorithm 1 in a sample, in the paper's t1..t4 order, from the probe records:
// a bilinear probe's four texels, a nearest probe's one; an irregular probe (border texels, a cube
// corner) records only its distinct blocks, so it reads each once. `read(block)` per texel read.
template <class Read>
void for_each_texel_read(const TextureSampleView& s, Read&& read) {
  for (const stream::TextureProbe& p : s.probes) {
    const std::span<const uint64_t> b = s.blocks.subspan(p.first_block, p.block_count);
    if (stream::is_bilinear_case(static_cast<stream::ProbeKind>(p.kind))) {
      for (uint8_t k : stream::kCaseTexelBlock[p.kind]) read(b[k]);
    } else {
      for (uint64_t block : b) read(block);
    }
  }
}

// A 512 B filter cache per core (Fig. 8 cases 3, 4), looked up once per texel read in the
// paper's t1..t4 order (Algorithm 1), from the same probe records TFM reads: a bilinear probe's
// four texels, a nearest probe's one; an irregular probe (border texels, a cube corner) records
// only its distinct blocks, so it reads each once, as TFM looks each up once.
class FilterFrontBuffer final : public TextureFrontBuffer {
 public:
  FilterFrontBuffer(tfm::FilterKind kind, const tfm::TfmConfig& config) : caches_(kind, 0), config_(config) {}
  // Start of a frame: empty caches, counters from zero.
  void reset(uint32_t cores) override {
    caches_ = tfm::FilterCaches(caches_.kind(), cores);
    lines_ = {};
  }

  FrontHits sample(uint32_t core, const TextureSampleView& s, uint64_t now, std::vector<uint64_t>& l1_lines) override {
    require_probes(s, front_name());
    FrontHits out{0, now + config_.latency};
    fills_.clear();
    const auto read = [&](uint64_t block) {
      uint64_t ready = 0;
      if (caches_.texel(core, block, s.block_bytes, now, &ready, fills_)) {
        ++out.hits;
        out.ready = std::max(out.ready, ready);
      }
    };
    for_each_texel_read(s, read);
    for (const tfm::FilterFill& f : fills_) l1_lines.push_back(f.line);
    lines_.lines_seen += s.lines.size();
    lines_.l1_lines += fills_.size();
    return out;
  }

  void filled(uint32_t core, std::span<const uint64_t> ready) override {
    for (size_t i = 0; i < ready.size() && i < fills_.size(); ++i) caches_.set_ready(core, fills_[i].slot, ready[i]);
  }

  uint32_t latency() const override { return config_.latency; }
  uint32_t fill_latency() const override { return config_.fill_latency; }
  const tfm::FilterCaches& caches() const { return caches_; }
  LineCounts lines_;

 private:
  const char* front_name() const {
    return caches_.kind() == tfm::FilterKind::DirectMapped512 ? "filter-dm512" : "filter-fa512";
  }
  tfm::FilterCaches caches_;
  tfm::TfmConfig config_;
  std::vector<tfm::FilterFill> fills_;  // the last sample's, in the order of its L1 lines
};

// The conventional texture unit of Algorithm 1 (paper 004 section III; Hakura and Gupta's cache,
// Fig. 8 case 1, and with a 512 B direct-mapped L1 case 2): no buffer in front of L1, one
// CacheLookup per texel read, in t1..t4 order. Every texel read looks up the line(s) of its block
// (a block of a wider format spans two lines; the records do not say which one a texel is in, so
// it looks up both, as the filter caches do). The lookups of one sample to one line are separate
// L1 accesses: the first may miss, the others hit (or hit under its miss), each charged as an L1
// read. The unit sends them through the L1 port at tex.lines_per_cycle, as any L1 request.
class ConventionalFrontBuffer final : public TextureFrontBuffer {
 public:
  void reset(uint32_t) override {
    lines_ = {};
    texel_reads_ = 0;
  }

  FrontHits sample(uint32_t, const TextureSampleView& s, uint64_t now, std::vector<uint64_t>& l1_lines) override {
    require_probes(s, "conventional-tu");
    const size_t before = l1_lines.size();
    for_each_texel_read(s, [&](uint64_t block) {
      block_lines(block, s.block_bytes, l1_lines);
      ++texel_reads_;
    });
    lines_.lines_seen += s.lines.size();
    lines_.l1_lines += l1_lines.size() - before;
    return FrontHits{0, now};
  }

  void filled(uint32_t, std::span<const uint64_t>) override {}
  uint32_t latency() const override { return 0; }
  uint32_t fill_latency() const override { return 0; }

  LineCounts lines_;
  uint64_t texel_reads_ = 0;
};

double d(uint64_t v) { return static_cast<double>(v); }

class TfmInstance final : public SchemeInstance {
 public:
  explicit TfmInstance(const ParamSet& p) : config_(tfm::TfmConfig::from_params(p)) {
    if (config_.front == FrontKind::Tfm) {
      tfm_ = std::make_shared<TfmFrontBuffer>(config_);
    } else if (config_.front == FrontKind::Conventional) {
      conventional_ = std::make_shared<ConventionalFrontBuffer>();
    } else {
      filter_ = std::make_shared<FilterFrontBuffer>(filter_kind(), config_);
    }
  }
  void install(Hooks& hooks) override {
    if (tfm_) {
      hooks.front_buffer = tfm_;
    } else if (conventional_) {
      hooks.front_buffer = conventional_;
    } else {
      hooks.front_buffer = filter_;
    }
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
      put("tfm.l1_accesses_saved", tfm_->lines_.saved());
    } else if (conventional_) {
      put("tfm.accesses", d(conventional_->texel_reads_));
      put("tfm.misses", d(conventional_->texel_reads_));
      put("tfm.l1_accesses_saved", conventional_->lines_.saved());
    } else {
      const tfm::FilterCounters& c = filter_->caches().counters();
      put("tfm.accesses", d(c.accesses));
      put("tfm.misses", d(c.misses()));
      put("tfm.lookups", d(c.accesses));
      put("tfm.l1_accesses_saved", filter_->lines_.saved());
    }
  }
  // Dynamic energy per event (tfm_energy.h) and the leakage of the arrays (two 256 B TBA sets or
  // a 512 B filter per core) at the model's SRAM leakage per KiB.
  void energy(const MemoryHierarchy& h, const EnergyParams& p, uint64_t cycles, std::vector<StructureEnergy>& out) override {
    StructureEnergy e{"tfm", true};
    if (conventional_) {  // no structure in front of L1: its lookups are charged as L1 reads
      out.push_back(e);
      return;
    }
    if (tfm_) {
      const tfm::TfmCounters c = tfm_->totals();
      e.reads = c.accesses;
      e.writes = c.fills;
      e.dynamic_nj = tfm::front_energy_pj(c, p.tech) * 1e-3;
    } else {
      const tfm::FilterCounters& c = filter_->caches().counters();
      e.reads = c.accesses;
      e.writes = c.fills;
      e.dynamic_nj = tfm::front_energy_pj(c, p.tech) * 1e-3;
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
  std::shared_ptr<ConventionalFrontBuffer> conventional_;
};

SchemeVariant variant(FrontKind kind, std::string description) {
  const std::string name(tfm::front_name(kind));
  return parameter_variant(name, std::move(description), "tfm.front", name);
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
  s.variants.push_back(variant(FrontKind::Conventional,
                               "the conventional texture unit of Algorithm 1: one L1 lookup per texel read, four per bilinear "
                               "sample (Fig. 9's baseline, Fig. 8 case 1)"));
  // Fig. 8 case 2 (Antochi et al.): the conventional unit with a 512 B direct-mapped L1 and no
  // 16 KiB one, the L2 of the preset behind it.
  SchemeVariant l1_dm512;
  l1_dm512.name = "l1-dm512";
  l1_dm512.description = "the conventional unit of Algorithm 1 with a 512 B direct-mapped L1 texture cache (Fig. 8 case 2)";
  l1_dm512.apply = [](ParamSet& p) {
    p.set("tfm.front", std::string(tfm::front_name(FrontKind::Conventional)));
    p.set("l1tex.size", "512");
    p.set("l1tex.ways", "1");
  };
  l1_dm512.sets = {"l1tex.size", "l1tex.ways"};
  s.variants.push_back(std::move(l1_dm512));
  s.make = [](const ParamSet& p) { return std::make_unique<TfmInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
