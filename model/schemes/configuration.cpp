#include "tessera/model/configuration.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace tessera::model {

std::string_view hook_name(HookKind kind) {
  switch (kind) {
    case HookKind::QuadScheduler: return "quad scheduler";
    case HookKind::TextureOrganisation: return "texture organisation";
    case HookKind::TileOrganisation: return "tile-cache organisation";
    case HookKind::Prefetcher: return "texture prefetcher";
    case HookKind::FrontBuffer: return "buffer in front of L1";
  }
  return "?";
}

SchemeRegistry& SchemeRegistry::global() {
  static SchemeRegistry* registry = [] {
    auto* r = new SchemeRegistry();
    register_schemes(*r);
    return r;
  }();
  return *registry;
}

void SchemeRegistry::add(SchemeInfo scheme) {
  if (find_scheme(scheme.name)) throw ParamError("scheme '" + scheme.name + "' registered twice");
  for (const SchemeVariant& v : scheme.variants) {
    if (scheme_of_variant(v.name)) throw ParamError("variant '" + v.name + "' registered twice");
    const std::vector<PresetInfo> known = presets();
    const bool is_preset = std::any_of(known.begin(), known.end(), [&](const PresetInfo& p) { return p.name == v.name; });
    if (is_preset) throw ParamError("variant '" + v.name + "' has a preset's name");
  }
  schemes_.push_back(std::move(scheme));
}

const SchemeInfo* SchemeRegistry::find_scheme(std::string_view name) const {
  for (const SchemeInfo& s : schemes_) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const SchemeInfo* SchemeRegistry::scheme_of_variant(std::string_view variant, const SchemeVariant** found) const {
  for (const SchemeInfo& s : schemes_) {
    for (const SchemeVariant& v : s.variants) {
      if (v.name == variant) {
        if (found) *found = &v;
        return &s;
      }
    }
  }
  return nullptr;
}

const ParamRegistry& registry_for(const std::vector<const SchemeInfo*>& schemes) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<ParamRegistry>> registries;
  std::vector<std::string> names;
  for (const SchemeInfo* s : schemes) names.push_back(s->name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string key;
  for (const auto& n : names) key += n + "+";
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = registries.find(key);
  if (it == registries.end()) {
    auto r = std::make_unique<ParamRegistry>(ParamRegistry::model());
    for (const auto& n : names) {
      for (const SchemeInfo* s : schemes) {
        if (s->name != n) continue;
        for (const ParamSpec& p : s->params) r->add(p);
        break;
      }
    }
    it = registries.emplace(key, std::move(r)).first;
  }
  return *it->second;
}

namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t at = s.find(sep, start);
    out.emplace_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) break;
    start = at + 1;
  }
  return out;
}

std::string known_presets() {
  std::string known;
  for (const auto& p : presets()) known += (known.empty() ? "" : ", ") + std::string(p.name);
  return known;
}

// `scheme` (named by its variant) declares a conflict with a seam `other` takes.
void refuse_conflicts(const std::string& what, const SchemeInfo& scheme, const std::string& variant,
                      const SchemeInfo& other, const std::string& other_variant) {
  for (const HookConflict& c : scheme.conflicts) {
    if (std::find(other.hooks.begin(), other.hooks.end(), c.hook) == other.hooks.end()) continue;
    throw ParamError(what + variant + " cannot run with " + other_variant + " (the " + std::string(hook_name(c.hook)) +
                     "): " + c.why);
  }
}

}  // namespace

Configuration parse_configuration(std::string_view spec, const SchemeRegistry& registry) {
  const std::string what = "configuration '" + std::string(spec) + "': ";
  const std::vector<std::string> tokens = split(spec, '+');
  Configuration c;
  c.preset = tokens[0];
  const std::vector<PresetInfo> known = presets();
  if (!std::any_of(known.begin(), known.end(), [&](const PresetInfo& p) { return p.name == c.preset; })) {
    throw ParamError(what + "unknown preset '" + c.preset + "' (known: " + known_presets() + ")");
  }
  std::vector<std::pair<std::string, const SchemeVariant*>> variants;
  std::vector<std::string> overrides;
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string& t = tokens[i];
    if (t.empty()) throw ParamError(what + "an empty name between '+'");
    if (t.find('=') != std::string::npos) {
      overrides.push_back(t);
      continue;
    }
    const SchemeVariant* v = nullptr;
    const SchemeInfo* s = registry.scheme_of_variant(t, &v);
    if (!s) throw ParamError(what + "unknown scheme '" + t + "' (tessera schemes --list names every one)");
    variants.emplace_back(t, v);
  }
  std::sort(variants.begin(), variants.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < variants.size(); ++i) {
    const SchemeInfo* si = registry.scheme_of_variant(variants[i].first);
    for (size_t j = 0; j < i; ++j) {
      const SchemeInfo* sj = c.schemes[j];
      if (si == sj) {
        throw ParamError(what + variants[j].first + " and " + variants[i].first + " are both variants of " + si->name);
      }
      for (HookKind h : si->hooks) {
        if (std::find(sj->hooks.begin(), sj->hooks.end(), h) != sj->hooks.end()) {
          throw ParamError(what + variants[j].first + " and " + variants[i].first + " both take the " +
                           std::string(hook_name(h)) + " hook");
        }
      }
      refuse_conflicts(what, *si, variants[i].first, *sj, variants[j].first);
      refuse_conflicts(what, *sj, variants[j].first, *si, variants[i].first);
      for (const std::string& p : variants[i].second->sets) {
        const auto& other = variants[j].second->sets;
        if (std::find(other.begin(), other.end(), p) != other.end()) {
          throw ParamError(what + variants[j].first + " and " + variants[i].first + " both set " + p);
        }
      }
    }
    c.schemes.push_back(si);
    c.variants.push_back(variants[i].second);
  }
  c.spec = c.preset;
  for (const auto& [name, v] : variants) c.spec += "+" + name;
  c.name = c.spec;
  c.params = make_preset(c.preset, registry_for(c.schemes));
  for (const SchemeVariant* v : c.variants) {
    if (v->apply) v->apply(c.params);
  }
  try {
    for (const std::string& o : overrides) {
      c.params.apply(o);
      c.name += "+" + o;
    }
  } catch (const ParamError& e) {
    throw ParamError(what + e.what());
  }
  return c;
}

std::vector<HookKind> installed_hooks(const Hooks& hooks) {
  std::vector<HookKind> out;
  if (hooks.quad_scheduler) out.push_back(HookKind::QuadScheduler);
  if (hooks.texture_organisation) out.push_back(HookKind::TextureOrganisation);
  if (hooks.tile_organisation) out.push_back(HookKind::TileOrganisation);
  if (hooks.prefetcher) out.push_back(HookKind::Prefetcher);
  if (hooks.front_buffer) out.push_back(HookKind::FrontBuffer);
  return out;
}

void install_scheme(const SchemeInfo& scheme, SchemeInstance& instance, Hooks& hooks) {
  // Installed on hooks of its own first: what it takes is then exactly what it set, which must
  // be what it declares, since parse_configuration refuses two schemes on one seam from the
  // declarations alone.
  Hooks own;
  instance.install(own);
  std::vector<HookKind> declared = scheme.hooks, installed = installed_hooks(own);
  std::sort(declared.begin(), declared.end());
  if (declared != installed) {
    auto names = [](const std::vector<HookKind>& kinds) {
      std::string s;
      for (HookKind k : kinds) s += (s.empty() ? "" : ", ") + std::string(hook_name(k));
      return s.empty() ? std::string("none") : s;
    };
    throw SchemeError("scheme " + scheme.name + " declares the hooks [" + names(declared) + "] but installs [" +
                      names(installed) + "]");
  }
  if (own.quad_scheduler) hooks.quad_scheduler = std::move(own.quad_scheduler);
  if (own.texture_organisation) hooks.texture_organisation = std::move(own.texture_organisation);
  if (own.tile_organisation) hooks.tile_organisation = std::move(own.tile_organisation);
  if (own.prefetcher) hooks.prefetcher = std::move(own.prefetcher);
  if (own.front_buffer) hooks.front_buffer = std::move(own.front_buffer);
  for (auto& o : own.observers) hooks.observers.push_back(std::move(o));
}

std::unique_ptr<GpuModel> Configuration::make_model() const {
  Hooks hooks;
  for (const SchemeInfo* s : schemes) {
    if (!s->make) {
      if (!s->hooks.empty()) throw SchemeError("scheme " + s->name + " declares hooks but makes no instance to install them");
      continue;
    }
    std::shared_ptr<SchemeInstance> instance = s->make(params);
    install_scheme(*s, *instance, hooks);
    hooks.observers.push_back(instance);
  }
  return std::make_unique<GpuModel>(params, std::move(hooks));
}

std::vector<Configuration> build_configurations(const std::vector<std::string>& specs, std::string_view config_file_text,
                                                std::string_view config_file_name,
                                                const std::vector<std::string>& overrides,
                                                const SchemeRegistry& registry) {
  std::vector<Configuration> configs;
  std::set<std::string> names;
  for (const std::string& spec : specs) {
    Configuration c = parse_configuration(spec, registry);
    if (!config_file_text.empty()) c.params.apply_text(config_file_text, config_file_name);
    if (!names.insert(c.name).second) continue;  // the same configuration named twice runs once
    configs.push_back(std::move(c));
  }
  for (const std::string& o : overrides) {
    const size_t eq = o.find('=');
    if (eq == std::string::npos) throw ParamError("'" + o + "' is not of the form key=value");
    std::string key = o.substr(0, eq);
    key.erase(0, key.find_first_not_of(" \t"));
    key.erase(key.find_last_not_of(" \t") + 1);
    bool used = false;
    for (Configuration& c : configs) {
      if (!c.params.registry().find(key)) continue;
      c.params.apply(o);
      c.name += "+" + o;
      used = true;
    }
    if (!used) {
      ParamSet probe(registry_for({}));
      // The model's own message names the nearest parameter; otherwise no configuration has it.
      if (!probe.registry().find(key)) probe.apply(o);
      throw ParamError("--set " + o + ": no configuration of this run has the parameter '" + key + "'");
    }
  }
  return configs;
}

std::vector<std::string> scheme_specs(const std::vector<std::string>& names, const std::vector<std::string>& presets_given,
                                      const SchemeRegistry& registry) {
  std::vector<const SchemeInfo*> chosen;
  const bool all = names.size() == 1 && names[0] == "all";
  if (all) {
    for (const SchemeInfo& s : registry.schemes()) chosen.push_back(&s);
  } else {
    for (const std::string& n : names) {
      const SchemeInfo* s = registry.find_scheme(n);
      if (!s) s = registry.scheme_of_variant(n);
      if (!s) throw ParamError("--schemes: unknown scheme '" + n + "' (tessera schemes lists them)");
      if (std::find(chosen.begin(), chosen.end(), s) == chosen.end()) chosen.push_back(s);
    }
  }
  std::vector<std::string> specs;
  auto add = [&](const std::string& s) {
    if (std::find(specs.begin(), specs.end(), s) == specs.end()) specs.push_back(s);
  };
  for (const SchemeInfo* s : chosen) {
    const std::vector<std::string> on = presets_given.empty() ? std::vector<std::string>{s->preset} : presets_given;
    for (const std::string& preset : on) {
      add(preset);  // the paper's baseline
      for (const SchemeVariant& v : s->variants) add(preset + "+" + v.name);
    }
  }
  for (const SchemeInfo* s : chosen) {
    for (const std::string& combination : s->combinations) {
      // A paper may propose a combination with a scheme this build does not register yet: it
      // runs once every variant it names exists.
      const std::vector<std::string> tokens = split(combination, '+');
      const bool registered = std::all_of(tokens.begin() + 1, tokens.end(), [&](const std::string& t) {
        return t.find('=') != std::string::npos || registry.scheme_of_variant(t) != nullptr;
      });
      if (registered) add(parse_configuration(combination, registry).name);
    }
  }
  return specs;
}

}  // namespace tessera::model
