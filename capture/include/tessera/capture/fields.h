// The one encoding of record bodies (schema/capture-format.md, "Record kinds"): every record
// struct lists its fields once with TESSERA_RECORD_FIELDS, in encoding order, and encode() /
// decode() below walk that list. Arithmetic fields are stored little-endian at their own width,
// Hash128 as two u64, strings and vectors as a varint count followed by the elements, pairs and
// nested structs field by field. A later minor version may only append fields at the end of a
// struct (decoders allow trailing bytes).
#pragma once

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/capture/bytes.h"
#include "tessera/capture/hash.h"

namespace tessera::capture {

// Declares the field list of a record struct (encoding order) and member-wise equality.
#define TESSERA_RECORD_FIELDS(Type, ...)                            \
  auto fields() { return std::tie(__VA_ARGS__); }                   \
  auto fields() const { return std::tie(__VA_ARGS__); }             \
  friend bool operator==(const Type&, const Type&) = default

// A record whose later minor versions appended fields declares how many of its fields (in
// TESSERA_RECORD_FIELDS order) the first version had: `static constexpr size_t kFieldsSince1_0 = N;`.
// A body that ends right after field N-1 (or after any later field) decodes with the remaining
// fields at their defaults, so files of the older minor version stay readable.
//
// One whose appended fields are written only when it has them (device_info: the limits, absent
// when has_limits is 0) also declares `bool writes_appended_fields() const`: its body then ends
// after field N-1 when that is false, and a body that ends inside the appended fields is refused
// (they come all together or not at all).
//
// A struct with a check of its decoded values declares `bool well_formed() const`: a value for
// which it is false fails the decode (an image subresource that wraps around the address space).

namespace field_codec {

template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};

template <typename T>
struct is_pair : std::false_type {};
template <typename A, typename B>
struct is_pair<std::pair<A, B>> : std::true_type {};

template <typename T>
concept HasFields = requires(T& t) { t.fields(); };

template <typename T>
concept HasAppendedFields = HasFields<T> && requires { T::kFieldsSince1_0; };

template <typename T>
concept HasOptionalAppendedFields =
    HasAppendedFields<T> && requires(const T& t) { { t.writes_appended_fields() } -> std::convertible_to<bool>; };

template <typename T>
concept HasCheck = requires(const T& t) { { t.well_formed() } -> std::convertible_to<bool>; };

template <typename T>
void put_field(ByteWriter& w, const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    w.put(v);
  } else if constexpr (std::is_same_v<T, Hash128>) {
    w.put_hash(v);
  } else if constexpr (std::is_same_v<T, std::string>) {
    w.put_string(v);
  } else if constexpr (is_vector<T>::value) {
    w.put_varint(v.size());
    for (const auto& e : v) put_field(w, e);
  } else if constexpr (is_pair<T>::value) {
    put_field(w, v.first);
    put_field(w, v.second);
  } else {
    static_assert(HasFields<T>, "record field of an unsupported type");
    if constexpr (HasOptionalAppendedFields<T>) {
      if (!v.writes_appended_fields()) {
        size_t index = 0;
        std::apply([&](const auto&... f) { ((index++ < T::kFieldsSince1_0 ? put_field(w, f) : void()), ...); },
                   v.fields());
        return;
      }
    }
    std::apply([&w](const auto&... f) { (put_field(w, f), ...); }, v.fields());
  }
}

template <typename T>
constexpr size_t min_encoded_size();

template <typename Tuple, size_t... I>
constexpr size_t min_fields_size(std::index_sequence<I...>) {
  return (size_t{0} + ... + min_encoded_size<std::remove_cvref_t<std::tuple_element_t<I, Tuple>>>());
}

// The fewest bytes an encoded T takes: what a count of Ts read from input is checked against.
template <typename T>
constexpr size_t min_encoded_size() {
  if constexpr (std::is_arithmetic_v<T>) {
    return sizeof(T);
  } else if constexpr (std::is_same_v<T, Hash128>) {
    return 16;
  } else if constexpr (is_pair<T>::value) {
    return min_encoded_size<typename T::first_type>() + min_encoded_size<typename T::second_type>();
  } else if constexpr (HasFields<T> && !HasAppendedFields<T>) {
    using Tuple = decltype(std::declval<const T&>().fields());
    return min_fields_size<Tuple>(std::make_index_sequence<std::tuple_size_v<Tuple>>{});
  } else {
    return 1;  // a string, a vector or a struct that may end early takes at least one byte
  }
}

template <typename T>
void get_field(ByteReader& r, T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    v = r.get<T>();
  } else if constexpr (std::is_same_v<T, Hash128>) {
    v = r.get_hash();
  } else if constexpr (std::is_same_v<T, std::string>) {
    v = r.get_string();
  } else if constexpr (is_vector<T>::value) {
    using E = typename T::value_type;
    // get_count refuses a count the rest of the body cannot hold: no huge allocation from a
    // hostile count.
    v.clear();
    v.resize(static_cast<size_t>(r.get_count(min_encoded_size<E>())));
    for (auto& e : v) {
      if (!r.ok()) break;
      get_field(r, e);
    }
  } else if constexpr (is_pair<T>::value) {
    get_field(r, v.first);
    get_field(r, v.second);
  } else {
    static_assert(HasFields<T>, "record field of an unsupported type");
    if constexpr (HasAppendedFields<T>) {
      // Fields from kFieldsSince1_0 on were appended by later minor versions: a body that ends
      // before one of them leaves it and the ones after at their defaults (before the first of
      // them only, when they come all together).
      size_t index = 0;
      bool ended = false;
      const auto may_end = [&index] {
        return HasOptionalAppendedFields<T> ? index == T::kFieldsSince1_0 : index >= T::kFieldsSince1_0;
      };
      std::apply(
          [&](auto&... f) {
            ((ended = ended || (may_end() && r.ok() && r.at_end()), ended ? void() : get_field(r, f), ++index),
             ...);
          },
          v.fields());
    } else {
      std::apply([&r](auto&... f) { (get_field(r, f), ...); }, v.fields());
    }
    if constexpr (HasCheck<T>) {
      if (!v.well_formed()) r.fail();
    }
  }
}

}  // namespace field_codec

// A record struct: its field list and its kind (RecordKind or VkRecordKind).
template <typename R>
concept FieldRecord = field_codec::HasFields<R> && requires { R::kKind; };

template <FieldRecord R>
void encode(ByteWriter& w, const R& rec) {
  field_codec::put_field(w, rec);
}

// Reads the whole body; trailing bytes are allowed (a later minor version may append fields).
// False on a body too short or inconsistent for the kind.
template <FieldRecord R>
bool decode(ByteReader& r, R& out) {
  out = R{};
  field_codec::get_field(r, out);
  return r.ok();
}

}  // namespace tessera::capture
