// DTexL's quad scheduler (paper 001 section III-B): a quad goes to the core its subtile is
// assigned to in its tile: the grouping (Fig. 6) names the subtile, the assignment (Fig. 8) the
// core of each subtile in each tile of the processing order.
#pragma once

#include <cstdint>

#include "quad_grouping.h"
#include "subtile_assignment.h"
#include "tessera/model/hooks.h"

namespace tessera::model::dtexl {

class DtexlScheduler final : public QuadScheduler {
 public:
  DtexlScheduler(Grouping grouping, Assignment assignment) : grouping_(grouping), assignment_(assignment) {}
  uint32_t core(const PassInfo& pass, const TileRef& tile, uint32_t seq, uint32_t x, uint32_t y, uint32_t cores) override;
  void frame_begin() override;
  // Tile transitions with a shared edge this frame, and those whose edge subtiles kept their core.
  uint64_t transitions() const { return transitions_ + assigner_.transitions(); }
  uint64_t edge_kept() const { return edge_kept_ + assigner_.edge_kept(); }

 private:
  void flush_counts();

  Grouping grouping_;
  Assignment assignment_;
  SubtileAssigner assigner_{Assignment::Const, {}};
  uint32_t seq_ = UINT32_MAX;
  uint32_t cores_ = 0;
  uint64_t transitions_ = 0, edge_kept_ = 0;
};

}  // namespace tessera::model::dtexl
