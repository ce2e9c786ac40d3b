// A scheme only the tests know: every quad to one shader core (fixed-core.core). It exists to
// show that a scheme folder is all a scheme needs (cmake/TesseraSchemes.cmake collects the folder,
// generates the call to register_fixed_core, and builds the folder's tests/): it takes one seam
// (the quad scheduler), registers one parameter, one variant and one metric.
#include <algorithm>
#include <memory>
#include <string>

#include "tessera/model/scheme.h"

namespace tessera::model {

namespace {

class FixedCoreScheduler final : public QuadScheduler {
 public:
  explicit FixedCoreScheduler(uint32_t core) : core_(core) {}
  uint32_t core(const PassInfo&, const TileRef&, uint32_t, uint32_t, uint32_t, uint32_t cores) override {
    ++quads_;
    return std::min(core_, cores - 1);
  }
  uint64_t quads() const { return quads_; }

 private:
  uint32_t core_;
  uint64_t quads_ = 0;
};

class FixedCoreInstance final : public SchemeInstance {
 public:
  explicit FixedCoreInstance(const ParamSet& p)
      : scheduler_(std::make_shared<FixedCoreScheduler>(static_cast<uint32_t>(p.get_int("fixed-core.core")))) {}
  void install(Hooks& hooks) override { hooks.quad_scheduler = scheduler_; }
  void frame_begin(MemoryHierarchy&) override { first_ = scheduler_->quads(); }
  void frame_end(const MemoryHierarchy&, FrameResults& r) override {
    r.frame_metrics.emplace_back("fixed_core.quads", static_cast<double>(scheduler_->quads() - first_));
  }

 private:
  std::shared_ptr<FixedCoreScheduler> scheduler_;
  uint64_t first_ = 0;
};

}  // namespace

void register_fixed_core(SchemeRegistry& registry) {
  SchemeInfo s;
  s.name = "fixed-core";
  s.paper = "test";
  s.section = "none: a test-only scheme";
  s.description = "every quad to one shader core (a test-only scheme)";
  s.preset = "mobile4";
  s.params = {int_param("fixed-core.core", "0", "the shader core every quad goes to", 0, 255)};
  s.hooks = {HookKind::QuadScheduler};
  s.metrics = {"fixed_core.quads"};  // quads placed (early-Z kills some on their core)
  SchemeVariant v;
  v.name = "fixed-core";
  v.description = "every quad to fixed-core.core";
  v.apply = [](ParamSet&) {};
  s.variants.push_back(std::move(v));
  s.make = [](const ParamSet& p) { return std::make_unique<FixedCoreInstance>(p); };
  registry.add(std::move(s));
}

}  // namespace tessera::model
