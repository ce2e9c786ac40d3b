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
# Frames: presents 100-102. The menus and the map-load preview (a progress bar redrawn as the
# map loads) take 55-75 presents, more when the machine is less loaded (at 1960x768 present 70
# was still the preview); in the game the skirmish presents only about once every 4 s here (the
# simulation and the terrain shading share two cores with lavapipe), so present 100 comes 2-4
# minutes after start, with the game clock running and the base (structures, oil derricks,
# units, terrain, minimap, build menu) on screen.
. "$(dirname "$0")/lib.sh"
wl_init 100-102 900 "$@"
wl_require warzone2100 xvfb

mkdir -p "$wl_work/wz2100"
wl_capture -- /usr/games/warzone2100 --configdir="$wl_work/wz2100" --skirmish=highground.json \
  --autogame --gfxbackend=vulkan --window --resolution="${wl_width}x${wl_height}" --nosound \
  --noshadows
