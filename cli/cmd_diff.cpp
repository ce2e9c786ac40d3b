// tessera diff CAPTURE --frame N [--threshold DB] [-o DIR] [--threads N]
//
// A pass-by-pass bisect of the replay against the captured device: a capture taken with
// `tessera capture --readback passes` holds every attachment of every render pass instance as
// the device left it at the instance's end (RenderPassContentsRecord). The frame is replayed as
// `tessera replay` renders it (render::Renderer, state carried over from the frames before), each
// attachment is compared with the replay's image at the same instance's end, and the first
// instance below the threshold is named. Within it, the instance is replayed again one draw at a
// time (load ops once, each draw then as an instance of its own that loads what the previous one
// stored). Each pixel of the instance's end is the last write of one draw (or of none: the load
// ops'); the first draw whose pixels alone, with the error they carry there, bring the instance
// below the threshold is named. The first draw that changes differing pixels at all is most often
// one under the divergent draw (a ground, a background) that a later draw covered there, and
// differences of rounding and filtering spread over every draw leave each draw's share far above
// the threshold. When only the pixels no replayed draw changed are below it, the driver wrote
// pixels no replayed draw covers.
//
// Exit status: 0 no pass below the threshold, 1 a pass below it (named), 2 the capture cannot be
// compared (not readable, no pass contents, frame not in it, replay error), 3 the replay refuses
// the capture (beyond its memory budget or bounds, as tessera replay's exit 3).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <variant>
#include <vector>

#include "commands.h"
#include "image_compare.h"
#include "png_writer.h"
#include "tessera/capture/reader.h"
#include "tessera/capture/records.h"
#include "tessera/capture/vk_records.h"
#include "tessera/frontend/replay.h"
#include "tessera/pipeline/pixel_format.h"
#include "tessera/render/renderer.h"

namespace tessera::cli {
namespace {

namespace cap = tessera::capture;
namespace fe = tessera::frontend;

// As diff(1): 0 the same, 1 different, 2 trouble; 3 a capture the replay refuses, as tessera
// replay exits (docs/contracts.md).
constexpr int kAllMatch = 0, kDiverged = 1, kTrouble = 2, kRefused = 3;
constexpr uint32_t kAspectColor = 1, kAspectDepth = 2, kAspectStencil = 4;  // VkImageAspectFlagBits
constexpr uint32_t kLoadOpLoad = 0, kStoreOpStore = 0;  // VK_ATTACHMENT_LOAD_OP_LOAD, _STORE_OP_STORE
constexpr uint32_t kStoreOpDontCare = 1;                // VK_ATTACHMENT_STORE_OP_DONT_CARE
constexpr uint32_t kStoreOpNone = 1000301000;           // VK_ATTACHMENT_STORE_OP_NONE (_KHR, _EXT, _QCOM)

// The name of a store op that leaves the attachment's contents after the pass undefined where the
// pass wrote them (spec "Render Pass Store Operations": DONT_CARE, and NONE for contents written
// in the pass), null for STORE.
const char* unstored(uint32_t store_op) {
  return store_op == kStoreOpDontCare ? "DONT_CARE" : store_op == kStoreOpNone ? "NONE" : nullptr;
}
constexpr size_t kListedDraws = 8;  // draws listed with their share of the differing pixels

struct DiffOptions {
  std::string file;
  uint32_t frame = 0;
  double threshold = 40.0;
  std::string out_dir;
  unsigned threads = 0;
};

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string db_text(double db) {
  if (std::isinf(db)) return db > 0 ? "exact" : "values differ";  // -inf: stencil or integer values
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f dB", db);
  return buf;
}

const char* aspect_name(uint32_t aspect) {
  switch (aspect) {
    case kAspectColor: return "colour";
    case kAspectDepth: return "depth";
    case kAspectStencil: return "stencil";
    default: return "unknown aspect";
  }
}

// Bytes of one texel of `aspect` in `format` as a buffer copy of that aspect lays it out (the
// replay's planes and the read-back contents alike); 0 when the format has no such aspect or is
// not one the replay decodes.
uint32_t texel_bytes(uint32_t format, uint32_t aspect) {
  pipeline::PixelFormat f;
  if (!pipeline::pixel_format(format, &f)) return 0;
  if (aspect == kAspectStencil) return f.stencil ? 1 : 0;
  if (aspect == kAspectDepth) return f.depth ? f.bytes : 0;
  if (aspect == kAspectColor) return f.depth || f.stencil ? 0 : f.bytes;
  return 0;
}

// How an aspect is compared (a pixel of 8-bit colour differs beyond 2 levels of 255: a rounding
// difference of one level in a blend or a filter is not a divergence, and would make the
// differing pixels of a matching pass cover it; stencil and integer values have no rounding, so
// any difference is one): normalized colour as the 8-bit codes `tessera replay` compares
// (levels of 255), float colour in its own range, integer colour and stencil as exact values,
// depth in the format's own units.
enum class Kind { Normalized, Float, Integer, Depth, Stencil };

// One aspect of one attachment as it is compared: for normalized colour the RGBA8 pixels of
// image::to_rgba8 (the stored 8-bit codes), otherwise the texels as the copy laid them out.
struct Comparable {
  uint32_t width = 0, height = 0, aspect = 0, channels = 0, bpp = 0;
  Kind kind = Kind::Normalized;
  pipeline::PixelFormat f;
  std::vector<uint8_t> data;
  size_t pixels() const { return size_t{width} * height; }
  const uint8_t* texel(size_t p) const { return &data[p * bpp]; }
};

bool exact_kind(Kind k) { return k == Kind::Integer || k == Kind::Stencil; }

// Depth in the format's own units: D16 and D24 as their stored integers; D32_SFLOAT as the float's
// bits mapped onto a line where neighbouring floats are one apart (differences are then in ULPs).
double depth_units(const pipeline::PixelFormat& f, const uint8_t* src) {
  if (f.bytes == 2) {
    uint16_t v;
    std::memcpy(&v, src, 2);
    return v;
  }
  uint32_t v;
  std::memcpy(&v, src, 4);
  if (!f.is_float) return v & 0xFFFFFFu;
  const auto i = static_cast<int32_t>(v);
  return i < 0 ? -static_cast<double>(i & 0x7FFFFFFF) : static_cast<double>(i);
}

// A pixel's depth differs beyond rounding when it is more than 1/65536 of the depth range away:
// D16 1 unit, D24 256 units, D32_SFLOAT 256 ULPs (ULPs of depths in [0.5, 1) are 2^-24).
double depth_tolerance(const pipeline::PixelFormat& f) { return f.bytes == 2 ? 1.0 : 256.0; }

const char* depth_unit_name(const pipeline::PixelFormat& f) {
  return f.bytes == 2 ? "D16 units" : f.is_float ? "float ULPs" : "D24 units";
}

bool to_comparable(uint32_t format, uint32_t aspect, uint32_t width, uint32_t height, std::span<const uint8_t> bytes,
                   Comparable* out, std::string* why) {
  pipeline::PixelFormat f;
  const uint32_t bpp = texel_bytes(format, aspect);
  if (bpp == 0 || !pipeline::pixel_format(format, &f)) {
    *why = "format " + std::to_string(format) + " has no " + aspect_name(aspect) + " aspect the replay decodes";
    return false;
  }
  const size_t count = size_t{width} * height;
  if (bytes.size() / bpp < count) {
    *why = std::to_string(width) + "x" + std::to_string(height) + " texels of format " + std::to_string(format) +
           " need " + std::to_string(count * bpp) + " bytes, " + std::to_string(bytes.size()) + " held";
    return false;
  }
  out->width = width;
  out->height = height;
  out->aspect = aspect;
  out->f = f;
  out->bpp = bpp;
  if (aspect == kAspectColor) {
    out->channels = std::clamp(f.components, 1u, 4u);  // alpha too where the format has it
    out->kind = f.integer ? Kind::Integer : f.is_float ? Kind::Float : Kind::Normalized;
    if (out->kind == Kind::Normalized) {
      out->bpp = 4;
      return image::to_rgba8(format, width, height, bytes, &out->data, why);
    }
  } else {
    out->channels = 1;
    out->kind = aspect == kAspectDepth ? Kind::Depth : Kind::Stencil;
  }
  out->data.assign(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(count * bpp));
  return true;
}

// Channel c of pixel p in the aspect's units: 8-bit codes, float values, integer values, depth
// units, stencil values.
double value(const Comparable& a, size_t p, uint32_t c) {
  switch (a.kind) {
    case Kind::Normalized: return a.data[p * 4 + c];
    case Kind::Depth: return depth_units(a.f, a.texel(p));
    case Kind::Stencil: return a.data[p];
    default: {
      float rgba[4];
      pipeline::decode_color(a.f, a.texel(p), rgba);
      return rgba[c];
    }
  }
}

// Depth as a fraction of its range (the PSNR's scale and the pictures').
double depth_fraction(const Comparable& a, size_t p) {
  return std::clamp(static_cast<double>(pipeline::decode_depth(a.f, a.texel(p))), 0.0, 1.0);
}

// The scale a comparison works on: `peak` the full scale of the PSNR (255 for 8-bit codes, 1 for
// depth fractions; for float colour the larger of 1 and the largest finite magnitude either side
// holds), `tolerance` the difference in the aspect's units a pixel may have and still match
// (0 for exact kinds: any difference counts).
struct Scale {
  double peak = 255.0, tolerance = 2.0;
};

Scale scale_of(const Comparable& a, const Comparable& b) {
  Scale s;
  switch (a.kind) {
    case Kind::Normalized: break;
    case Kind::Depth: s.peak = 1.0; s.tolerance = depth_tolerance(a.f); break;
    case Kind::Integer:
    case Kind::Stencil: s.tolerance = 0; break;
    case Kind::Float: {
      s.peak = 1.0;
      for (const Comparable* c : {&a, &b})
        for (size_t p = 0; p < c->pixels(); ++p)
          for (uint32_t k = 0; k < c->channels; ++k) {
            const double v = value(*c, p, k);
            if (std::isfinite(v)) s.peak = std::max(s.peak, std::fabs(v));
          }
      s.tolerance = s.peak * 2.0 / 255.0;
      break;
    }
  }
  return s;
}

// The largest difference over the channels of pixel p, in the aspect's units (a NaN or an
// infinity against anything else: the full scale).
double pixel_difference(const Comparable& a, const Comparable& b, const Scale& s, size_t p) {
  if (exact_kind(a.kind) && std::equal(a.texel(p), a.texel(p) + a.bpp, b.texel(p))) return 0;
  double m = 0;
  for (uint32_t c = 0; c < a.channels; ++c) {
    const double x = value(a, p, c), y = value(b, p, c);
    if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    m = std::max(m, std::isfinite(x) && std::isfinite(y) ? std::fabs(x - y) : s.peak);
  }
  // Integer values wider than a float's 24 bits can decode alike and differ in their bytes.
  return exact_kind(a.kind) ? std::max(m, 1.0) : m;
}

bool pixel_differs(const Comparable& a, const Comparable& b, const Scale& s, size_t p) {
  return pixel_difference(a, b, s, p) > s.tolerance;
}

// Squared error of pixel p over its channels as fractions of the PSNR's full scale.
double squared_error(const Comparable& a, const Comparable& b, const Scale& s, size_t p) {
  if (exact_kind(a.kind)) return 0;
  if (a.kind == Kind::Depth) {
    const double d = depth_fraction(a, p) - depth_fraction(b, p);
    return d * d;
  }
  double sum = 0;
  for (uint32_t c = 0; c < a.channels; ++c) {
    const double x = value(a, p, c), y = value(b, p, c);
    if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    const double d = std::isfinite(x) && std::isfinite(y) ? std::min(std::fabs(x - y) / s.peak, 1.0) : 1.0;
    sum += d * d;
  }
  return sum;
}

double psnr_of(double squared, size_t samples) {
  if (squared == 0 || samples == 0) return std::numeric_limits<double>::infinity();
  return 10.0 * std::log10(static_cast<double>(samples) / squared);
}

// What one comparison found.
struct Stats {
  double db = 0;            // PSNR (exact kinds: +inf when no value differs, -inf otherwise)
  size_t differing = 0;     // pixels beyond the tolerance
  double max_diff = 0, rms_diff = 0;  // in the aspect's units
};

Stats compare(const Comparable& a, const Comparable& b, const Scale& s) {
  Stats st;
  double squared = 0, units2 = 0;
  for (size_t p = 0; p < a.pixels(); ++p) {
    const double d = pixel_difference(a, b, s, p);
    if (d > s.tolerance) ++st.differing;
    st.max_diff = std::max(st.max_diff, d);
    units2 += d * d;
    squared += squared_error(a, b, s, p);
  }
  st.rms_diff = a.pixels() ? std::sqrt(units2 / static_cast<double>(a.pixels())) : 0;
  if (exact_kind(a.kind)) {
    st.db = st.differing ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
  } else {
    st.db = psnr_of(squared, a.pixels() * a.channels);
  }
  return st;
}

// "exact", "N dB", or for exact kinds "values differ"; with depth's largest and RMS difference.
std::string verdict_text(const Comparable& c, const Stats& st) {
  std::string s = db_text(st.db);
  if (c.kind == Kind::Depth) {
    char buf[96];
    std::snprintf(buf, sizeof buf, " (max %.0f, RMS %.1f %s)", st.max_diff, st.rms_diff, depth_unit_name(c.f));
    s += buf;
  }
  return s;
}

// Pixel p for the pictures: normalized colour as stored, float colour clamped to [0, 1], integer
// colour clamped to 0..255, depth stretched over [lo, hi] (a perspective depth buffer lies close to
// 1), stencil values.
void display(const Comparable& c, size_t p, double lo, double hi, uint8_t rgb[3]) {
  if (c.aspect == kAspectColor) {
    for (uint32_t k = 0; k < 3; ++k) {
      if (k >= c.channels) {
        rgb[k] = 0;
        continue;
      }
      double v = value(c, p, k);
      if (c.kind == Kind::Float) v *= 255.0;
      rgb[k] = static_cast<uint8_t>(std::clamp(std::isnan(v) ? 0.0 : std::nearbyint(v), 0.0, 255.0));
    }
    return;
  }
  double v = c.kind == Kind::Depth ? depth_fraction(c, p) : value(c, p, 0) / 255.0;
  if (c.kind == Kind::Depth && hi > lo) v = (v - lo) / (hi - lo);
  rgb[0] = rgb[1] = rgb[2] = static_cast<uint8_t>(std::clamp(std::nearbyint(v * 255.0), 0.0, 255.0));
}

uint8_t grey(const Comparable& c, size_t p, double lo, double hi) {
  uint8_t rgb[3];
  display(c, p, lo, hi, rgb);
  return static_cast<uint8_t>((rgb[0] * 77 + rgb[1] * 150 + rgb[2] * 29) >> 8);
}

std::vector<uint8_t> picture(const Comparable& c, double lo, double hi) {
  std::vector<uint8_t> out(c.pixels() * 4, 255);
  for (size_t p = 0; p < c.pixels(); ++p) display(c, p, lo, hi, &out[p * 4]);
  return out;
}

// The difference in grey, 32 levels per tolerance (16 per level of 255 for 8-bit colour, 32 per
// value for exact kinds), pixels beyond the tolerance in red (brighter the larger the difference).
std::vector<uint8_t> difference_picture(const Comparable& a, const Comparable& b, const Scale& s) {
  std::vector<uint8_t> out(a.pixels() * 4, 255);
  const double unit = s.tolerance > 0 ? s.tolerance : 1.0;
  for (size_t p = 0; p < a.pixels(); ++p) {
    const double d = pixel_difference(a, b, s, p) / unit;
    uint8_t* px = &out[p * 4];
    if (pixel_differs(a, b, s, p)) {
      px[0] = static_cast<uint8_t>(std::min(255.0, 128.0 + d * 2.0));
      px[1] = px[2] = 0;
    } else {
      px[0] = px[1] = px[2] = static_cast<uint8_t>(std::min(255.0, d * 32.0));
    }
  }
  return out;
}

// The replay's image darkened, the pixels that differ at the pass's end in red, the pixels the
// draw changed in green, both in yellow.
std::vector<uint8_t> coverage_picture(const Comparable& replay, const std::vector<uint8_t>& differ,
                                      const std::vector<uint8_t>& changed, double lo, double hi) {
  std::vector<uint8_t> out(replay.pixels() * 4, 255);
  for (size_t p = 0; p < replay.pixels(); ++p) {
    uint8_t* px = &out[p * 4];
    const auto g = static_cast<uint8_t>(grey(replay, p, lo, hi) / 3);
    px[0] = differ[p] ? 255 : g;
    px[1] = changed[p] ? 255 : g;
    px[2] = differ[p] || changed[p] ? 0 : g;
  }
  return out;
}

void depth_range(const Comparable& a, const Comparable& b, double* lo, double* hi) {
  *lo = 1.0;
  *hi = 0.0;
  for (const Comparable* c : {&a, &b})
    for (size_t p = 0; p < c->pixels(); ++p) {
      *lo = std::min(*lo, depth_fraction(*c, p));
      *hi = std::max(*hi, depth_fraction(*c, p));
    }
}

// One aspect of one attachment of the replay, copied from its image (sample 0), in the
// subresource the read-back record names.
struct Snapshot {
  uint32_t format = 0, width = 0, height = 0;
  std::vector<uint8_t> bytes;
  std::string note;  // why there is none
};

Snapshot take_snapshot(fe::CaptureReplay& replay, const cap::RenderPassContentsRecord& rec) {
  Snapshot s;
  const fe::Image* image = replay.find_image(rec.image);
  if (image == nullptr) {
    s.note = "the replay has no image " + hex(rec.image);
    return s;
  }
  if (rec.mip >= image->mip_levels || rec.layer >= image->array_layers) {
    s.note = "the replay's image " + hex(rec.image) + " has no mip " + std::to_string(rec.mip) + ", layer " +
             std::to_string(rec.layer);
    return s;
  }
  const uint32_t bpp = texel_bytes(image->format, rec.aspect);
  if (bpp == 0) {
    s.note = "the replay's image " + hex(rec.image) + " (format " + std::to_string(image->format) + ") has no " +
             aspect_name(rec.aspect) + " aspect it decodes";
    return s;
  }
  const auto& plane = image->subresource(rec.aspect == kAspectStencil ? fe::Aspect::Stencil : fe::Aspect::ColorOrDepth,
                                         rec.layer, rec.mip);
  s.format = image->format;
  s.width = image->mip_width(rec.mip);
  s.height = image->mip_height(rec.mip);
  const size_t need = size_t{s.width} * s.height * bpp;
  if (plane.size() < need) {
    s.note = "the replay holds no contents of image " + hex(rec.image);
    return s;
  }
  s.bytes.assign(plane.begin(), plane.begin() + static_cast<std::ptrdiff_t>(need));
  return s;
}

using Key = std::tuple<uint32_t, uint32_t, uint32_t>;  // pass, attachment, aspect
Key key_of(const cap::RenderPassContentsRecord& r) { return {r.pass, r.attachment, r.aspect}; }

uint32_t draws_in(const fe::RenderPassInstance& pass) {
  return static_cast<uint32_t>(std::count_if(pass.commands.begin(), pass.commands.end(), [](const fe::PassCommand& c) {
    return std::holds_alternative<fe::Draw>(c);
  }));
}

// Renders as `inner` does and, after each pass, copies the attachments the capture read back.
class SnapshotRenderer final : public fe::PassRenderer {
 public:
  SnapshotRenderer(fe::PassRenderer& inner, fe::CaptureReplay& replay, const std::vector<cap::RenderPassContentsRecord>& wanted)
      : inner_(inner), replay_(replay), wanted_(wanted) {}
  void render_pass(const fe::RenderPassInstance& pass, fe::SkipCounts& skipped) override {
    inner_.render_pass(pass, skipped);
    // Records number instances as the capture layer does, every one the frame ended.
    draws[pass.instance] = draws_in(pass);
    for (const auto& rec : wanted_) {
      if (rec.pass != pass.instance) continue;
      snapshots[key_of(rec)] = take_snapshot(replay_, rec);
      // What a pass leaves in an attachment it does not store is undefined (spec "Render Pass
      // Store Operations"): the driver and the replay may each leave anything there. NONE leaves
      // what the pass wrote undefined too, and a pass that wrote nothing there has nothing to
      // compare. A resolve target is written by the resolve whatever the multisampled
      // attachment's store op, and stored by its own attachment's store op when it is one of the
      // render pass's attachments (dynamic rendering's resolve images have none).
      if (rec.attachment < pass.attachments.size()) {
        const fe::Attachment& a = pass.attachments[rec.attachment];
        const fe::Attachment* stored = &a;
        if (rec.resolved != 0) {
          stored = nullptr;
          for (size_t j = 0; j < pass.attachments.size(); ++j)
            if (j != rec.attachment && a.resolve != nullptr && pass.attachments[j].view == a.resolve)
              stored = &pass.attachments[j];
        }
        const char* op = stored == nullptr ? nullptr
                                           : unstored(rec.aspect == kAspectStencil ? stored->stencil_store_op
                                                                                   : stored->store_op);
        if (op != nullptr)
          snapshots[key_of(rec)].note = std::string(rec.resolved != 0 ? "its resolve attachment's store op is "
                                                                      : "its store op is ") +
                                        op + ", its contents after the pass undefined";
      }
    }
    // Compared as the instance ends, so only its snapshots are held at once.
    if (ended) ended(pass.instance);
  }
  void dispatch(const fe::Dispatch& d, fe::SkipCounts& skipped) override { inner_.dispatch(d, skipped); }

  std::function<void(uint32_t)> ended;  // after each instance, its snapshots taken
  std::map<Key, Snapshot> snapshots;
  std::map<uint32_t, uint32_t> draws;  // draws of each pass

 private:
  fe::PassRenderer& inner_;
  fe::CaptureReplay& replay_;
  const std::vector<cap::RenderPassContentsRecord>& wanted_;
};

// What identifies a draw in the report.
struct DrawInfo {
  uint32_t in_pass = 0, in_frame = 0;
  uint64_t pipeline = 0;
  bool indexed = false;
  uint32_t count = 0, instances = 0, first = 0, first_instance = 0;
  int32_t vertex_offset = 0;
};

std::string describe(const DrawInfo& d) {
  std::string s = "draw " + std::to_string(d.in_pass) + " of the pass (draw " + std::to_string(d.in_frame) +
                  " of the frame): pipeline " + hex(d.pipeline) + ", ";
  if (d.indexed) {
    s += "indexed, " + std::to_string(d.count) + " indices x " + std::to_string(d.instances) + " instances, first index " +
         std::to_string(d.first) + ", vertex offset " + std::to_string(d.vertex_offset);
  } else {
    s += std::to_string(d.count) + " vertices x " + std::to_string(d.instances) + " instances, first vertex " +
         std::to_string(d.first);
  }
  return s + ", first instance " + std::to_string(d.first_instance);
}

// A step of the pass replayed one command at a time: a draw, or a vkCmdClearAttachments.
struct Step {
  bool is_draw = false;
  DrawInfo draw;         // is_draw
  uint32_t before_draw = 0;  // a clear: the draws of the pass before it
  uint64_t changed = 0;  // pixels it changed, over the compared attachments
  uint64_t touched = 0;  // of them, pixels that differ at the pass's end
  uint64_t shown = 0;    // differing pixels whose replayed value it wrote last
  uint64_t left = 0;     // pixels whose replayed value it wrote last, differing or not
};

std::string describe(const Step& s) {
  if (s.is_draw) return describe(s.draw);
  return "vkCmdClearAttachments after " + std::to_string(s.before_draw) + " draws of the pass";
}

// An attachment of the divergent pass followed through the steps.
struct Target {
  cap::RenderPassContentsRecord rec;
  std::vector<uint8_t> differ;  // pixels that differ at the pass's end
  std::vector<uint8_t> previous;  // the attachment's bytes before the step
  std::vector<int32_t> last_step;  // per pixel the last step that changed it, -1 none
  uint32_t bpp = 0;
};

// Renders the passes before `pass` as `inner` does; renders `pass` once for its load ops and
// then one command at a time, each as an instance of its own that loads what the one before
// stored, and follows what each step changes; renders nothing after it (the bisect needs no more).
class StepRenderer final : public fe::PassRenderer {
 public:
  StepRenderer(fe::PassRenderer& inner, fe::CaptureReplay& replay, uint32_t pass, std::vector<Target>& targets)
      : inner_(inner), replay_(replay), pass_(pass), targets_(targets) {}
  void render_pass(const fe::RenderPassInstance& pass, fe::SkipCounts& skipped) override {
    if (done_) return;
    if (pass.instance != pass_) {
      inner_.render_pass(pass, skipped);
      return;
    }
    done_ = reached = true;
    walk(pass, skipped);
  }
  void dispatch(const fe::Dispatch& d, fe::SkipCounts& skipped) override {
    if (!done_) inner_.dispatch(d, skipped);
  }

  bool reached = false;
  std::vector<Step> steps;
  // Per pixel only the last step that changed it is followed; the pixels step `record_step`
  // changed in each target are kept when set (the coverage picture, on a second walk).
  std::optional<size_t> record_step;
  std::vector<std::vector<uint32_t>> changed;
  std::string note;

 private:
  void walk(const fe::RenderPassInstance& pass, fe::SkipCounts& skipped) {
    if (pass.subpasses.empty()) {
      note = "the pass has no subpass";
      inner_.render_pass(pass, skipped);
      return;
    }
    fe::RenderPassInstance step;
    step.index = pass.index;
    step.instance = pass.instance;
    step.limits = pass.limits;
    step.render_area = pass.render_area;
    step.layers = pass.layers;
    step.attachments = pass.attachments;
    // Every step stores, so the next one starts from what this one left.
    for (auto& a : step.attachments) a.store_op = a.stencil_store_op = kStoreOpStore;
    step.subpasses = {pass.subpasses[0]};
    // The load ops, once: what they leave is where the draws start from.
    inner_.render_pass(step, skipped);
    for (Target& t : targets_) {
      const Snapshot s = take_snapshot(replay_, t.rec);
      t.previous = s.bytes;
      t.bpp = texel_bytes(s.format, t.rec.aspect);
      t.last_step.assign(t.differ.size(), -1);
    }
    for (auto& a : step.attachments) a.load_op = a.stencil_load_op = kLoadOpLoad;
    size_t subpass = 0;
    uint32_t draw_in_pass = 0;
    for (const fe::PassCommand& cmd : pass.commands) {
      if (std::holds_alternative<fe::NextSubpass>(cmd)) {
        if (subpass + 1 < pass.subpasses.size()) ++subpass;
        continue;
      }
      step.subpasses = {pass.subpasses[subpass]};
      step.commands = {cmd};
      Step s;
      if (const auto* d = std::get_if<fe::Draw>(&cmd)) {
        s.is_draw = true;
        s.draw = {draw_in_pass++, d->index, d->state.pipeline, d->indexed, d->vertex_count, d->instance_count,
                  d->first_vertex, d->first_instance, d->vertex_offset};
      } else {
        s.before_draw = draw_in_pass;
      }
      inner_.render_pass(step, skipped);
      follow(s);
      steps.push_back(s);
    }
  }

  // Which pixels the step changed, and which of them differ at the pass's end.
  void follow(Step& s) {
    const auto index = static_cast<int32_t>(steps.size());
    const bool record = record_step && *record_step == steps.size();
    if (record) changed.assign(targets_.size(), {});
    for (size_t i = 0; i < targets_.size(); ++i) {
      Target& t = targets_[i];
      Snapshot now = take_snapshot(replay_, t.rec);
      if (t.bpp == 0 || now.bytes.size() != t.previous.size() || now.bytes.size() != t.differ.size() * t.bpp) continue;
      for (size_t p = 0; p < t.differ.size(); ++p) {
        if (std::equal(&now.bytes[p * t.bpp], &now.bytes[p * t.bpp] + t.bpp, &t.previous[p * t.bpp])) continue;
        if (record) changed[i].push_back(static_cast<uint32_t>(p));
        t.last_step[p] = index;
        ++s.changed;
        if (t.differ[p]) ++s.touched;
      }
      t.previous = std::move(now.bytes);
    }
  }

  fe::PassRenderer& inner_;
  fe::CaptureReplay& replay_;
  uint32_t pass_;
  std::vector<Target>& targets_;
  bool done_ = false;
};

// Replays the frames before `index` and then frame `index` through `renderer`, with a fresh
// replay of the capture; false with *error set.
bool replay_to(fe::CaptureReplay& replay, render::Renderer& base, fe::PassRenderer& last, size_t index,
               fe::FrameResult* result, std::string* error) {
  for (size_t i = 0; i < index; ++i) {
    fe::FrameResult r;
    if (!replay.replay_frame(i, base, &r, error)) return false;
  }
  return replay.replay_frame(index, last, result, error);
}

struct Compared {
  cap::RenderPassContentsRecord rec;
  Comparable replay, driver;
  Scale scale;
  Stats st;
  double db = 0;
  size_t differing = 0;
  std::vector<uint8_t> differ;
  uint32_t image_format = 0;  // the format both sides are decoded in
};

// "format F" (the image's), with the view's format the record names when it is another.
std::string format_text(const Compared& c) {
  std::string s = "format " + std::to_string(c.image_format);
  if (c.rec.format != c.image_format) s += ", view format " + std::to_string(c.rec.format);
  return s;
}

bool write_picture(const std::string& path, uint32_t w, uint32_t h, const std::vector<uint8_t>& rgba) {
  std::string error;
  if (image::write_png(path, w, h, rgba.data(), &error)) return true;
  std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
  return false;
}

std::string stem(const std::string& dir, const cap::RenderPassContentsRecord& r) {
  return dir + "/pass" + std::to_string(r.pass) + "-att" + std::to_string(r.attachment) +
         (r.aspect == kAspectStencil ? "-stencil" : "");
}

int run_diff(const DiffOptions& opt) {
  std::string error;
  auto reader = cap::CaptureReader::open(opt.file, &error);
  if (!reader) {
    std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
    return kTrouble;
  }
  const auto& frames = reader->frames();
  size_t index = frames.size();
  for (size_t i = 0; i < frames.size(); ++i)
    if (frames[i].present == opt.frame) index = i;
  if (index == frames.size()) {
    std::fprintf(stderr, "tessera diff: %s: frame %u is not in the capture (%s)\n", opt.file.c_str(), opt.frame,
                 frames.empty() ? "it holds no complete frame"
                                : ("presents " + std::to_string(frames.front().present) + "-" +
                                   std::to_string(frames.back().present))
                                      .c_str());
    return kTrouble;
  }
  const auto& kinds = reader->summary().records_by_kind;
  const auto contents_kind = cap::kind_of<cap::RenderPassContentsRecord>();
  if (kinds.find(contents_kind) == kinds.end() || kinds.at(contents_kind) == 0) {
    std::fprintf(stderr,
                 "tessera diff: %s: capture has no pass contents; capture it with tessera capture --readback passes\n",
                 opt.file.c_str());
    return kTrouble;
  }
  // What to copy from the replay as each pass ends: the frame's read-back attachments.
  std::vector<cap::RenderPassContentsRecord> wanted;
  std::string problem;
  const bool read = reader->read_frame(
      index,
      [&](uint32_t kind, std::span<const std::byte> body) {
        if (kind != contents_kind) return true;
        auto rec = cap::decode_record<cap::RenderPassContentsRecord>(body);
        if (!rec) {
          problem = "render_pass_contents record does not decode";
          return false;
        }
        wanted.push_back(*rec);
        return true;
      },
      &error);
  if (!read || !problem.empty()) {
    std::fprintf(stderr, "tessera diff: %s\n",
                 read ? (opt.file + ": frame " + std::to_string(opt.frame) + ": " + problem).c_str() : error.c_str());
    return kTrouble;
  }
  if (wanted.empty()) {
    std::fprintf(stderr, "tessera diff: %s: frame %u has no pass contents (other frames of the capture have)\n",
                 opt.file.c_str(), opt.frame);
    return kTrouble;
  }

  render::RenderConfig rc;
  rc.threads = opt.threads != 0 ? opt.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<Compared> compared;
  std::vector<std::string> lines(wanted.size());  // the report's line of each record compared
  std::optional<uint32_t> first_below;           // the first instance below the threshold
  uint32_t passes = 0;
  std::map<uint32_t, uint32_t> draws;
  {
    auto replay = fe::CaptureReplay::open(*reader, &error);
    if (!replay) {
      std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
      return kTrouble;
    }
    render::Renderer renderer(nullptr, rc);
    SnapshotRenderer snapshots(renderer, *replay, wanted);
    // Each record compared as its instance ends; the images of the first instance below the
    // threshold kept (the bisect and the pictures need them), of every other one only what the
    // report prints.
    snapshots.ended = [&](uint32_t instance) {
      std::vector<Compared> here;
      bool below = false;
      for (size_t w = 0; w < wanted.size(); ++w) {
        const cap::RenderPassContentsRecord& rec = wanted[w];
        if (rec.pass != instance) continue;
        const std::string where = "pass " + std::to_string(rec.pass) + " attachment " + std::to_string(rec.attachment) +
                                  " " + aspect_name(rec.aspect);
        const auto snap = snapshots.snapshots.find(key_of(rec));
        std::string why;
        Compared c;
        c.rec = rec;
        if (snap == snapshots.snapshots.end() || !snap->second.note.empty()) {
          why = snap == snapshots.snapshots.end() ? "the replay did not render it" : snap->second.note;
        } else if (snap->second.width != rec.width || snap->second.height != rec.height) {
          why = "the driver's image is " + std::to_string(rec.width) + "x" + std::to_string(rec.height) +
                ", the replay's " + std::to_string(snap->second.width) + "x" + std::to_string(snap->second.height);
        } else {
          const auto bytes = reader->blob(rec.contents, &why);
          c.image_format = snap->second.format;
          if (bytes) {
            const std::span<const uint8_t> driver(reinterpret_cast<const uint8_t*>(bytes->data.data()),
                                                  bytes->data.size());
            // vkCmdCopyImageToBuffer writes texels in the source image's format, not the view's
            // (spec "Copying Data Between Buffers and Images"): both sides decode with the image's
            // format, the record's view format is only reported.
            if (to_comparable(snap->second.format, rec.aspect, rec.width, rec.height, snap->second.bytes, &c.replay,
                              &why) &&
                to_comparable(snap->second.format, rec.aspect, rec.width, rec.height, driver, &c.driver, &why)) {
              why.clear();
            } else if (why.empty()) {
              why = "cannot be decoded";
            }
          }
        }
        if (snap != snapshots.snapshots.end()) snapshots.snapshots.erase(snap);
        if (!why.empty()) {
          lines[w] = where + ": not compared: " + why + "\n";
          continue;
        }
        c.scale = scale_of(c.replay, c.driver);
        c.st = compare(c.replay, c.driver, c.scale);
        c.db = c.st.db;
        c.differing = c.st.differing;
        char buf[512];
        std::snprintf(buf, sizeof buf, "%s (image %s, %s, %ux%u, %u draws): %s, %zu of %zu pixels differ\n",
                      where.c_str(), hex(rec.image).c_str(), format_text(c).c_str(), rec.width, rec.height,
                      snapshots.draws[rec.pass], verdict_text(c.replay, c.st).c_str(), c.differing, c.replay.pixels());
        lines[w] = buf;
        below = below || c.db < opt.threshold;
        here.push_back(std::move(c));
      }
      const bool keep = below && !first_below;
      if (keep) first_below = instance;
      for (Compared& c : here) {
        if (keep) {
          c.differ.assign(c.replay.pixels(), 0);
          for (size_t p = 0; p < c.differ.size(); ++p)
            c.differ[p] = pixel_differs(c.replay, c.driver, c.scale, p) ? 1 : 0;
        } else {
          c.replay.data = {};
          c.driver.data = {};
        }
        compared.push_back(std::move(c));
      }
    };
    fe::FrameResult result;
    if (!replay_to(*replay, renderer, snapshots, index, &result, &error)) {
      std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
      return replay->refused() ? kRefused : kTrouble;
    }
    passes = result.instances;
    draws = snapshots.draws;
    std::printf("%s frame %u: %u render pass instances%s, %u draws, %zu attachment aspects read back\n", opt.file.c_str(),
                opt.frame, result.instances,
                result.not_replayed.empty() ? "" : (", " + std::to_string(result.not_replayed.size()) + " not replayed").c_str(),
                result.draws, result.pass_contents.size());
    for (const auto& [reason, n] : result.skipped.reasons)
      std::printf("  not replayed: %s x%llu\n", reason.c_str(), static_cast<unsigned long long>(n));
    // Drawn, but not as the driver drew them: a likely cause of the differences named below.
    for (const auto& [reason, n] : result.skipped.approximations)
      std::printf("  approximated: %s x%llu\n", reason.c_str(), static_cast<unsigned long long>(n));
    for (size_t w = 0; w < wanted.size(); ++w) {
      const cap::RenderPassContentsRecord& rec = wanted[w];
      if (!lines[w].empty()) {
        std::printf("%s", lines[w].c_str());
        continue;
      }
      const std::string where = "pass " + std::to_string(rec.pass) + " attachment " + std::to_string(rec.attachment) +
                                " " + aspect_name(rec.aspect);
      if (std::find(result.not_replayed.begin(), result.not_replayed.end(), rec.pass) != result.not_replayed.end()) {
        std::printf("%s: not replayed: the replay could not rebuild the instance\n", where.c_str());
      } else if (rec.pass >= result.instances) {
        std::printf("%s: not compared: the replay's frame ended %u render pass instances\n", where.c_str(),
                    result.instances);
      } else {
        std::printf("%s: not compared: the replay did not render it\n", where.c_str());
      }
    }
  }
  if (compared.empty()) {
    std::fprintf(stderr, "tessera diff: %s: frame %u: no read-back attachment could be compared\n", opt.file.c_str(),
                 opt.frame);
    return kTrouble;
  }
  const Compared* worst = nullptr;  // the lowest attachment of the first pass below the threshold
  for (const Compared& c : compared) {
    if (!(c.db < opt.threshold) || !first_below || c.rec.pass != *first_below) continue;
    if (worst == nullptr || c.rec.pass < worst->rec.pass || (c.rec.pass == worst->rec.pass && c.db < worst->db)) worst = &c;
  }
  if (worst == nullptr) {
    std::printf("no pass below %.1f dB (%zu attachment aspects of %u passes compared)\n", opt.threshold, compared.size(),
                passes);
    return kAllMatch;
  }
  const uint32_t pass = worst->rec.pass;
  std::printf("first pass below %.1f dB: pass %u (%u draws): attachment %u %s (image %s, %s, %ux%u): %s, %zu of "
              "%zu pixels differ\n",
              opt.threshold, pass, draws[pass], worst->rec.attachment, aspect_name(worst->rec.aspect),
              hex(worst->rec.image).c_str(), format_text(*worst).c_str(), worst->rec.width, worst->rec.height,
              verdict_text(worst->replay, worst->st).c_str(), worst->differing, worst->replay.pixels());
  if (!opt.out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(opt.out_dir, ec);
    if (ec) {
      std::fprintf(stderr, "tessera diff: %s: %s\n", opt.out_dir.c_str(), ec.message().c_str());
      return kTrouble;
    }
    for (const Compared& c : compared) {
      if (c.rec.pass != pass) continue;
      double lo = 0, hi = 1;
      if (c.rec.aspect == kAspectDepth) depth_range(c.replay, c.driver, &lo, &hi);
      const std::string s = stem(opt.out_dir, c.rec);
      write_picture(s + "-replay.png", c.rec.width, c.rec.height, picture(c.replay, lo, hi));
      write_picture(s + "-driver.png", c.rec.width, c.rec.height, picture(c.driver, lo, hi));
      write_picture(s + "-diff.png", c.rec.width, c.rec.height, difference_picture(c.replay, c.driver, c.scale));
    }
  }

  // The bisect: the attachments of the pass below the threshold, followed draw by draw.
  std::vector<Target> targets;
  std::vector<const Compared*> target_compared;
  for (const Compared& c : compared) {
    if (c.rec.pass != pass || !(c.db < opt.threshold)) continue;
    Target t;
    t.rec = c.rec;
    t.differ = c.differ;
    targets.push_back(std::move(t));
    target_compared.push_back(&c);
  }
  auto replay = fe::CaptureReplay::open(*reader, &error);
  if (!replay) {
    std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
    return kTrouble;
  }
  // Held so that a second walk (the coverage picture) does not hold two renderers at once.
  auto renderer_held = std::make_unique<render::Renderer>(nullptr, rc);
  render::Renderer& renderer = *renderer_held;
  StepRenderer stepper(renderer, *replay, pass, targets);
  fe::FrameResult result;
  if (!replay_to(*replay, renderer, stepper, index, &result, &error)) {
    std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
    return replay->refused() ? kRefused : kTrouble;
  }
  if (!stepper.reached || !stepper.note.empty()) {
    std::printf("no draw to bisect: %s\n", stepper.note.empty() ? "the replay did not reach the pass" : stepper.note.c_str());
    return kDiverged;
  }
  // Who wrote last, in the replay, each pixel of the pass's end, and the error between the
  // replay and the driver that each step's pixels carry there (bucket `none`: pixels no step
  // changed, left as the load ops left them).
  const size_t none = stepper.steps.size();
  std::vector<std::vector<double>> sq_error(none + 1, std::vector<double>(targets.size(), 0.0));
  // Stencil and integer targets: the differing values each step's pixels hold.
  std::vector<std::vector<uint64_t>> exact_differ(none + 1, std::vector<uint64_t>(targets.size(), 0));
  uint64_t differing = 0, never_written = 0;
  for (size_t i = 0; i < targets.size(); ++i) {
    const Target& t = targets[i];
    const Compared& c = *target_compared[i];
    if (t.last_step.size() != t.differ.size()) continue;
    for (size_t p = 0; p < t.differ.size(); ++p) {
      const size_t b = t.last_step[p] < 0 ? none : static_cast<size_t>(t.last_step[p]);
      sq_error[b][i] += squared_error(c.replay, c.driver, c.scale, p);
      if (b != none) ++stepper.steps[b].left;
      if (!t.differ[p]) continue;
      ++exact_differ[b][i];
      ++differing;
      if (b == none) {
        ++never_written;
      } else {
        ++stepper.steps[b].shown;
      }
    }
  }
  // The PSNR of the pass were a step's pixels (as the pass's end shows them) its only error: the
  // lowest over the attachments below the threshold.
  const auto alone = [&](size_t b) {
    double lowest = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < targets.size(); ++i) {
      const Comparable& r = target_compared[i]->replay;
      if (exact_kind(r.kind)) {
        if (exact_differ[b][i] != 0) lowest = -std::numeric_limits<double>::infinity();
        continue;
      }
      lowest = std::min(lowest, psnr_of(sq_error[b][i], r.channels * r.pixels()));
    }
    return lowest;
  };
  // The first draw whose pixels alone bring the pass below the threshold: its writes, not an
  // earlier draw's, are what the pass's end shows wrong. (The first draw that merely changes
  // differing pixels is most often one under the divergent draw, a ground or a background that
  // a later draw covered there; and differences of rounding and filtering, spread over every
  // draw, leave each draw's share far above the threshold.)
  std::optional<size_t> named;
  for (size_t i = 0; i < none && !named; ++i)
    if (alone(i) < opt.threshold) named = i;
  if (!named && alone(none) < opt.threshold) {
    std::printf("no replayed draw of pass %u falls below %.1f dB alone, but the pixels no replayed draw changes do "
                "(%s, %llu of them differ): the driver wrote pixels no replayed draw covers (or the pass's load "
                "operations differ)\n",
                pass, opt.threshold, db_text(alone(none)).c_str(), static_cast<unsigned long long>(never_written));
    return kDiverged;
  }
  if (!named) {
    for (size_t i = 0; i < none; ++i)
      if (alone(i) < std::numeric_limits<double>::infinity() && (!named || alone(i) < alone(*named))) named = i;
    if (!named) {
      std::printf("no replayed draw of pass %u changes the pixels that differ: the driver wrote pixels no replayed "
                  "draw covers (or the pass's load operations differ)\n",
                  pass);
      return kDiverged;
    }
    std::printf("no single draw of pass %u is below %.1f dB alone (the error is spread over draws); the draw whose "
                "pixels hold the most of it follows\n",
                pass, opt.threshold);
  }
  const size_t first_shown = *named;
  const Step& first = stepper.steps[first_shown];
  // The pixels that differ where this step wrote last hold its own output (no later replayed
  // step changed them) and the driver holds something else. When they are a small part of what
  // it left, its output matches the driver's elsewhere: the driver most likely drew something
  // over it there that the replay did not (a draw left out, culled or rasterised elsewhere), as
  // when a draw over a ground is missing and the ground shows through. Named as such rather than
  // the step as the culprit.
  if (first.shown * 2 < first.left) {
    std::printf("no draw of pass %u named: the pixels that differ where %s is the last write are %llu of the %llu it "
                "left, the rest match the driver's (its pixels alone: %s): a later draw (between it and the pass's "
                "end) may be missing or mis-rasterised at those pixels, or it is wrong there alone\n",
                pass, describe(first).c_str(), static_cast<unsigned long long>(first.shown),
                static_cast<unsigned long long>(first.left), db_text(alone(first_shown)).c_str());
  } else {
    std::printf("first divergent draw: %s; its pixels at the pass's end alone: %s; it changed %llu pixels, %llu of the "
                "%llu that differ, and wrote last %llu of them\n",
                describe(first).c_str(), db_text(alone(first_shown)).c_str(),
                static_cast<unsigned long long>(first.changed), static_cast<unsigned long long>(first.touched),
                static_cast<unsigned long long>(differing), static_cast<unsigned long long>(first.shown));
  }
  std::printf("draws changing differing pixels (changed / written last, their pixels alone):");
  size_t listed = 0;
  for (size_t i = 0; i < none; ++i) {
    const Step& s = stepper.steps[i];
    if (s.touched == 0) continue;
    if (listed++ == kListedDraws) {
      std::printf(" ...");
      break;
    }
    std::printf(" %s %u (%llu / %llu, %s)", s.is_draw ? "draw" : "clear before draw",
                s.is_draw ? s.draw.in_pass : s.before_draw, static_cast<unsigned long long>(s.touched),
                static_cast<unsigned long long>(s.shown), db_text(alone(i)).c_str());
  }
  std::printf("%s\n", never_written != 0 ? ("; by none: " + std::to_string(never_written)).c_str() : "");
  if (!opt.out_dir.empty()) {
    // The named step's coverage, walked again for it alone: the first walk keeps only the last
    // step of each pixel, not what each step changed.
    std::vector<std::vector<uint32_t>> changed;
    {
      // The first walk's images and renderer are no longer needed (stepper keeps only its steps).
      replay.reset();
      renderer_held.reset();
      std::vector<Target> again(targets.size());
      for (size_t i = 0; i < targets.size(); ++i) {
        again[i].rec = targets[i].rec;
        again[i].differ = targets[i].differ;
      }
      for (Target& t : targets) {
        t.last_step = {};
        t.previous = {};
      }
      auto replay2 = fe::CaptureReplay::open(*reader, &error);
      if (!replay2) {
        std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
        return kTrouble;
      }
      render::Renderer renderer2(nullptr, rc);
      StepRenderer recorder(renderer2, *replay2, pass, again);
      recorder.record_step = first_shown;
      fe::FrameResult result2;
      if (!replay_to(*replay2, renderer2, recorder, index, &result2, &error)) {
        std::fprintf(stderr, "tessera diff: %s\n", error.c_str());
        return replay2->refused() ? kRefused : kTrouble;
      }
      changed = std::move(recorder.changed);
    }
    for (size_t i = 0; i < targets.size(); ++i) {
      const Target& t = targets[i];
      if (i >= changed.size() || changed[i].empty()) continue;
      std::vector<uint8_t> mask(t.differ.size(), 0);
      for (uint32_t p : changed[i]) mask[p] = 1;
      const Compared& c = *target_compared[i];
      double lo = 0, hi = 1;
      if (c.rec.aspect == kAspectDepth) depth_range(c.replay, c.driver, &lo, &hi);
      const std::string path = stem(opt.out_dir, c.rec) + "-draw" +
                               std::to_string(first.is_draw ? first.draw.in_pass : first.before_draw) + "-coverage.png";
      if (write_picture(path, c.rec.width, c.rec.height, coverage_picture(c.replay, t.differ, mask, lo, hi)))
        std::printf("coverage of the draw: %s\n", path.c_str());
    }
  }
  return kDiverged;
}

}  // namespace

void setup_diff(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<DiffOptions>();
  auto* cmd = app.add_subcommand(
      "diff",
      "Bisect a frame pass by pass against the captured device (a capture taken with tessera capture --readback "
      "passes): name the first render pass instance whose attachments differ from the driver's, and in it the first "
      "draw whose pixels there alone fall below the threshold. Exit 0: no pass below the threshold; 1: a pass below it; "
      "2: the capture cannot be compared; 3: the replay refuses it (as tessera replay)");
  cmd->add_option("file", opt->file, "Capture file (.tcap) with pass contents")->required();
  cmd->add_option("--frame", opt->frame, "Present number of the frame to bisect (as tessera replay --frames)")
      ->required();
  cmd->add_option("--threshold", opt->threshold,
                  "PSNR in dB below which a pass's attachment diverges (default 40: the RMS error is then 1% of full "
                  "scale; README's workloads replay at 40-86 dB against their drivers' frames, the differences of rounding "
                  "and filtering, while a draw missing or drawn wrong leaves its pass far below). Full scale: 255 for "
                  "8-bit colour (R, G, B and alpha where the format has it), for float colour the larger of 1 and the "
                  "largest finite magnitude either side holds, for depth its [0, 1] range (the largest and RMS difference "
                  "reported in D16/D24 units or float ULPs). Stencil and integer colour are compared exactly: any "
                  "differing value diverges, whatever the threshold");
  cmd->add_option("-o,--out", opt->out_dir,
                  "Write PNGs here: passK-attA-replay.png, -driver.png and -diff.png (difference in grey, 32 levels per "
                  "tolerance: x16 for 8-bit colour; pixels beyond the tolerance, any difference for stencil, in red) for the first pass below the threshold, and "
                  "passK-attA-drawJ-coverage.png (differing pixels red, the draw's changes green, both yellow)");
  cmd->add_option("--threads", opt->threads,
                  "Threads the tiles of each pass are shaded on (default 0: one per core); results do not depend on it");
  cmd->callback([opt, exit_code] { *exit_code = run_diff(*opt); });
}

}  // namespace tessera::cli
