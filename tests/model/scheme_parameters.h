// The second value of each scheme parameter for the every-parameter test (every_parameter_test.cpp),
// given by the scheme's own folder (model/schemes/<name>/tests/), so that a new scheme brings the
// values its parameters are checked with and no list outside its folder names them.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tessera::model {

// A parameter's second value: set alone on a run, it changes some output, or the run is refused.
struct Alternative {
  Alternative(std::string v, std::vector<std::string> a = {}, bool r = false)
      : value(std::move(v)), also(std::move(a)), refused(r) {}
  std::string value;
  std::vector<std::string> also;  // set on both sides (what the parameter needs to mean something)
  bool refused;                   // the change is a clear refusal of the run
};

struct SchemeParameterValues {
  std::string scheme;               // the folder's scheme name
  std::vector<std::string> base;    // applied to its configuration before each check (room its structures need)
  std::map<std::string, Alternative> alternatives;
};

// Every scheme's values, registered at static initialisation by RegisterSchemeParameters objects
// in the tests linked with the every-parameter test.
const std::vector<SchemeParameterValues>& scheme_parameter_values();

struct RegisterSchemeParameters {
  explicit RegisterSchemeParameters(SchemeParameterValues values);
};

}  // namespace tessera::model
