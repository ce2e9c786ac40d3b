#include "render_test_util.h"

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>

namespace tessera::render::testing {

frontend::Buffer* Scene::buffer(const void* data, size_t bytes, uint64_t address) {
  frontend::MemoryObject& m = memories_.emplace_back();
  m.handle = 0x1000 + memories_.size();
  m.bytes.resize(bytes);
  if (bytes) std::memcpy(m.bytes.data(), data, bytes);
  frontend::Buffer& b = buffers_.emplace_back();
  b.handle = 0x2000 + buffers_.size();
  b.size = bytes;
  b.memory = &m;
  b.address = address;
  return &b;
}

frontend::Image* Scene::image(uint32_t format, uint32_t width, uint32_t height, uint32_t pixel_bytes,
                              uint64_t address, bool stencil_plane) {
  frontend::Image& i = images_.emplace_back();
  i.handle = 0x3000 + images_.size();
  i.image_type = VK_IMAGE_TYPE_2D;
  i.format = format;
  i.width = width;
  i.height = height;
  i.address = address;
  i.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  i.planes.emplace_back(size_t{width} * height * pixel_bytes, 0);
  if (stencil_plane) i.planes.emplace_back(size_t{width} * height, 0);
  i.defined = true;
  return &i;
}

frontend::ImageView* Scene::view(frontend::Image* image, uint32_t format, uint32_t aspect) {
  frontend::ImageView& v = views_.emplace_back();
  v.handle = 0x4000 + views_.size();
  v.image = image;
  v.view_type = VK_IMAGE_VIEW_TYPE_2D;
  v.format = format ? format : image->format;
  v.range = {aspect, 0, 1, 0, 1};
  return &v;
}

const capture::SamplerRecord* Scene::nearest_sampler() {
  capture::SamplerRecord& s = samplers_.emplace_back();
  s.sampler = 0x5000 + samplers_.size();
  s.mag_filter = VK_FILTER_NEAREST;
  s.min_filter = VK_FILTER_NEAREST;
  s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  s.address_u = s.address_v = s.address_w = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  s.max_lod = 1000.0f;
  return &s;
}

frontend::ShaderStageCode stage(const std::string& name) {
  std::ifstream f(std::string(TESSERA_RENDER_SPV_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto words = std::make_shared<std::vector<uint32_t>>(bytes.size() / 4);
  if (!words->empty()) std::memcpy(words->data(), bytes.data(), words->size() * 4);
  frontend::ShaderStageCode code;
  code.stage = name.ends_with(".vert")   ? VK_SHADER_STAGE_VERTEX_BIT
               : name.ends_with(".comp") ? VK_SHADER_STAGE_COMPUTE_BIT
                                         : VK_SHADER_STAGE_FRAGMENT_BIT;
  code.spirv = words;
  code.entry_point = "main";
  return code;  // hash left zero: the renderer hashes the words itself
}

namespace {

frontend::Draw base_draw(const frontend::Buffer* vertices, uint32_t vertex_count, uint32_t width,
                         uint32_t height, uint32_t stride) {
  frontend::Draw d;
  capture::GraphicsPipelineRecord& s = d.state;
  s.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  s.viewport_count = s.scissor_count = 1;
  s.viewports.push_back({0, 0, static_cast<float>(width), static_cast<float>(height), 0, 1});
  s.scissors.push_back({0, 0, width, height});
  s.cull_mode = VK_CULL_MODE_NONE;
  s.front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  s.depth_compare = VK_COMPARE_OP_LESS;
  s.blend_attachments.push_back({});
  s.vertex_bindings.push_back({0, stride, VK_VERTEX_INPUT_RATE_VERTEX, 1});
  d.vertex_buffers.push_back({0, vertices, 0, vertices->size});
  d.vertex_count = vertex_count;
  return d;
}

}  // namespace

frontend::Draw color_draw(const std::string& vs, const std::string& fs, const frontend::Buffer* vertices,
                          uint32_t vertex_count, uint32_t width, uint32_t height) {
  frontend::Draw d = base_draw(vertices, vertex_count, width, height, sizeof(ColorVertex));
  d.state.vertex_attributes.push_back({0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0});
  d.state.vertex_attributes.push_back({1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 16});
  d.stages.push_back(stage(vs));
  if (!fs.empty()) d.stages.push_back(stage(fs));
  return d;
}

frontend::Draw textured_draw(const frontend::Buffer* vertices, uint32_t vertex_count, uint32_t width,
                             uint32_t height) {
  frontend::Draw d = base_draw(vertices, vertex_count, width, height, sizeof(TexturedVertex));
  d.state.vertex_attributes.push_back({0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0});
  d.state.vertex_attributes.push_back({1, 0, VK_FORMAT_R32G32_SFLOAT, 16});
  d.stages.push_back(stage("textured.vert"));
  d.stages.push_back(stage("textured.frag"));
  return d;
}

frontend::RenderPassInstance pass(uint32_t width, uint32_t height, frontend::ImageView* color,
                                  uint32_t load_op, uint32_t store_op, frontend::ImageView* depth) {
  frontend::RenderPassInstance p;
  p.render_area = {0, 0, width, height};
  frontend::Attachment c;
  c.view = color;
  c.format = color->format;
  c.load_op = load_op;
  c.store_op = store_op;
  c.stencil_load_op = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  c.stencil_store_op = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  p.attachments.push_back(c);
  frontend::Subpass sub;
  sub.colors.push_back(0);
  if (depth) {
    frontend::Attachment d;
    d.view = depth;
    d.format = depth->format;
    d.load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
    d.store_op = VK_ATTACHMENT_STORE_OP_STORE;
    d.stencil_load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
    d.stencil_store_op = VK_ATTACHMENT_STORE_OP_STORE;
    d.clear = clear_depth(1.0f);
    p.attachments.push_back(d);
    sub.depth_stencil = 1;
  }
  p.subpasses.push_back(sub);
  return p;
}

capture::ClearValue clear_color(float r, float g, float b, float a) {
  capture::ClearValue v;
  v.words[0] = std::bit_cast<uint32_t>(r);
  v.words[1] = std::bit_cast<uint32_t>(g);
  v.words[2] = std::bit_cast<uint32_t>(b);
  v.words[3] = std::bit_cast<uint32_t>(a);
  return v;
}

capture::ClearValue clear_depth(float depth, uint32_t stencil) {
  capture::ClearValue v;
  v.words[0] = std::bit_cast<uint32_t>(depth);
  v.words[1] = stencil;
  return v;
}

std::array<uint8_t, 4> rgba8(const frontend::Image& image, uint32_t x, uint32_t y) {
  const uint8_t* p = image.planes[0].data() + (size_t{y} * image.width + x) * 4;
  return {p[0], p[1], p[2], p[3]};
}

}  // namespace tessera::render::testing
