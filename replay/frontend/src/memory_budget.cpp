#include "tessera/frontend/memory_budget.h"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>

namespace tessera::frontend {

uint64_t MemoryBudget::default_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return uint64_t{4} << 30;
  return static_cast<uint64_t>(pages) / 2 * static_cast<uint64_t>(page);
}

bool MemoryBudget::reserve(uint64_t bytes) {
  uint64_t held = held_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || held > limit_ - bytes) return false;
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  return true;
}

std::string MemoryBudget::refusal(uint64_t bytes) const {
  return "needs " + format_bytes(bytes) + ", beyond the replay's memory budget of " + format_bytes(limit_) + " (" +
         format_bytes(held()) + " already held; --max-memory sets it)";
}

bool parse_memory_size(std::string_view text, uint64_t* bytes, std::string* error) {
  const std::string shown(text);
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
  const std::string number(text.substr(0, i));
  std::string_view unit = text.substr(i);
  int shift = 0;
  if (!unit.empty()) {
    switch (std::toupper(static_cast<unsigned char>(unit[0]))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      case 'B': shift = 0; break;
      default: shift = -1; break;
    }
    if (shift > 0) unit.remove_prefix(1);
    if (shift > 0 && !unit.empty() && (unit[0] == 'i' || unit[0] == 'I')) unit.remove_prefix(1);
    if (!unit.empty() && (unit[0] == 'B' || unit[0] == 'b')) unit.remove_prefix(1);
  }
  char* end = nullptr;
  const double value = number.empty() ? NAN : std::strtod(number.c_str(), &end);
  if (shift < 0 || !unit.empty() || number.empty() || end != number.c_str() + number.size() || !std::isfinite(value)) {
    *error = "'" + shown + "': expected a size in bytes, or with K, M, G or T (512M, 12G)";
    return false;
  }
  const double scaled = std::ldexp(value, shift);
  // 2^64 is exactly representable: anything at or above it does not fit.
  if (scaled >= 18446744073709551616.0) {
    *error = "'" + shown + "': larger than 16 EiB";
    return false;
  }
  *bytes = static_cast<uint64_t>(scaled);
  if (*bytes == 0) {
    *error = "'" + shown + "': the replay needs more than 0 bytes";
    return false;
  }
  return true;
}

std::string format_bytes(uint64_t bytes) {
  static const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1024;
  size_t u = 0;
  while (v >= 1024 && u + 1 < std::size(units)) v /= 1024, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace tessera::frontend
