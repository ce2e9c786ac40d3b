// Schemes of the papers as configurations (ChampSim style: one folder per scheme under
// model/schemes/<name>/). A scheme declares what it is (name, paper and section, one-line
// description), its parameters (registered by the scheme, not in params.cpp), the hooks of the
// timing model it takes (hooks.h), the metrics it emits, and its variants: the names a
// configuration spec `PRESET[+VARIANT[+VARIANT...]]` uses (`mobile4+dtexl`, `mobile32+dtm-nuca+tfm`).
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/model/gpu_model.h"
#include "tessera/model/hooks.h"
#include "tessera/model/params.h"

namespace tessera::model {

// The seams a scheme can take. Two schemes that take the same one cannot run together.
enum class HookKind {
  QuadScheduler,
  TextureOrganisation,
  TileOrganisation,
  Prefetcher,
  FrontBuffer,
};
std::string_view hook_name(HookKind kind);
// The seams a Hooks sets, in HookKind order.
std::vector<HookKind> installed_hooks(const Hooks& hooks);

class SchemeInstance;
struct SchemeInfo;
// Installs `instance` of `scheme` into `hooks` (Configuration::make_model does it for each scheme
// of a configuration; the instance is not added to the observers). Throws SchemeError when it
// installs other seams than `scheme` declares.
void install_scheme(const SchemeInfo& scheme, SchemeInstance& instance, Hooks& hooks);

// A scheme that breaks its own declaration (scheme.h's SchemeInfo::hooks): a defect of the
// scheme, not of the configuration that names it.
class SchemeError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// A seam this scheme does not take but cannot run beside when another scheme takes it (its
// replacement breaks an assumption of this one): a configuration naming both is refused, `why`
// (one line) saying what would go wrong.
struct HookConflict {
  HookKind hook;
  std::string why;
};

// One scheme inside one configuration: it installs its hooks, sees every frame begin and end,
// and adds its own metrics to the frame's results (named after the scheme, `dtexl.*`, unless the
// results database contract fixes another name, docs/contracts.md).
class SchemeInstance : public FrameObserver {
 public:
  virtual void install(Hooks& hooks) = 0;
};

// A runnable variant: the name a spec uses, and the parameter values it sets on the preset.
struct SchemeVariant {
  std::string name;         // e.g. dtexl-hlb-flp2
  std::string description;  // one line
  // Applied to the configuration's parameters after the preset (scheme parameters and model
  // parameters such as gpu.barrier); may read the preset (e.g. "4x the L1 of one core").
  std::function<void(ParamSet&)> apply;
  // Model parameters `apply` may set: two variants of one configuration may not both set one.
  std::vector<std::string> sets;
};

// The usual variant: one of its scheme's own parameters set to one value.
inline SchemeVariant parameter_variant(std::string name, std::string description, std::string key,
                                       std::string value) {
  SchemeVariant v;
  v.name = std::move(name);
  v.description = std::move(description);
  v.apply = [key = std::move(key), value = std::move(value)](ParamSet& p) { p.set(key, value); };
  return v;
}

struct SchemeInfo {
  std::string name;         // the folder, e.g. dtexl
  std::string paper;        // e.g. 001
  std::string section;      // e.g. "III"
  std::string description;  // one line
  std::string preset;       // the paper's baseline preset (--schemes all runs the variants on it)
  std::vector<ParamSpec> params;
  std::vector<HookKind> hooks;
  std::vector<HookConflict> conflicts;
  std::vector<std::string> metrics;
  std::vector<SchemeVariant> variants;
  // Specs of the combinations the paper proposes, beyond single variants (--schemes all).
  std::vector<std::string> combinations;
  // One instance per configuration that names a variant of this scheme; null when the scheme
  // only sets parameters.
  std::function<std::unique_ptr<SchemeInstance>(const ParamSet&)> make;
};

class SchemeRegistry {
 public:
  // Every scheme of model/schemes (the registry generated from the folders), in registration order.
  static SchemeRegistry& global();
  // Throws ParamError on a duplicate scheme or variant name.
  void add(SchemeInfo scheme);
  const std::vector<SchemeInfo>& schemes() const { return schemes_; }
  const SchemeInfo* find_scheme(std::string_view name) const;
  // The scheme a variant belongs to, or nullptr.
  const SchemeInfo* scheme_of_variant(std::string_view variant, const SchemeVariant** found = nullptr) const;

 private:
  std::vector<SchemeInfo> schemes_;
};

// Registers every scheme folder's scheme (called once by SchemeRegistry::global()).
void register_schemes(SchemeRegistry& registry);

}  // namespace tessera::model
