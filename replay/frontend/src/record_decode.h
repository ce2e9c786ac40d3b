// Decoding a record body on its way into the replayer's state (internal to tessera_frontend):
// the command walker and the resource tables both refuse a body that does not decode with the
// same error, naming the record kind.
#pragma once

#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "tessera/capture/records.h"

namespace tessera::frontend {

// Decodes `body` into *out; false with *error ("<kind> record does not decode") when it does not.
template <typename R>
bool decode_into(std::span<const std::byte> body, R* out, std::string* error) {
  auto rec = capture::decode_record<R>(body);
  if (!rec) {
    const char* name = capture::record_kind_name(static_cast<uint32_t>(R::kKind));
    *error = std::string(name != nullptr ? name : "record") + " record does not decode";
    return false;
  }
  *out = std::move(*rec);
  return true;
}

// Decodes `body` into a record of type R and hands it to `use`; false (with *error) when it does
// not decode, or when `use` returns false (having set *error: a record the replay refuses).
template <typename R, typename F>
bool with_record(std::span<const std::byte> body, std::string* error, F&& use) {
  R r;
  if (!decode_into(body, &r, error)) return false;
  if constexpr (std::is_same_v<std::invoke_result_t<F, R&>, bool>) {
    return use(r);
  } else {
    use(r);
    return true;
  }
}

}  // namespace tessera::frontend
