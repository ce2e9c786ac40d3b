// The breadth scene: four panels, each state a replay must get right, drawn in window coordinates
// (an orthographic projection of the window's pixels, depth 0..1). Each panel starts a quarter of
// the window further right; its shapes are sized for the default 640x360 and reach into the next
// panel in places (the state of each draw is its own, so overlaps test nothing less):
//   1. stencil: overlapping front- and back-facing triangles count into the stencil buffer with
//      separate functions, operations, write masks and references per face (INCR_WRAP and
//      DECR_WRAP, INVERT, REPLACE under a write mask), then bands of colour show where each value
//      ended up (EQUAL under compare masks);
//   2. depth bias: decals coplanar with a slanted quad, one pulled forward by glPolygonOffset
//      (constant and slope terms) so it wins the LESS test, one pushed back so it loses;
//   3. clip and cull distances: a GLSL program whose gl_ClipDistance[0] cuts a fan of triangles
//      along a line and whose gl_CullDistance[0], negative at every vertex of every other
//      triangle, culls those whole;
//   4. winding: triangles of both windings under glFrontFace(GL_CW) with front faces culled, and
//      under GL_CCW with back faces culled.
// Frame n shifts the shapes by n pixels, so each frame is its own image (past about 60 frames at
// 640 pixels the winding panel's first triangle would cross its middle: keep --frames small).
#include "breadth.h"

#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace {

PFNGLCREATESHADERPROC pCreateShader;
PFNGLSHADERSOURCEPROC pShaderSource;
PFNGLCOMPILESHADERPROC pCompileShader;
PFNGLGETSHADERIVPROC pGetShaderiv;
PFNGLGETSHADERINFOLOGPROC pGetShaderInfoLog;
PFNGLCREATEPROGRAMPROC pCreateProgram;
PFNGLATTACHSHADERPROC pAttachShader;
PFNGLLINKPROGRAMPROC pLinkProgram;
PFNGLGETPROGRAMIVPROC pGetProgramiv;
PFNGLGETPROGRAMINFOLOGPROC pGetProgramInfoLog;
PFNGLUSEPROGRAMPROC pUseProgram;
PFNGLSTENCILFUNCSEPARATEPROC pStencilFuncSeparate;
PFNGLSTENCILOPSEPARATEPROC pStencilOpSeparate;
PFNGLSTENCILMASKSEPARATEPROC pStencilMaskSeparate;
GLuint program = 0;

// glXGetProcAddress gives a stub for any gl* name under libglvnd, so what the context offers is
// checked by its version first (breadth_setup); a null pointer still stops the scene.
template <class F>
bool load(F* f, const char* name) {
  *f = reinterpret_cast<F>(glXGetProcAddress(reinterpret_cast<const GLubyte*>(name)));
  if (*f == nullptr) std::fprintf(stderr, "glreflect: no entry point %s\n", name);
  return *f != nullptr;
}

// The clip distance is the signed distance to the line x + y = 0 of the panel (in panel
// coordinates, the texture coordinate's xy), scaled; the cull distance is the vertex's
// texture coordinate z, which the caller sets negative on every vertex of a culled triangle.
const char* kVertex = R"(#version 450 compatibility
out float gl_ClipDistance[1];
out float gl_CullDistance[1];
void main() {
  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;
  gl_FrontColor = gl_Color;
  gl_ClipDistance[0] = gl_MultiTexCoord0.x + gl_MultiTexCoord0.y;
  gl_CullDistance[0] = gl_MultiTexCoord0.z;
}
)";
const char* kFragment = R"(#version 450 compatibility
void main() { gl_FragColor = gl_Color; }
)";

// Whether a shader's or program's `status` is set; if not, prints its info log.
template <class GetIv, class GetLog>
bool succeeded(GLuint object, GLenum status, GetIv get_iv, GetLog get_log, const char* what) {
  GLint ok = 0;
  get_iv(object, status, &ok);
  if (ok) return true;
  char log[1024] = {};
  get_log(object, sizeof log, nullptr, log);
  std::fprintf(stderr, "glreflect: %s: %s\n", what, log);
  return false;
}

GLuint compile(GLenum stage, const char* source) {
  const GLuint s = pCreateShader(stage);
  pShaderSource(s, 1, &source, nullptr);
  pCompileShader(s);
  return succeeded(s, GL_COMPILE_STATUS, pGetShaderiv, pGetShaderInfoLog, "shader") ? s : 0;
}

void rect(float x0, float y0, float x1, float y1, float z = 0.5f) {
  glBegin(GL_QUADS);
  glVertex3f(x0, y0, z);
  glVertex3f(x1, y0, z);
  glVertex3f(x1, y1, z);
  glVertex3f(x0, y1, z);
  glEnd();
}

// Panel 1: stencil, in [x, x + w) x [0, h).
void stencil_panel(float x, float w, float h, float shift) {
  glEnable(GL_STENCIL_TEST);
  glDisable(GL_CULL_FACE);
  glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
  // Front faces (counter-clockwise in window coordinates, y up) add one; back faces take one,
  // wrapping below zero to 255 -- whatever the depth test says (it is off).
  pStencilFuncSeparate(GL_FRONT, GL_ALWAYS, 0, 0xff);
  pStencilOpSeparate(GL_FRONT, GL_KEEP, GL_KEEP, GL_INCR_WRAP);
  pStencilFuncSeparate(GL_BACK, GL_ALWAYS, 0, 0xff);
  pStencilOpSeparate(GL_BACK, GL_KEEP, GL_KEEP, GL_DECR_WRAP);
  pStencilMaskSeparate(GL_FRONT_AND_BACK, 0xff);
  const auto triangle = [](float ax, float ay, float bx, float by, float cx, float cy) {
    glBegin(GL_TRIANGLES);
    glVertex2f(ax, ay);
    glVertex2f(bx, by);
    glVertex2f(cx, cy);
    glEnd();
  };
  for (int k = 0; k < 3; ++k) {  // three overlapping front-facing triangles
    const float ox = x + 20 + shift + k * 40, oy = 40.0f + k * 30;
    triangle(ox, oy, ox + 150, oy + 20, ox + 40, oy + 170);
  }
  for (int k = 0; k < 2; ++k) {  // two back-facing (clockwise) triangles over them
    const float ox = x + 60 + shift + k * 50, oy = 120.0f + k * 60;
    triangle(ox, oy, ox + 40, oy + 140, ox + 150, oy + 10);
  }
  // INVERT under a write mask of 0xf0 on front faces, REPLACE with reference 0x40 under a write
  // mask of 0x7f on back faces, each tested against its own reference and compare mask.
  pStencilFuncSeparate(GL_FRONT, GL_NOTEQUAL, 0x00, 0x03);
  pStencilOpSeparate(GL_FRONT, GL_KEEP, GL_KEEP, GL_INVERT);
  pStencilMaskSeparate(GL_FRONT, 0xf0);
  pStencilFuncSeparate(GL_BACK, GL_GEQUAL, 0x02, 0xff);
  pStencilOpSeparate(GL_BACK, GL_ZERO, GL_KEEP, GL_REPLACE);
  pStencilMaskSeparate(GL_BACK, 0x7f);
  glBegin(GL_TRIANGLES);
  glVertex2f(x + 10 + shift, 150);  // front
  glVertex2f(x + w - 10, 200);
  glVertex2f(x + 30 + shift, h - 20);
  glVertex2f(x + 10 + shift, 20);  // back
  glVertex2f(x + 70 + shift, 130);
  glVertex2f(x + w - 20, 60);
  glEnd();
  pStencilMaskSeparate(GL_FRONT_AND_BACK, 0xff);
  // Bands of colour where the stencil holds each value (EQUAL, full compare mask), then where
  // its low bit is set (compare mask 1) in what is left, blended at half alpha.
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
  const struct {
    GLint value;
    float r, g, b;
  } kBands[] = {{1, 0.9f, 0.2f, 0.2f},  {2, 0.2f, 0.9f, 0.2f},  {3, 0.2f, 0.3f, 0.95f}, {0xff, 0.95f, 0.9f, 0.2f},
                {0xfe, 0.9f, 0.3f, 0.9f}, {0x40, 0.3f, 0.9f, 0.9f}, {0xf1, 1, 1, 1},         {0xf2, 0.5f, 0.5f, 0.5f}};
  for (const auto& b : kBands) {
    glStencilFunc(GL_EQUAL, b.value, 0xff);
    glColor3f(b.r, b.g, b.b);
    rect(x, 0, x + w, h);
  }
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glStencilFunc(GL_EQUAL, 1, 0x01);
  glColor4f(0, 0, 0, 0.5f);
  rect(x, 0, x + w, h);
  glDisable(GL_BLEND);
  glDisable(GL_STENCIL_TEST);
}

// Panel 2: depth bias, in [x, x + w).
void bias_panel(float x, float w, float h, float shift) {
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LESS);
  // A quad slanted in depth (0.2 at the bottom to 0.8 at the top), and the same quad's two halves
  // again: the left pulled forward (negative factor and units), the right pushed back.
  const auto slanted = [&](float x0, float x1) {
    glBegin(GL_QUADS);
    glVertex3f(x0, 20, 0.2f);
    glVertex3f(x1, 20, 0.2f);
    glVertex3f(x1, h - 20, 0.8f);
    glVertex3f(x0, h - 20, 0.8f);
    glEnd();
  };
  glColor3f(0.25f, 0.25f, 0.3f);
  slanted(x + 10 + shift, x + w - 10);
  glEnable(GL_POLYGON_OFFSET_FILL);
  glPolygonOffset(-1.5f, -4.0f);
  glColor3f(0.95f, 0.6f, 0.1f);
  slanted(x + 10 + shift, x + w / 2);
  glPolygonOffset(1.5f, 4.0f);
  glColor3f(0.1f, 0.6f, 0.95f);
  slanted(x + w / 2, x + w - 10);
  glDisable(GL_POLYGON_OFFSET_FILL);
  glDisable(GL_DEPTH_TEST);
}

// Panel 3: clip and cull distances, around the middle of [x, x + w).
void distance_panel(float x, float w, float h, float shift) {
  // Only this panel's draw has clip distance 0 enabled (with it on, Zink gives the fixed-function
  // draws a ClipDistance output too).
  glEnable(GL_CLIP_DISTANCE0);
  pUseProgram(program);
  const float cx = x + w / 2 + shift, cy = h / 2;
  const int kTriangles = 12;
  glBegin(GL_TRIANGLES);
  for (int t = 0; t < kTriangles; ++t) {
    const float a0 = 6.2831853f * t / kTriangles, a1 = 6.2831853f * (t + 1) / kTriangles;
    const float cull = t % 2 ? -1.0f : 1.0f;  // every other triangle culled whole
    glColor3f(0.3f + 0.05f * t, 0.9f - 0.05f * t, 0.4f);
    const float px[3] = {0, 120 * std::cos(a0), 120 * std::cos(a1)};
    const float py[3] = {0, 120 * std::sin(a0), 120 * std::sin(a1)};
    for (int v = 0; v < 3; ++v) {
      // Clip distance x + y - 30: the line through the panel, offset from its centre.
      glTexCoord3f((px[v] - 15) / 100, (py[v] - 15) / 100, cull);
      glVertex3f(cx + px[v], cy + py[v], 0.5f);
    }
  }
  glEnd();
  pUseProgram(0);
  glDisable(GL_CLIP_DISTANCE0);
}

// Panel 4: winding and culling, in [x, x + w).
void winding_panel(float x, float w, float h, float shift) {
  glEnable(GL_CULL_FACE);
  const auto pair = [&](float y) {
    glBegin(GL_TRIANGLES);
    glColor3f(0.9f, 0.9f, 0.3f);  // counter-clockwise
    glVertex2f(x + 20 + shift, y);
    glVertex2f(x + w / 2, y);
    glVertex2f(x + 30 + shift, y + 100);
    glColor3f(0.3f, 0.9f, 0.9f);  // clockwise
    glVertex2f(x + w / 2 + 10, y);
    glVertex2f(x + w / 2 + 20, y + 100);
    glVertex2f(x + w - 10, y);
    glEnd();
  };
  glFrontFace(GL_CW);
  glCullFace(GL_FRONT);  // culls the clockwise one
  pair(h - 130);
  glFrontFace(GL_CCW);
  glCullFace(GL_BACK);  // culls the clockwise one again
  pair(20);
  glCullFace(GL_FRONT_AND_BACK);  // nothing
  pair(h / 2 - 50);
  glDisable(GL_CULL_FACE);
}

}  // namespace

bool breadth_setup() {
  // GLSL 4.50 (gl_CullDistance) and separate stencil state need OpenGL 4.5; Zink gives 4.6.
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  int major = 0, minor = 0;
  if (version == nullptr || std::sscanf(version, "%d.%d", &major, &minor) != 2 || major * 10 + minor < 45) {
    std::fprintf(stderr, "glreflect: --scene breadth needs OpenGL 4.5 (a compatibility context); this one is %s\n",
                 version ? version : "unknown");
    return false;
  }
  if (!load(&pCreateShader, "glCreateShader") || !load(&pShaderSource, "glShaderSource") ||
      !load(&pCompileShader, "glCompileShader") || !load(&pGetShaderiv, "glGetShaderiv") ||
      !load(&pGetShaderInfoLog, "glGetShaderInfoLog") || !load(&pCreateProgram, "glCreateProgram") ||
      !load(&pAttachShader, "glAttachShader") || !load(&pLinkProgram, "glLinkProgram") ||
      !load(&pGetProgramiv, "glGetProgramiv") || !load(&pGetProgramInfoLog, "glGetProgramInfoLog") ||
      !load(&pUseProgram, "glUseProgram") || !load(&pStencilFuncSeparate, "glStencilFuncSeparate") ||
      !load(&pStencilOpSeparate, "glStencilOpSeparate") || !load(&pStencilMaskSeparate, "glStencilMaskSeparate")) {
    return false;
  }
  const GLuint vs = compile(GL_VERTEX_SHADER, kVertex), fs = compile(GL_FRAGMENT_SHADER, kFragment);
  if (vs == 0 || fs == 0) return false;
  program = pCreateProgram();
  pAttachShader(program, vs);
  pAttachShader(program, fs);
  pLinkProgram(program);
  return succeeded(program, GL_LINK_STATUS, pGetProgramiv, pGetProgramInfoLog, "program");
}

void draw_breadth(int n, int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(0.05f, 0.05f, 0.08f, 1);
  glClearStencil(0);
  glClearDepth(1);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  glOrtho(0, width, 0, height, 0, -1);  // window pixels, y up; z 0..1 maps to depth 0..1
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  const float w = static_cast<float>(width) / 4, h = static_cast<float>(height), shift = static_cast<float>(n);
  stencil_panel(0, w, h, shift);
  bias_panel(w, w, h, shift);
  distance_panel(2 * w, w, h, shift);
  winding_panel(3 * w, w, h, shift);
}
