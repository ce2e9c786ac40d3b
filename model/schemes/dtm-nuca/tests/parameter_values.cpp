// The second value of each of this scheme's parameters, for the every-parameter test
// (tests/model/every_parameter_test.cpp): set alone on the scheme's configuration, each changes
// some output of a constructed run, or the run is refused.
#include "scheme_parameters.h"

namespace tessera::model {
namespace {

const RegisterSchemeParameters kValues({
    "dtm-nuca",
    {},
    {
        {"nuca.organisation", {"d-nuca"}},
        {"nuca.buckets", {"4"}},
        {"nuca.counter_bits", {"2"}},
        {"nuca.page_blocks", {"1"}},
        {"nuca.hop_latency", {"3"}},
        {"nuca.epoch_accesses", {"100"}},
        {"nuca.hysteresis", {"0"}},
        {"nuca.count_hits", {"false"}},
        {"nuca.mesh_cols", {"4"}},
        {"nuca.flit_bytes", {"32"}},
        {"nuca.router_buffer", {"1"}},
        {"nuca.table_latency", {"3"}},
        {"nuca.directory_latency", {"4", {"nuca.organisation=d-nuca"}}},
        {"nuca.owner_lookup", {"true"}},
        {"nuca.requester_fill", {"true"}}
    }});

}  // namespace
}  // namespace tessera::model
