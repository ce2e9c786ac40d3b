#include "tessera/study/configurations.h"

#include "tessera/model/configuration.h"

namespace tessera::study {

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<std::string> run_specs(const std::vector<std::string>& configs, const std::string& schemes) {
  if (schemes.empty()) {
    return configs.empty() ? std::vector<std::string>{"mobile4", "mobile32"} : configs;
  }
  std::vector<std::string> presets, specs;
  for (const std::string& c : configs) {
    if (c.find('+') == std::string::npos) presets.push_back(c);
    else specs.push_back(c);
  }
  for (const std::string& s : model::scheme_specs(split_list(schemes), presets)) specs.push_back(s);
  return specs;
}

results::Params stored_params(const model::ParamSet& params) {
  results::Params out;
  for (const auto& spec : params.registry().all()) out.emplace_back(spec.name, params.text(spec.name));
  return out;
}

}  // namespace tessera::study
