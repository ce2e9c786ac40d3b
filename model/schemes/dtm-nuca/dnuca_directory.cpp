#include "dtm-nuca/dnuca_directory.h"

#include <span>
#include <stdexcept>
#include <string>

#include "tessera/model/replacement/lru/lru.h"

namespace tessera::model::dtm_nuca {

namespace {
constexpr size_t kNpos = static_cast<size_t>(-1);
}

DNucaDirectory::DNucaDirectory(const DNucaDirectoryConfig& config)
    : config_(config), sets_(config.ways ? config.entries / config.ways : 0) {
  if (config.ways == 0 || config.entries == 0 || config.entries % config.ways != 0) {
    throw std::invalid_argument("D-NUCA directory: " + std::to_string(config.entries) + " entries are not a non-zero multiple of " +
                                std::to_string(config.ways) + " ways");
  }
  entries_.resize(config.entries);
  stamps_.assign(config.entries, 0);
}

size_t DNucaDirectory::find(uint64_t block) const {
  const size_t b = base(block);
  for (uint32_t w = 0; w < config_.ways; ++w) {
    if (entries_[b + w].tag == block + 1) return b + w;
  }
  return kNpos;
}

uint32_t DNucaDirectory::holder(uint64_t block) const {
  const size_t i = find(block);
  return i == kNpos ? kNoOwner : entries_[i].holder;
}

uint32_t DNucaDirectory::lookup(uint64_t block) {
  ++lookups_;
  const size_t i = find(block);
  if (i == kNpos) return kNoOwner;
  stamps_[i] = ++clock_;
  return entries_[i].holder;
}

std::optional<DirectoryEviction> DNucaDirectory::insert(uint64_t block, uint32_t holder) {
  if (find(block) != kNpos) {
    throw std::logic_error("D-NUCA directory: block " + std::to_string(block) + " already has a holder");
  }
  const size_t b = base(block);
  size_t slot = kNpos;
  for (uint32_t w = 0; w < config_.ways && slot == kNpos; ++w) {
    if (entries_[b + w].tag == 0) slot = b + w;
  }
  std::optional<DirectoryEviction> evicted;
  if (slot == kNpos) {
    slot = b + lru::victim(std::span<const uint64_t>(&stamps_[b], config_.ways));
    evicted = DirectoryEviction{entries_[slot].tag - 1, entries_[slot].holder};
    ++evictions_;
    --tracked_;
  }
  entries_[slot] = Entry{block + 1, holder};
  stamps_[slot] = ++clock_;
  ++tracked_;
  ++writes_;
  return evicted;
}

bool DNucaDirectory::erase(uint64_t block, uint32_t holder) {
  const size_t i = find(block);
  if (i == kNpos || entries_[i].holder != holder) return false;
  entries_[i] = Entry{};
  stamps_[i] = 0;
  --tracked_;
  ++writes_;
  return true;
}

}  // namespace tessera::model::dtm_nuca
