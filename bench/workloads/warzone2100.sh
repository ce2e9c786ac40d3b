#!/usr/bin/env bash
# Warzone 2100 4.3 (Debian package warzone2100): 3D real-time strategy, on its native Vulkan
# backend (--gfxbackend=vulkan), so it is captured without Zink.
#
# Driven: --skirmish=highground.json starts the skirmish test the game ships (mp.wz:
# tests/highground.json: map Sk-HighGround, two players, advanced bases, scavengers, both players
# run by the semperfi AI) and --autogame starts it without the host screen. Nobody touches the
# controls: the camera stays over player 0's base while the AI builds and trains units. The
# "campaign videos are missing" notice (the videos are not in Debian) stays in the top centre.
#
# Frames: presents 70-72. The menus and the map-load preview take the first ~55 presents (about
# 10 s); from then on the game presents only about once every 4 s here (the skirmish simulation
# and the terrain shading share two cores with lavapipe), so present 70 comes about 85 s after
# start, with the game clock running and the base (structures, oil derricks, units, terrain,
# minimap, build menu) on screen.
. "$(dirname "$0")/lib.sh"
wl_init 70-72 600 "$@"
wl_require warzone2100 xvfb

mkdir -p "$wl_work/wz2100"
wl_capture -- /usr/games/warzone2100 --configdir="$wl_work/wz2100" --skirmish=highground.json \
  --autogame --gfxbackend=vulkan --window --resolution="${wl_width}x${wl_height}" --nosound \
  --noshadows
