#include "prefetch-mta/many_thread_aware.h"

#include <stdexcept>

namespace tessera::model::mta {

ManyThreadAware::ManyThreadAware(const Config& config)
    : config_(config), pws_(config.pws_entries), ip_(config.ip_entries), gs_(config.gs_entries) {
  if (config.pws_entries == 0 || config.gs_entries == 0 || config.ip_entries == 0 || config.train_accesses < 2 ||
      config.promote_warps == 0 || config.distance == 0 || config.degree == 0) {
    throw std::invalid_argument(
        "an MTA prefetcher needs an entry in each table, two accesses to train, a warp to promote, and a distance and "
        "degree of 1");
  }
}

template <class E>
E& ManyThreadAware::victim(std::vector<E>& table) {
  E* best = &table[0];
  for (E& e : table) {
    if (!e.valid) return e;
    if (e.used < best->used) best = &e;
  }
  return *best;
}

void ManyThreadAware::predict(uint64_t addr, int64_t stride, std::vector<uint64_t>& out) const {
  if (stride == 0) return;
  for (uint32_t k = 0; k < config_.degree; ++k) {
    out.push_back(addr + static_cast<uint64_t>(stride) * (config_.distance + k));
  }
}

void ManyThreadAware::observe(Stride& e, uint64_t addr) {
  const int64_t d = static_cast<int64_t>(addr - e.last);
  if (e.repeats > 0 && d == e.stride) {
    ++e.repeats;
  } else {
    e.stride = d;
    e.repeats = 1;
  }
  e.last = addr;
}

void ManyThreadAware::promote(uint64_t pc, int64_t stride) {
  uint32_t agree = 0;
  for (const Stride& e : pws_) agree += e.valid && e.pc == pc && e.stride == stride && e.trained(config_.train_accesses);
  if (agree < config_.promote_warps) return;
  Global* g = nullptr;
  for (Global& e : gs_) {
    if (e.valid && e.pc == pc) g = &e;
  }
  if (!g) g = &victim(gs_);
  *g = Global{true, pc, stride, ++clock_};
  ++promotions_;
  for (Stride& e : pws_) {
    if (e.valid && e.pc == pc && e.stride == stride && e.trained(config_.train_accesses)) e.valid = false;
  }
}

Source ManyThreadAware::access(uint64_t pc, uint32_t warp, uint64_t addr, std::vector<uint64_t>& out) {
  ++clock_;
  // GS and IP are looked up together; a GS hit decides.
  for (Global& g : gs_) {
    if (g.valid && g.pc == pc) {
      g.used = clock_;
      predict(addr, g.stride, out);
      return Source::GlobalStride;
    }
  }
  Stride* ip = nullptr;
  for (Stride& e : ip_) {
    if (e.valid && e.pc == pc) ip = &e;
  }
  if (!ip) {
    ip = &victim(ip_);
    *ip = Stride{true, pc, warp, addr, 0, 0, clock_};
  } else {
    ip->used = clock_;
    if (ip->warp == warp) {
      ip->last = addr;  // the same warp again: no delta between warps
    } else {
      observe(*ip, addr);
      ip->warp = warp;
      if (ip->trained(config_.train_accesses) && ip->stride != 0) {
        predict(addr, ip->stride, out);
        return Source::InterWarp;
      }
    }
  }
  // PWS, only when neither GS nor IP predicted.
  Stride* pws = nullptr;
  for (Stride& e : pws_) {
    if (e.valid && e.pc == pc && e.warp == warp) pws = &e;
  }
  if (!pws) {
    pws = &victim(pws_);
    *pws = Stride{true, pc, warp, addr, 0, 0, clock_};
    return Source::None;
  }
  pws->used = clock_;
  observe(*pws, addr);
  if (!pws->trained(config_.train_accesses) || pws->stride == 0) return Source::None;
  const int64_t stride = pws->stride;
  predict(addr, stride, out);
  promote(pc, stride);
  return Source::PerWarp;
}

void ManyThreadAware::clear() {
  for (Stride& e : pws_) e = {};
  for (Stride& e : ip_) e = {};
  for (Global& e : gs_) e = {};
  clock_ = promotions_ = 0;
}

Throttle::Throttle(const ThrottleConfig& config) : config_(config), degree_(config.initial) {
  if (config.levels == 0 || config.initial > config.levels) {
    throw std::invalid_argument("a prefetch throttle needs a level and an initial degree within its levels");
  }
}

bool Throttle::allow() {
  const bool sent = position_ < config_.levels - degree_;
  if (++position_ == config_.levels) position_ = 0;
  return sent;
}

void Throttle::period_end(uint64_t early_evictions, uint64_t useful, uint64_t merges, uint64_t requests) {
  // Early eviction rate (early evictions over useful prefetches); none useful but some evicted
  // early is as bad as it gets.
  const double early = useful > 0 ? static_cast<double>(early_evictions) / static_cast<double>(useful)
                                  : (early_evictions > 0 ? 1.0 : 0.0);
  const double monitored = requests > 0 ? static_cast<double>(merges) / static_cast<double>(requests) : 0.0;
  merge_ = (merge_ + monitored) / 2;
  if (early > config_.early_high) {
    degree_ = config_.levels;
  } else if (early >= config_.early_low) {
    if (degree_ < config_.levels) ++degree_;
  } else if (merge_ > config_.merge_high) {
    if (degree_ > 0) --degree_;
  } else {
    degree_ = config_.levels;
  }
}

}  // namespace tessera::model::mta
