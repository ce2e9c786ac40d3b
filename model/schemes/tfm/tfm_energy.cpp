#include "tfm/tfm_energy.h"

namespace tessera::model::tfm {

TbaEnergy tba_energy(TechVariant tech) {
  const AccessEnergy row = small_ram(tech, kTbaSetBytes);
  return TbaEnergy{row.read_pj, row.read_pj, kRowsPerLine * row.write_pj};
}

FilterEnergy filter_energy(TechVariant tech) {
  const AccessEnergy row = small_ram(tech, static_cast<double>(kFilterBytes));
  return FilterEnergy{row.read_pj, row.read_pj * kTagBits / 128.0, kRowsPerLine * row.write_pj};
}

double front_energy_pj(const TfmCounters& c, TechVariant tech) {
  const TbaEnergy e = tba_energy(tech);
  return static_cast<double>(c.accesses) * e.texel_read + static_cast<double>(c.lookups) * e.lookup +
         static_cast<double>(c.fills) * e.fill;
}

double front_energy_pj(const FilterCounters& c, TechVariant tech) {
  const FilterEnergy e = filter_energy(tech);
  return static_cast<double>(c.accesses) * e.texel_read + static_cast<double>(c.tag_compares) * e.tag_compare +
         static_cast<double>(c.fills) * e.fill;
}

}  // namespace tessera::model::tfm
