// Paper 002 section 3's bound with the pixel caches perfect too: on constructed frames, what
// goes to memory and what does not.
#include <gtest/gtest.h>

#include <string>

#include "frame_builder.h"
#include "refusal.h"
#include "tessera/model/configuration.h"

namespace tessera::model {
namespace {

using namespace testing;

FrameResults run_spec(const std::vector<uint8_t>& bytes, const char* spec,
                      std::initializer_list<const char*> overrides = {}) {
  Configuration c = parse_configuration(spec);
  for (const char* o : overrides) c.params.apply(o);
  auto model = c.make_model();
  FrameResults r;
  std::string error;
  EXPECT_TRUE(model->run(bytes, r, &error)) << error;
  return r;
}

// 2x2 tiles, each loading 8 colour lines and storing 16, reading 8 PB-Lists lines, its 256 quads
// sampling a line of their own. The tile cache is 16 lines (1 KiB, 4-way: 4 sets) and the PLB
// writes 32 lines, tile t's lines t * 64 + l: each set ends up with tiles 2 and 3's lines, tiles 0
// and 1's evicted. Baseline: every attachment line and flush goes to DRAM, every texture line
// misses L1, and the tile fetcher's 32 reads all miss (reading tiles 0 and 1 back evicts tiles 2
// and 3). Perfect memory: no attachment load, no flush, no texture L2 access; of the 32 reads,
// the 16 of tiles 2 and 3 hit and the 16 evicted ones are served perfectly.
TEST(PerfectMemory, TheFragmentPathTouchesNoMemory) {
  FrameSpec f;
  f.tiles_x = 2;
  f.tiles_y = 2;
  f.load_lines = 8;
  f.store_lines = 16;
  f.pb_lines_per_tile = 8;
  f.draws = 1;
  f.quad = [](uint32_t seq, uint32_t qx, uint32_t qy) {
    QuadSpec q;
    q.samples[0].push_back({0x2000'0000 + (uint64_t{seq} * 256 + qy * 16 + qx) * 64});
    return q;
  };
  const auto bytes = buildFrame(f);
  const std::initializer_list<const char*> small_tile_cache = {"tile.size=1KiB", "tile.ways=4"};
  const FrameResults base = run_spec(bytes, "tegra2", small_tile_cache);
  EXPECT_EQ(m(base, "dram.attachment_loads"), 4 * 8);
  EXPECT_EQ(m(base, "dram.color_flushes"), 4 * 16);
  EXPECT_EQ(m(base, "l2.texture_accesses"), 1024);
  EXPECT_EQ(m(base, "tile.read_misses"), 32);
  const FrameResults p = run_spec(bytes, "tegra2+perfect-memory", small_tile_cache);
  EXPECT_EQ(m(p, "dram.attachment_loads"), 0);
  EXPECT_EQ(m(p, "dram.color_flushes"), 0);
  EXPECT_EQ(m(p, "tile_buffers.flushes"), 0);
  EXPECT_EQ(m(p, "l2.texture_accesses"), 0);
  EXPECT_EQ(m(p, "l1tex.accesses"), 1024);
  EXPECT_EQ(m(p, "l1tex.hits"), 1024);
  EXPECT_EQ(m(p, "l1tex.installs"), 1024);
  EXPECT_EQ(m(p, "tile.read_misses"), 0);
  EXPECT_EQ(m(p, "perfect.tile_reads"), 16);
  // The geometry phase is the baseline's: the same 32 PB lines written, 16 written back to L2.
  EXPECT_EQ(m(p, "pb.writebacks"), m(base, "pb.writebacks"));
  EXPECT_EQ(m(p, "cycles.geometry"), m(base, "cycles.geometry"));
  EXPECT_LT(m(p, "cycles"), m(base, "cycles"));
  // perfect-l1 leaves the pixel path and the Parameter Buffer reads as they were.
  const FrameResults l1 = run_spec(bytes, "tegra2+perfect-l1", small_tile_cache);
  EXPECT_EQ(m(l1, "dram.color_flushes"), 4 * 16);
  EXPECT_EQ(m(l1, "dram.attachment_loads"), 4 * 8);
  EXPECT_EQ(m(l1, "tile.read_misses"), 32);
  EXPECT_EQ(m(l1, "l2.texture_accesses"), 0);
  EXPECT_LT(m(p, "cycles"), m(l1, "cycles"));
}

// The model parameter alone (any preset): the tile buffers neither load nor flush through DRAM.
TEST(PerfectMemory, APerfectFramebufferLoadsAndFlushesNothing) {
  FrameSpec f;
  f.load_lines = 8;
  f.store_lines = 16;
  f.depth_lines = 4;
  f.quad = heavy(8);
  const auto bytes = buildFrame(f);
  const FrameResults dram = run_spec(bytes, "mobile4", {"gpu.tile_writeback=store-ops"});
  EXPECT_EQ(m(dram, "dram.attachment_loads"), 8 + 4);
  EXPECT_EQ(m(dram, "dram.color_flushes"), 16 + 4);
  const FrameResults perfect = run_spec(bytes, "mobile4", {"gpu.tile_writeback=store-ops", "gpu.framebuffer=perfect"});
  EXPECT_EQ(m(perfect, "dram.attachment_loads"), 0);
  EXPECT_EQ(m(perfect, "dram.color_flushes"), 0);
  EXPECT_EQ(m(perfect, "dram.accesses"), 0);
  EXPECT_EQ(m(perfect, "tile_buffers.loads"), 8 + 4);
  EXPECT_LT(m(perfect, "cycles"), m(dram, "cycles"));
}

// Its seams: two texture organisations, two tile-cache organisations or a prefetcher beside it
// are refused, in one line.
TEST(PerfectMemory, CombinationsAreRefused) {
  const struct {
    const char* spec;
    const char* message;
  } refused[] = {
      {"tegra2+perfect-memory+dae", "perfect-memory cannot run with dae (the texture prefetcher): every texture access "
                                    "already hits its L1"},
      {"tegra2+perfect-memory+perfect-l1", "perfect-l1 and perfect-memory both take the"},
      {"mobile4+perfect-memory+tcor", "perfect-memory and tcor both take the"},
      {"tegra2+perfect-memory+prefetch-ghb", "perfect-memory and prefetch-ghb both take the"},
  };
  for (const auto& r : refused) {
    SCOPED_TRACE(r.spec);
    const std::string what = testing::refusal(r.spec);
    EXPECT_NE(what.find(r.message), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  const Configuration c = parse_configuration("tegra2+perfect-memory+dtexl");
  EXPECT_EQ(c.params.get_string("gpu.framebuffer"), "perfect");
  EXPECT_NO_THROW(c.make_model());
}

}  // namespace
}  // namespace tessera::model
