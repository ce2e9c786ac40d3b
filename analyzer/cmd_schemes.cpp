// tessera schemes: the GPU presets, every model parameter (default, range, description) and, with
// --preset, one preset's full parameter set with any --set overrides applied: what a run would use.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "tessera/model/params.h"

namespace tessera::cli {
namespace {

struct SchemesOptions {
  std::string preset;
  std::vector<std::string> overrides;
};

std::string range_of(const model::ParamSpec& p) {
  if (!p.choices.empty()) {
    std::string s;
    for (const auto& c : p.choices) s += (s.empty() ? "" : "|") + c;
    return s;
  }
  if (p.type == model::ParamType::Int || p.type == model::ParamType::Float) {
    char buf[64];
    std::snprintf(buf, sizeof buf, p.type == model::ParamType::Int ? "%.0f..%.0f" : "%g..%g", p.min, p.max);
    return buf;
  }
  return std::string(model::param_type_name(p.type));
}

int run_schemes(const SchemesOptions& opt) {
  try {
    if (!opt.preset.empty()) {
      auto set = model::make_preset(opt.preset);
      for (const auto& o : opt.overrides) set.apply(o);
      std::printf("%s", set.to_text().c_str());
      return 0;
    }
    std::printf("Presets:\n");
    for (const auto& p : model::presets()) {
      std::printf("  %-10s %.*s\n", std::string(p.name).c_str(), static_cast<int>(p.description.size()),
                  p.description.data());
    }
    std::printf("\nParameters (--set KEY=VALUE; defaults are mobile4):\n");
    size_t name_w = 0, def_w = 0, range_w = 0;
    for (const auto& p : model::ParamRegistry::model().all()) {
      name_w = std::max(name_w, p.name.size());
      def_w = std::max(def_w, p.default_value.size());
      range_w = std::max(range_w, range_of(p).size());
    }
    for (const auto& p : model::ParamRegistry::model().all()) {
      std::printf("  %-*s  %-*s  %-*s  %s\n", static_cast<int>(name_w), p.name.c_str(), static_cast<int>(def_w),
                  p.default_value.c_str(), static_cast<int>(range_w), range_of(p).c_str(), p.description.c_str());
    }
    std::printf("\nSchemes: none yet (DTM-NUCA, DTexL, DAE, TCOR and TFM plug into the model's hooks).\n");
    return 0;
  } catch (const model::ParamError& e) {
    std::fprintf(stderr, "tessera schemes: %s\n", e.what());
    return 1;
  }
}

}  // namespace

void setup_schemes(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<SchemesOptions>();
  auto* cmd = app.add_subcommand("schemes", "List GPU presets, model parameters and schemes");
  cmd->add_option("--preset", opt->preset, "Print this preset's full parameter set (key=value)");
  cmd->add_option("--set", opt->overrides, "Override a parameter (KEY=VALUE), with --preset");
  cmd->callback([opt, exit_code] { *exit_code = run_schemes(*opt); });
}

}  // namespace tessera::cli
