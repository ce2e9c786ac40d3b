// The second value of each of this scheme's parameters, for the every-parameter test
// (tests/model/every_parameter_test.cpp): set alone on the scheme's configuration, each changes
// some output of a constructed run, or the run is refused. The global and inter-warp tables and
// promotion need several warps per core (tegra2 runs one).
#include "scheme_parameters.h"

namespace tessera::model {
namespace {

const RegisterSchemeParameters kValues({
    "prefetch-mta",
    {},
    {
        {"mta.pws_entries", {"1"}},
        {"mta.gs_entries", {"1", {"core.max_quads=16", "mta.throttle=false"}}},
        {"mta.ip_entries", {"1", {"core.max_quads=16", "mta.throttle=false"}}},
        {"mta.promote_warps", {"1", {"core.max_quads=16", "mta.throttle=false"}}},
        {"mta.train_accesses", {"2"}},
        {"mta.distance", {"2"}},
        {"mta.degree", {"3"}},
        {"mta.throttle", {"false"}},
        {"mta.period", {"50"}},
        {"mta.throttle_initial", {"0"}}
    }});

}  // namespace
}  // namespace tessera::model
