// DTM-NUCA (paper 000): the private L1 texture caches as a dynamically mapped NUCA over a 2D mesh,
// with a centralized or distributed Affinity Table, and the single-sharer D-NUCA bound.
#include <memory>
#include <stdexcept>
#include <string>

#include "dtm-nuca/nuca_config.h"
#include "dtm-nuca/nuca_organisation.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

using dtm_nuca::DtmNucaConfig;
using dtm_nuca::NucaOrganisation;

class DtmNucaInstance final : public SchemeInstance {
 public:
  explicit DtmNucaInstance(const ParamSet& p) : config_(DtmNucaConfig::from_params(p)) {
    // Refuse a mesh the cores do not fill before any frame runs (one line naming the parameter).
    try {
      config_.mesh_shape(p.get_u32("gpu.shader_cores"));
    } catch (const std::invalid_argument& e) {
      throw ParamError(e.what());
    }
    // The LRU insertion of a requester fill is the LRU policy's (access.h): refused before any frame.
    if (config_.requester_fill && p.get_string("l1tex.policy") != "lru") {
      throw ParamError("nuca.requester_fill=true puts lines at the LRU position of the L1s, which needs "
                       "l1tex.policy=lru (it is " + p.get_string("l1tex.policy") + ")");
    }
  }
  void install(Hooks& hooks) override {
    // One organisation per hierarchy: a new run (sim.cold_caches, or after a failed frame) starts
    // from empty tables as it starts from empty caches.
    hooks.texture_organisation = [this](MemoryHierarchy& h) {
      auto organisation = std::make_unique<NucaOrganisation>(config_, h);
      organisation_ = organisation.get();
      return organisation;
    };
  }
  void frame_begin(MemoryHierarchy&) override { organisation_->begin_frame(); }
  void frame_end(const MemoryHierarchy&, FrameResults& r) override { organisation_->append_metrics(r); }
  void energy(const MemoryHierarchy&, const EnergyParams& p, uint64_t cycles, std::vector<StructureEnergy>& out) override {
    organisation_->append_energy(p, cycles, out);
  }

 private:
  DtmNucaConfig config_;
  NucaOrganisation* organisation_ = nullptr;  // owned by the run's hierarchy
};

SchemeVariant variant(dtm_nuca::Organisation organisation, std::string description) {
  const std::string name = dtm_nuca::organisation_name(organisation);
  return parameter_variant(name, std::move(description), "nuca.organisation", name);
}

}  // namespace

void register_dtm_nuca(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "dtm-nuca";
  s.paper = "000";
  s.section = "III, IV, VI";
  s.description = "DTM-NUCA: the private L1 texture caches as one NUCA, blocks placed at the owner of their bucket";
  s.preset = "mobile32";
  s.params = dtm_nuca::params();
  s.hooks = {HookKind::TextureOrganisation};
  // MemoryHierarchy::prefetch_texture writes the requesting core's L1, not the block's place.
  s.conflicts = {{HookKind::Prefetcher,
                  "prefetches would fill the requesting core's L1 directly, outside the NUCA placement of "
                  "each block (the D-NUCA directory would lose track of them)"}};
  s.metrics = NucaOrganisation::metric_names();
  for (const char* e : {"energy.network_nj", "energy.l1tex_remote_probes_nj", "energy.affinity_table_nj",
                        "energy.dnuca_directory_nj"}) {
    s.metrics.emplace_back(e);
  }
  s.variants.push_back(variant(dtm_nuca::Organisation::DtmNuca,
                               "sections III, IV-A: buckets of pages owned by one core, centralized Affinity Table node on a 2D mesh"));
  s.variants.push_back(variant(dtm_nuca::Organisation::DtmNucaDist,
                               "section IV-B: one Affinity Table per core, synchronised lazily by an epoch broadcast"));
  s.variants.push_back(variant(dtm_nuca::Organisation::DNuca,
                               "section VI's bound: a single-sharer directory sized by L2, migration only on eviction"));
  // DTexL (paper 001) takes the quad scheduler, DTM-NUCA the texture organisation: they combine.
  s.combinations = {"mobile4+dtexl+dtm-nuca"};
  s.make = [](const ParamSet& p) { return std::make_unique<DtmNucaInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
