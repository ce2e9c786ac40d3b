// The frame metrics of a run, emitted from tables of counters (docs/contracts.md names and the
// rest): FrameResults fields, every cache's counters, DRAM, stages, core activity, energy.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "event_queue.h"
#include "model_config.h"
#include "tessera/model/gpu_model.h"
#include "tessera/model/hierarchy.h"

namespace tessera::model {

struct MetricSources {
  const MemoryHierarchy& hierarchy;
  const ModelConfig& config;
  bool texture_organisation = false;  // it reports its own local/remote split
  bool tile_organisation = false;     // it reports its own tile.* counters and lower bound
  bool front_buffer = false;
  const uint64_t* sim_events = nullptr;  // kUnitKinds entries
};

// Appends every frame metric of `r` to r.frame_metrics (r's fields, stages and energy are final).
void emit_frame_metrics(FrameResults& r, const MetricSources& sources);

}  // namespace tessera::model
