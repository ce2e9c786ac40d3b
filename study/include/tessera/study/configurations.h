// What a study simulates and how a configuration is stored, shared by `tessera replay` and
// `tessera sweep` so that a sweep plans exactly the configurations replay runs and recognises the
// ones a results database already holds.
#pragma once

#include <string>
#include <vector>

#include "results_db.h"
#include "tessera/model/params.h"

namespace tessera::study {

// Items of a comma list ("dtexl,tcor"), empty items dropped.
std::vector<std::string> split_list(const std::string& text);

// The specs a run simulates: `configs` (default mobile4 and mobile32), and with `schemes` (as
// --schemes: "all" or a comma list) the schemes' variants on the plain presets `configs` names,
// else on each paper's preset, beside the specs in `configs` that name schemes.
// Throws model::ParamError for an unknown scheme.
std::vector<std::string> run_specs(const std::vector<std::string>& configs, const std::string& schemes);

// A configuration's full parameter set as the results database stores it (config_param).
results::Params stored_params(const model::ParamSet& params);

}  // namespace tessera::study
