// diff_fixture IN OUT [--perturb PRESENT DRAW FIELD=VALUE] [--swap-view-format] [--set-byte PASS BYTE VALUE]
//
// Writes OUT, a copy of the capture IN with the render_pass_contents records `tessera capture
// --readback passes` writes, made from this replay's own attachments at each render pass
// instance's end (render::Renderer, as tessera replay and tessera diff render): a capture whose
// "driver" is the replay, so `tessera diff` must find no pass below any threshold on it. A
// capture that holds such records (taken with --readback passes) keeps its own. With
// --perturb, draw DRAW (numbered from 0 in the frame, as Draw::index) of frame PRESENT is
// changed in OUT's command stream, and the contents stay those of the unchanged draw:
//   count=N      its vertex (index) count
//   instances=N  its instance count
//   first=N      its first vertex (index)
//   push:O=F     the float at byte O of the push constants it draws with (the last
//                vkCmdPushConstants before it that covers that byte)
// OUT is then replayed and compared with the contents: the tool fails unless the change alters
// pixels of the draw's pass and of no pass before it, so a test on OUT checks a real divergence.
// Prints "frame P: N passes, D draws" per frame of IN, and "perturbed: frame P draw D pass K
// draw J" (J: the draw's index within its pass).
// Test tool, not installed.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"
#include "tessera/capture/writer.h"
#include "tessera/frontend/replay.h"
#include "tessera/pipeline/pixel_format.h"
#include "tessera/render/renderer.h"

namespace {

namespace cap = tessera::capture;
namespace fe = tessera::frontend;

constexpr uint32_t kAspectColor = 1, kAspectDepth = 2, kAspectStencil = 4;  // VkImageAspectFlagBits

struct Perturbation {
  uint32_t present = 0, draw = 0;
  std::string field;
  uint32_t push_offset = 0;
  double value = 0;
};

// One attachment aspect as a pass left it in the replay.
struct Contents {
  cap::RenderPassContentsRecord rec;  // without `contents`
  std::vector<uint8_t> bytes;
};

// Renders as the replay does and keeps every attachment aspect of every pass at the pass's end,
// in the subresource its view renders (a multisampled attachment through its resolve target, not
// at all without one, as the capture layer reads them).
class KeepingRenderer final : public fe::PassRenderer {
 public:
  KeepingRenderer(fe::PassRenderer& inner, uint32_t present) : inner_(inner), present_(present) {}
  void render_pass(const fe::RenderPassInstance& pass, fe::SkipCounts& skipped) override {
    inner_.render_pass(pass, skipped);
    uint32_t draws = 0;
    for (const auto& c : pass.commands)
      if (const auto* d = std::get_if<fe::Draw>(&c)) draw_pass[d->index] = {pass.instance, draws++};
    for (uint32_t a = 0; a < pass.attachments.size(); ++a) {
      const fe::Attachment& att = pass.attachments[a];
      const fe::ImageView* view = att.view;
      uint32_t resolved = 0;
      if (view == nullptr || view->image == nullptr) continue;
      if (view->image->held_samples() > 1) {
        if (att.resolve == nullptr || att.resolve->image == nullptr) continue;
        view = att.resolve;
        resolved = 1;
      }
      const fe::Image& image = *view->image;
      tessera::pipeline::PixelFormat f;
      if (!tessera::pipeline::pixel_format(image.format, &f)) continue;
      const uint32_t mip = view->range.base_mip, layer = view->range.base_layer;
      const auto keep = [&](uint32_t aspect, fe::Aspect plane_aspect, uint32_t bpp) {
        Contents c;
        c.rec.present = present_;
        c.rec.pass = pass.instance;  // as the layer numbers them: every instance ended
        c.rec.attachment = a;
        c.rec.resolved = resolved;
        c.rec.image = image.handle;
        c.rec.format = image.format;
        c.rec.width = image.mip_width(mip);
        c.rec.height = image.mip_height(mip);
        c.rec.mip = mip;
        c.rec.layer = layer;
        c.rec.aspect = aspect;
        const auto& plane = image.subresource(plane_aspect, layer, mip);
        const size_t n = size_t{c.rec.width} * c.rec.height * bpp;
        if (plane.size() < n) return;
        c.bytes.assign(plane.begin(), plane.begin() + static_cast<std::ptrdiff_t>(n));
        kept.push_back(std::move(c));
      };
      if (f.depth) keep(kAspectDepth, fe::Aspect::ColorOrDepth, f.bytes);
      if (f.stencil) keep(kAspectStencil, f.depth ? fe::Aspect::Stencil : fe::Aspect::ColorOrDepth, 1);
      if (!f.depth && !f.stencil) keep(kAspectColor, fe::Aspect::ColorOrDepth, f.bytes);
    }
  }
  void dispatch(const fe::Dispatch& d, fe::SkipCounts& skipped) override { inner_.dispatch(d, skipped); }

  std::vector<Contents> kept;
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> draw_pass;  // Draw::index -> (pass, draw in pass)

 private:
  fe::PassRenderer& inner_;
  uint32_t present_;
};

// Every frame's kept contents, by present.
bool replay_all(const cap::CaptureReader& reader, std::map<uint32_t, std::vector<Contents>>* kept,
                std::map<uint32_t, std::map<uint32_t, std::pair<uint32_t, uint32_t>>>* draw_pass, std::string* error) {
  auto replay = fe::CaptureReplay::open(reader, error);
  if (!replay) return false;
  tessera::render::RenderConfig rc;
  tessera::render::Renderer renderer(nullptr, rc);
  for (size_t i = 0; i < replay->frame_count(); ++i) {
    const uint32_t present = reader.frames()[i].present;
    KeepingRenderer keeping(renderer, present);
    fe::FrameResult result;
    if (!replay->replay_frame(i, keeping, &result, error)) return false;
    (*kept)[present] = std::move(keeping.kept);
    if (draw_pass) {
      std::printf("frame %u: %u passes, %u draws\n", present, result.passes, result.draws);
      (*draw_pass)[present] = std::move(keeping.draw_pass);
    }
  }
  return true;
}

bool is_draw(uint32_t kind) {
  return kind == cap::kind_of<cap::CmdDrawRecord>() || kind == cap::kind_of<cap::CmdDrawIndexedRecord>();
}

// The record ordinals (within the frame) of the draw and of the push constants it draws with.
bool locate(const cap::CaptureReader& reader, size_t frame, const Perturbation& p, size_t* draw_record,
            std::optional<size_t>* push_record, std::string* error) {
  size_t ordinal = 0;
  uint32_t draws = 0;
  bool found = false;
  std::optional<size_t> push;
  const bool ok = reader.read_frame(
      frame,
      [&](uint32_t kind, std::span<const std::byte> body) {
        if (kind == cap::kind_of<cap::CmdDrawIndirectRecord>()) {
          *error = "the frame has an indirect draw: draws cannot be numbered from its records";
          return false;
        }
        if (kind == cap::kind_of<cap::CmdPushConstantsRecord>()) {
          auto rec = cap::decode_record<cap::CmdPushConstantsRecord>(body);
          if (rec && p.push_offset >= rec->offset && p.push_offset + 4 <= rec->offset + rec->data.size()) push = ordinal;
        }
        if (is_draw(kind) && draws++ == p.draw) {
          *draw_record = ordinal;
          *push_record = push;
          found = true;
          return false;
        }
        ++ordinal;
        return true;
      },
      error);
  if (!found && error->empty()) *error = "frame has " + std::to_string(draws) + " draws, no draw " + std::to_string(p.draw);
  return found && (ok || error->empty());
}

template <typename R>
std::vector<std::byte> encoded(const R& rec) {
  cap::ByteWriter w;
  encode(w, rec);
  return w.take();
}

// The record changed as the perturbation says; false when it does not apply to it.
bool perturb(uint32_t kind, std::span<const std::byte> body, const Perturbation& p, std::vector<std::byte>* out) {
  const auto v = static_cast<uint32_t>(p.value);
  if (kind == cap::kind_of<cap::CmdPushConstantsRecord>()) {
    auto rec = cap::decode_record<cap::CmdPushConstantsRecord>(body);
    if (!rec) return false;
    const auto f = static_cast<float>(p.value);
    if (p.push_offset < rec->offset || rec->data.size() < p.push_offset - rec->offset + 4) return false;
    // The data are the record's last field, its bytes the body's last ones: changed in place
    // (re-encoding the record trips a false -Wstringop-overflow of GCC 12 in the byte writer).
    out->assign(body.begin(), body.end());
    std::memcpy(out->data() + (out->size() - rec->data.size()) + (p.push_offset - rec->offset), &f, 4);
    auto check = cap::decode_record<cap::CmdPushConstantsRecord>(*out);
    float got = 0;
    if (check) std::memcpy(&got, check->data.data() + (p.push_offset - rec->offset), 4);
    return check && check->offset == rec->offset && got == f;
  }
  if (kind == cap::kind_of<cap::CmdDrawRecord>()) {
    auto rec = cap::decode_record<cap::CmdDrawRecord>(body);
    if (!rec) return false;
    if (p.field == "count") rec->vertex_count = v;
    else if (p.field == "instances") rec->instance_count = v;
    else if (p.field == "first") rec->first_vertex = v;
    else return false;
    *out = encoded(*rec);
    return true;
  }
  auto rec = cap::decode_record<cap::CmdDrawIndexedRecord>(body);
  if (!rec) return false;
  if (p.field == "count") rec->index_count = v;
  else if (p.field == "instances") rec->instance_count = v;
  else if (p.field == "first") rec->first_index = v;
  else return false;
  *out = encoded(*rec);
  return true;
}

int fail(const std::string& what) {
  std::fprintf(stderr, "diff_fixture: %s\n", what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  // --swap-view-format: the colour records made here name the view format of the other
  // component order (R8G8B8A8 <-> B8G8R8A8) while their bytes stay in the image's.
  // --set-byte PASS BYTE VALUE: byte BYTE of every texel of the colour contents made for pass
  // PASS is set to VALUE (the driver's side only).
  // --store-none: every render pass with a depth attachment stores its attachment 0 with
  // VK_ATTACHMENT_STORE_OP_NONE (the contents stay those the pass left).
  bool swap_view_format = false, store_none = false;
  std::optional<std::array<uint32_t, 3>> set_byte;
  std::vector<std::string> args(argv + 1, argv + argc);
  std::vector<std::string> positional;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--swap-view-format") {
      swap_view_format = true;
    } else if (args[i] == "--store-none") {
      store_none = true;
    } else if (args[i] == "--set-byte" && i + 3 < args.size()) {
      set_byte = std::array<uint32_t, 3>{static_cast<uint32_t>(std::stoul(args[i + 1])),
                                         static_cast<uint32_t>(std::stoul(args[i + 2])),
                                         static_cast<uint32_t>(std::stoul(args[i + 3]))};
      i += 3;
    } else {
      positional.push_back(args[i]);
    }
  }
  if (positional.size() != 2 && positional.size() != 6) {
    std::fprintf(stderr, "usage: diff_fixture IN OUT [--perturb PRESENT DRAW FIELD=VALUE] [--swap-view-format] "
                 "[--set-byte PASS BYTE VALUE]\n");
    return 2;
  }
  const std::string in = positional[0], out = positional[1];
  std::optional<Perturbation> perturbation;
  if (positional.size() == 6) {
    if (positional[2] != "--perturb") return fail("expected --perturb");
    Perturbation p;
    p.present = static_cast<uint32_t>(std::stoul(positional[3]));
    p.draw = static_cast<uint32_t>(std::stoul(positional[4]));
    const std::string spec = positional[5];
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) return fail("FIELD=VALUE expected, got " + spec);
    p.field = spec.substr(0, eq);
    p.value = std::stod(spec.substr(eq + 1));
    if (p.field.rfind("push:", 0) == 0) {
      p.push_offset = static_cast<uint32_t>(std::stoul(p.field.substr(5)));
      p.field = "push";
    } else if (p.field != "count" && p.field != "instances" && p.field != "first") {
      return fail("unknown field " + p.field);
    }
    perturbation = p;
  }

  std::string error;
  auto reader = cap::CaptureReader::open(in, &error);
  if (!reader) return fail(error);
  std::map<uint32_t, std::vector<Contents>> kept;
  std::map<uint32_t, std::map<uint32_t, std::pair<uint32_t, uint32_t>>> draw_pass;
  if (!replay_all(*reader, &kept, &draw_pass, &error)) return fail(error);

  size_t draw_record = 0;
  std::optional<size_t> push_record;
  size_t perturbed_frame = reader->frames().size();
  if (perturbation) {
    for (size_t i = 0; i < reader->frames().size(); ++i)
      if (reader->frames()[i].present == perturbation->present) perturbed_frame = i;
    if (perturbed_frame == reader->frames().size()) return fail("no frame " + std::to_string(perturbation->present));
    if (!locate(*reader, perturbed_frame, *perturbation, &draw_record, &push_record, &error)) return fail(error);
    if (perturbation->field == "push" && !push_record)
      return fail("no push constants cover byte " + std::to_string(perturbation->push_offset) + " of draw " +
                  std::to_string(perturbation->draw));
  }
  const std::optional<size_t> target =
      !perturbation ? std::nullopt : perturbation->field == "push" ? push_record : std::optional<size_t>(draw_record);

  const auto& kinds = reader->summary().records_by_kind;
  const auto contents_kind = cap::kind_of<cap::RenderPassContentsRecord>();
  const bool has_contents = kinds.find(contents_kind) != kinds.end() && kinds.at(contents_kind) != 0;
  cap::WriterOptions options;
  auto writer = cap::CaptureWriter::open(out, options, &error);
  if (!writer) return fail(error);
  for (const cap::Hash128& h : reader->blob_hashes()) {
    auto b = reader->blob(h, &error);
    if (!b) return fail(error);
    writer->put_blob(b->data);
  }
  uint32_t stores_none = 0;
  // A render pass record with its attachment 0 stored as NONE, when --store-none asks for it.
  // Changed in place, as the push constants are (re-encoding trips GCC 12's false
  // -Wstringop-overflow): the store op's four bytes located by changing them and decoding.
  const auto store_op_none = [&](uint32_t kind, std::span<const std::byte> body, std::vector<std::byte>* replaced) {
    if (!store_none || kind != cap::kind_of<cap::RenderPassRecord>()) return false;
    auto rec = cap::decode_record<cap::RenderPassRecord>(body);
    if (!rec || rec->attachments.empty()) return false;
    const bool depth = std::any_of(rec->attachments.begin(), rec->attachments.end(),
                                   [](const auto& a) { return a.format >= 124 && a.format <= 130; });
    if (!depth) return false;
    const uint32_t none = 1000301000;  // VK_ATTACHMENT_STORE_OP_NONE
    for (size_t at = 0; at + 4 <= body.size(); ++at) {
      uint32_t v;
      std::memcpy(&v, body.data() + at, 4);
      if (v != rec->attachments[0].store_op) continue;
      replaced->assign(body.begin(), body.end());
      std::memcpy(replaced->data() + at, &none, 4);
      auto check = cap::decode_record<cap::RenderPassRecord>(*replaced);
      if (!check || check->attachments.size() != rec->attachments.size() || check->attachments[0].store_op != none)
        continue;
      check->attachments[0].store_op = rec->attachments[0].store_op;
      if (check->attachments[0].format != rec->attachments[0].format ||
          check->attachments[0].load_op != rec->attachments[0].load_op ||
          check->attachments[0].stencil_store_op != rec->attachments[0].stencil_store_op)
        continue;
      ++stores_none;
      return true;
    }
    return false;
  };
  const auto copy = [&](uint32_t kind, std::span<const std::byte> body) {
    std::vector<std::byte> replaced;
    writer->write_record(kind, store_op_none(kind, body, &replaced) ? std::span<const std::byte>(replaced) : body);
    return true;
  };
  if (!reader->read_global(copy, &error)) return fail(error);
  bool changed = false;
  uint32_t swapped = 0;
  for (size_t i = 0; i < reader->frames().size(); ++i) {
    const uint32_t present = reader->frames()[i].present;
    writer->begin_frame(present);
    size_t ordinal = 0;
    const bool ok = reader->read_frame(
        i,
        [&](uint32_t kind, std::span<const std::byte> body) {
          std::vector<std::byte> replaced;
          if (i == perturbed_frame && target && ordinal == *target) {
            if (!perturb(kind, body, *perturbation, &replaced)) {
              error = "the record of draw " + std::to_string(perturbation->draw) + " cannot take " + perturbation->field;
              return false;
            }
            changed = true;
            writer->write_record(kind, replaced);
          } else if (store_op_none(kind, body, &replaced)) {
            writer->write_record(kind, replaced);
          } else {
            writer->write_record(kind, body);
          }
          ++ordinal;
          return true;
        },
        &error);
    if (!ok) return fail(error);
    // A capture taken with --readback passes keeps the driver's own contents.
    if (!has_contents)
      for (Contents& c : kept[present]) {
        cap::RenderPassContentsRecord rec = c.rec;
        if (swap_view_format && rec.aspect == kAspectColor) {
          static const std::map<uint32_t, uint32_t> other = {{37, 44}, {44, 37}, {43, 50}, {50, 43}};
          const auto o = other.find(rec.format);
          if (o == other.end()) return fail("no view format of the other order for format " + std::to_string(rec.format));
          rec.format = o->second;
          ++swapped;
        }
        if (set_byte && rec.aspect == kAspectColor && rec.pass == (*set_byte)[0]) {
          tessera::pipeline::PixelFormat f;
          if (!tessera::pipeline::pixel_format(rec.format, &f) || (*set_byte)[1] >= f.bytes)
            return fail("no byte " + std::to_string((*set_byte)[1]) + " in a texel of format " + std::to_string(rec.format));
          for (size_t t = (*set_byte)[1]; t < c.bytes.size(); t += f.bytes) c.bytes[t] = static_cast<uint8_t>((*set_byte)[2]);
          std::printf("bytes set: pass %u\n", rec.pass);
        }
        rec.contents = writer->put_blob({reinterpret_cast<const std::byte*>(c.bytes.data()), c.bytes.size()});
        writer->write(rec);
      }
    writer->flush_frame();
  }
  if (!writer->close()) return fail(out + ": not written");
  if (store_none) {
    if (stores_none == 0) return fail("no render pass with a depth attachment to store as NONE");
    std::printf("stored as NONE: %u render passes\n", stores_none);
  }
  if (swap_view_format) {
    if (swapped == 0) return fail("no colour record made to name another view format");
    std::printf("view formats swapped: %u records\n", swapped);
  }
  if (!perturbation) return 0;
  if (!changed) return fail("nothing perturbed");

  // Honest: the change must alter the draw's pass and leave the passes before it as they were.
  const auto where = draw_pass[perturbation->present].find(perturbation->draw);
  if (where == draw_pass[perturbation->present].end()) return fail("draw not rendered by the replay");
  const auto [pass, in_pass] = where->second;
  auto perturbed_reader = cap::CaptureReader::open(out, &error);
  if (!perturbed_reader) return fail(error);
  std::map<uint32_t, std::vector<Contents>> perturbed;
  if (!replay_all(*perturbed_reader, &perturbed, nullptr, &error)) return fail(error);
  const auto& before = kept[perturbation->present];
  const auto& after = perturbed[perturbation->present];
  if (before.size() != after.size()) return fail("the perturbed frame has other attachments");
  bool pass_differs = false;
  for (size_t k = 0; k < before.size(); ++k) {
    if (before[k].bytes == after[k].bytes) continue;
    if (before[k].rec.pass < pass) return fail("the change alters pass " + std::to_string(before[k].rec.pass) + ", before the draw's");
    if (before[k].rec.pass == pass) pass_differs = true;
  }
  if (!pass_differs) return fail("the change alters no pixel of the draw's pass " + std::to_string(pass));
  std::printf("perturbed: frame %u draw %u pass %u draw %u\n", perturbation->present, perturbation->draw, pass, in_pass);
  return 0;
}
