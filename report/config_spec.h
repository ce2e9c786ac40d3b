// A configuration's name, PRESET[+SCHEME...][+KEY=VALUE...] (docs/contracts.md): the preset,
// the schemes stacked on it, and the --set overrides tessera replay appends. The one place that
// takes a name apart, so a change in how names are written is a change here.
#pragma once

#include <string>
#include <vector>

namespace tessera::report {

struct ConfigSpec {
  std::string preset;
  std::vector<std::string> schemes;
  std::vector<std::string> overrides;  // "key=value", in the order of the name

  // Parts are split at '+'; a part holding '=' is an override, any other a scheme. Throws
  // std::invalid_argument naming the problem for an empty name or an empty part.
  static ConfigSpec parse(const std::string& name);

  // The configuration a report normalises this one to when no --base is given: its plain preset
  // (mobile4 for mobile4+dtexl), the GPU the paper's scheme is added to.
  std::string default_base() const { return preset; }
};

}  // namespace tessera::report
