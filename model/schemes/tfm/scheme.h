// What the TFM scheme folder declares to the scheme registry (paper 004): its parameters (names
// are contracts), configuration and metric names. The variants share this folder: tfm (the
// Texture Filter Memory in front of each L1 texture cache) and the two filter caches of Fig. 8.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/model/params.h"
#include "tfm/filter_cache.h"
#include "tfm/texture_buffer_array.h"

namespace tessera::model::tfm {

// Which structure sits in front of L1 (set by the variants). Conventional: none; every texel read
// of Algorithm 1 is an L1 lookup (Fig. 9's conventional texture unit, Fig. 8 cases 1 and 2).
enum class FrontKind : uint8_t { Tfm, FilterDirectMapped512, FilterFullyAssociative512, Conventional };
std::string_view front_name(FrontKind kind);  // tfm, filter-dm512, filter-fa512, conventional-tu
// Throws std::invalid_argument on another name.
FrontKind front_kind(std::string_view name);

// The tfm.* parameters, ready to register.
std::vector<ParamSpec> params();

struct TfmConfig {
  FrontKind front = FrontKind::Tfm;  // tfm.front
  uint32_t latency = 1;              // tfm.latency: a TFM (or filter cache) hit
  uint32_t fill_latency = 0;         // tfm.fill_latency: what a fill adds beyond the L1 read
  TbaReplacement replacement = TbaReplacement::Lru;

  // A lookup that misses costs latency + the L1's time + fill_latency (shader_core.cpp).
  static TfmConfig from_params(const ParamSet& params);
};

// Metrics the scheme adds (tfm.hits, energy.texture_path_pj_per_access come from the model for
// every front buffer and configuration).
inline constexpr std::string_view kTfmMetrics[] = {
    "tfm.accesses", "tfm.misses", "tfm.direct", "tfm.lookups", "tfm.case1", "tfm.case2", "tfm.case3", "tfm.case4",
    "tfm.irregular", "tfm.set_switches", "tfm.l1_accesses_saved",
};
inline constexpr std::string_view kFilterMetrics[] = {
    "tfm.accesses", "tfm.misses", "tfm.lookups", "tfm.l1_accesses_saved",
};

}  // namespace tessera::model::tfm
