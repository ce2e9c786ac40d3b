#include "tessera/model/next_use.h"

#include <stdexcept>
#include <unordered_map>

#include "tessera/model/access.h"

namespace tessera::model {

std::vector<uint64_t> next_use_positions(std::span<const uint64_t> addrs, uint32_t line_bytes) {
  if (line_bytes == 0) throw std::invalid_argument("next_use_positions: line size 0");
  std::vector<uint64_t> next(addrs.size(), kNoNextUse);
  std::unordered_map<uint64_t, uint64_t> seen;
  seen.reserve(addrs.size() / 4 + 16);
  for (size_t i = addrs.size(); i-- > 0;) {
    const uint64_t line = addrs[i] / line_bytes;
    auto [it, inserted] = seen.try_emplace(line, i);
    if (!inserted) {
      next[i] = it->second;
      it->second = i;
    }
  }
  return next;
}

}  // namespace tessera::model
