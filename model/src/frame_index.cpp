#include "frame_index.h"

#include <algorithm>
#include <utility>

namespace tessera::model {

using stream::Event;
using stream::EventKind;

void FrameIndex::build(std::span<const uint8_t> stream_bytes) {
  bytes = stream_bytes;
  passes.clear();
  loads.clear();
  stores.clear();
  pb_reads.clear();
  pb_writes.clear();
  groups.clear();
  primitive_need.clear();

  stream::StreamReader r(bytes);
  if (!r.error().empty()) throw ModelError("access stream: " + r.error());
  enum class Where { BeforeFrame, Frame, Pass, TileHeader, TileBody, AfterFrame };
  Where where = Where::BeforeFrame;
  size_t pos = r.position();
  auto fail = [&](const std::string& what) -> void {
    throw ModelError("access stream: byte " + std::to_string(pos) + ": " + what);
  };
  PassIndex* pass = nullptr;
  TileIndex* tile = nullptr;
  bool after_quad = false;  // a Texture event must follow its quad
  size_t reset = 0;         // the last event that reset the predictors
  std::vector<std::pair<uint32_t, uint32_t>> store_rows;  // (attachment, rows stored) in the tile
  std::vector<std::pair<uint32_t, uint32_t>> attribute_groups;  // (primitive, group) of the tile
  auto phase = [&]() -> PhaseIndex& { return pass->phases.back(); };
  auto start_body = [&]() {
    where = Where::TileBody;
    tile->body = pos;
    tile->group_end = static_cast<uint32_t>(groups.size());
    tile->need_begin = static_cast<uint32_t>(primitive_need.size());
    attribute_groups.clear();
    for (uint32_t g = tile->group_begin; g < tile->group_end; ++g) {
      if (groups[g].primitive != kListGroup) attribute_groups.emplace_back(groups[g].primitive, g);
    }
    std::sort(attribute_groups.begin(), attribute_groups.end());
  };
  Event e;
  while (r.next(e)) {
    if (where == Where::AfterFrame) fail("events after FrameEnd");
    if (where == Where::TileHeader && e.kind != EventKind::AttachmentLoad && e.kind != EventKind::PbRead) start_body();
    switch (e.kind) {
      case EventKind::FrameBegin:
        if (where != Where::BeforeFrame) fail("a second FrameBegin");
        where = Where::Frame;
        break;
      case EventKind::PassBegin: {
        if (where != Where::Frame) fail(where == Where::BeforeFrame ? "PassBegin before FrameBegin" : "PassBegin inside a pass");
        PassIndex p;
        p.info = PassInfo{e.u[0], e.u[1], e.u[2], e.u[3], e.u[4], e.u[5], e.u[6]};
        if (p.info.tile_width == 0 || p.info.tile_height == 0) fail("pass with a zero tile size");
        if (uint64_t{p.info.tiles_x} * p.info.tiles_y > (uint64_t{1} << 24)) fail("pass with more than 2^24 tiles");
        passes.push_back(std::move(p));
        pass = &passes.back();
        pass->phases.emplace_back();
        phase().geometry = r.position();
        phase().geometry_reset = pos;
        phase().pb_write_begin = phase().pb_write_end = static_cast<uint32_t>(pb_writes.size());
        where = Where::Pass;
        break;
      }
      case EventKind::Draw:
      case EventKind::VertexFetch:
      case EventKind::VertexShade:
      case EventKind::VertexTexture:
      case EventKind::PbWrite:
        if (where != Where::Pass) fail(std::string(stream::event_kind_name(e.kind)) + " outside a pass's geometry phase");
        if (!phase().tiles.empty()) {
          // The geometry of the next subpass.
          pass->phases.emplace_back();
          phase().geometry = pos;
          phase().geometry_reset = reset;
          phase().pb_write_begin = static_cast<uint32_t>(pb_writes.size());
        }
        if (e.kind == EventKind::PbWrite) {
          pb_writes.push_back(ByteRange{e.address, e.u[0]});
          phase().pb_write_end = static_cast<uint32_t>(pb_writes.size());
        }
        break;
      case EventKind::TileBegin: {
        if (where != Where::Pass) fail(where == Where::TileBody ? "TileBegin inside a tile" : "TileBegin outside a pass");
        const PassInfo& info = pass->info;
        if (phase().tiles.size() >= uint64_t{info.tiles_x} * info.tiles_y) {
          fail("more tiles than the pass's " + std::to_string(info.tiles_x * info.tiles_y) + " (tiles_x x tiles_y)");
        }
        if (e.u[0] >= info.tiles_x * info.tiles_y) fail("tile " + std::to_string(e.u[0]) + " outside the pass's grid");
        TileIndex t;
        t.ref.tile = e.u[0];
        t.ref.x0 = e.u[1];
        t.ref.y0 = e.u[2];
        t.ref.tx = t.ref.x0 / info.tile_width;
        t.ref.ty = t.ref.y0 / info.tile_height;
        t.ref.offset = pos;
        t.load_begin = t.load_end = static_cast<uint32_t>(loads.size());
        t.store_begin = t.store_end = static_cast<uint32_t>(stores.size());
        t.group_begin = t.group_end = static_cast<uint32_t>(groups.size());
        phase().tiles.push_back(t);
        tile = &phase().tiles.back();
        store_rows.clear();
        where = Where::TileHeader;
        break;
      }
      case EventKind::AttachmentLoad:
        if (where != Where::TileHeader) fail("AttachmentLoad outside a tile header");
        loads.push_back(ByteRange{e.address, e.u[0], e.u[2] != 0});
        tile->load_end = static_cast<uint32_t>(loads.size());
        break;
      case EventKind::PbRead: {
        if (where != Where::TileHeader) fail("PbRead outside a tile header");
        // Consecutive reads of one primitive's attributes form one group; each list line its own.
        const uint32_t prim = e.u[2];
        if (prim == kListGroup || groups.size() == tile->group_begin || groups.back().primitive != prim) {
          const uint32_t at = static_cast<uint32_t>(pb_reads.size());
          groups.push_back(PbGroup{prim, at, at});
        }
        pb_reads.push_back(ByteRange{e.address, e.u[0]});
        groups.back().read_end = static_cast<uint32_t>(pb_reads.size());
        break;
      }
      case EventKind::Primitive: {
        if (where != Where::TileBody) fail("Primitive outside a tile");
        after_quad = false;
        uint32_t need = tile->group_end == tile->group_begin ? kListGroup : tile->group_end - 1;
        const auto it = std::lower_bound(attribute_groups.begin(), attribute_groups.end(),
                                         std::pair<uint32_t, uint32_t>{e.u[0], 0});
        if (it != attribute_groups.end() && it->first == e.u[0]) need = it->second;
        primitive_need.push_back(need);
        tile->need_end = static_cast<uint32_t>(primitive_need.size());
        break;
      }
      case EventKind::Quad:
        if (where != Where::TileBody) fail("quad outside a tile");
        after_quad = true;
        break;
      case EventKind::Texture:
        if (where != Where::TileBody || !after_quad) fail("texture sample without its quad");
        if (e.u[0] > 3) fail("texture sample of lane " + std::to_string(e.u[0]));
        break;
      case EventKind::AttachmentStore:
        if (where != Where::TileBody) fail("AttachmentStore outside a tile");
        after_quad = false;
        {
          // Rows are stored top to bottom per attachment and aspect (depth then stencil).
          const PassInfo& info = pass->info;
          const uint32_t rows = std::max(1u, std::min(info.tile_height, info.height - std::min(info.height, tile->ref.y0)));
          const uint32_t width = std::max(1u, std::min(info.tile_width, info.width - std::min(info.width, tile->ref.x0)));
          auto it = std::find_if(store_rows.begin(), store_rows.end(), [&](const auto& a) { return a.first == e.u[1]; });
          if (it == store_rows.end()) it = store_rows.insert(store_rows.end(), {e.u[1], 0});
          stores.push_back(StoreRange{e.address, e.u[0], it->second++ % rows, width, e.u[2] != 0});
        }
        tile->store_end = static_cast<uint32_t>(stores.size());
        break;
      case EventKind::TileEnd:
        if (where != Where::TileBody) fail("TileEnd outside a tile");
        if (e.u[0] != tile->ref.tile) fail("TileEnd of tile " + std::to_string(e.u[0]) + " inside tile " + std::to_string(tile->ref.tile));
        if (tile->need_end < tile->need_begin) tile->need_end = tile->need_begin;
        after_quad = false;
        tile = nullptr;
        where = Where::Pass;
        break;
      case EventKind::PassEnd:
        if (where != Where::Pass) fail(where == Where::TileBody ? "PassEnd inside a tile" : "PassEnd outside a pass");
        pass = nullptr;
        where = Where::Frame;
        break;
      case EventKind::FrameEnd:
        if (where != Where::Frame) fail(where == Where::BeforeFrame ? "FrameEnd before FrameBegin" : "FrameEnd inside a pass");
        where = Where::AfterFrame;
        break;
    }
    if (e.kind == EventKind::FrameBegin || e.kind == EventKind::PassBegin || e.kind == EventKind::TileBegin) reset = pos;
    pos = r.position();
  }
  if (!r.error().empty()) throw ModelError("access stream: " + r.error());
  if (where == Where::BeforeFrame) throw ModelError("access stream: no FrameBegin");
  if (pass) throw ModelError("access stream: pass " + std::to_string(pass->info.pass) + " has no PassEnd");
  counts = r.counts();
}

}  // namespace tessera::model
