#include "tessera/frontend/memory_budget.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

namespace tessera::frontend {

namespace {

// A small file's text (a /proc or /sys file reports a size of 0: read to the end); empty when
// it cannot be opened.
std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return {};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The least limit of the cgroup v2 `path` and every cgroup above it (each bounds its
// descendants), 0 when none has one. "/" is the root of the process's cgroup namespace, whose
// memory.max a container sees at /sys/fs/cgroup.
uint64_t cgroup_v2_limit(std::string path) {
  uint64_t least = 0;
  while (true) {
    const uint64_t l = parse_cgroup_memory_limit(read_text("/sys/fs/cgroup" + path + "/memory.max"));
    if (l != 0 && (least == 0 || l < least)) least = l;
    if (path.empty() || path == "/") return least;
    const size_t slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
}

}  // namespace

uint64_t MemoryBudget::default_limit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  const uint64_t physical = pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
  const ProcCgroups groups = parse_proc_self_cgroup(read_text("/proc/self/cgroup"));
  const uint64_t v2 = groups.v2.empty() ? 0 : cgroup_v2_limit(groups.v2);
  uint64_t v1 = 0;
  if (!groups.v1_memory.empty()) {
    v1 = parse_cgroup_memory_limit(read_text("/sys/fs/cgroup/memory" + groups.v1_memory + "/memory.limit_in_bytes"));
  }
  if (v1 == 0) v1 = parse_cgroup_memory_limit(read_text("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
  rlimit as{};
  const uint64_t address_space =
      getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY ? static_cast<uint64_t>(as.rlim_cur) : 0;
  return default_limit_from({physical, v2, v1, address_space});
}

uint64_t MemoryBudget::default_limit_from(std::initializer_list<uint64_t> limits) {
  uint64_t least = 0;
  for (uint64_t l : limits) {
    if (l != 0 && (least == 0 || l < least)) least = l;
  }
  return least == 0 ? uint64_t{4} << 30 : least / 2;
}

uint64_t parse_cgroup_memory_limit(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (text.empty() || text.size() > 20) return 0;  // "max", or not one 64-bit number
  uint64_t v = 0;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return 0;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return 0;
    v = v * 10 + d;
  }
  // cgroup v1 writes "unlimited" as the largest page-aligned signed 64-bit value.
  return v >= (uint64_t{1} << 62) ? 0 : v;
}

ProcCgroups parse_proc_self_cgroup(std::string_view text) {
  ProcCgroups out;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    const size_t a = line.find(':');
    const size_t b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    const std::string_view hierarchy = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1);
    const std::string_view path = line.substr(b + 1);
    if (hierarchy == "0" && controllers.empty()) {
      out.v2 = std::string(path);
      continue;
    }
    // v1: a comma-separated controller list, one of them "memory".
    std::string_view rest = controllers;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      if (rest.substr(0, comma) == "memory") out.v1_memory = std::string(path);
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    }
  }
  return out;
}

bool MemoryBudget::reserve(uint64_t bytes) {
  uint64_t held = held_.load(std::memory_order_relaxed);
  do {
    if (bytes > limit_ || held > limit_ - bytes) return false;
  } while (!held_.compare_exchange_weak(held, held + bytes, std::memory_order_relaxed));
  return true;
}

void MemoryBudget::release(uint64_t bytes) {
  uint64_t held = held_.load(std::memory_order_relaxed);
  uint64_t give = bytes;
  do {
    give = std::min(bytes, held);
  } while (!held_.compare_exchange_weak(held, held - give, std::memory_order_relaxed));
  if (give != bytes) {
    over_released_.store(true, std::memory_order_relaxed);
    assert(!"MemoryBudget::release: more given back than was reserved");
  }
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

std::string format_handle(uint64_t handle) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(handle));
  return text;
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
