// Every scheme folder registers its scheme here, in the order `tessera schemes` lists them.
#include "tessera/model/scheme.h"

namespace tessera::model {

void register_dtexl(SchemeRegistry& registry);

void register_schemes(SchemeRegistry& registry) { register_dtexl(registry); }

}  // namespace tessera::model
