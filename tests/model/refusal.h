// The one line a configuration spec is refused with, for tests of what a scheme refuses: the
// ParamError of parsing it or of making its model, or "accepted" when neither throws.
#pragma once

#include <string>

#include "tessera/model/configuration.h"

namespace tessera::model::testing {

inline std::string refusal(const std::string& spec) {
  try {
    parse_configuration(spec).make_model();
  } catch (const ParamError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace tessera::model::testing
