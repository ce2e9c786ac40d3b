// A line the Tile Cache moves to or from the L2, with what the L2 needs to know about it for its
// dead-line-aware replacement (paper 003 section III-D1): which Parameter Buffer section the
// line belongs to and the last tile (processing position) that reads it.
#pragma once

#include <cstdint>

#include "tessera/model/access.h"
#include "tessera/model/replacement/dead_line/dead_line.h"

namespace tessera::model::tcor {

// Numbered as the access stream's PbWrite / PbRead section field (schema/access-stream.md).
enum class PbSection : uint8_t { Lists = 0, Attributes = 1 };

struct PbTransfer {
  uint64_t addr = 0;
  bool write = false;  // a write-back or a bypassed write (always a whole line); else a line read
  PbSection section = PbSection::Lists;
  uint32_t last_tile = dead_line::kNeverDead;

  // What the L2 is told about the line (its policy reads the class and the last tile).
  AccessInfo access_info() const {
    AccessInfo info = dead_line::pb_access(
        section == PbSection::Lists ? dead_line::PbClass::Lists : dead_line::PbClass::Attributes, last_tile);
    info.full_line = write;
    return info;
  }
};

}  // namespace tessera::model::tcor
