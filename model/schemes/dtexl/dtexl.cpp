// DTexL (paper 001): quad groupings, tile orders and subtile assignments that keep texture blocks
// in one L1, and the decoupled barriers that keep the cores busy despite the imbalance.
#include <memory>
#include <string>

#include "dtexl_scheduler.h"
#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

using dtexl::Assignment;
using dtexl::Grouping;

class DtexlInstance final : public SchemeInstance {
 public:
  explicit DtexlInstance(const ParamSet& p) {
    Grouping g = Grouping::CgSquare;
    Assignment a = Assignment::Const;
    dtexl::parse_grouping(p.get_string("dtexl.grouping"), &g);
    dtexl::parse_assignment(p.get_string("dtexl.assignment"), &a);
    const uint32_t cores = p.get_u32("gpu.shader_cores");
    if (g == Grouping::CgTriangle && cores != 4) {
      throw ParamError("dtexl.grouping=CG-triangle needs 4 shader cores (gpu.shader_cores is " + std::to_string(cores) + ")");
    }
    if (a != Assignment::Const && (!dtexl::coarse(g) || g == Grouping::CgTriangle)) {
      throw ParamError("dtexl.assignment=" + std::string(dtexl::assignment_name(a)) +
                       " flips subtiles on a grid: it needs dtexl.grouping CG-xrect, CG-yrect or CG-square");
    }
    scheduler_ = std::make_shared<dtexl::DtexlScheduler>(g, a);
  }
  void install(Hooks& hooks) override { hooks.quad_scheduler = scheduler_; }
  void frame_end(const MemoryHierarchy&, FrameResults& r) override {
    r.frame_metrics.emplace_back("dtexl.transitions", static_cast<double>(scheduler_->transitions()));
    r.frame_metrics.emplace_back("dtexl.edges_kept", static_cast<double>(scheduler_->edge_kept()));
  }

 private:
  std::shared_ptr<dtexl::DtexlScheduler> scheduler_;
};

// A variant: grouping, assignment, tile order and barriers (the model parameters it sets).
SchemeVariant variant(std::string name, std::string description, Grouping g, Assignment a, std::string order,
                      std::string barrier) {
  SchemeVariant v;
  v.name = std::move(name);
  v.description = std::move(description);
  v.apply = [g, a, order, barrier](ParamSet& p) {
    p.set("dtexl.grouping", dtexl::grouping_name(g));
    p.set("dtexl.assignment", dtexl::assignment_name(a));
    p.set("gpu.tile_order", order);
    p.set("gpu.barrier", barrier);
  };
  v.sets = {"gpu.tile_order", "gpu.barrier"};
  return v;
}

}  // namespace

void register_dtexl(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "dtexl";
  s.paper = "001";
  s.section = "III";
  s.description = "DTexL: texture-locality quad groupings, tile orders and subtile assignments, decoupled barriers";
  s.preset = "mobile4";
  s.params = {
      ParamSpec{"dtexl.grouping", ParamType::String, "CG-square",
                "quad grouping into subtiles (paper 001 Fig. 6; FG-xshift2 is the baseline's)", 0, 0,
                dtexl::grouping_names()},
      ParamSpec{"dtexl.assignment", ParamType::String, "flip2",
                "subtile-to-core assignment along the tile order (paper 001 Fig. 8)", 0, 0, dtexl::assignment_names()},
  };
  s.hooks = {HookKind::QuadScheduler};
  s.metrics = {"dtexl.transitions", "dtexl.edges_kept", "cores.quad_deviation", "cores.imbalance"};
  // Section III: CG-square + Hilbert + HLB-flp2 + decoupled barriers is the proposal (Figs. 17, 18).
  s.variants.push_back(variant("dtexl", "paper 001's proposal: CG-square, Hilbert order, HLB-flp2, decoupled barriers",
                               Grouping::CgSquare, Assignment::Flip2, "hilbert", "subtile"));
  // Fig. 8 / Fig. 16: every subtile assignment (all with decoupled barriers, as DTexL runs them).
  s.variants.push_back(variant("dtexl-zorder-const", "Fig. 8(a): CG-square, Z-order, constant assignment",
                               Grouping::CgSquare, Assignment::Const, "z", "subtile"));
  s.variants.push_back(variant("dtexl-zorder-flp", "Fig. 8(b): CG-square, Z-order, flipped along shared edges",
                               Grouping::CgSquare, Assignment::Flip, "z", "subtile"));
  s.variants.push_back(variant("dtexl-hlb-const", "Fig. 8(c): CG-square, Hilbert order, constant assignment",
                               Grouping::CgSquare, Assignment::Const, "hilbert", "subtile"));
  s.variants.push_back(variant("dtexl-hlb-flp1", "Fig. 8(d): CG-square, Hilbert order, flipped along shared edges",
                               Grouping::CgSquare, Assignment::Flip, "hilbert", "subtile"));
  s.variants.push_back(variant("dtexl-hlb-flp3", "Fig. 8(f): CG-square, Hilbert order, flips, all four turned every 16 tiles",
                               Grouping::CgSquare, Assignment::Flip3, "hilbert", "subtile"));
  s.variants.push_back(variant("dtexl-sorder-const", "Fig. 8(g): CG-yrect, S-order, constant assignment",
                               Grouping::CgYrect, Assignment::Const, "s-hilbert", "subtile"));
  s.variants.push_back(variant("dtexl-sorder-flp", "Fig. 8(h): CG-yrect, S-order, flipped",
                               Grouping::CgYrect, Assignment::Flip2, "s-hilbert", "subtile"));
  // Fig. 17 / 18: the baseline's grouping with decoupled barriers alone.
  s.variants.push_back(variant("dtexl-fg-decoupled", "Fig. 17: FG-xshift2, Z-order, decoupled barriers",
                               Grouping::FgXshift2, Assignment::Const, "z", "subtile"));
  // Fig. 11-13: each grouping alone (Z-order, tile barriers); FG-xshift2 is the baseline itself.
  for (const std::string& g : dtexl::grouping_names()) {
    Grouping grouping = Grouping::FgXshift2;
    dtexl::parse_grouping(g, &grouping);
    if (grouping == Grouping::FgXshift2) continue;
    std::string lower = g;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    s.variants.push_back(variant("dtexl-group-" + lower, "Fig. 11: the " + g + " grouping, Z-order, tile barriers",
                                 grouping, Assignment::Const, "z", "tile"));
  }
  // Fig. 16's upper bound on the L2 decrease: one core with an L1 as large as all of them (no
  // replication, no locality lost between cores). Its L2 accesses are the figure's bar; its
  // cycles are those of a one-core GPU, no speedup of DTexL's.
  SchemeVariant bound;
  bound.name = "dtexl-one-core-bound";
  bound.description = "Fig. 16: L2 accesses with one shader core whose L1 is the cores' L1s together (a bound on "
                      "the L2 decrease, not a design point: its cycles are a one-core GPU's)";
  bound.apply = [](ParamSet& p) {
    p.set("l1tex.size", std::to_string(p.get_int("l1tex.size") * p.get_int("gpu.shader_cores")));
    p.set("gpu.shader_cores", "1");
  };
  bound.sets = {"gpu.shader_cores", "l1tex.size"};
  s.variants.push_back(std::move(bound));
  s.make = [](const ParamSet& p) { return std::make_unique<DtexlInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
