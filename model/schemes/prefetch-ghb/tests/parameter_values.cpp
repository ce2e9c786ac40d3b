// The second value of each of this scheme's parameters, for the every-parameter test
// (tests/model/every_parameter_test.cpp): set alone on the scheme's configuration, each changes
// some output of a constructed run, or the run is refused.
#include "scheme_parameters.h"

namespace tessera::model {
namespace {

const RegisterSchemeParameters kValues({
    "prefetch-ghb",
    {},
    {
        {"ghb.entries", {"3"}},
        {"ghb.index_entries", {"1"}},
        {"ghb.degree", {"1"}}
    }});

}  // namespace
}  // namespace tessera::model
