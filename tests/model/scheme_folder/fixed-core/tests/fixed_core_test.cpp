// The test-only scheme's own test, collected from its folder's tests/ like a product scheme's:
// every quad of a constructed frame is shaded on the configured core.
#include <gtest/gtest.h>

#include <string>

#include "frame_builder.h"
#include "tessera/model/configuration.h"

namespace tessera::model {

void register_scheme_folder_fixture(SchemeRegistry& registry);

namespace {

using namespace testing;

TEST(FixedCoreScheme, EveryQuadOnTheConfiguredCore) {
  SchemeRegistry registry;
  register_scheme_folder_fixture(registry);
  for (uint32_t core : {0u, 2u}) {
    const Configuration c = parse_configuration("mobile4+fixed-core+fixed-core.core=" + std::to_string(core), registry);
    auto model = c.make_model();
    FrameResults r;
    std::string error;
    ASSERT_TRUE(model->run(buildFrame(mixedFrame()), r, &error)) << error;
    ASSERT_EQ(r.cores.size(), 4u);
    uint64_t quads = 0;
    for (uint32_t k = 0; k < 4; ++k) {
      if (k != core) {
        EXPECT_EQ(r.cores[k].quads, 0u) << "core " << k;
      }
      quads += r.cores[k].quads;
    }
    EXPECT_GT(quads, 0u);
    EXPECT_EQ(r.cores[core].quads, quads);
    // The scheduler places every rasterized quad; early-Z then kills some of them on its core.
    EXPECT_EQ(m(r, "fixed_core.quads"), m(r, "earlyz.quads"));
    EXPECT_GT(m(r, "fixed_core.quads"), static_cast<double>(quads));
  }
}

}  // namespace
}  // namespace tessera::model
