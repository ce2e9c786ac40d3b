// The second value of each of this scheme's parameters, for the every-parameter test
// (tests/model/every_parameter_test.cpp): set alone on the scheme's configuration, each changes
// some output of a constructed run, or the run is refused.
#include "scheme_parameters.h"

namespace tessera::model {
namespace {

const RegisterSchemeParameters kValues({
    "dtexl",
    {},
    {
        {"dtexl.grouping", {"CG-xrect"}},
        {"dtexl.assignment", {"const"}}
    }});

}  // namespace
}  // namespace tessera::model
