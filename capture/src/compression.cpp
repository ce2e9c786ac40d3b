#include "tessera/capture/compression.h"

#include <zstd.h>

namespace tessera::capture {
namespace {

class ZstdCompressor final : public Compressor {
 public:
  explicit ZstdCompressor(int level) : level_(level) {}
  ~ZstdCompressor() override {
    ZSTD_freeCCtx(cctx_);
    ZSTD_freeDCtx(dctx_);
  }
  ZstdCompressor(const ZstdCompressor&) = delete;
  ZstdCompressor& operator=(const ZstdCompressor&) = delete;

  format::Codec codec() const override { return format::Codec::kZstd; }

  bool compress(std::span<const std::byte> src, std::vector<std::byte>& dst) override {
    if (cctx_ == nullptr) {
      cctx_ = ZSTD_createCCtx();
      if (cctx_ == nullptr) return false;
      ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, level_);
    }
    dst.resize(ZSTD_compressBound(src.size()));
    const size_t n = ZSTD_compress2(cctx_, dst.data(), dst.size(), src.data(), src.size());
    if (ZSTD_isError(n)) return false;
    dst.resize(n);
    return true;
  }

  bool decompress(std::span<const std::byte> src, std::span<std::byte> dst) override {
    // The frame must announce exactly the size the chunk header promised, and decode to it.
    const unsigned long long announced = ZSTD_getFrameContentSize(src.data(), src.size());
    if (announced != dst.size()) return false;
    if (ZSTD_findFrameCompressedSize(src.data(), src.size()) != src.size()) return false;
    if (dctx_ == nullptr) {
      dctx_ = ZSTD_createDCtx();
      if (dctx_ == nullptr) return false;
    }
    const size_t n = ZSTD_decompressDCtx(dctx_, dst.data(), dst.size(), src.data(), src.size());
    return !ZSTD_isError(n) && n == dst.size();
  }

 private:
  int level_;
  ZSTD_CCtx* cctx_ = nullptr;
  ZSTD_DCtx* dctx_ = nullptr;
};

}  // namespace

std::unique_ptr<Compressor> make_compressor(format::Codec codec, int level) {
  switch (codec) {
    case format::Codec::kZstd:
      return std::make_unique<ZstdCompressor>(level);
    case format::Codec::kNone:
      break;
  }
  return nullptr;
}

}  // namespace tessera::capture
