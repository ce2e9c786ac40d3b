// The --frames argument of `tessera capture` and `tessera replay` and the frames of a sweep file:
// "A-B" or "A", presents counted from 1 (the layer's TESSERA_CAPTURE_FRAMES, docs/contracts.md).
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::capture {

// True for "A" (a >= 1) or "A-B" (1 <= a <= b), digits only; sets *first and *last. Otherwise
// false, with the reason in *why when given (one line naming the text).
inline bool parse_frame_range(std::string_view text, uint32_t* first, uint32_t* last, std::string* why = nullptr) {
  auto number = [](std::string_view s, uint32_t* v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  };
  auto fail = [&](const char* reason) {
    if (why) *why = "frame range '" + std::string(text) + reason;
    return false;
  };
  uint32_t a = 0, b = 0;
  const size_t dash = text.find('-');
  if (dash == std::string_view::npos) {
    if (!number(text, &a)) return fail("' is not A-B or A (present numbers)");
    b = a;
  } else if (!number(text.substr(0, dash), &a) || !number(text.substr(dash + 1), &b)) {
    return fail("' is not A-B or A (present numbers)");
  }
  if (a == 0) return fail("': presents are counted from 1");
  if (b < a) return fail("': last frame before first");
  *first = a;
  *last = b;
  return true;
}

}  // namespace tessera::capture
