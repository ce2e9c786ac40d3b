#include "tessera/capture/reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "tessera/capture/bytes.h"
#include "tessera/capture/compression.h"

namespace tessera::capture {
namespace {

using format::ChunkHeader;
using format::ChunkType;

uint32_t low32(uint64_t v) { return static_cast<uint32_t>(v & 0xffffffffu); }

template <typename T>
T load_pod(std::span<const std::byte> bytes, size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  return v;
}

// Record framing of a records chunk payload: RecordsPrefix, then record_count records that
// exactly fill the payload.
bool for_each_record(std::span<const std::byte> payload, const RecordVisitor& visit,
                     uint64_t* count, std::string* problem) {
  if (payload.size() < sizeof(format::RecordsPrefix)) {
    *problem = "records chunk too short for its prefix";
    return false;
  }
  const auto prefix = load_pod<format::RecordsPrefix>(payload, 0);
  size_t pos = sizeof(prefix);
  if (prefix.record_count > (payload.size() - pos) / sizeof(format::RecordHeader)) {
    *problem = "records chunk claims " + std::to_string(prefix.record_count) + " records, more than fit";
    return false;
  }
  for (uint32_t i = 0; i < prefix.record_count; ++i) {
    if (payload.size() - pos < sizeof(format::RecordHeader)) {
      *problem = "record " + std::to_string(i) + " header runs past the chunk";
      return false;
    }
    const auto rh = load_pod<format::RecordHeader>(payload, pos);
    pos += sizeof(rh);
    if (rh.size > payload.size() - pos) {
      *problem = "record " + std::to_string(i) + " claims " + std::to_string(rh.size) +
                 " bytes, past the end of its chunk";
      return false;
    }
    if (visit && !visit(rh.kind, payload.subspan(pos, rh.size))) {
      *count = i + 1;
      return true;
    }
    pos += rh.size;
  }
  if (pos != payload.size()) {
    *problem = "records chunk has " + std::to_string(payload.size() - pos) + " bytes after its last record";
    return false;
  }
  *count = prefix.record_count;
  return true;
}

struct BlobEntry {
  Hash128 hash;
  uint64_t payload_offset, size;
};

bool for_each_blob(std::span<const std::byte> payload, const std::function<void(const BlobEntry&)>& fn,
                   std::string* problem) {
  if (payload.size() < sizeof(format::BlobsPrefix)) {
    *problem = "blobs chunk too short for its prefix";
    return false;
  }
  const auto prefix = load_pod<format::BlobsPrefix>(payload, 0);
  size_t pos = sizeof(prefix);
  if (prefix.blob_count > (payload.size() - pos) / sizeof(format::BlobHeader)) {
    *problem = "blobs chunk claims " + std::to_string(prefix.blob_count) + " blobs, more than fit";
    return false;
  }
  for (uint32_t i = 0; i < prefix.blob_count; ++i) {
    if (payload.size() - pos < sizeof(format::BlobHeader)) {
      *problem = "blob " + std::to_string(i) + " header runs past the chunk";
      return false;
    }
    const auto bh = load_pod<format::BlobHeader>(payload, pos);
    pos += sizeof(bh);
    if (bh.size > payload.size() - pos) {
      *problem = "blob " + std::to_string(i) + " claims " + std::to_string(bh.size) + " bytes, past the end of its chunk";
      return false;
    }
    fn({{bh.hash_lo, bh.hash_hi}, pos, bh.size});
    pos += static_cast<size_t>(bh.size);
  }
  if (pos != payload.size()) {
    *problem = "blobs chunk has " + std::to_string(payload.size() - pos) + " bytes after its last blob";
    return false;
  }
  return true;
}

Compressor& thread_decompressor() {
  // One context per thread: contexts are costly, and readers may be shared across threads.
  thread_local std::unique_ptr<Compressor> c = make_compressor(format::Codec::kZstd, 1);
  return *c;
}

}  // namespace

struct CaptureReader::Mapping {
  void* addr = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (addr != nullptr) ::munmap(addr, size);
  }
};

// What a walk over the chunks found.
struct CaptureReader::Scan {
  std::vector<FrameInfo> frames;  // complete frames
  std::vector<uint64_t> global_chunks;
  std::unordered_map<Hash128, BlobLoc> blobs;
  CaptureSummary summary;
  uint64_t end = 0;              // offset where the walk stopped
  uint64_t index_offset = 0;     // index chunk seen, 0 if none
  std::string problem;           // first problem, "" if the walk reached a clean end
  uint64_t problem_offset = 0;
  std::vector<uint32_t> incomplete_frames;
};

CaptureReader::~CaptureReader() = default;

std::unique_ptr<CaptureReader> CaptureReader::open(const std::string& path, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (error) *error = path + ": cannot open: " + std::strerror(errno);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (error) *error = path + ": not a regular file";
    ::close(fd);
    return nullptr;
  }
  std::unique_ptr<CaptureReader> r(new CaptureReader());
  r->name_ = path;
  r->mapping_ = std::make_shared<Mapping>();
  const auto size = static_cast<size_t>(st.st_size);
  if (size > 0) {
    void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      if (error) *error = path + ": cannot map file: " + std::strerror(errno);
      ::close(fd);
      return nullptr;
    }
    r->mapping_->addr = addr;
    r->mapping_->size = size;
    r->data_ = {static_cast<const std::byte*>(addr), size};
  }
  ::close(fd);
  if (!r->init(error)) return nullptr;
  return r;
}

std::unique_ptr<CaptureReader> CaptureReader::open_memory(std::span<const std::byte> data, std::string name,
                                                          std::string* error) {
  std::unique_ptr<CaptureReader> r(new CaptureReader());
  r->name_ = std::move(name);
  r->data_ = data;
  if (!r->init(error)) return nullptr;
  return r;
}

std::string CaptureReader::where(uint64_t offset, const std::string& problem) const {
  return name_ + ": byte " + std::to_string(offset) + ": " + problem;
}

bool CaptureReader::init(std::string* error) {
  auto fail = [&](uint64_t offset, const std::string& problem) {
    if (error) *error = where(offset, problem);
    return false;
  };
  if (data_.empty()) return fail(0, "empty file (no capture header)");
  if (data_.size() < sizeof(format::FileHeader)) {
    return fail(0, "file of " + std::to_string(data_.size()) + " bytes is too short for a capture header");
  }
  header_ = load_pod<format::FileHeader>(data_, 0);
  if (std::memcmp(header_.magic, format::kFileMagic, sizeof(header_.magic)) != 0) {
    return fail(0, "not a Tessera capture file (wrong magic)");
  }
  if (header_.major != format::kMajorVersion) {
    return fail(8, "capture format version " + std::to_string(header_.major) + "." + std::to_string(header_.minor) +
                       " is " + (header_.major > format::kMajorVersion ? "newer than" : "not supported by") +
                       " this build (reads " + std::to_string(format::kMajorVersion) + ".x)");
  }
  if (low32(hash64(data_.first(offsetof(format::FileHeader, header_hash)))) != header_.header_hash) {
    return fail(28, "file header checksum mismatch (damaged header)");
  }
  if (header_.header_size < sizeof(format::FileHeader) || header_.header_size > data_.size()) {
    return fail(16, "header size " + std::to_string(header_.header_size) + " is invalid");
  }
  if (header_.codec != static_cast<uint32_t>(format::Codec::kZstd) &&
      header_.codec != static_cast<uint32_t>(format::Codec::kNone)) {
    return fail(20, "unknown compression codec " + std::to_string(header_.codec));
  }
  std::string problem;
  if (load_trailer(&problem)) {
    summary_.has_trailer = true;
  } else {
    // No usable trailer: rebuild what can be trusted by walking the chunks.
    Scan s;
    scan(s, false, nullptr);
    frames_ = std::move(s.frames);
    global_chunks_ = std::move(s.global_chunks);
    blobs_ = std::move(s.blobs);
    summary_ = std::move(s.summary);
    recovery_reason_ = problem;
    if (!s.problem.empty()) {
      recovery_reason_ += "; chunks read up to byte " + std::to_string(s.problem_offset) + " (" + s.problem + ")";
    }
    for (uint32_t f : s.incomplete_frames) {
      recovery_reason_ += "; frame " + std::to_string(f) + " is incomplete and left out";
    }
  }
  summary_.major = header_.major;
  summary_.minor = header_.minor;
  summary_.file_bytes = data_.size();
  return true;
}

bool CaptureReader::chunk_header(uint64_t offset, ChunkHeader* h, std::string* problem) const {
  if (offset > data_.size() || data_.size() - offset < sizeof(ChunkHeader)) {
    *problem = "chunk header runs past the end of the file (truncated)";
    return false;
  }
  *h = load_pod<ChunkHeader>(data_, static_cast<size_t>(offset));
  if (h->magic != format::kChunkMagic) {
    *problem = "bad chunk magic";
    return false;
  }
  const uint64_t expect = hash64(data_.subspan(static_cast<size_t>(offset), offsetof(ChunkHeader, header_hash)));
  if (low32(expect) != h->header_hash) {
    *problem = "chunk header checksum mismatch (damaged size or type field)";
    return false;
  }
  const uint64_t room = data_.size() - offset - sizeof(ChunkHeader);
  if (h->stored_size > room) {
    *problem = "chunk payload of " + std::to_string(h->stored_size) + " bytes runs past the end of the file (" +
               std::to_string(room) + " bytes left: truncated)";
    return false;
  }
  if (h->raw_size > format::kMaxChunkRawSize) {
    *problem = "chunk claims " + std::to_string(h->raw_size) + " uncompressed bytes, over the format limit";
    return false;
  }
  if ((h->flags & format::kChunkCompressed) == 0 && h->raw_size != h->stored_size) {
    *problem = "uncompressed chunk has stored size " + std::to_string(h->stored_size) + " but raw size " +
               std::to_string(h->raw_size);
    return false;
  }
  return true;
}

bool CaptureReader::chunk_payload(uint64_t offset, const ChunkHeader& h, Bytes* out,
                                  std::string* problem) const {
  const auto payload = data_.subspan(static_cast<size_t>(offset + sizeof(ChunkHeader)), static_cast<size_t>(h.stored_size));
  if (hash64(payload) != h.payload_hash) {
    *problem = "chunk payload checksum mismatch (damaged data)";
    return false;
  }
  if ((h.flags & format::kChunkCompressed) == 0) {
    *out = Bytes{mapping_, payload};  // zero-copy: the mapping outlives every view
    return true;
  }
  if (header_.codec != static_cast<uint32_t>(format::Codec::kZstd)) {
    *problem = "compressed chunk in a file whose codec is none";
    return false;
  }
  auto buf = std::make_shared<std::vector<std::byte>>(static_cast<size_t>(h.raw_size));
  if (!thread_decompressor().decompress(payload, *buf)) {
    *problem = "chunk payload does not decompress to its " + std::to_string(h.raw_size) + " bytes";
    return false;
  }
  *out = Bytes{buf, *buf};
  return true;
}

bool CaptureReader::load_trailer(std::string* problem) {
  const uint64_t size = data_.size();
  if (size < header_.header_size + sizeof(format::Footer)) {
    *problem = "no trailer: the file was not closed (truncated or the writer was killed)";
    return false;
  }
  const uint64_t footer_at = size - sizeof(format::Footer);
  const auto footer = load_pod<format::Footer>(data_, static_cast<size_t>(footer_at));
  if (footer.magic != format::kFooterMagic) {
    *problem = "no trailer: the file was not closed (truncated or the writer was killed)";
    return false;
  }
  if (low32(hash64(data_.subspan(static_cast<size_t>(footer_at), offsetof(format::Footer, footer_hash)))) !=
      footer.footer_hash) {
    *problem = "trailer footer at byte " + std::to_string(footer_at) + " is damaged (checksum mismatch)";
    return false;
  }
  if (footer.index_offset < header_.header_size || footer.index_offset > footer_at ||
      footer.index_size != footer_at - footer.index_offset) {
    *problem = "trailer footer points outside the file";
    return false;
  }
  ChunkHeader h{};
  Bytes payload;
  if (!chunk_header(footer.index_offset, &h, problem) || h.type != static_cast<uint16_t>(ChunkType::kIndex) ||
      sizeof(ChunkHeader) + h.stored_size != footer.index_size || !chunk_payload(footer.index_offset, h, &payload, problem)) {
    *problem = "trailer index at byte " + std::to_string(footer.index_offset) + " is damaged" +
               (problem->empty() ? "" : ": " + *problem);
    return false;
  }
  ByteReader r(payload.data);
  const auto frame_count = r.get<uint32_t>();
  const auto blob_count = r.get<uint32_t>();
  const auto global_count = r.get<uint32_t>();
  const auto kind_count = r.get<uint32_t>();
  summary_.chunk_count = r.get<uint64_t>() + 1;  // the index chunk itself
  summary_.record_count = r.get<uint64_t>();
  summary_.raw_bytes = r.get<uint64_t>();
  summary_.stored_bytes = r.get<uint64_t>();
  auto offset_ok = [&](uint64_t o) { return o >= header_.header_size && o < footer.index_offset; };
  bool ok = r.ok() && summary_.chunk_count == footer.chunk_count &&
            frame_count <= r.remaining() / sizeof(format::IndexFrame);
  for (uint32_t i = 0; ok && i < frame_count; ++i) {
    FrameInfo f;
    f.present = r.get<uint32_t>();
    const auto n = r.get<uint32_t>();
    f.record_count = r.get<uint64_t>();
    ok = r.ok() && f.present != format::kNoFrame && n <= r.remaining() / 8;
    for (uint32_t c = 0; ok && c < n; ++c) {
      const auto o = r.get<uint64_t>();
      ok = offset_ok(o);
      f.chunk_offsets.push_back(o);
    }
    frames_.push_back(std::move(f));
  }
  ok = ok && blob_count <= r.remaining() / sizeof(format::IndexBlob);
  for (uint32_t i = 0; ok && i < blob_count; ++i) {
    const Hash128 hash{r.get<uint64_t>(), r.get<uint64_t>()};
    BlobLoc loc{r.get<uint64_t>(), r.get<uint64_t>(), r.get<uint64_t>()};
    ok = r.ok() && offset_ok(loc.chunk_offset) && blobs_.emplace(hash, loc).second;
    summary_.blob_bytes += loc.size;
  }
  ok = ok && global_count <= r.remaining() / 8;
  for (uint32_t i = 0; ok && i < global_count; ++i) {
    const auto o = r.get<uint64_t>();
    ok = offset_ok(o);
    global_chunks_.push_back(o);
  }
  ok = ok && kind_count <= r.remaining() / sizeof(format::IndexKind);
  for (uint32_t i = 0; ok && i < kind_count; ++i) {
    const auto kind = r.get<uint32_t>();
    r.get<uint32_t>();
    summary_.records_by_kind[kind] = r.get<uint64_t>();
  }
  if (!ok || !r.ok() || !r.at_end()) {
    *problem = "trailer index at byte " + std::to_string(footer.index_offset) + " is inconsistent";
    frames_.clear();
    blobs_.clear();
    global_chunks_.clear();
    summary_ = {};
    return false;
  }
  summary_.blob_count = blobs_.size();
  index_bytes_ = data_.subspan(static_cast<size_t>(footer.index_offset), static_cast<size_t>(footer.index_size));
  return true;
}

Hash128 CaptureReader::fingerprint() const {
  return hash128(summary_.has_trailer ? index_bytes_ : data_);
}

void CaptureReader::scan(Scan& s, bool deep, std::vector<std::string>* notices) const {
  uint64_t offset = header_.header_size;
  const uint64_t size = data_.size();
  FrameInfo open_frame;  // records chunks of the frame being walked, until its FrameEnd chunk
  auto stop = [&](uint64_t at, std::string problem) {
    s.problem = std::move(problem);
    s.problem_offset = at;
  };
  while (offset < size) {
    if (s.index_offset != 0) {
      // Only the footer may follow the index.
      if (size - offset < sizeof(format::Footer)) {
        stop(offset, "trailer footer is truncated (" + std::to_string(size - offset) + " of " +
                         std::to_string(sizeof(format::Footer)) + " bytes)");
      } else if (size - offset > sizeof(format::Footer)) {
        stop(offset, "data after the trailer index");
      }
      break;
    }
    ChunkHeader h{};
    Bytes payload;
    std::string problem;
    if (!chunk_header(offset, &h, &problem) || !chunk_payload(offset, h, &payload, &problem)) {
      stop(offset, problem);
      break;
    }
    const auto type = static_cast<ChunkType>(h.type);
    if (type == ChunkType::kRecords) {
      std::map<uint32_t, uint64_t> kinds;
      uint64_t count = 0;
      if (!for_each_record(payload.data, [&](uint32_t kind, std::span<const std::byte>) { ++kinds[kind]; return true; },
                           &count, &problem)) {
        stop(offset, problem);
        break;
      }
      for (const auto& [k, n] : kinds) s.summary.records_by_kind[k] += n;
      s.summary.record_count += count;
      if (h.frame == format::kNoFrame) {
        s.global_chunks.push_back(offset);
      } else {
        if (!open_frame.chunk_offsets.empty() && open_frame.present != h.frame) {
          s.incomplete_frames.push_back(open_frame.present);
          open_frame = {};
        }
        open_frame.present = h.frame;
        open_frame.record_count += count;
        open_frame.chunk_offsets.push_back(offset);
        if (h.flags & format::kChunkFrameEnd) {
          s.frames.push_back(std::move(open_frame));
          open_frame = {};
        }
      }
    } else if (type == ChunkType::kBlobs) {
      bool bad_hash = false;
      const bool framed = for_each_blob(
          payload.data,
          [&](const BlobEntry& b) {
            if (deep && hash128(payload.data.subspan(static_cast<size_t>(b.payload_offset), static_cast<size_t>(b.size))) != b.hash) {
              bad_hash = true;
            }
            if (s.blobs.emplace(b.hash, BlobLoc{offset, b.payload_offset, b.size}).second) {
              s.summary.blob_bytes += b.size;
            }
          },
          &problem);
      if (!framed || bad_hash) {
        stop(offset, framed ? "blob content does not match its hash" : problem);
        break;
      }
    } else if (type == ChunkType::kIndex) {
      s.index_offset = offset;
    } else {
      // A later minor version may add chunk types: skip, and do not count, what we cannot read.
      if (notices) notices->push_back(where(offset, "unknown chunk type " + std::to_string(h.type) + " skipped"));
      offset += sizeof(ChunkHeader) + h.stored_size;
      continue;
    }
    ++s.summary.chunk_count;
    if (type != ChunkType::kIndex) {  // payload totals exclude the index, as the trailer's do
      s.summary.raw_bytes += h.raw_size;
      s.summary.stored_bytes += h.stored_size;
    }
    offset += sizeof(ChunkHeader) + h.stored_size;
  }
  if (!open_frame.chunk_offsets.empty()) s.incomplete_frames.push_back(open_frame.present);
  s.end = offset;
  s.summary.blob_count = s.blobs.size();
}

std::string CaptureReader::verify(std::vector<std::string>* notices) const {
  Scan s;
  scan(s, true, notices);
  if (!s.problem.empty()) return where(s.problem_offset, s.problem);
  if (!summary_.has_trailer) {
    return where(s.end, recovery_reason_.empty() ? "no trailer" : recovery_reason_) + "; " +
           std::to_string(frames_.size()) + " complete frame(s) recoverable";
  }
  // The trailer must describe exactly the chunks the walk found.
  auto mismatch = [&](const std::string& what) { return where(s.index_offset, "trailer index disagrees with the chunks: " + what); };
  if (s.frames.size() != frames_.size()) return mismatch("frame count");
  for (size_t i = 0; i < frames_.size(); ++i) {
    if (frames_[i].present != s.frames[i].present || frames_[i].chunk_offsets != s.frames[i].chunk_offsets ||
        frames_[i].record_count != s.frames[i].record_count) {
      return mismatch("frame " + std::to_string(frames_[i].present));
    }
  }
  if (global_chunks_ != s.global_chunks) return mismatch("global chunks");
  if (blobs_.size() != s.blobs.size()) return mismatch("blob count");
  for (const auto& [hash, loc] : blobs_) {
    auto it = s.blobs.find(hash);
    if (it == s.blobs.end() || it->second.chunk_offset != loc.chunk_offset ||
        it->second.payload_offset != loc.payload_offset || it->second.size != loc.size) {
      return mismatch("blob " + hash.hex());
    }
  }
  if (s.summary.record_count != summary_.record_count || s.summary.records_by_kind != summary_.records_by_kind) {
    return mismatch("record counts");
  }
  if (s.summary.chunk_count != summary_.chunk_count) return mismatch("chunk count");
  return {};
}

const FrameInfo* CaptureReader::find_frame(uint32_t present) const {
  for (const auto& f : frames_) {
    if (f.present == present) return &f;
  }
  return nullptr;
}

bool CaptureReader::records_chunk(uint64_t offset, uint32_t frame, ChunkHeader* h, Bytes* payload,
                                  std::string* error) const {
  std::string problem;
  if (!chunk_header(offset, h, &problem) || !chunk_payload(offset, *h, payload, &problem)) {
    if (error) *error = where(offset, problem);
    return false;
  }
  if (h->type != static_cast<uint16_t>(ChunkType::kRecords) || h->frame != frame) {
    if (error) *error = where(offset, "index points at a chunk that is not a records chunk of frame " + std::to_string(frame));
    return false;
  }
  return true;
}

bool CaptureReader::read_chunks(const std::vector<uint64_t>& offsets, uint32_t frame, const RecordVisitor& visit,
                                std::string* error) const {
  bool go_on = true;
  for (uint64_t offset : offsets) {
    ChunkHeader h{};
    Bytes payload;
    std::string problem;
    if (!records_chunk(offset, frame, &h, &payload, error)) return false;
    uint64_t count = 0;
    const RecordVisitor wrapped = [&](uint32_t kind, std::span<const std::byte> body) {
      go_on = visit(kind, body);
      return go_on;
    };
    if (!for_each_record(payload.data, wrapped, &count, &problem)) {
      if (error) *error = where(offset, problem);
      return false;
    }
    if (!go_on) break;
  }
  return true;
}

bool CaptureReader::read_frame(size_t index, const RecordVisitor& visit, std::string* error) const {
  if (index >= frames_.size()) {
    if (error) *error = name_ + ": frame index " + std::to_string(index) + " out of range (" + std::to_string(frames_.size()) + " frames)";
    return false;
  }
  return read_chunks(frames_[index].chunk_offsets, frames_[index].present, visit, error);
}

bool CaptureReader::read_global(const RecordVisitor& visit, std::string* error) const {
  return read_chunks(global_chunks_, format::kNoFrame, visit, error);
}

bool CaptureReader::storage_breakdown(StorageBreakdown* out, std::string* error) const {
  *out = StorageBreakdown{};
  double accounted = 0;
  auto add_records = [&](const std::vector<uint64_t>& offsets, uint32_t frame) {
    for (uint64_t offset : offsets) {
      ChunkHeader h{};
      Bytes payload;
      std::string problem;
      if (!records_chunk(offset, frame, &h, &payload, error)) return false;
      const double ratio = h.raw_size ? static_cast<double>(h.stored_size) / static_cast<double>(h.raw_size) : 0.0;
      uint64_t count = 0;
      const RecordVisitor share = [&](uint32_t kind, std::span<const std::byte> body) {
        StorageShare& k = out->records_by_kind[kind];
        const uint64_t raw = 8 + body.size();
        k.count += 1;
        k.raw_bytes += raw;
        k.stored_bytes += static_cast<double>(raw) * ratio;
        accounted += static_cast<double>(raw) * ratio;
        return true;
      };
      if (!for_each_record(payload.data, share, &count, &problem)) {
        if (error) *error = where(offset, problem);
        return false;
      }
    }
    return true;
  };
  if (!add_records(global_chunks_, 0)) return false;
  for (const auto& f : frames_) {
    if (!add_records(f.chunk_offsets, f.present)) return false;
  }
  std::unordered_map<uint64_t, double> blob_chunk_ratio;
  for (const auto& [hash, loc] : blobs_) {
    auto it = blob_chunk_ratio.find(loc.chunk_offset);
    if (it == blob_chunk_ratio.end()) {
      ChunkHeader h{};
      std::string problem;
      if (!chunk_header(loc.chunk_offset, &h, &problem)) {
        if (error) *error = where(loc.chunk_offset, problem);
        return false;
      }
      const double ratio = h.raw_size ? static_cast<double>(h.stored_size) / static_cast<double>(h.raw_size) : 0.0;
      it = blob_chunk_ratio.emplace(loc.chunk_offset, ratio).first;
    }
    StorageShare& b = out->blobs[hash];
    b.count = 1;
    b.raw_bytes = 24 + loc.size;
    b.stored_bytes = static_cast<double>(b.raw_bytes) * it->second;
    accounted += b.stored_bytes;
  }
  out->overhead_bytes = static_cast<double>(summary_.file_bytes) - accounted;
  return true;
}

std::optional<Bytes> CaptureReader::blob(const Hash128& hash, std::string* error) const {
  auto it = blobs_.find(hash);
  if (it == blobs_.end()) {
    if (error) *error = name_ + ": blob " + hash.hex() + " is not in the capture";
    return std::nullopt;
  }
  const BlobLoc& loc = it->second;
  Bytes payload;
  {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    if (cached_offset_ == loc.chunk_offset) payload = cached_payload_;
  }
  if (payload.data.empty()) {
    ChunkHeader h{};
    std::string problem;
    if (!chunk_header(loc.chunk_offset, &h, &problem) || !chunk_payload(loc.chunk_offset, h, &payload, &problem)) {
      if (error) *error = where(loc.chunk_offset, problem);
      return std::nullopt;
    }
    if (h.type != static_cast<uint16_t>(ChunkType::kBlobs)) {
      if (error) *error = where(loc.chunk_offset, "index points at a chunk that is not a blobs chunk");
      return std::nullopt;
    }
    std::lock_guard<std::mutex> lock(cache_mutex_);
    cached_offset_ = loc.chunk_offset;
    cached_payload_ = payload;
  }
  // The blob must lie after its header inside the payload, and that header must name it.
  const uint64_t n = payload.data.size();
  if (loc.payload_offset < sizeof(format::BlobHeader) || loc.payload_offset > n || loc.size > n - loc.payload_offset) {
    if (error) *error = where(loc.chunk_offset, "blob " + hash.hex() + " lies outside its chunk");
    return std::nullopt;
  }
  const auto bh = load_pod<format::BlobHeader>(payload.data, static_cast<size_t>(loc.payload_offset - sizeof(format::BlobHeader)));
  if (bh.hash_lo != hash.lo || bh.hash_hi != hash.hi || bh.size != loc.size) {
    if (error) *error = where(loc.chunk_offset, "blob " + hash.hex() + " is not where the index says");
    return std::nullopt;
  }
  return Bytes{payload.owner, payload.data.subspan(static_cast<size_t>(loc.payload_offset), static_cast<size_t>(loc.size))};
}

std::vector<Hash128> CaptureReader::blob_hashes() const {
  std::vector<Hash128> out;
  out.reserve(blobs_.size());
  for (const auto& [h, loc] : blobs_) out.push_back(h);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tessera::capture
