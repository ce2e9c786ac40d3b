#!/usr/bin/env bash
# vkscene, Tessera's own Vulkan sample (samples/vkscene, built with the rest): many textured,
# mipmapped, anisotropically filtered draws, overdraw, blending and a render-to-texture pass, on
# lavapipe directly (native Vulkan, no Zink).
#
# Driven: it renders --frames N frames and exits; the scene animates with the frame number, not
# the wall clock, so every run draws the same frames.
#
# Frames: presents 3-5 of 8.
. "$(dirname "$0")/lib.sh"
wl_init 3-5 300 "$@"
wl_require xvfb
vkscene=${VKSCENE:-$wl_root/build/bin/vkscene}
[ -x "$vkscene" ] || { echo "vkscene.sh: $vkscene: not built (set VKSCENE)" >&2; exit 2; }

wl_capture -- "$vkscene" --frames 8 --width "$wl_width" --height "$wl_height"
