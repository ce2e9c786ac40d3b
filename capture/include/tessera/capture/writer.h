// Capture-file writer. Producers on any thread append records and blobs into bounded batches;
// one background thread compresses (one reused zstd context) and writes chunks. Designed for
// use inside an application's process (the Vulkan layer): nothing here throws, and the first
// I/O error is reported once through WriterOptions::on_error, after which the writer is a no-op.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "tessera/capture/format.h"
#include "tessera/capture/hash.h"
#include "tessera/capture/records.h"

namespace tessera::capture {

struct WriterOptions {
  int compression_level = 1;  // zstd level; 0 stores payloads uncompressed (zero-copy reads)
  // A batch becomes a chunk when it reaches this many bytes (docs/architecture.md, "What capture guarantees": 256 KiB to
  // 2 MiB keeps zstd efficient while bounding the work lost if the app dies).
  size_t chunk_target_bytes = 1u << 20;
  // Bytes queued for the writer thread before producers wait: bounds memory when the disk is
  // slower than the application.
  size_t max_pending_bytes = 64u << 20;
  // fdatasync() at each flush_frame(): survives power loss, not only the process dying.
  bool sync_on_frame = false;
  // Called once, with a one-line message, on the first error. May run on the writer thread.
  std::function<void(const std::string&)> on_error;
};

struct WriterStats {
  uint64_t records = 0;
  uint64_t blobs_written = 0;    // unique blobs stored
  uint64_t blobs_deduped = 0;    // put_blob calls whose content was already stored
  uint64_t raw_bytes = 0;        // payload bytes before compression
  uint64_t stored_bytes = 0;     // payload bytes on disk
  uint64_t file_bytes = 0;       // everything written so far, headers included
  uint64_t chunks = 0;
};

class CaptureWriter {
 public:
  // Creates (truncates) path and writes the file header. Returns nullptr with *error set to
  // "<path>: <reason>" if the file cannot be created.
  static std::unique_ptr<CaptureWriter> open(const std::string& path, WriterOptions options,
                                             std::string* error);
  ~CaptureWriter();  // close()s if not closed
  CaptureWriter(const CaptureWriter&) = delete;
  CaptureWriter& operator=(const CaptureWriter&) = delete;

  // Records written from now until flush_frame() belong to frame `present` (1-based present
  // count); records written outside a frame are global (device, session information).
  void begin_frame(uint32_t present);
  // Completes the open frame: its records, and every blob put so far, reach the OS before this
  // returns, so the frame survives the process being killed afterwards.
  void flush_frame();

  void write_record(RecordKind kind, std::span<const std::byte> body);
  void write_record(uint32_t kind, std::span<const std::byte> body);
  // Any record type with an encode() overload and a kKind (RecordKind or VkRecordKind).
  template <typename R>
  void write(const R& rec) {
    ByteWriter w;
    encode(w, rec);
    write_record(static_cast<uint32_t>(R::kKind), w.bytes());
  }

  // Stores a blob once per content; returns its hash (what records reference).
  Hash128 put_blob(std::span<const std::byte> bytes);
  bool has_blob(const Hash128& hash) const;

  // Writes pending data, the trailer index and the footer, and closes the file. Idempotent.
  // False if any error happened during the writer's life.
  bool close();

  bool failed() const { return failed_.load(std::memory_order_relaxed); }
  WriterStats stats() const;
  const std::string& path() const { return path_; }

 private:
  struct Job;
  struct BlobPlacement {
    Hash128 hash;
    uint64_t payload_offset, size;
  };
  struct FrameEntry {
    uint32_t present;
    uint64_t record_count;
    std::vector<uint64_t> chunk_offsets;
  };

  CaptureWriter(std::string path, int fd, WriterOptions options);
  void start_records_batch_locked();
  void start_blobs_batch_locked();
  // The *_locked functions run with mutex_ held and never wait: a batch's frame and its place
  // in the chunk order are fixed under one hold of the lock. Public calls wait for queue space
  // (backpressure) only at their end, through wait_for_space.
  void seal_records_locked(bool frame_end);
  void seal_blobs_locked();
  void enqueue_locked(std::unique_ptr<Job> job);
  void wait_for_space(std::unique_lock<std::mutex>& lock);
  void wait_written(uint64_t seq, std::unique_lock<std::mutex>& lock);
  void writer_thread();
  // Compresses (when it pays) and writes one chunk; *offset_out = its file offset.
  bool write_chunk(format::ChunkType type, uint16_t flags, uint32_t frame,
                   std::span<const std::byte> raw, uint64_t* offset_out, uint64_t* stored_out);
  bool write_all(std::span<const std::byte> bytes);
  void report_error(const std::string& what);
  bool write_trailer();

  const std::string path_;
  int fd_;
  const WriterOptions options_;

  // Producer side, guarded by mutex_.
  mutable std::mutex mutex_;
  std::condition_variable queue_cv_;    // writer thread waits for jobs
  std::condition_variable written_cv_;  // producers wait for space or completion
  std::deque<std::unique_ptr<Job>> queue_;
  size_t pending_bytes_ = 0;
  uint64_t next_seq_ = 1;
  uint64_t written_seq_ = 0;
  bool stopping_ = false;
  bool closed_ = false;
  uint32_t frame_ = format::kNoFrame;
  std::vector<std::byte> records_;
  uint32_t records_count_ = 0;
  std::vector<std::byte> blobs_;
  std::vector<BlobPlacement> blob_placements_;
  std::unordered_set<Hash128> blobs_seen_;
  std::map<uint32_t, uint64_t> kind_counts_;
  WriterStats stats_;

  // Writer-thread side (read by close() after the thread is joined).
  uint64_t file_offset_ = 0;
  std::vector<FrameEntry> frames_;
  std::vector<uint64_t> global_chunks_;
  std::vector<format::IndexBlob> blob_index_;
  uint64_t chunk_count_ = 0;
  uint64_t index_raw_bytes_ = 0;
  uint64_t index_stored_bytes_ = 0;
  uint64_t index_record_count_ = 0;
  std::unique_ptr<class Compressor> compressor_;
  std::vector<std::byte> scratch_;

  std::atomic<bool> failed_{false};
  std::atomic<bool> error_reported_{false};
  std::thread thread_;
};

}  // namespace tessera::capture
