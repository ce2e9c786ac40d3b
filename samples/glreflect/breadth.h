// glreflect --scene breadth: one frame of fixed-function and GLSL state that a replay must match
// (breadth.cpp). Needs a current GL 4.5 compatibility context (Zink gives 4.6).
#pragma once

// Compiles the GLSL program and loads the entry points past GL 1.1; false (with a line on
// stderr) when the context lacks them.
bool breadth_setup();
// Draws frame `n` of the breadth scene in a width x height window.
void draw_breadth(int n, int width, int height);
