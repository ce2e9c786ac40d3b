#include "tcor/attribute_cache.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <stdexcept>
#include <string>

namespace tessera::model::tcor {

namespace {
using primitive_set::kNone;

std::string hex(uint64_t v) {
  char buf[20];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, 16);
  return "0x" + std::string(buf, r.ptr);
}

}  // namespace

void AttributeCacheConfig::validate() const {
  if (line_bytes == 0 || !std::has_single_bit(line_bytes)) {
    throw std::invalid_argument("Attribute Cache: line size " + std::to_string(line_bytes) + " is not a power of two");
  }
  if (size_bytes < line_bytes || size_bytes % line_bytes != 0 || size_bytes / line_bytes >= AttributeBuffer::kNull) {
    throw std::invalid_argument("Attribute Cache: size " + std::to_string(size_bytes) + " B is not a whole number of " +
                                std::to_string(line_bytes) + " B attribute lines");
  }
  if (ways == 0 && sets > 1) {
    throw std::invalid_argument("Attribute Cache: a fully associative Primitive Buffer has one set, not " +
                                std::to_string(sets));
  }
  if (sets != 0 && !std::has_single_bit(sets)) {
    throw std::invalid_argument("Attribute Cache: " + std::to_string(sets) + " Primitive Buffer sets is not a power of two");
  }
}

uint32_t AttributeCacheConfig::primitive_sets() const {
  if (ways == 0) return 1;
  if (sets != 0) return sets;
  return std::max(1u, std::bit_floor(attribute_lines() / (3 * ways)));
}

uint32_t AttributeCacheConfig::primitive_ways() const {
  return ways != 0 ? ways : std::max(1u, attribute_lines() / 3);
}

AttributeCache::AttributeCache(const AttributeCacheConfig& config)
    : config_((config.validate(), config)),
      primitive_buffer_(config.primitive_sets(), config.primitive_ways(), config.line_bytes),
      attribute_buffer_(config.attribute_lines()) {}

void AttributeCache::check_request(const PrimitiveRequest& request) const {
  if (request.attributes == 0 || request.attributes > attribute_buffer_.entries()) {
    throw std::invalid_argument("Attribute Cache: primitive " + hex(request.primitive_id) + " has " +
                                std::to_string(request.attributes) + " attributes; the Attribute Buffer holds " +
                                std::to_string(attribute_buffer_.entries()));
  }
}

uint32_t AttributeCache::plan_room(uint32_t set, uint32_t attributes, bool bounded, uint32_t bound) {
  victims_.clear();
  auto qualifies = [&](const PrimitiveBufferLine& l) { return evictable(l) && (!bounded || l.opt_number > bound); };
  uint32_t line = primitive_buffer_.free_line(set);
  uint32_t room = attribute_buffer_.free_entries();
  if (line == kNone) {
    const uint32_t way = primitive_set::victim(primitive_buffer_.set(set), qualifies,
                                               [&](const auto& a, const auto& b) { return evicted_before(a, b); });
    if (way == kNone) return kNone;
    line = set * primitive_buffer_.ways() + way;
    victims_.push_back(line);
    room += primitive_buffer_.line(line).attributes;
  }
  // More room: the first unlocked primitives of the whole cache in replacement order (OPT: the
  // farthest reused).
  while (room < attributes) {
    uint32_t best = kNone;
    for (uint32_t i = 0; i < primitive_buffer_.lines(); ++i) {
      const PrimitiveBufferLine& l = primitive_buffer_.line(i);
      if (!l.valid || !qualifies(l) || std::find(victims_.begin(), victims_.end(), i) != victims_.end()) continue;
      if (best == kNone || evicted_before(l, primitive_buffer_.line(best))) best = i;
    }
    if (best == kNone) return kNone;
    victims_.push_back(best);
    room += primitive_buffer_.line(best).attributes;
  }
  return line;
}

void AttributeCache::evict(uint32_t index, std::vector<PbTransfer>& below) {
  PrimitiveBufferLine& l = primitive_buffer_.line(index);
  if (l.dirty) {
    for (uint32_t a = 0; a < l.attributes; ++a) {
      below.push_back({(l.tag << std::countr_zero(config_.line_bytes)) + uint64_t{a} * config_.line_bytes, true,
                       PbSection::Attributes, l.last_tile});
    }
    counters_.writebacks += l.attributes;
  }
  attribute_buffer_.release(l.abp);
  l = PrimitiveBufferLine{};
  ++counters_.evictions;
}

uint32_t AttributeCache::install(uint32_t index, const PrimitiveRequest& request, bool dirty, bool lock) {
  PrimitiveBufferLine& l = primitive_buffer_.line(index);
  l.valid = true;
  l.tag = primitive_buffer_.tag_of(request.primitive_id);
  l.opt_number = request.opt_number;
  l.attributes = request.attributes;
  l.last_tile = request.last_tile;
  l.dirty = dirty;
  l.lock = lock;
  l.last_use = ++clock_;
  l.abp = attribute_buffer_.allocate(request.attributes);
  return l.abp;
}

void AttributeCache::append_lines(const PrimitiveRequest& request, bool write, std::vector<PbTransfer>& below) const {
  for (uint32_t a = 0; a < request.attributes; ++a) {
    below.push_back({request.primitive_id + uint64_t{a} * config_.line_bytes, write, PbSection::Attributes,
                     request.last_tile});
  }
}

AttributeOutcome AttributeCache::read(const PrimitiveRequest& request, std::vector<PbTransfer>& below) {
  check_request(request);
  AttributeOutcome out;
  const uint32_t found = primitive_buffer_.find(request.primitive_id);
  if (found != kNone) {
    PrimitiveBufferLine& l = primitive_buffer_.line(found);
    l.opt_number = request.opt_number;
    l.last_use = ++clock_;
    attribute_buffer_.lock(l.abp);
    ++counters_.accesses;
    ++counters_.reads;
    ++counters_.hits;
    out.result = AttributeResult::Hit;
    out.abp = l.abp;
    out.fill_pending = l.lock;
    return out;
  }

  const uint32_t line = plan_room(primitive_buffer_.set_of(request.primitive_id), request.attributes, false, 0);
  if (line == kNone) {
    ++counters_.blocked;
    out.result = AttributeResult::Blocked;
    return out;
  }
  ++counters_.accesses;
  ++counters_.reads;
  ++counters_.read_misses;
  for (uint32_t v : victims_) evict(v, below);
  out.evictions = static_cast<uint32_t>(victims_.size());

  // Reserved until the miss is serviced, and locked for the Rasterizer.
  out.abp = install(line, request, false, true);
  attribute_buffer_.lock(out.abp);
  append_lines(request, false, below);
  counters_.fetches += request.attributes;
  out.result = AttributeResult::Miss;
  out.fill_pending = true;
  return out;
}

AttributeOutcome AttributeCache::write(const PrimitiveRequest& request, std::vector<PbTransfer>& below) {
  check_request(request);
  AttributeOutcome out;
  if (primitive_buffer_.find(request.primitive_id) != kNone) {
    throw std::invalid_argument("Attribute Cache: primitive " + hex(request.primitive_id) +
                                " written twice in one render pass");
  }
  ++counters_.accesses;
  ++counters_.writes;
  // OPT bypasses a primitive read later than every candidate (III-C4); LRU allocates.
  const bool bounded = config_.policy == AttributePolicy::Opt;
  const uint32_t line = plan_room(primitive_buffer_.set_of(request.primitive_id), request.attributes, bounded,
                                 request.opt_number);
  if (line == kNone) {
    append_lines(request, true, below);
    ++counters_.write_bypasses;
    counters_.bypass_lines += request.attributes;
    out.result = AttributeResult::WriteBypassed;
    return out;
  }
  for (uint32_t v : victims_) evict(v, below);
  out.evictions = static_cast<uint32_t>(victims_.size());

  out.abp = install(line, request, true, false);
  ++counters_.write_allocations;
  out.result = AttributeResult::WriteAllocated;
  return out;
}

void AttributeCache::drop_all() {
  for (uint32_t i = 0; i < primitive_buffer_.lines(); ++i) {
    PrimitiveBufferLine& l = primitive_buffer_.line(i);
    if (!l.valid) continue;
    if (l.dirty) ++counters_.dead_drops;
    attribute_buffer_.release(l.abp);
    l = PrimitiveBufferLine{};
  }
}

uint32_t AttributeCache::checked_find(uint64_t primitive_id) const {
  const uint32_t found = primitive_buffer_.find(primitive_id);
  if (found == kNone) {
    throw std::invalid_argument("Attribute Cache: primitive " + hex(primitive_id) + " is not cached");
  }
  return found;
}

void AttributeCache::fill_serviced(uint64_t primitive_id) {
  PrimitiveBufferLine& l = primitive_buffer_.line(checked_find(primitive_id));
  if (!l.lock) throw std::logic_error("Attribute Cache: no outstanding miss for primitive " + hex(primitive_id));
  l.lock = false;
}

uint32_t AttributeCache::opt_number(uint64_t primitive_id) const {
  return primitive_buffer_.line(checked_find(primitive_id)).opt_number;
}

uint32_t AttributeCache::abp_of(uint64_t primitive_id) const {
  return primitive_buffer_.line(checked_find(primitive_id)).abp;
}

bool AttributeCache::dirty(uint64_t primitive_id) const { return primitive_buffer_.line(checked_find(primitive_id)).dirty; }

}  // namespace tessera::model::tcor
