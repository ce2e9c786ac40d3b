// Perfect texture caches (paper 002 section 3, Fig. 3a: "3.29x average speedup when using perfect
// caches"): every texture request hits its core's L1 at the L1's hit latency, so the upper bound
// of what hiding texture latency can give (perfect_texture.h). Only the texture caches: the pixel
// caches' part of the paper's bound is perfect-memory's (../perfect-memory/README.md).
#include <memory>

#include "perfect-l1/perfect_texture.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

class PerfectL1Instance final : public SchemeInstance {
 public:
  void install(Hooks& hooks) override {
    hooks.texture_organisation = [](MemoryHierarchy&) { return std::make_unique<PerfectTextureOrganisation>(); };
  }
  // An organisation reports the local/remote split (docs/contracts.md): every hit is local.
  // Every L1 fill is an install here.
  void frame_end(const MemoryHierarchy& h, FrameResults& r) override {
    const CacheCounters l1 = h.l1tex_totals();
    r.frame_metrics.emplace_back("l1tex.local_hits", static_cast<double>(l1.hits));
    r.frame_metrics.emplace_back("l1tex.installs", static_cast<double>(l1.fills));
  }
};

}  // namespace

void register_perfect_l1(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "perfect-l1";
  s.paper = "002";
  s.section = "3, Fig. 3";
  s.description = "perfect texture caches: every texture request hits its L1 (Fig. 3a's upper bound)";
  s.preset = "tegra2";
  s.hooks = {HookKind::TextureOrganisation};
  s.conflicts = {{HookKind::Prefetcher,
                  "every texture access already hits its L1, yet each prefetch would still read L2 and DRAM"}};
  s.metrics = {"l1tex.installs", "l1tex.local_hits"};
  SchemeVariant v;
  v.name = "perfect-l1";
  v.description = "section 3: every texture access hits L1 (3.29x over one warp in the paper)";
  v.apply = [](ParamSet&) {};
  s.variants.push_back(std::move(v));
  s.make = [](const ParamSet&) { return std::make_unique<PerfectL1Instance>(); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
