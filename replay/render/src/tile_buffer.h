// Tile buffers: the on-chip colour, depth and stencil storage of one tile (paper 003 section
// II-A, the "Color Buffer" / "Z-Buffer" of the Raster Pipeline). Colour is held as linear float
// RGBA (sRGB is decoded on load and encoded on store, spec "sRGB transfer functions"); every write
// is rounded to the attachment's format at once, as the hardware's buffer would hold it, so
// blending reads back what a real attachment would give. Depth is held as float already quantized
// to the depth format, stencil as bytes. A multisampled attachment holds every sample: value i
// of a tile array is sample i % samples of pixel i / samples.
//
// Load ops (Vulkan spec "Render Pass Load Operations"): LOAD reads the tile's pixels from the
// image (AttachmentLoad events), CLEAR fills, DONT_CARE / NONE read the image's current contents
// without recording traffic (the result is then what the application saw on its device, which
// kept memory). Store ops: STORE writes back into Image bytes (AttachmentStore events, addresses
// Image::address + linear offset of the pixel), then the image is touched once the pass is done.
// Samples load and store one after the other, as multisampled images hold them (frame.h).
//
// Resolves (spec "Render Pass Operations", multisample resolve; VkResolveModeFlagBits for
// dynamic rendering): at the end of the pass, before the store ops, each multisampled attachment
// with a resolve target writes the combination of its samples (resolve mode: average, sample 0,
// min, max) into the target's tile buffer, which its store op then writes back. A
// dynamic-rendering resolve view is not an attachment of the pass: it gets a buffer numbered
// after the pass's attachments.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "held.h"
#include "tessera/frontend/frame.h"
#include "tessera/pipeline/binning.h"
#include "tessera/pipeline/pixel_format.h"
#include "tessera/render/renderer.h"
#include "tessera/stream/access_stream.h"

namespace tessera::render {

struct AttachmentBuffer {
  bool usable = false;
  uint32_t index = 0;  // attachment index in the pass (AttachmentLoad/Store u[1])
  uint32_t samples = 1;  // samples per pixel held (the image's)
  uint64_t sample_bytes[2] = {0, 0};  // bytes of one sample of each aspect's plane
  AttachmentBuffer* resolve_target = nullptr;  // where the resolve writes, null when none
  const frontend::Attachment* desc = nullptr;
  frontend::Image* image = nullptr;
  pipeline::PixelFormat format{};
  bool color = false, depth = false, stencil = false;
  bool snorm = false;    // colour clamp range [-1, 1] instead of [0, 1] (fixed-point formats)
  uint32_t layer = 0, mip = 0, image_width = 0, image_height = 0;
  size_t plane[2] = {0, 0};           // Image::planes index of aspect 0 (colour/depth), 1 (stencil)
  uint64_t plane_address[2] = {0, 0}; // simulated address of those planes
  uint32_t aspect_bytes[2] = {0, 1};
  // Whether the image's plane of each aspect holds every sample the pass writes (setup). A plane
  // the front end sized for another sample count or a narrower format (a hostile capture: the
  // image re-created with other samples under its handle, an attachment format wider than the
  // image's) is never grown here: the front end holds its planes within the memory budget, and
  // bytes the renderer added would be given back without having been taken. Such an aspect is
  // neither loaded from nor stored to (counted in SkipCounts).
  bool plane_fits[2] = {false, false};
  bool stored = false;                // written back at least once: touch the image at the end
  // RGBA8-style UNORM formats (every channel 8-bit UNORM, no sRGB): rounding a write is
  // c = round(clamp(v) * 255) and a table lookup, instead of an encode and a decode per pixel.
  bool unorm8 = false;
  // UNORM depth formats: bits of the depth field (16, 24), 0 for D32_SFLOAT.
  uint32_t depth_bits = 0;
  float unorm8_value[256] = {};
  // For those formats, the channel each of the 4 bytes of a pixel holds: a store writes
  // float_to_unorm(channel, 8) per byte, what encode_color does, without its per-pixel layout walk.
  uint8_t unorm8_channel[4] = {0, 1, 2, 3};
  std::vector<float> color_tile, depth_tile;
  std::vector<uint8_t> stencil_tile;
  // Whole render area, kept between subpasses (on chip on the GPU, so no traffic is recorded).
  std::vector<float> color_keep, depth_keep;
  std::vector<uint8_t> stencil_keep;
};

class TileBuffers {
 public:
  // Sets up one buffer per attachment of `pass`, and one per resolve view that is not an
  // attachment. Attachments that cannot be used (no image, unsupported format, a sample count
  // without standard locations) are reported in `skipped` and left unwritten. With `kept`, the
  // pass has several subpasses: each attachment keeps its whole render area between them, held
  // in `kept` (until finish() frees it; throws frontend::ReplayLimitError "<what> needs ..."
  // beyond the budget).
  void configure(const frontend::RenderPassInstance& pass, uint32_t tile_width, uint32_t tile_height, Held* kept,
                 const std::string& what, frontend::SkipCounts& skipped);
  // Writes each multisampled attachment's samples, combined, into its resolve target's tile.
  void resolve();

  // Tile `rect` (render-area coordinates) becomes the current tile.
  void begin_tile(const pipeline::PixelRect& rect) { rect_ = rect; }
  void load(stream::StreamWriter* out, RenderStats& stats);   // load ops (first subpass)
  void store(stream::StreamWriter* out, RenderStats& stats);  // store ops (last subpass)
  void keep();     // tile -> whole-area copy (end of a subpass that is not the last)
  void restore();  // whole-area copy -> tile (start of a later subpass)
  void finish();   // touches every image stored to; frees the whole-area copies
  // Frees the whole-area copies (their budget is given back with the pass, also when it throws).
  void free_kept();

  // The tiles of a pass rendered on several threads, each with its own TileBuffers configured
  // for the pass (renderer.cpp). Tiles are disjoint, so their stores write disjoint bytes of
  // the images (no plane is ever resized: see plane_fits); stored_planes() returns copies of the
  // planes a store op writes that restore_planes() puts back when the tiles must be rendered
  // again. The copies are held in `held` (throws frontend::ReplayLimitError "<what> needs ..."
  // beyond the budget).
  std::vector<std::vector<uint8_t>> stored_planes(Held& held, const std::string& what);
  void restore_planes(std::vector<std::vector<uint8_t>>& copies);
  // The images `other` (buffers of the same pass) stored to count as stored to here.
  void add_stored(const TileBuffers& other);

  AttachmentBuffer* attachment(uint32_t index) {
    return index < buffers_.size() && buffers_[index].usable ? &buffers_[index] : nullptr;
  }
  // Offset of pixel (x, y) (render-area coordinates, inside the current tile) in a tile array.
  size_t pixel(int32_t x, int32_t y) const {
    return static_cast<size_t>(y - rect_.y0) * tile_width_ + static_cast<size_t>(x - rect_.x0);
  }
  const pipeline::PixelRect& rect() const { return rect_; }

  // The depth value `z` becomes when stored: pipeline::quantize_depth without the byte round trip.
  static float quantize_depth(const AttachmentBuffer& a, float z);
  // Writes a colour, rounded to the attachment's format (see top). `value` indexes the tile
  // array: pixel(x, y) * samples + sample.
  void write_color(AttachmentBuffer& a, size_t value, const float rgba[4]) const;
  // Colour clear value words (VkClearColorValue) as the linear values the tile buffer holds.
  void clear_color_value(const AttachmentBuffer& a, const capture::ClearValue& v, float out[4]) const;
  // Fills `rect` (render-area coordinates, clipped to the tile) with clear values: the aspects
  // in `aspects` (VkImageAspectFlags).
  void clear(AttachmentBuffer& a, uint32_t aspects, const capture::ClearValue& value,
             const pipeline::PixelRect& rect);

 private:
  // Row y of the current tile, sample s, in aspect `aspect`'s plane: the image columns
  // [ix0, ix1) inside both the tile and the image and the byte offset of column ix0; empty
  // (ix0 >= ix1) when the row lies outside the image.
  struct ImageRow {
    int64_t ix0 = 0, ix1 = 0;
    uint64_t offset = 0;
  };
  ImageRow image_row(const AttachmentBuffer& a, uint32_t aspect, uint32_t s, int32_t y) const;
  void load_attachment(AttachmentBuffer& a, bool record, uint32_t aspect, stream::StreamWriter* out,
                       RenderStats& stats);
  bool setup(AttachmentBuffer& a, const frontend::Attachment& att, const frontend::ImageView& view,
             frontend::SkipCounts& skipped);
  std::vector<AttachmentBuffer> buffers_;
  std::deque<frontend::Attachment> resolve_descs_;  // the attachments made for resolve views
  uint32_t tile_width_ = 0, tile_height_ = 0;
  int32_t area_x_ = 0, area_y_ = 0;
  uint32_t area_width_ = 0, area_height_ = 0;
  pipeline::PixelRect rect_;
};

}  // namespace tessera::render
