#include "dtm-nuca/network_energy.h"

namespace tessera::model::dtm_nuca {

double network_energy_pj(const MeshCounters& counters) {
  return static_cast<double>(counters.bit_hops) * kLinkPjPerBitMm * kTilePitchMm +
         static_cast<double>(counters.router_bits) * kRouterPjPerBit;
}

double router_leakage_mw(uint32_t routers, uint32_t slots, uint32_t slot_flits, uint32_t flit_bytes, TechVariant tech) {
  const uint32_t charged = slots != 0 ? slots : kDefaultBufferSlots;
  const double buffer_kib = static_cast<double>(kRouterPorts) * charged * slot_flits * flit_bytes / 1024.0;
  return static_cast<double>(routers) * buffer_kib * sram_leakage_mw_per_kib(tech);
}

double table_energy_pj(uint64_t updates, uint64_t reads, uint64_t storage_bits, TechVariant tech) {
  const AccessEnergy e = small_ram(tech, static_cast<double>(storage_bits) / 8.0);
  return static_cast<double>(updates) * (e.read_pj + e.write_pj) + static_cast<double>(reads) * e.read_pj;
}

}  // namespace tessera::model::dtm_nuca
