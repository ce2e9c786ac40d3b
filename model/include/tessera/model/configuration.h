// A configuration: a spec `PRESET[+VARIANT[+VARIANT...]]` (docs/contracts.md: `mobile4+dtexl`,
// `mobile32+dtm-nuca+tfm`), built into its full parameter set (the model's parameters and those
// of its schemes) and the hooks its schemes install.
//
// Parameters are applied in this order: the preset, each variant's settings, a configuration
// file, then `--set` overrides. The normalised spec (the preset, then the variants in name
// order) plus `+key=value` for each override is the configuration's name (frame_metrics.config);
// its full parameter set is its identity.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/model/gpu_model.h"
#include "tessera/model/hooks.h"
#include "tessera/model/params.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

struct Configuration {
  std::string name;  // normalised spec + overrides
  std::string spec;  // normalised spec
  std::string preset;
  std::vector<const SchemeVariant*> variants;
  std::vector<const SchemeInfo*> schemes;  // of the variants, same order
  ParamSet params;

  // A fresh model for a run of frames with this configuration's schemes installed.
  std::unique_ptr<GpuModel> make_model() const;
};

// The registry of a configuration's parameters: the model's and those of `schemes` (kept for the
// life of the program, one per distinct set of schemes).
const ParamRegistry& registry_for(const std::vector<const SchemeInfo*>& schemes);

// Parses and normalises `spec` (tokens after the preset may also be `key=value` overrides).
// Throws ParamError with one line naming the spec and the problem: unknown preset or variant, two
// variants of one scheme, two schemes taking the same hook, two variants setting one parameter.
Configuration parse_configuration(std::string_view spec, const SchemeRegistry& schemes = SchemeRegistry::global());

// Builds every configuration: each spec, then the configuration file's lines, then the overrides
// `key=value`, each applied to every configuration that has the key (appended to its name). An
// override no configuration has is refused, naming it.
std::vector<Configuration> build_configurations(const std::vector<std::string>& specs, std::string_view config_file_text,
                                                std::string_view config_file_name,
                                                const std::vector<std::string>& overrides,
                                                const SchemeRegistry& schemes = SchemeRegistry::global());

// The specs `--schemes all` runs (or `--schemes A,B,...` with the named schemes): each scheme's
// variants on its paper's preset (or on each of `presets` when given), the paper presets' own
// baselines, and the combinations the papers propose. Throws ParamError for an unknown scheme.
std::vector<std::string> scheme_specs(const std::vector<std::string>& schemes, const std::vector<std::string>& presets,
                                      const SchemeRegistry& registry = SchemeRegistry::global());

}  // namespace tessera::model
