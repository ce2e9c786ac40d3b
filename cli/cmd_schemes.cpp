// tessera schemes [--list] [--preset SPEC [--set K=V ...]]
//
// The GPU presets, every model parameter, and every scheme of the papers with its paper and
// section, description, hooks, parameters (default, range, description), metrics and variants.
// --list prints one runnable configuration spec per line (what --schemes all runs);
// --preset prints one configuration's full parameter set, overrides applied: what a run would use.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "tessera/model/configuration.h"
#include "tessera/model/params.h"
#include "tessera/model/scheme.h"

namespace tessera::cli {
namespace {

struct SchemesOptions {
  bool list = false;
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

void print_params(const std::vector<model::ParamSpec>& params, const char* indent) {
  size_t name_w = 0, def_w = 0, range_w = 0;
  for (const auto& p : params) {
    name_w = std::max(name_w, p.name.size());
    def_w = std::max(def_w, p.default_value.size());
    range_w = std::max(range_w, range_of(p).size());
  }
  for (const auto& p : params) {
    std::printf("%s%-*s  %-*s  %-*s  %s\n", indent, static_cast<int>(name_w), p.name.c_str(), static_cast<int>(def_w),
                p.default_value.c_str(), static_cast<int>(range_w), range_of(p).c_str(), p.description.c_str());
  }
}

int run_schemes(const SchemesOptions& opt) {
  try {
    const model::SchemeRegistry& registry = model::SchemeRegistry::global();
    if (!opt.preset.empty()) {
      const std::vector<model::Configuration> configs = model::build_configurations({opt.preset}, "", "", opt.overrides);
      std::printf("%s", configs.front().params.to_text().c_str());
      return 0;
    }
    if (opt.list) {
      for (const auto& p : model::presets()) std::printf("%.*s\n", static_cast<int>(p.name.size()), p.name.data());
      for (const std::string& spec : model::scheme_specs({"all"}, {})) {
        if (spec.find('+') != std::string::npos) std::printf("%s\n", spec.c_str());
      }
      return 0;
    }
    std::printf("Presets:\n");
    for (const auto& p : model::presets()) {
      std::printf("  %-12s %.*s\n", std::string(p.name).c_str(), static_cast<int>(p.description.size()), p.description.data());
    }
    std::printf("\nModel parameters (--set KEY=VALUE; defaults are mobile4):\n");
    print_params(model::ParamRegistry::model().all(), "  ");
    std::printf("\nSchemes (a configuration is PRESET[+VARIANT...], e.g. mobile4+dtexl):\n");
    for (const model::SchemeInfo& s : registry.schemes()) {
      std::printf("\n  %s  (paper %s, section %s; runs on %s)\n    %s\n", s.name.c_str(), s.paper.c_str(),
                  s.section.c_str(), s.preset.c_str(), s.description.c_str());
      std::string hooks;
      for (model::HookKind h : s.hooks) hooks += (hooks.empty() ? "" : ", ") + std::string(model::hook_name(h));
      std::printf("    hooks: %s\n", hooks.empty() ? "none (parameters only)" : hooks.c_str());
      if (!s.params.empty()) {
        std::printf("    parameters:\n");
        print_params(s.params, "      ");
      }
      std::string metrics;
      for (const auto& m : s.metrics) metrics += (metrics.empty() ? "" : ", ") + m;
      std::printf("    metrics: %s\n    variants:\n", metrics.c_str());
      for (const model::SchemeVariant& v : s.variants) std::printf("      %-22s %s\n", v.name.c_str(), v.description.c_str());
      for (const std::string& c : s.combinations) std::printf("    combination: %s\n", c.c_str());
    }
    return 0;
  } catch (const model::ParamError& e) {
    std::fprintf(stderr, "tessera schemes: %s\n", e.what());
    return 1;
  }
}

}  // namespace

void setup_schemes(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<SchemesOptions>();
  auto* cmd = app.add_subcommand("schemes", "List GPU presets, model parameters and the papers' schemes");
  cmd->add_flag("--list", opt->list, "Print one runnable configuration spec per line");
  cmd->add_option("--preset", opt->preset, "Print this configuration's full parameter set (key=value), e.g. mobile4+dtexl");
  cmd->add_option("--set", opt->overrides, "Override a parameter (KEY=VALUE), with --preset");
  cmd->callback([opt, exit_code] { *exit_code = run_schemes(*opt); });
}

}  // namespace tessera::cli
