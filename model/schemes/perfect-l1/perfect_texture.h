// Perfect texture caches (paper 002 section 3, Fig. 3a: "3.29x average speedup when using perfect
// caches"): a texture organisation in which every texture request hits its core's L1 at the L1's
// hit latency. Lines a real L1 would miss are put in its L1 at once, without a fetch or a prefetch
// (l1tex.installs), and nothing goes below the L1s. perfect-l1 installs it alone; perfect-memory
// (../perfect-memory/) with the pixel caches and the tile fetcher's reads perfect too.
#pragma once

#include <stdexcept>
#include <string>

#include "tessera/model/hierarchy.h"

namespace tessera::model {

class PerfectTextureOrganisation final : public TextureOrganisation {
 public:
  MemResponse access(MemoryHierarchy& h, const MemRequest& r, uint64_t now) override {
    if (r.unit >= h.config().shader_cores) {
      throw std::out_of_range("texture request for shader core " + std::to_string(r.unit) + " of " +
                              std::to_string(h.config().shader_cores));
    }
    AnyCache& l1 = h.l1tex(r.unit);
    // Allocated with no fill pending (ready at cycle 0): the access below hits at once. Nothing
    // is read below, so neither l1tex.fetches nor l1tex.prefetches counts it.
    l1.install(r.addr, AccessInfo{});
    l1.access(r.addr, false, 0, AccessInfo{r.next_use, r.priority_class, false}, now);
    if (h.config().track_replication) h.record_replication(r.addr);
    return {h.config().l1tex.hit_latency, ServedBy::L1, 0};
  }
};

}  // namespace tessera::model
