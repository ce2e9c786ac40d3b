#include "dtm-nuca/mesh2d.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace tessera::model::dtm_nuca {

MeshShape MeshShape::for_nodes(uint32_t nodes, uint32_t cols) {
  if (nodes == 0) throw std::invalid_argument("DTM-NUCA mesh: no nodes");
  if (cols != 0) {
    if (nodes % cols != 0) {
      throw std::invalid_argument("DTM-NUCA mesh: nuca.mesh_cols " + std::to_string(cols) + " does not divide " +
                                  std::to_string(nodes) + " nodes");
    }
    return MeshShape{nodes / cols, cols};
  }
  uint32_t c = 1;
  while (uint64_t{c} * c < nodes) ++c;  // ceil(sqrt(nodes))
  while (nodes % c != 0) ++c;
  return MeshShape{nodes / c, c};
}

Mesh2D::Mesh2D(MeshShape shape, uint32_t hop_latency, uint32_t buffer_packets)
    : rows_(shape.rows), cols_(shape.cols), hop_latency_(hop_latency), buffer_packets_(buffer_packets) {
  if (rows_ == 0 || cols_ == 0) throw std::invalid_argument("DTM-NUCA mesh: zero rows or columns");
  for (uint32_t r = 0; r < routers(); ++r) endpoint_router_.push_back(r);
  reset();
}

uint32_t Mesh2D::add_endpoint(uint32_t router) {
  if (router >= routers()) throw std::out_of_range("DTM-NUCA mesh: router " + std::to_string(router) + " of " + std::to_string(routers()));
  endpoint_router_.push_back(router);
  inject_.emplace_back();
  eject_.emplace_back();
  inject_in_.emplace_back(buffer_packets_);
  inject_flits_.push_back(0);
  eject_flits_.push_back(0);
  return endpoints() - 1;
}

void Mesh2D::reset() {
  links_.assign(static_cast<size_t>(routers()) * 4, BusyCalendar{});
  inject_.assign(endpoint_router_.size(), BusyCalendar{});
  eject_.assign(endpoint_router_.size(), BusyCalendar{});
  link_in_.assign(links_.size(), InputBuffer(buffer_packets_));
  inject_in_.assign(endpoint_router_.size(), InputBuffer(buffer_packets_));
  clear_counters();
}

void Mesh2D::clear_counters() {
  counters_ = MeshCounters{};
  link_flits_.assign(links_.size(), 0);
  inject_flits_.assign(endpoint_router_.size(), 0);
  eject_flits_.assign(endpoint_router_.size(), 0);
}

uint64_t Mesh2D::busiest_link_flits() const {
  return link_flits_.empty() ? 0 : *std::max_element(link_flits_.begin(), link_flits_.end());
}

uint64_t Mesh2D::link_flits() const { return std::accumulate(link_flits_.begin(), link_flits_.end(), uint64_t{0}); }

uint64_t Mesh2D::port_flits(uint32_t endpoint) const {
  return std::max(inject_flits_.at(endpoint), eject_flits_.at(endpoint));
}

uint32_t Mesh2D::hops(uint32_t from_router, uint32_t to_router) const {
  const auto dist = [](uint32_t a, uint32_t b) { return a > b ? a - b : b - a; };
  return dist(col(from_router), col(to_router)) + dist(row(from_router), row(to_router));
}

// One X-Y step: along the row until the column matches, then along the column.
uint32_t Mesh2D::step(uint32_t router, uint32_t to_router, Direction* dir) const {
  if (col(router) < col(to_router)) { *dir = kEast; return router + 1; }
  if (col(router) > col(to_router)) { *dir = kWest; return router - 1; }
  if (row(router) < row(to_router)) { *dir = kSouth; return router + cols_; }
  *dir = kNorth;
  return router - cols_;
}

std::vector<uint32_t> Mesh2D::route(uint32_t from_router, uint32_t to_router) const {
  std::vector<uint32_t> path{from_router};
  Direction dir;
  for (uint32_t r = from_router; r != to_router;) {
    r = step(r, to_router, &dir);
    path.push_back(r);
  }
  return path;
}

uint64_t Mesh2D::cross(BusyCalendar& port, InputBuffer* into, uint64_t ready, uint32_t latency, uint32_t flits,
                      Passage& p) {
  p.late |= ready < port.window_start();
  uint64_t start = port.find(ready, flits);
  if (into != nullptr && into->bounded()) {
    p.buffer_late |= start + latency < into->window_start();
    // The port's gaps and the buffer's room both only move later: alternate until both agree.
    // Only the shifts the buffer causes are back-pressure; the port's own are link contention.
    while (true) {
      const uint64_t room = into->first_room(start + latency, flits);
      if (room == start + latency) break;
      p.buffer_wait += room - (start + latency);
      start = port.find(room - latency, flits);
    }
  }
  port.reserve(start, flits);
  return start;
}

uint64_t Mesh2D::send(uint32_t src, uint32_t dst, uint32_t flits, uint32_t bits, uint64_t now) {
  if (src >= endpoints() || dst >= endpoints()) {
    throw std::out_of_range("DTM-NUCA mesh: endpoint " + std::to_string(std::max(src, dst)) + " of " +
                            std::to_string(endpoints()));
  }
  if (src == dst || flits == 0) return now;
  Passage p;
  const auto pass = [&](BusyCalendar& port, InputBuffer* into, uint64_t ready, uint32_t latency) {
    return cross(port, into, ready, latency, flits, p);
  };
  // The head enters the source router's input buffer as the injection port starts to carry it.
  InputBuffer* held = &inject_in_[src];
  uint64_t entered = pass(inject_[src], held, now, 0);
  const uint32_t to = endpoint_router_[dst];
  uint32_t h = 0;
  Direction dir;
  for (uint32_t r = endpoint_router_[src]; r != to; ++h) {
    const uint32_t next = step(r, to, &dir);
    const size_t link = static_cast<size_t>(r) * 4 + dir;
    const uint64_t left = pass(links_[link], &link_in_[link], entered, hop_latency_);
    p.overfull |= held->hold(entered, left + flits);  // until its tail has crossed the link
    held = &link_in_[link];
    entered = left + hop_latency_;
    link_flits_[link] += flits;
    r = next;
  }
  const uint64_t ejected = pass(eject_[dst], nullptr, entered, 0);
  p.overfull |= held->hold(entered, ejected + flits);
  const uint64_t delivered = ejected + flits - 1;
  counters_.late += p.late ? 1 : 0;
  counters_.buffer_late += p.buffer_late ? 1 : 0;
  counters_.overfull += p.overfull ? 1 : 0;
  counters_.buffer_wait_cycles += p.buffer_wait;
  inject_flits_[src] += flits;
  eject_flits_[dst] += flits;

  ++counters_.packets;
  counters_.flits += flits;
  counters_.hops += h;
  counters_.flit_hops += uint64_t{flits} * h;
  counters_.bit_hops += uint64_t{bits} * h;
  counters_.router_bits += uint64_t{bits} * (h + 1);
  counters_.contention_cycles += delivered - (now + uint64_t{h} * hop_latency_ + flits - 1);
  return delivered;
}

}  // namespace tessera::model::dtm_nuca
