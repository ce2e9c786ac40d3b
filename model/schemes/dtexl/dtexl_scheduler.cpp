#include "dtexl_scheduler.h"

namespace tessera::model::dtexl {

void DtexlScheduler::frame_begin() {
  seq_ = UINT32_MAX;
  transitions_ = edge_kept_ = 0;
  assigner_ = SubtileAssigner(assignment_, subtile_grid(grouping_, cores_ ? cores_ : 1));
}

void DtexlScheduler::flush_counts() {
  transitions_ += assigner_.transitions();
  edge_kept_ += assigner_.edge_kept();
}

uint32_t DtexlScheduler::core(const PassInfo& pass, const TileRef& tile, uint32_t seq, uint32_t x, uint32_t y,
                              uint32_t cores) {
  if (seq != seq_) {
    // A new tile in the processing order (seq 0: a new pass or subpass).
    if (cores != cores_ || seq == 0) {
      flush_counts();
      cores_ = cores;
      assigner_ = SubtileAssigner(assignment_, subtile_grid(grouping_, cores));
    }
    assigner_.next_tile(seq, tile.tx, tile.ty);
    seq_ = seq;
  }
  const uint32_t qx = (x - tile.x0) / 2, qy = (y - tile.y0) / 2;
  const uint32_t qw = (pass.tile_width + 1) / 2, qh = (pass.tile_height + 1) / 2;
  const uint32_t s = subtile(grouping_, qx, qy, qw, qh, cores);
  return coarse(grouping_) && grouping_ != Grouping::CgTriangle ? assigner_.core(s) : s;
}

}  // namespace tessera::model::dtexl
