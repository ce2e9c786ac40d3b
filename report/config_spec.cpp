#include "config_spec.h"

#include <stdexcept>

namespace tessera::report {

ConfigSpec ConfigSpec::parse(const std::string& name) {
  if (name.empty()) throw std::invalid_argument("empty configuration name");
  ConfigSpec spec;
  size_t begin = 0;
  for (bool first = true;; first = false) {
    const size_t end = name.find('+', begin);
    const std::string part = name.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (part.empty()) throw std::invalid_argument("configuration '" + name + "': empty part between '+'");
    if (first) {
      if (part.find('=') != std::string::npos)
        throw std::invalid_argument("configuration '" + name + "': it starts with an override, not a preset");
      spec.preset = part;
    } else if (part.find('=') != std::string::npos) {
      spec.overrides.push_back(part);
    } else {
      spec.schemes.push_back(part);
    }
    if (end == std::string::npos) break;
    begin = end + 1;
  }
  return spec;
}

}  // namespace tessera::report
