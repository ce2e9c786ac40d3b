// The second value of each of this scheme's parameters, for the every-parameter test
// (tests/model/every_parameter_test.cpp): set alone on the scheme's configuration, each changes
// some output of a constructed run, or the run is refused.
#include "scheme_parameters.h"

namespace tessera::model {
namespace {

const RegisterSchemeParameters kValues({
    "tcor",
    // The split tile cache needs room for a Primitive List Cache beside the Attribute Cache.
    {"tile.size=2KiB", "tcor.plc_size=1KiB"},
    {
        {"tcor.plc_size", {"512"}},
        {"tcor.opt_bits", {"2"}},
        {"tcor.pb_layout", {"baseline"}},
        {"tcor.policy", {"lru"}}
    }});

}  // namespace
}  // namespace tessera::model
