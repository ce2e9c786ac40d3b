#include "dtm-nuca/remote_access.h"

#include <stdexcept>

namespace tessera::model::dtm_nuca {

Decision decide(uint32_t requester, bool local_hit, bool requester_owns, uint32_t server, bool server_hit) {
  Decision d;
  d.server = requester;
  if (local_hit) {
    d.service = Service::LocalHit;
    d.touch_lru = requester_owns;
    return d;
  }
  if (server == kNoOwner || server == requester) {
    d.service = Service::LocalMiss;
    d.fill = true;
    return d;
  }
  d.server = server;
  d.service = server_hit ? Service::RemoteHit : Service::RemoteMiss;
  d.fill = !server_hit;
  return d;
}

uint32_t packet_flits(uint32_t payload_bits, uint32_t flit_bytes) {
  if (flit_bytes == 0) throw std::invalid_argument("DTM-NUCA: flits need at least one byte");
  const uint32_t flit_bits = flit_bytes * 8;
  return 1 + (payload_bits + flit_bits - 1) / flit_bits;
}

RemoteAccessPath::RemoteAccessPath(Mesh2D& mesh, const PathConfig& config, uint32_t lookup_endpoint)
    : mesh_(mesh),
      config_(config),
      lookup_endpoint_(lookup_endpoint),
      data_flits_(packet_flits(config.line_bytes * 8, config.flit_bytes)) {
  if (lookup_endpoint != kNoOwner && lookup_endpoint >= mesh.endpoints()) {
    throw std::invalid_argument("DTM-NUCA: the lookup node is not a mesh endpoint");
  }
}

uint64_t RemoteAccessPath::lookup(uint32_t requester, uint64_t t) {
  if (!central()) return t;
  ++lookups_;
  // The ejection port delivers one flit per cycle: the SRAM, taking one request per cycle, never
  // makes an arrived request wait.
  return mesh_.send(requester, lookup_endpoint_, 1, kHeaderBits, t) + config_.lookup_latency;
}

uint64_t RemoteAccessPath::forward(uint32_t requester, uint32_t server, uint64_t answered) {
  const uint32_t from = central() ? lookup_endpoint_ : requester;
  return mesh_.send(from, server, 1, kHeaderBits, answered);
}

uint64_t RemoteAccessPath::reply(uint32_t server, uint32_t requester, uint64_t ready) {
  return mesh_.send(server, requester, data_flits_, kHeaderBits + config_.line_bytes * 8, ready);
}

void RemoteAccessPath::notify(uint32_t node, uint64_t t) {
  if (central()) mesh_.send(lookup_endpoint_, node, 1, kHeaderBits, t);
}

}  // namespace tessera::model::dtm_nuca
