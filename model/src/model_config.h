// The timing model's parameters, read once from a ParamSet (params.h gives each one's meaning).
#pragma once

#include <cstdint>

#include "tessera/model/params.h"
#include "tessera/pipeline/tile_order.h"

namespace tessera::model {

struct ModelConfig {
  uint32_t cores = 4, vertex_processors = 1, line_bytes = 64;
  uint32_t tile_width = 32, tile_height = 32;
  pipeline::TileOrderKind tile_order = pipeline::TileOrderKind::Z;
  bool subtile_barriers = false;       // gpu.barrier=subtile (paper 001 section III-E)
  uint32_t runahead_tiles = 2;         // raster.runahead_tiles (with subtile barriers only)
  uint32_t quads_per_cycle = 1;        // raster.quads_per_cycle
  uint32_t max_quads = 16;             // core.max_quads
  uint32_t issue_lanes = 4, vp_issue_lanes = 4;
  // Shader cost (core.cost): by machine-operation class on the unit that executes each (true), or
  // one issue slot per dynamic SPIR-V instruction of a lane (false, the earlier model).
  bool class_cost = true;
  uint32_t engines = 3;                // core.engines: execution engines per core, a quad each
  uint32_t alu_rate = 2;               // core.alu_rate: scalar operations per lane per cycle
  uint32_t sfu_ops = 4;                // core.sfu_ops: ALU issue slots of a transcendental
  uint32_t varying_rate = 1;           // core.varying_rate: components a core interpolates per cycle (a quad's)
  uint32_t ls_rate = 1;                // core.ls_rate: 32-bit accesses of a quad per cycle
  uint32_t tex_probes_per_cycle = 1;   // tex.probes_per_cycle: bilinear filter probes per cycle
  uint32_t blend_rate = 4;             // blend.fragments_per_cycle
  uint32_t tex_lines_per_cycle = 1, tex_latency = 4;
  uint32_t earlyz_latency = 1, blend_latency = 1, earlyz_inflight = 8;
  uint32_t vertex_queue = 16, triangle_queue = 16, fragment_queue = 64, color_queue = 64;
  bool shared_queues = true;           // queue.scope=shared: queue.fragment / queue.color entries serve every core
  bool shared_earlyz = true;           // gpu.earlyz_scope=shared: one in-flight budget for the GPU
  bool store_depth = false;            // gpu.tile_writeback=store-ops: depth/stencil lines leave the chip too
  uint32_t flush_buffer = 64;          // gpu.flush_buffer: lines of posted tile flushes in flight
  bool perfect_framebuffer = false;    // gpu.framebuffer=perfect: tile loads and flushes touch no memory
  bool tile_opt = false;               // tile.policy=opt: the tile cache needs next-use numbers
  bool cold_caches = false;            // sim.cold_caches

  static ModelConfig from_params(const ParamSet& p) {
    ModelConfig c;
    c.cores = p.get_u32("gpu.shader_cores");
    c.vertex_processors = p.get_u32("gpu.vertex_processors");
    c.line_bytes = p.get_u32("l2.line");
    c.tile_width = p.get_u32("gpu.tile_width");
    c.tile_height = p.get_u32("gpu.tile_height");
    if (!pipeline::parse_tile_order(p.get_string("gpu.tile_order"), &c.tile_order)) {
      throw ParamError("gpu.tile_order: unknown order '" + p.get_string("gpu.tile_order") + "'");
    }
    c.subtile_barriers = p.get_string("gpu.barrier") == "subtile";
    c.runahead_tiles = p.get_u32("raster.runahead_tiles");
    c.quads_per_cycle = p.get_u32("raster.quads_per_cycle");
    c.max_quads = p.get_u32("core.max_quads");
    c.issue_lanes = p.get_u32("core.issue_lanes");
    c.vp_issue_lanes = p.get_u32("vp.issue_lanes");
    c.class_cost = p.get_string("core.cost") == "classes";
    c.engines = p.get_u32("core.engines");
    c.alu_rate = p.get_u32("core.alu_rate");
    c.sfu_ops = p.get_u32("core.sfu_ops");
    c.varying_rate = p.get_u32("core.varying_rate");
    c.ls_rate = p.get_u32("core.ls_rate");
    c.tex_probes_per_cycle = p.get_u32("tex.probes_per_cycle");
    c.blend_rate = p.get_u32("blend.fragments_per_cycle");
    c.tex_lines_per_cycle = p.get_u32("tex.lines_per_cycle");
    c.tex_latency = p.get_u32("tex.latency");
    c.earlyz_latency = p.get_u32("depthbuf.latency");
    c.blend_latency = p.get_u32("colorbuf.latency");
    c.earlyz_inflight = p.get_u32("gpu.earlyz_inflight_quads");
    c.vertex_queue = p.get_u32("queue.vertex");
    c.triangle_queue = p.get_u32("queue.triangle");
    c.fragment_queue = p.get_u32("queue.fragment");
    c.color_queue = p.get_u32("queue.color");
    c.shared_queues = p.get_string("queue.scope") == "shared";
    c.shared_earlyz = p.get_string("gpu.earlyz_scope") == "shared";
    c.store_depth = p.get_string("gpu.tile_writeback") == "store-ops";
    c.flush_buffer = p.get_u32("gpu.flush_buffer");
    c.perfect_framebuffer = p.get_string("gpu.framebuffer") == "perfect";
    c.tile_opt = p.get_string("tile.policy") == "opt";
    c.cold_caches = p.get_bool("sim.cold_caches");
    // Decoupled barriers hold a core's colour bank until the lines it shares with slower cores are
    // written (blend_unit.h); the quads it shades meanwhile wait in its own queues. A queue or an
    // early-Z budget shared with the slower cores would fill with them and stop those cores. Our
    // reading of paper 001's decoupled pipeline (section II-A: "several parallel pipelines that
    // operate independently", section III-E, Fig. 10) is a FIFO per parallel unit.
    if (c.subtile_barriers && (c.shared_queues || c.shared_earlyz)) {
      throw ParamError("gpu.barrier=subtile needs queue.scope=per-core and gpu.earlyz_scope=per-core (paper 001 "
                       "Fig. 10: each parallel unit has its own queues)");
    }
    return c;
  }
};

}  // namespace tessera::model
