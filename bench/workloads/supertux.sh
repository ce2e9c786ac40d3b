#!/usr/bin/env bash
# SuperTux 0.6 (Debian package supertux): 2D side-scrolling platformer, OpenGL through Zink. The
# closest of the suite to the papers' 2D mobile games: a parallax background, tiled terrain and
# sprites, all alpha-blended textured quads.
#
# Driven: the first level of world 1 ("Welcome to Antarctica") is started from the command line.
# xdotool then presses Right and space every 1.2 s (space held 0.4 s) from the start: the first
# space dismisses the level intro card, after which Tux runs right and jumps. Right is pressed
# again each period because a held key is not enough: the level start resets the input state and
# XTest sends no autorepeat.
#
# Frames: presents 150-152. The first space (2 s in) dismisses the intro card; at 5-10 presents
# a second here present 150 comes 15-30 s in, with Tux running through the level (terrain,
# enemies, bonus blocks, the parallax mountains): gameplay, not a menu. Not much later: the
# driver does not avoid pits or enemies, and at 1960x768 the game ended by itself (exit status
# 0) before present 300.
. "$(dirname "$0")/lib.sh"
wl_init 150-152 300 "$@"
wl_require supertux xdotool xvfb

wl_drive() {
  sleep 2
  while true; do
    xdotool keyup Right keydown Right keydown space sleep 0.4 keyup space sleep 0.8
  done
}

wl_capture --gl -- /usr/games/supertux2 --renderer opengl -g "${wl_width}x${wl_height}" \
  --disable-sound --disable-music /usr/share/games/supertux2/levels/world1/welcome_antarctica.stl
