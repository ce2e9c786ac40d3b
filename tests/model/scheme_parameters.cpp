#include "scheme_parameters.h"

namespace tessera::model {

namespace {

// A function-local table, so registrations from any translation unit find it constructed.
std::vector<SchemeParameterValues>& table() {
  static std::vector<SchemeParameterValues> values;
  return values;
}

}  // namespace

const std::vector<SchemeParameterValues>& scheme_parameter_values() { return table(); }

RegisterSchemeParameters::RegisterSchemeParameters(SchemeParameterValues values) { table().push_back(std::move(values)); }

}  // namespace tessera::model
