#include "tcor/pb_lists_layout.h"

#include <stdexcept>
#include <string>

namespace tessera::model::tcor {

std::string_view layout_name(PbListsLayoutKind kind) {
  return kind == PbListsLayoutKind::Baseline ? "baseline" : "interleaved";
}

PbListsLayoutKind parse_layout(std::string_view name) {
  if (name == "baseline") return PbListsLayoutKind::Baseline;
  if (name == "interleaved") return PbListsLayoutKind::Interleaved;
  throw std::invalid_argument("PB-Lists layout '" + std::string(name) + "' (known: baseline, interleaved)");
}

PbListsLayout::PbListsLayout(PbListsLayoutKind kind, uint32_t tiles, PbListsGeometry geometry)
    : kind_(kind), tiles_(tiles), geometry_(geometry) {
  if (tiles == 0) throw std::invalid_argument("PB-Lists layout for a pass of 0 tiles");
  if (geometry.pmd_bytes == 0 || geometry.line_bytes == 0 || geometry.line_bytes % geometry.pmd_bytes != 0) {
    throw std::invalid_argument("PB-Lists layout: a " + std::to_string(geometry.line_bytes) +
                                " B line does not hold whole " + std::to_string(geometry.pmd_bytes) + " B PMDs");
  }
  if (kind == PbListsLayoutKind::Baseline &&
      (geometry.max_primitives_per_tile == 0 || geometry.max_primitives_per_tile % geometry.pmds_per_line() != 0)) {
    throw std::invalid_argument("PB-Lists baseline layout: " + std::to_string(geometry.max_primitives_per_tile) +
                                " PMDs per tile is not a whole number of lines");
  }
  lines_per_list_ = geometry.max_primitives_per_tile / geometry.pmds_per_line();
}

uint64_t PbListsLayout::pmd_address(uint32_t slot, uint32_t index) const {
  const uint32_t per_line = geometry_.pmds_per_line();
  return line_address(slot, index / per_line) + uint64_t{index % per_line} * geometry_.pmd_bytes;
}

uint64_t PbListsLayout::line_address(uint32_t slot, uint32_t line) const {
  if (slot >= tiles_) {
    throw std::out_of_range("PB-Lists layout: tile " + std::to_string(slot) + " of " + std::to_string(tiles_));
  }
  uint64_t block;
  if (kind_ == PbListsLayoutKind::Interleaved) {
    block = uint64_t{line} * tiles_ + slot;  // section `line`, one line per tile (Fig. 6)
  } else if (line < lines_per_list_) {
    block = uint64_t{slot} * lines_per_list_ + line;  // Fig. 3
  } else {
    block = uint64_t{tiles_} * lines_per_list_ + uint64_t{line - lines_per_list_} * tiles_ + slot;  // overflow
  }
  return geometry_.lists_base + block * geometry_.line_bytes;
}

uint32_t PbListsLayout::slot_of_line(uint64_t address) const {
  if (address < geometry_.lists_base) throw std::out_of_range("PB-Lists layout: address below the PB-Lists Pointer");
  const uint64_t block = (address - geometry_.lists_base) / geometry_.line_bytes;
  if (kind_ == PbListsLayoutKind::Interleaved) return static_cast<uint32_t>(block % tiles_);
  const uint64_t in_lists = uint64_t{tiles_} * lines_per_list_;
  return static_cast<uint32_t>(block < in_lists ? block / lines_per_list_ : (block - in_lists) % tiles_);
}

}  // namespace tessera::model::tcor
