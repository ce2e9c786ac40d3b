// glreflect: Tessera's OpenGL sample, captured through Mesa's Zink. A cube spins, mostly sunk in a
// translucent checkered floor, and the floor shows its planar reflection, drawn the way GL games
// of the fixed-function era draw one (the OpenGL Programming Guide's "Stencil Test" and
// "Additional Clipping Planes" sections):
//   1. the floor into the stencil buffer only (stencil = 1 where the floor is seen);
//   2. the cube mirrored in the floor plane (scale y by -1, so the winding flips: glFrontFace(CW)
//      keeps back-face culling right), only where the stencil is 1, with user clip plane 0
//      keeping what lies below the floor: the part of the sunk cube that pokes above the floor
//      once mirrored must not be drawn in front of it;
//   3. the floor, blended over the reflection (alpha 0.55 and 0.75 checks);
//   4. the cube itself.
// Zink lowers glClipPlane to the vertex shader's ClipDistance output, the front-face flip to the
// pipeline's front face, and the stencil steps to stencil state: what a replay must all get right
// to draw the frame the driver drew. Frame N is a pure function of N (the cube's angle).
//
// --scene breadth draws instead one frame of the state a replay must match beside it (breadth.cpp):
// stencil with separate front and back functions, operations, masks and references; depth bias;
// a GLSL program's ClipDistance and CullDistance; front-face and cull-mode flips.
//
// Usage: glreflect [--scene reflect|breadth] [--frames N] [--width W] [--height H]
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "breadth.h"

namespace {

struct Options {
  int frames = 6, width = 640, height = 360;
  bool breadth = false;  // --scene breadth
};

bool parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--scene" && i + 1 < argc) {
      const std::string v = argv[++i];
      if (v != "reflect" && v != "breadth") {
        std::fprintf(stderr, "glreflect: --scene takes reflect or breadth, not %s\n", v.c_str());
        return false;
      }
      o->breadth = v == "breadth";
      continue;
    }
    int* field = a == "--frames" ? &o->frames : a == "--width" ? &o->width : a == "--height" ? &o->height : nullptr;
    if (field == nullptr || i + 1 >= argc) {
      std::fprintf(stderr, "glreflect: unknown option or missing value: %s\nusage: glreflect [--scene reflect|breadth] [--frames N] [--width W] [--height H]\n", a.c_str());
      return false;
    }
    char* end = nullptr;
    const long v = std::strtol(argv[++i], &end, 10);
    if (*end != '\0' || v < 1 || v > 16384) {
      std::fprintf(stderr, "glreflect: %s takes a number from 1 to 16384, not %s\n", a.c_str(), argv[i]);
      return false;
    }
    *field = static_cast<int>(v);
  }
  return true;
}

// A unit cube centred on the origin, each face its own colour, counter-clockwise seen from
// outside (GL's default front face).
void cube() {
  static const float kFaces[6][4][3] = {
      {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},      // +z
      {{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}},  // -z
      {{1, -1, 1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}},      // +x
      {{-1, -1, -1}, {-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}},  // -x
      {{-1, 1, 1}, {1, 1, 1}, {1, 1, -1}, {-1, 1, -1}},      // +y
      {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}},  // -y
  };
  static const float kColours[6][3] = {{0.9f, 0.2f, 0.2f}, {0.2f, 0.8f, 0.3f}, {0.2f, 0.4f, 0.95f},
                                       {0.95f, 0.85f, 0.2f}, {0.85f, 0.3f, 0.85f}, {0.2f, 0.85f, 0.85f}};
  glBegin(GL_QUADS);
  for (int f = 0; f < 6; ++f) {
    glColor3fv(kColours[f]);
    for (int v = 0; v < 4; ++v) glVertex3fv(kFaces[f][v]);
  }
  glEnd();
}

// The floor: the plane y = 0 from -2 to 2 in x and z, 8 x 8 checks facing up.
void floor_checks(bool colour) {
  glBegin(GL_QUADS);
  for (int i = 0; i < 8; ++i) {
    for (int k = 0; k < 8; ++k) {
      if (colour) {
        if ((i + k) % 2) {
          glColor4f(0.95f, 0.95f, 0.95f, 0.55f);
        } else {
          glColor4f(0.15f, 0.15f, 0.35f, 0.75f);
        }
      }
      const float x0 = -2 + i * 0.5f, z0 = -2 + k * 0.5f;
      glVertex3f(x0, 0, z0 + 0.5f);
      glVertex3f(x0 + 0.5f, 0, z0 + 0.5f);
      glVertex3f(x0 + 0.5f, 0, z0);
      glVertex3f(x0, 0, z0);
    }
  }
  glEnd();
}

// The cube as placed in frame `n`: its centre 0.1 below the floor, turning, so more than half of
// it is sunk and its mirror image reaches above the floor further than the cube does.
void placed_cube(int n) {
  glPushMatrix();
  glTranslatef(0, -0.1f, 0);
  glRotatef(25.0f + 17.0f * static_cast<float>(n), 0.3f, 1, 0.2f);
  glScalef(0.6f, 0.6f, 0.6f);
  cube();
  glPopMatrix();
}

void draw_frame(int n, int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(0.08f, 0.1f, 0.12f, 1);
  glClearStencil(0);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
  glMatrixMode(GL_PROJECTION);
  glLoadIdentity();
  const double aspect = static_cast<double>(width) / height;
  glFrustum(-0.1 * aspect, 0.1 * aspect, -0.1, 0.1, 0.2, 20);
  glMatrixMode(GL_MODELVIEW);
  glLoadIdentity();
  glTranslatef(0, -0.6f, -4.2f);
  glRotatef(28, 1, 0, 0);
  glRotatef(-20, 0, 1, 0);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_CULL_FACE);
  glCullFace(GL_BACK);

  // 1. The floor's pixels into the stencil buffer, nothing else.
  glEnable(GL_STENCIL_TEST);
  glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
  glDepthMask(GL_FALSE);
  glStencilFunc(GL_ALWAYS, 1, 0xff);
  glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
  floor_checks(false);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glDepthMask(GL_TRUE);

  // 2. The mirrored cube where the floor is, clipped to below the floor. The plane is given in
  // world space (GL transforms it by the modelview in force when glClipPlane is called).
  glStencilFunc(GL_EQUAL, 1, 0xff);
  glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
  const GLdouble below_floor[4] = {0, -1, 0, 0};
  glClipPlane(GL_CLIP_PLANE0, below_floor);
  glEnable(GL_CLIP_PLANE0);
  glPushMatrix();
  glScalef(1, -1, 1);
  glFrontFace(GL_CW);
  placed_cube(n);
  glFrontFace(GL_CCW);
  glPopMatrix();
  glDisable(GL_CLIP_PLANE0);
  glDisable(GL_STENCIL_TEST);

  // 3. The floor over the reflection.
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  floor_checks(true);
  glDisable(GL_BLEND);

  // 4. The cube.
  placed_cube(n);
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse(argc, argv, &o)) return 2;
  Display* display = XOpenDisplay(nullptr);
  if (display == nullptr) {
    std::fprintf(stderr, "glreflect: cannot open the X display (DISPLAY=%s)\n", std::getenv("DISPLAY") ? std::getenv("DISPLAY") : "");
    return 1;
  }
  int attributes[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8,
                      GLX_DEPTH_SIZE, 24, GLX_STENCIL_SIZE, 8, None};
  XVisualInfo* visual = glXChooseVisual(display, DefaultScreen(display), attributes);
  if (visual == nullptr) {
    std::fprintf(stderr, "glreflect: no double-buffered RGB visual with 24-bit depth and 8-bit stencil\n");
    return 1;
  }
  const Window root = RootWindow(display, visual->screen);
  XSetWindowAttributes wa{};
  wa.colormap = XCreateColormap(display, root, visual->visual, AllocNone);
  wa.event_mask = StructureNotifyMask;
  const Window window = XCreateWindow(display, root, 0, 0, static_cast<unsigned>(o.width), static_cast<unsigned>(o.height), 0,
                                      visual->depth, InputOutput, visual->visual, CWColormap | CWEventMask, &wa);
  XStoreName(display, window, "glreflect");
  GLXContext context = glXCreateContext(display, visual, nullptr, True);
  if (context == nullptr) {
    std::fprintf(stderr, "glreflect: cannot create a GLX context\n");
    return 1;
  }
  XMapWindow(display, window);
  for (XEvent e;;) {  // draw once the window is on screen
    XNextEvent(display, &e);
    if (e.type == MapNotify) break;
  }
  if (!glXMakeCurrent(display, window, context)) {
    std::fprintf(stderr, "glreflect: cannot make the GLX context current\n");
    return 1;
  }
  const GLubyte* renderer = glGetString(GL_RENDERER);
  std::printf("glreflect: %s, %dx%d, %d frames\n", renderer ? reinterpret_cast<const char*>(renderer) : "?", o.width,
              o.height, o.frames);
  if (o.breadth && !breadth_setup()) return 1;
  for (int n = 0; n < o.frames; ++n) {
    if (o.breadth) {
      draw_breadth(n, o.width, o.height);
    } else {
      draw_frame(n, o.width, o.height);
    }
    glXSwapBuffers(display, window);
  }
  glFinish();
  const GLenum error = glGetError();
  glXMakeCurrent(display, None, nullptr);
  glXDestroyContext(display, context);
  XDestroyWindow(display, window);
  XFreeColormap(display, wa.colormap);
  XFree(visual);
  XCloseDisplay(display);
  if (error != GL_NO_ERROR) {
    std::fprintf(stderr, "glreflect: GL error 0x%x\n", error);
    return 1;
  }
  return 0;
}
