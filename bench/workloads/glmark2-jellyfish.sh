#!/usr/bin/env bash
# glmark2 scene "jellyfish" (Debian package glmark2-x11), OpenGL through Zink: a translucent
# jellyfish mesh (two textures, caustics, blending) over a background plane: blended overdraw.
#
# Driven: glmark2 runs the one scene for 200 frames (nframes=200; duration is set long so the
# frame count ends it) and exits by itself.
#
# Frames: presents 50-52: the scene draws from its first present; 50 leaves the start-up frames
# (shader compilation, first texture uploads) behind.
. "$(dirname "$0")/lib.sh"
wl_init 50-52 300 "$@"
wl_require glmark2-x11 glmark2-data xvfb

wl_capture --gl -- glmark2 -s "${wl_width}x${wl_height}" -b jellyfish:nframes=200:duration=1000
