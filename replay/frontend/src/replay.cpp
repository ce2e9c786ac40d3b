#include "tessera/frontend/replay.h"

#include <cstring>

#include "command_walker.h"
#include "resources.h"

namespace tessera::frontend {

namespace cap = tessera::capture;

namespace {

constexpr uint32_t kFirstCommandKind = static_cast<uint32_t>(cap::VkRecordKind::kSubmit);
constexpr uint32_t kLastCommandKind = 0x04ff;

}  // namespace

CaptureReplay::CaptureReplay(const cap::CaptureReader& reader, MemoryBudget& budget)
    : reader_(reader),
      resources_(std::make_unique<Resources>(reader, budget)),
      walker_(std::make_unique<CommandWalker>(*resources_)) {}

CaptureReplay::~CaptureReplay() = default;

std::unique_ptr<CaptureReplay> CaptureReplay::open(const cap::CaptureReader& reader,
                                                   std::string* error) {
  auto budget = std::make_unique<MemoryBudget>(MemoryBudget::default_limit());
  auto r = open(reader, *budget, error);
  // Declared before resources_, so destroyed after it (Resources gives its bytes back first).
  if (r) r->own_budget_ = std::move(budget);
  return r;
}

std::unique_ptr<CaptureReplay> CaptureReplay::open(const cap::CaptureReader& reader, MemoryBudget& budget,
                                                   std::string* error, bool* refused) {
  if (refused != nullptr) *refused = false;
  // Out of host memory (or anything else thrown) is an error naming the file, not a crash.
  try {
    return open_records(reader, budget, error, refused);
  } catch (const std::exception& e) {
    *error = reader.name() + ": global records: " + e.what();
    return nullptr;
  }
}

std::unique_ptr<CaptureReplay> CaptureReplay::open_records(const cap::CaptureReader& reader, MemoryBudget& budget,
                                                           std::string* error, bool* refused) {
  std::unique_ptr<CaptureReplay> r(new CaptureReplay(reader, budget));
  std::string problem;
  bool failed = false;
  std::string read_error;
  const bool read = reader.read_global(
      [&](uint32_t kind, std::span<const std::byte> body) {
        if (kind >= kFirstCommandKind && kind <= kLastCommandKind) {
          r->global_skipped_.add("command outside a frame");
          return true;
        }
        if (cap::record_kind_name(kind) == nullptr) {
          r->global_skipped_.add("record: unknown kind " + std::to_string(kind));
          return true;
        }
        if (!r->resources_->apply(kind, body, r->global_skipped_, &problem)) {
          failed = true;
          return false;
        }
        return true;
      },
      &read_error);
  if (!read) {
    *error = read_error;
    return nullptr;
  }
  if (failed) {
    *error = reader.name() + ": global records: " + problem;
    if (refused != nullptr) *refused = r->resources_->refused();
    return nullptr;
  }
  return r;
}

size_t CaptureReplay::frame_count() const { return reader_.frames().size(); }

bool CaptureReplay::replay_frame(size_t index, PassRenderer& renderer, FrameResult* result,
                                 std::string* error) {
  try {
    return replay_records(index, renderer, result, error);
  } catch (const ReplayLimitError& e) {
    failed_ = refused_ = true;
    const uint32_t present = index < frame_count() ? reader_.frames()[index].present : 0;
    *error = reader_.name() + ": frame " + std::to_string(present) + ": " + e.what();
    return false;
  } catch (const std::exception& e) {
    failed_ = true;
    // Named by its present number, as the study's errors and `--frames` name frames.
    const uint32_t present = index < frame_count() ? reader_.frames()[index].present : 0;
    *error = reader_.name() + ": frame " + std::to_string(present) + ": " + e.what();
    return false;
  }
}

bool CaptureReplay::replay_records(size_t index, PassRenderer& renderer, FrameResult* result,
                                   std::string* error) {
  if (failed_) {
    *error = reader_.name() + ": replay stopped after an earlier error";
    return false;
  }
  if (index >= frame_count()) {
    *error = reader_.name() + ": frame " + std::to_string(index) + " does not exist (" +
             std::to_string(frame_count()) + " frames)";
    return false;
  }
  if (index != next_frame_) {
    *error = reader_.name() + ": frame " + std::to_string(index) +
             ": frames replay in order, the next is " + std::to_string(next_frame_);
    return false;
  }
  *result = FrameResult{};
  result->present = reader_.frames()[index].present;
  if (index == 0) result->skipped = std::move(global_skipped_);
  walker_->begin_frame(&renderer, result);
  std::string problem;
  bool failed = false;
  std::string read_error;
  const bool read = reader_.read_frame(
      index,
      [&](uint32_t kind, std::span<const std::byte> body) {
        bool ok = true;
        if (kind >= kFirstCommandKind && kind <= kLastCommandKind) {
          ok = walker_->command(kind, body, &problem);
        } else if (kind == static_cast<uint32_t>(cap::RecordKind::kPresentedImage)) {
          auto rec = cap::decode_record<cap::PresentedImageRecord>(body);
          if (!rec) {
            problem = "presented_image record does not decode";
            ok = false;
          } else {
            PresentedImage p;
            p.present = result->present;
            p.format = rec->format;
            p.width = rec->width;
            p.height = rec->height;
            const auto* sc = Resources::find(resources_->swapchains, rec->swapchain);
            if (sc != nullptr && rec->image_index < sc->images.size()) {
              p.swapchain_image = sc->images[rec->image_index];
            } else {
              result->skipped.add("presented image: unknown swapchain or image index");
            }
            std::string blob_error;
            if (auto b = reader_.blob(rec->pixels, &blob_error)) {
              p.pixels.resize(b->data.size());
              if (!b->data.empty()) std::memcpy(p.pixels.data(), b->data.data(), b->data.size());
            } else {
              result->skipped.add("presented image: pixels blob missing");
            }
            result->presented = std::move(p);
          }
        } else if (kind == cap::kind_of<cap::RenderTargetContentsRecord>()) {
          auto rec = cap::decode_record<cap::RenderTargetContentsRecord>(body);
          if (!rec) {
            problem = "render_target_contents record does not decode";
            ok = false;
          } else {
            result->render_targets.push_back(std::move(*rec));
          }
        } else if (kind == cap::kind_of<cap::RenderPassContentsRecord>()) {
          auto rec = cap::decode_record<cap::RenderPassContentsRecord>(body);
          if (!rec) {
            problem = "render_pass_contents record does not decode";
            ok = false;
          } else {
            result->pass_contents.push_back(std::move(*rec));
          }
        } else if (cap::record_kind_name(kind) == nullptr) {
          result->skipped.add("record: unknown kind " + std::to_string(kind));
        } else {
          ok = resources_->apply(kind, body, result->skipped, &problem);
        }
        if (!ok) failed = true;
        return ok;
      },
      &read_error);
  walker_->end_frame();
  ++next_frame_;
  if (!read) {
    failed_ = true;
    *error = read_error;
    return false;
  }
  if (failed) {
    failed_ = true;
    refused_ = resources_->refused();
    *error = reader_.name() + ": frame " + std::to_string(result->present) + ": " + problem;
    return false;
  }
  return true;
}

Image* CaptureReplay::find_image(uint64_t handle) {
  return Resources::find(resources_->images, handle);
}
Buffer* CaptureReplay::find_buffer(uint64_t handle) {
  return Resources::find(resources_->buffers, handle);
}
MemoryObject* CaptureReplay::find_memory(uint64_t handle) {
  return Resources::find(resources_->memories, handle);
}
ImageView* CaptureReplay::find_view(uint64_t handle) {
  return Resources::find(resources_->views, handle);
}

}  // namespace tessera::frontend
