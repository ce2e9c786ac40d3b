// Capture-file reader: random access by frame and by blob hash through the trailer index, and
// recovery of files without one (writer killed) up to the last complete chunk. Every size,
// offset, count and checksum is checked before it is used: the input may be hostile.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera/capture/format.h"
#include "tessera/capture/hash.h"

namespace tessera::capture {

// Bytes that stay valid while `owner` (or the reader, for mapped data) lives.
struct Bytes {
  std::shared_ptr<const void> owner;
  std::span<const std::byte> data;
};

struct FrameInfo {
  uint32_t present = 0;  // 1-based present number
  uint64_t record_count = 0;
  std::vector<uint64_t> chunk_offsets;  // records chunks, in order
};

struct CaptureSummary {
  uint16_t major = 0, minor = 0;
  bool has_trailer = false;
  uint64_t file_bytes = 0;
  uint64_t chunk_count = 0;
  uint64_t record_count = 0;
  uint64_t raw_bytes = 0;     // chunk payloads, uncompressed
  uint64_t stored_bytes = 0;  // chunk payloads, as stored
  uint64_t blob_count = 0;
  uint64_t blob_bytes = 0;    // unique blob contents, uncompressed
  std::map<uint32_t, uint64_t> records_by_kind;
};

// Where a file's bytes go. Compression is per chunk, so a record or blob has no compressed size
// of its own: each chunk's stored payload is shared out over its records (or blobs) by their
// raw bytes, framing included (record header 8 bytes, blob entry header 24).
struct StorageShare {
  uint64_t count = 0;
  uint64_t raw_bytes = 0;
  double stored_bytes = 0;
};
struct StorageBreakdown {
  std::map<uint32_t, StorageShare> records_by_kind;
  std::unordered_map<Hash128, StorageShare> blobs;
  // File header, chunk headers, chunk payload headers, trailer index and footer: the rest of
  // the file.
  double overhead_bytes = 0;
};

// Record visitor: return false to stop early.
using RecordVisitor = std::function<bool(uint32_t kind, std::span<const std::byte> body)>;

class CaptureReader {
 public:
  // Opens a file (memory-mapped). nullptr with *error = "<path>: byte N: <problem>" when the
  // file cannot be used at all (unreadable, empty, wrong magic, unsupported major version).
  static std::unique_ptr<CaptureReader> open(const std::string& path, std::string* error);
  // Same over bytes in memory (tests, fuzzing); `data` must outlive the reader.
  static std::unique_ptr<CaptureReader> open_memory(std::span<const std::byte> data,
                                                    std::string name, std::string* error);
  ~CaptureReader();

  const std::string& name() const { return name_; }
  // Identity of the capture's content (not its path): XXH3-128 of the trailer index chunk, which
  // names every chunk and blob hash; of the whole file when there is no trailer. Results
  // databases key captures on it, so a file moved or re-captured to the same path is told apart.
  Hash128 fingerprint() const;
  const CaptureSummary& summary() const { return summary_; }
  // Why the file was read by scanning rather than through its trailer (truncated, damaged
  // trailer); empty when the trailer was used.
  const std::string& recovery_reason() const { return recovery_reason_; }
  // Complete frames only: a frame whose last chunk never reached the disk is left out.
  const std::vector<FrameInfo>& frames() const { return frames_; }
  const FrameInfo* find_frame(uint32_t present) const;

  // Visits the records of frames()[index] in order. False with *error on damaged data.
  bool read_frame(size_t index, const RecordVisitor& visit, std::string* error) const;
  // Visits records that belong to no frame (device and session information).
  bool read_global(const RecordVisitor& visit, std::string* error) const;
  // A blob's bytes. nullopt with *error when unknown or damaged.
  std::optional<Bytes> blob(const Hash128& hash, std::string* error) const;
  size_t blob_count() const { return blobs_.size(); }
  std::vector<Hash128> blob_hashes() const;

  // Shares the stored bytes of every complete frame's and the global records chunks, and of
  // every blobs chunk, out over their records and blobs. False with *error on damaged data.
  bool storage_breakdown(StorageBreakdown* out, std::string* error) const;

  // Checks every chunk (header, checksum, decompression, framing), the trailer and its
  // agreement with the chunks. Returns "" when intact, else the first problem as
  // "<name>: byte N: <problem>". Notices (unknown chunk types) go to *notices if given.
  std::string verify(std::vector<std::string>* notices = nullptr) const;

 private:
  struct BlobLoc {
    uint64_t chunk_offset, payload_offset, size;
  };
  struct Mapping;

  CaptureReader() = default;
  struct Scan;
  bool init(std::string* error);
  bool load_trailer(std::string* problem);
  // Walks the chunks from the file header on. Stops at the first problem (recorded in the
  // Scan); `deep` also checks each blob's bytes against its hash.
  void scan(Scan& out, bool deep, std::vector<std::string>* notices) const;
  std::string where(uint64_t offset, const std::string& problem) const;
  // Validates the chunk header at offset; fills *h. Problem text on failure.
  bool chunk_header(uint64_t offset, format::ChunkHeader* h, std::string* problem) const;
  // Checks and, when compressed, decompresses the payload of the chunk at offset.
  bool chunk_payload(uint64_t offset, const format::ChunkHeader& h, Bytes* out,
                     std::string* problem) const;
  // The checked, decompressed payload of the records chunk of `frame` at offset.
  bool records_chunk(uint64_t offset, uint32_t frame, format::ChunkHeader* h, Bytes* payload,
                     std::string* error) const;
  bool read_chunks(const std::vector<uint64_t>& offsets, uint32_t frame,
                   const RecordVisitor& visit, std::string* error) const;

  std::string name_;
  std::shared_ptr<Mapping> mapping_;
  std::span<const std::byte> data_;
  format::FileHeader header_{};
  CaptureSummary summary_;
  std::string recovery_reason_;
  std::vector<FrameInfo> frames_;
  std::vector<uint64_t> global_chunks_;
  std::unordered_map<Hash128, BlobLoc> blobs_;
  std::span<const std::byte> index_bytes_;  // the trailer index chunk, header and payload

  // Last decompressed blobs chunk: textures are read in runs from the same chunk.
  mutable std::mutex cache_mutex_;
  mutable uint64_t cached_offset_ = ~0ull;
  mutable Bytes cached_payload_;
};

}  // namespace tessera::capture
