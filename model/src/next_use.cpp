#include "tessera/model/next_use.h"

#include <unordered_map>

#include "tessera/model/access.h"

namespace tessera::model {

std::vector<uint64_t> tile_opt_numbers(std::span<const TileCacheAccess> accesses) {
  std::vector<uint64_t> numbers(accesses.size(), kNoNextUse);
  // Backwards: next[line] = the number of the line's first use after the current access.
  std::unordered_map<uint64_t, uint64_t> next;
  next.reserve(accesses.size() / 2 + 16);
  for (size_t i = accesses.size(); i-- > 0;) {
    const TileCacheAccess& a = accesses[i];
    const uint64_t mine = a.tile == kBinning ? i : kFirstTile + a.tile;
    auto [it, inserted] = next.try_emplace(a.line, mine);
    if (!inserted) {
      numbers[i] = it->second;
      it->second = mine;
    }
  }
  return numbers;
}

}  // namespace tessera::model
