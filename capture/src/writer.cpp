#include "tessera/capture/writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "tessera/capture/compression.h"

namespace tessera::capture {
namespace {

template <typename T>
void append_pod(std::vector<std::byte>& out, const T& v) {
  // resize + memcpy rather than insert: GCC 12 reports a false -Wstringop-overflow on
  // vector<std::byte>::insert after clear().
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &v, sizeof(T));
}

template <typename T>
void store_pod(std::vector<std::byte>& out, size_t at, const T& v) {
  std::memcpy(out.data() + at, &v, sizeof(T));
}

uint32_t low32(uint64_t v) { return static_cast<uint32_t>(v & 0xffffffffu); }

}  // namespace

struct CaptureWriter::Job {
  format::ChunkType type = format::ChunkType::kRecords;
  uint16_t flags = 0;
  uint32_t frame = format::kNoFrame;
  uint64_t record_count = 0;
  std::vector<std::byte> raw;
  std::vector<BlobPlacement> blobs;
  uint64_t seq = 0;
};

std::unique_ptr<CaptureWriter> CaptureWriter::open(const std::string& path, WriterOptions options,
                                                   std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (error) *error = path + ": cannot create capture file: " + std::strerror(errno);
    return nullptr;
  }
  std::unique_ptr<CaptureWriter> w(new (std::nothrow) CaptureWriter(path, fd, std::move(options)));
  if (!w) {
    ::close(fd);
    if (error) *error = path + ": out of memory";
    return nullptr;
  }
  format::FileHeader header{};
  std::memcpy(header.magic, format::kFileMagic, sizeof(header.magic));
  header.major = format::kMajorVersion;
  header.minor = format::kMinorVersion;
  header.header_size = sizeof(format::FileHeader);
  header.codec = static_cast<uint32_t>(format::Codec::kZstd);
  header.header_hash = low32(hash64({reinterpret_cast<const std::byte*>(&header), offsetof(format::FileHeader, header_hash)}));
  if (!w->write_all({reinterpret_cast<const std::byte*>(&header), sizeof(header)})) {
    if (error) *error = path + ": cannot write capture file header: " + std::strerror(errno);
    w->failed_ = true;  // so the destructor writes no trailer into the broken file
    return nullptr;
  }
  w->file_offset_ = sizeof(header);
  w->stats_.file_bytes = sizeof(header);
  try {
    w->thread_ = std::thread(&CaptureWriter::writer_thread, w.get());
  } catch (const std::exception& e) {
    if (error) *error = path + ": cannot start writer thread: " + e.what();
    w->failed_ = true;
    return nullptr;
  }
  return w;
}

CaptureWriter::CaptureWriter(std::string path, int fd, WriterOptions options)
    : path_(std::move(path)), fd_(fd), options_(std::move(options)) {
  if (options_.compression_level != 0) {
    compressor_ = make_compressor(format::Codec::kZstd, options_.compression_level);
  }
}

CaptureWriter::~CaptureWriter() {
  close();
  if (thread_.joinable()) thread_.join();  // open() failed after starting nothing; harmless
  if (fd_ >= 0) ::close(fd_);
}

void CaptureWriter::report_error(const std::string& what) {
  failed_.store(true, std::memory_order_relaxed);
  if (error_reported_.exchange(true)) return;
  if (options_.on_error) {
    options_.on_error(what);
  } else {
    std::fprintf(stderr, "tessera: %s\n", what.c_str());
  }
}

bool CaptureWriter::write_all(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes = bytes.subspan(static_cast<size_t>(n));
  }
  return true;
}

void CaptureWriter::start_records_batch_locked() {
  records_.clear();
  records_.reserve(options_.chunk_target_bytes + 4096);
  append_pod(records_, format::RecordsPrefix{});
  records_count_ = 0;
}

void CaptureWriter::start_blobs_batch_locked() {
  blobs_.clear();
  append_pod(blobs_, format::BlobsPrefix{});
  blob_placements_.clear();
}

void CaptureWriter::seal_records_locked(bool frame_end) {
  if (records_count_ == 0 && !frame_end) return;
  if (records_.empty()) start_records_batch_locked();  // a frame with no records still ends
  store_pod(records_, 0, format::RecordsPrefix{records_count_, 0});
  auto job = std::make_unique<Job>();
  job->type = format::ChunkType::kRecords;
  job->flags = frame_end ? format::kChunkFrameEnd : 0;
  job->frame = frame_;
  job->record_count = records_count_;
  job->raw = std::move(records_);
  records_.clear();
  records_count_ = 0;
  enqueue_locked(std::move(job));
}

void CaptureWriter::seal_blobs_locked() {
  if (blob_placements_.empty()) return;
  store_pod(blobs_, 0, format::BlobsPrefix{static_cast<uint32_t>(blob_placements_.size()), 0});
  auto job = std::make_unique<Job>();
  job->type = format::ChunkType::kBlobs;
  job->raw = std::move(blobs_);
  job->blobs = std::move(blob_placements_);
  blobs_.clear();
  blob_placements_.clear();
  enqueue_locked(std::move(job));
}

void CaptureWriter::enqueue_locked(std::unique_ptr<Job> job) {
  job->seq = next_seq_++;
  pending_bytes_ += job->raw.size();
  queue_.push_back(std::move(job));
  queue_cv_.notify_one();
}

void CaptureWriter::wait_for_space(std::unique_lock<std::mutex>& lock) {
  // A job larger than the whole budget only waits for the jobs queued before it.
  const uint64_t last = next_seq_ - 1;
  written_cv_.wait(lock, [&] {
    return pending_bytes_ <= options_.max_pending_bytes || failed() || written_seq_ + 1 >= last;
  });
}

void CaptureWriter::wait_written(uint64_t seq, std::unique_lock<std::mutex>& lock) {
  written_cv_.wait(lock, [&] { return written_seq_ >= seq || failed(); });
}

void CaptureWriter::begin_frame(uint32_t present) {
  if (failed()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_) return;
  // A frame that was never flushed ends where the next one begins; global records written so
  // far go out in chunks of their own, so every chunk belongs to exactly one frame.
  seal_records_locked(frame_ != format::kNoFrame);
  frame_ = present;
  wait_for_space(lock);
}

void CaptureWriter::flush_frame() {
  if (failed()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  if (closed_) return;
  seal_blobs_locked();  // blobs first: a complete frame never references a missing blob
  seal_records_locked(frame_ != format::kNoFrame);
  frame_ = format::kNoFrame;
  wait_written(next_seq_ - 1, lock);
  lock.unlock();
  if (options_.sync_on_frame && !failed() && ::fdatasync(fd_) != 0) {
    report_error(path_ + ": fdatasync failed: " + std::strerror(errno));
  }
}

void CaptureWriter::write_record(RecordKind kind, std::span<const std::byte> body) {
  write_record(static_cast<uint32_t>(kind), body);
}

void CaptureWriter::write_record(uint32_t kind, std::span<const std::byte> body) {
  if (failed()) return;
  if (body.size() > format::kMaxRecordSize) {
    report_error(path_ + ": record of " + std::to_string(body.size()) + " bytes exceeds the format limit");
    return;
  }
  try {
    std::unique_lock<std::mutex> lock(mutex_);
    if (closed_) return;
    if (records_.empty()) start_records_batch_locked();
    append_pod(records_, format::RecordHeader{kind, static_cast<uint32_t>(body.size())});
    records_.insert(records_.end(), body.begin(), body.end());
    ++records_count_;
    ++stats_.records;
    ++kind_counts_[kind];
    if (records_.size() >= options_.chunk_target_bytes) {
      seal_records_locked(false);
      wait_for_space(lock);
    }
  } catch (const std::bad_alloc&) {
    report_error(path_ + ": out of memory while recording");
  }
}

Hash128 CaptureWriter::put_blob(std::span<const std::byte> bytes) {
  Hash128 hash = hash128(bytes);
  if (failed()) return hash;
  try {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return hash;
      if (blobs_seen_.count(hash) != 0) {
        ++stats_.blobs_deduped;
        return hash;
      }
    }
    // `bytes` may be mapped memory the application or the device is still writing (the layer
    // snapshots host-visible memory while the app runs): store and hash one private copy, so a
    // stored blob always matches the hash it is filed under and that is returned.
    std::vector<std::byte> snapshot(bytes.begin(), bytes.end());
    bytes = snapshot;
    hash = hash128(bytes);
    std::unique_lock<std::mutex> lock(mutex_);
    if (closed_) return hash;
    if (!blobs_seen_.insert(hash).second) {
      ++stats_.blobs_deduped;
      return hash;
    }
    ++stats_.blobs_written;
    const size_t entry = sizeof(format::BlobHeader) + bytes.size();
    if (entry >= options_.chunk_target_bytes) {
      // A large blob (a texture with its mips) becomes a chunk of its own rather than
      // flushing the batch of small ones around it.
      auto job = std::make_unique<Job>();
      job->type = format::ChunkType::kBlobs;
      job->raw.reserve(sizeof(format::BlobsPrefix) + entry);
      append_pod(job->raw, format::BlobsPrefix{1, 0});
      append_pod(job->raw, format::BlobHeader{hash.lo, hash.hi, bytes.size()});
      job->blobs.push_back({hash, job->raw.size(), bytes.size()});
      job->raw.insert(job->raw.end(), bytes.begin(), bytes.end());
      enqueue_locked(std::move(job));
      wait_for_space(lock);
      return hash;
    }
    if (blobs_.empty()) start_blobs_batch_locked();
    append_pod(blobs_, format::BlobHeader{hash.lo, hash.hi, bytes.size()});
    blob_placements_.push_back({hash, blobs_.size(), bytes.size()});
    blobs_.insert(blobs_.end(), bytes.begin(), bytes.end());
    if (blobs_.size() >= options_.chunk_target_bytes) {
      seal_blobs_locked();
      wait_for_space(lock);
    }
  } catch (const std::bad_alloc&) {
    report_error(path_ + ": out of memory while storing a blob");
  }
  return hash;
}

bool CaptureWriter::has_blob(const Hash128& hash) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return blobs_seen_.count(hash) != 0;
}

WriterStats CaptureWriter::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

bool CaptureWriter::write_chunk(format::ChunkType type, uint16_t flags, uint32_t frame,
                                std::span<const std::byte> raw, uint64_t* offset_out,
                                uint64_t* stored_out) {
  std::span<const std::byte> payload = raw;
  if (compressor_ && compressor_->compress(raw, scratch_) && scratch_.size() < raw.size()) {
    payload = scratch_;
    flags = static_cast<uint16_t>(flags | format::kChunkCompressed);
  }
  format::ChunkHeader h{};
  h.magic = format::kChunkMagic;
  h.type = static_cast<uint16_t>(type);
  h.flags = flags;
  h.stored_size = payload.size();
  h.raw_size = raw.size();
  h.payload_hash = hash64(payload);
  h.frame = frame;
  h.header_hash = low32(hash64({reinterpret_cast<const std::byte*>(&h), offsetof(format::ChunkHeader, header_hash)}));
  *offset_out = file_offset_;
  if (!write_all({reinterpret_cast<const std::byte*>(&h), sizeof(h)}) || !write_all(payload)) {
    report_error(path_ + ": write failed at byte " + std::to_string(file_offset_) + ": " + std::strerror(errno));
    return false;
  }
  file_offset_ += sizeof(h) + payload.size();
  *stored_out = payload.size();
  ++chunk_count_;
  index_raw_bytes_ += raw.size();
  index_stored_bytes_ += payload.size();
  return true;
}

void CaptureWriter::writer_thread() {
  for (;;) {
    std::unique_ptr<Job> job;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      queue_cv_.wait(lock, [&] { return !queue_.empty() || stopping_; });
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    uint64_t offset = 0, stored = 0;
    bool ok = false;
    if (!failed()) {
      try {
        ok = write_chunk(job->type, job->flags, job->frame, job->raw, &offset, &stored);
        if (ok && job->type == format::ChunkType::kRecords) {
          index_record_count_ += job->record_count;
          if (job->frame == format::kNoFrame) {
            global_chunks_.push_back(offset);
          } else {
            if (frames_.empty() || frames_.back().present != job->frame) {
              frames_.push_back({job->frame, 0, {}});
            }
            frames_.back().record_count += job->record_count;
            frames_.back().chunk_offsets.push_back(offset);
          }
        } else if (ok && job->type == format::ChunkType::kBlobs) {
          for (const auto& b : job->blobs) {
            blob_index_.push_back({b.hash.lo, b.hash.hi, offset, b.payload_offset, b.size});
          }
        }
      } catch (const std::bad_alloc&) {
        report_error(path_ + ": out of memory while compressing");
        ok = false;
      }
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pending_bytes_ -= job->raw.size();
      written_seq_ = job->seq;
      if (ok) {
        ++stats_.chunks;
        stats_.raw_bytes += job->raw.size();
        stats_.stored_bytes += stored;
        stats_.file_bytes = file_offset_;
      }
    }
    written_cv_.notify_all();
  }
}

bool CaptureWriter::write_trailer() {
  std::vector<std::byte> index;
  std::map<uint32_t, uint64_t> kinds;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    kinds = kind_counts_;
  }
  format::IndexPrefix prefix{};
  prefix.frame_count = static_cast<uint32_t>(frames_.size());
  prefix.blob_count = static_cast<uint32_t>(blob_index_.size());
  prefix.global_chunk_count = static_cast<uint32_t>(global_chunks_.size());
  prefix.kind_count = static_cast<uint32_t>(kinds.size());
  prefix.chunk_count = chunk_count_;
  prefix.record_count = index_record_count_;
  prefix.raw_bytes = index_raw_bytes_;
  prefix.stored_bytes = index_stored_bytes_;
  append_pod(index, prefix);
  for (const auto& f : frames_) {
    append_pod(index, format::IndexFrame{f.present, static_cast<uint32_t>(f.chunk_offsets.size()), f.record_count});
    for (uint64_t o : f.chunk_offsets) append_pod(index, o);
  }
  for (const auto& b : blob_index_) append_pod(index, b);
  for (uint64_t o : global_chunks_) append_pod(index, o);
  for (const auto& [kind, count] : kinds) append_pod(index, format::IndexKind{kind, 0, count});

  uint64_t offset = 0, stored = 0;
  if (!write_chunk(format::ChunkType::kIndex, 0, format::kNoFrame, index, &offset, &stored)) return false;
  format::Footer footer{};
  footer.index_offset = offset;
  footer.index_size = sizeof(format::ChunkHeader) + stored;
  footer.chunk_count = chunk_count_;
  footer.magic = format::kFooterMagic;
  footer.footer_hash = low32(hash64({reinterpret_cast<const std::byte*>(&footer), offsetof(format::Footer, footer_hash)}));
  if (!write_all({reinterpret_cast<const std::byte*>(&footer), sizeof(footer)})) {
    report_error(path_ + ": cannot write footer: " + std::strerror(errno));
    return false;
  }
  file_offset_ += sizeof(footer);
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.file_bytes = file_offset_;
  return true;
}

bool CaptureWriter::close() {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (closed_) return !failed();
    try {
      seal_blobs_locked();
      seal_records_locked(frame_ != format::kNoFrame);
    } catch (const std::bad_alloc&) {
      report_error(path_ + ": out of memory while closing");
    }
    frame_ = format::kNoFrame;
    closed_ = true;
    stopping_ = true;
  }
  queue_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (!failed()) write_trailer();
  if (fd_ >= 0) {
    if (::close(fd_) != 0 && !failed()) report_error(path_ + ": close failed: " + std::strerror(errno));
    fd_ = -1;
  }
  return !failed();
}

}  // namespace tessera::capture
