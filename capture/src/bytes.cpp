#include "tessera/capture/bytes.h"

namespace tessera::capture {

void ByteWriter::put_varint(uint64_t v) {
  // LEB128: 7 bits per byte, high bit set while more bytes follow.
  while (v >= 0x80) {
    buf_.push_back(static_cast<std::byte>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  buf_.push_back(static_cast<std::byte>(v));
}

void ByteWriter::put_string(std::string_view s) {
  put_varint(s.size());
  put_bytes(as_bytes_view(s));
}

uint64_t ByteReader::get_varint() {
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    const auto byte = get<uint8_t>();
    if (!ok_) return 0;
    // The tenth byte may only carry the top bit of a 64-bit value.
    if (shift == 63 && byte > 1) break;
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  ok_ = false;  // more than 64 bits: not a varint we wrote
  return 0;
}

std::string ByteReader::get_string() {
  const uint64_t n = get_count(1);
  const auto b = get_bytes(static_cast<size_t>(n));
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

uint64_t ByteReader::get_count(size_t min_elem_bytes) {
  const uint64_t n = get_varint();
  if (!ok_) return 0;
  if (min_elem_bytes != 0 && n > remaining() / min_elem_bytes) {
    ok_ = false;
    return 0;
  }
  return n;
}

}  // namespace tessera::capture
