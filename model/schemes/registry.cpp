// Every scheme folder registers its scheme here, in the order `tessera schemes` lists them.
#include "tessera/model/scheme.h"

namespace tessera::model {

void register_dtexl(SchemeRegistry& registry);
void register_dtm_nuca(SchemeRegistry& registry);
void register_tcor(SchemeRegistry& registry);
void register_tfm(SchemeRegistry& registry);
void register_dae(SchemeRegistry& registry);
void register_perfect_l1(SchemeRegistry& registry);
void register_prefetch_ghb(SchemeRegistry& registry);

void register_schemes(SchemeRegistry& registry) {
  register_dtexl(registry);
  register_dtm_nuca(registry);
  register_tcor(registry);
  register_tfm(registry);
  register_dae(registry);
  register_perfect_l1(registry);
  register_prefetch_ghb(registry);
}

}  // namespace tessera::model
