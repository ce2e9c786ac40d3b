// On-disk layout of Tessera capture files, version 1. The normative description is
// schema/capture-format.md; this header mirrors it.
//
// Rules (after gfxreconstruct framework/format/format.h): fixed-size fields only, no size_t,
// no pointers, no enums without a fixed underlying type; every struct's size is asserted so a
// layout change cannot slip in unnoticed. All multi-byte fields are little-endian.
#pragma once

#include <bit>
#include <cstdint>

namespace tessera::capture::format {

static_assert(std::endian::native == std::endian::little,
              "capture structs are read and written in host order, which must be little-endian");

inline constexpr uint8_t kFileMagic[8] = {'T', 'E', 'S', 'S', 'C', 'A', 'P', 0x1a};
inline constexpr uint16_t kMajorVersion = 1;  // a reader refuses any other major version
inline constexpr uint16_t kMinorVersion = 1;  // a reader accepts any minor of its major

inline constexpr uint32_t fourcc(char a, char b, char c, char d) {
  return static_cast<uint32_t>(static_cast<uint8_t>(a)) |
         static_cast<uint32_t>(static_cast<uint8_t>(b)) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(c)) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(d)) << 24;
}
inline constexpr uint32_t kChunkMagic = fourcc('T', 'C', 'H', 'K');
inline constexpr uint32_t kFooterMagic = fourcc('T', 'E', 'N', 'D');

// Codec of compressed chunk payloads; recorded in the file header.
enum class Codec : uint32_t { kNone = 0, kZstd = 1 };

struct FileHeader {
  uint8_t magic[8];
  uint16_t major;
  uint16_t minor;
  uint32_t flags;        // reserved, 0
  uint32_t header_size;  // sizeof(FileHeader); lets a later minor grow the header
  uint32_t codec;        // Codec
  uint32_t reserved;     // 0
  uint32_t header_hash;  // low 32 bits of XXH3-64 of the 28 bytes before this field
};
static_assert(sizeof(FileHeader) == 32);

enum class ChunkType : uint16_t {
  kRecords = 1,  // records of one frame (or of no frame: frame == kNoFrame)
  kBlobs = 2,    // content-addressed blobs
  kIndex = 3,    // trailer index, written once by close()
};

enum ChunkFlags : uint16_t {
  kChunkCompressed = 1u << 0,  // payload is one zstd frame of raw_size bytes
  kChunkFrameEnd = 1u << 1,    // last records chunk of its frame: the frame is complete
};

inline constexpr uint32_t kNoFrame = 0;  // presents are counted from 1, so 0 means "no frame"

struct ChunkHeader {
  uint32_t magic;         // kChunkMagic
  uint16_t type;          // ChunkType; unknown types are skipped with a notice
  uint16_t flags;         // ChunkFlags
  uint64_t stored_size;   // bytes of payload following this header
  uint64_t raw_size;      // bytes of payload once decompressed (== stored_size if stored raw)
  uint64_t payload_hash;  // XXH3-64 of the stored payload bytes
  uint32_t frame;         // present number the chunk belongs to, kNoFrame for global chunks
  uint32_t header_hash;   // low 32 bits of XXH3-64 of the 36 bytes before this field
};
static_assert(sizeof(ChunkHeader) == 40);

// A records chunk payload (after decompression) is a RecordsPrefix followed by record_count
// records, each a RecordHeader and `size` bytes.
struct RecordsPrefix {
  uint32_t record_count;
  uint32_t reserved;
};
static_assert(sizeof(RecordsPrefix) == 8);

struct RecordHeader {
  uint32_t kind;  // RecordKind (records.h); unknown kinds are skipped by consumers with a notice
  uint32_t size;  // bytes of record body following
};
static_assert(sizeof(RecordHeader) == 8);

// A blobs chunk payload is a BlobsPrefix followed by blob_count BlobHeader + `size` bytes.
struct BlobsPrefix {
  uint32_t blob_count;
  uint32_t reserved;
};
static_assert(sizeof(BlobsPrefix) == 8);

struct BlobHeader {
  uint64_t hash_lo;  // XXH3-128 of the blob bytes
  uint64_t hash_hi;
  uint64_t size;
};
static_assert(sizeof(BlobHeader) == 24);

// Index chunk payload: IndexPrefix, then frame_count frames (IndexFrame + chunk_count u64
// chunk offsets each), blob_count IndexBlob, global_chunk_count u64 offsets, kind_count
// IndexKind.
struct IndexPrefix {
  uint32_t frame_count;
  uint32_t blob_count;
  uint32_t global_chunk_count;
  uint32_t kind_count;
  uint64_t chunk_count;   // chunks before the index chunk
  uint64_t record_count;  // all records in the file
  uint64_t raw_bytes;     // sum of raw_size over all chunks before the index
  uint64_t stored_bytes;  // sum of stored_size over all chunks before the index
};
static_assert(sizeof(IndexPrefix) == 48);

struct IndexFrame {
  uint32_t present;      // 1-based present number
  uint32_t chunk_count;  // records chunks of this frame, in file order
  uint64_t record_count;
};
static_assert(sizeof(IndexFrame) == 16);

struct IndexBlob {
  uint64_t hash_lo;
  uint64_t hash_hi;
  uint64_t chunk_offset;    // file offset of the blobs chunk holding it
  uint64_t payload_offset;  // offset of the blob bytes inside the chunk's raw payload
  uint64_t size;
};
static_assert(sizeof(IndexBlob) == 40);

struct IndexKind {
  uint32_t kind;
  uint32_t reserved;
  uint64_t count;
};
static_assert(sizeof(IndexKind) == 16);

// Last 32 bytes of a file that was closed properly.
struct Footer {
  uint64_t index_offset;  // file offset of the index chunk's header
  uint64_t index_size;    // header + payload bytes of the index chunk
  uint64_t chunk_count;   // chunks in the file, the index included
  uint32_t magic;         // kFooterMagic
  uint32_t footer_hash;   // low 32 bits of XXH3-64 of the 28 bytes before this field
};
static_assert(sizeof(Footer) == 32);

// Sanity limits a reader enforces before allocating or trusting a size.
inline constexpr uint64_t kMaxChunkRawSize = 1ull << 30;  // 1 GiB
inline constexpr uint64_t kMaxRecordSize = 1ull << 30;

}  // namespace tessera::capture::format
