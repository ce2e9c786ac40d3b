#include "tfm/scheme.h"

#include <stdexcept>

namespace tessera::model::tfm {

std::string_view front_name(FrontKind kind) {
  switch (kind) {
    case FrontKind::Tfm: return "tfm";
    case FrontKind::FilterDirectMapped512: return "filter-dm512";
    case FrontKind::FilterFullyAssociative512: return "filter-fa512";
    case FrontKind::Conventional: return "conventional-tu";
  }
  return "tfm";
}

FrontKind front_kind(std::string_view name) {
  for (FrontKind k : {FrontKind::Tfm, FrontKind::FilterDirectMapped512, FrontKind::FilterFullyAssociative512,
                      FrontKind::Conventional}) {
    if (front_name(k) == name) return k;
  }
  throw std::invalid_argument("TFM: unknown front structure '" + std::string(name) +
                              "' (tfm, filter-dm512, filter-fa512, conventional-tu)");
}

std::vector<ParamSpec> params() {
  return {
      ParamSpec{"tfm.front", ParamType::String, "tfm",
                "structure in front of each L1 texture cache: the Texture Filter Memory, a 512 B filter cache "
                "(paper 004 Fig. 8), or none with one L1 lookup per texel read (conventional-tu, Algorithm 1)",
                0, 0, {"tfm", "filter-dm512", "filter-fa512", "conventional-tu"}},
      ParamSpec{"tfm.latency", ParamType::Int, "1", "cycles of a hit in the buffer in front of L1 (TFM or filter cache)", 0, 1000, {}},
      ParamSpec{"tfm.fill_latency", ParamType::Int, "0",
                "cycles a fill from L1 into the buffer adds beyond the L1 read (paper 004 section IV: none, the "
                "buffer fills in two of its cycles and stays within an L1 access time); raise it for a slower fill",
                0, 1000, {}},
      ParamSpec{"tfm.replacement", ParamType::String, "lru",
                "replacement within a Texture Buffer Array set (the paper names none; lru is our choice)", 0, 0,
                {"lru", "fifo"}},
  };
}

TfmConfig TfmConfig::from_params(const ParamSet& p) {
  TfmConfig c;
  c.front = front_kind(p.get_string("tfm.front"));
  c.latency = p.get_u32("tfm.latency");
  c.fill_latency = p.get_u32("tfm.fill_latency");
  c.replacement = tba_replacement(p.get_string("tfm.replacement"));
  // The replacement choice is the Texture Buffer Array's: the filter caches of Fig. 8 are the
  // paper's direct-mapped (no choice) and LRU fully associative caches.
  const ParamSet defaults(p.registry());
  // The conventional unit has no buffer in front of L1: its latencies and replacement do nothing.
  if (c.front == FrontKind::Conventional) {
    for (const char* name : {"tfm.latency", "tfm.fill_latency", "tfm.replacement"}) {
      if (p.text(name) == defaults.text(name)) continue;
      throw ParamError(std::string(name) + "=" + p.text(name) +
                       " does nothing with tfm.front=conventional-tu (no buffer in front of L1: every texel read "
                       "looks up L1, paper 004 Algorithm 1); leave it at " + defaults.text(name));
    }
  }
  if (c.front != FrontKind::Tfm && c.front != FrontKind::Conventional &&
      p.text("tfm.replacement") != defaults.text("tfm.replacement")) {
    throw ParamError("tfm.replacement=" + p.text("tfm.replacement") + " does nothing with tfm.front=" +
                     std::string(front_name(c.front)) +
                     " (it chooses the Texture Buffer Array's replacement; the 512 B filter caches are direct-mapped "
                     "or LRU, paper 004 Fig. 8); leave it at " + defaults.text("tfm.replacement"));
  }
  return c;
}

}  // namespace tessera::model::tfm
