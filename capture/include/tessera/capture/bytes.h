// Little-endian serialization of record bodies. ByteReader never reads past its span: every
// getter checks the remaining size first and latches a failure, so decoding hostile input
// cannot overrun (check ok() once at the end, as with std::istream).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tessera/capture/hash.h"

namespace tessera::capture {

class ByteWriter {
 public:
  template <typename T>
    requires std::is_arithmetic_v<T>
  void put(T v) {
    const auto* p = reinterpret_cast<const std::byte*>(&v);
    buf_.insert(buf_.end(), p, p + sizeof(T));
  }
  void put_varint(uint64_t v);
  void put_bytes(std::span<const std::byte> b) { buf_.insert(buf_.end(), b.begin(), b.end()); }
  void put_string(std::string_view s);  // varint length + bytes
  void put_hash(const Hash128& h) {
    put(h.lo);
    put(h.hi);
  }

  const std::vector<std::byte>& bytes() const { return buf_; }
  std::vector<std::byte> take() { return std::move(buf_); }
  size_t size() const { return buf_.size(); }

 private:
  std::vector<std::byte> buf_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> b) : data_(b) {}

  template <typename T>
    requires std::is_arithmetic_v<T>
  T get() {
    T v{};
    if (!need(sizeof(T))) return v;
    std::memcpy(&v, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  uint64_t get_varint();
  std::string get_string();
  Hash128 get_hash() {
    Hash128 h;
    h.lo = get<uint64_t>();
    h.hi = get<uint64_t>();
    return h;
  }
  std::span<const std::byte> get_bytes(size_t n) {
    if (!need(n)) return {};
    auto s = data_.subspan(pos_, n);
    pos_ += n;
    return s;
  }
  // A count read from input, to size a container of elements each at least min_elem_bytes
  // long: refused (and the reader failed) if the rest of the input cannot hold that many.
  uint64_t get_count(size_t min_elem_bytes);

  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == data_.size(); }
  size_t remaining() const { return data_.size() - pos_; }
  void fail() { ok_ = false; }

 private:
  bool need(size_t n) {
    if (!ok_ || n > data_.size() - pos_) {
      ok_ = false;
      return false;
    }
    return true;
  }
  std::span<const std::byte> data_;
  size_t pos_ = 0;
  bool ok_ = true;
};

inline std::span<const std::byte> as_bytes_view(std::string_view s) {
  return {reinterpret_cast<const std::byte*>(s.data()), s.size()};
}

}  // namespace tessera::capture
