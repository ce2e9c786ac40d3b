#!/usr/bin/env bash
# SuperTuxKart 1.4 (Debian package supertuxkart): 3D kart racing, OpenGL 4.6 core through Zink.
#
# Driven: --race-now starts a race on the Lighthouse track with four karts, skipping the menus
# and the ready-set-go phase; --profile-laps makes every kart, the player's included, drive by AI
# (STK's profile mode), so the race runs with no input. Graphics are STK's simple forward pipeline
# (--disable-dynamic-lights, no shadows, no post-processing), the one it uses on GLES mobile
# devices, which is also the closest to the papers' mobile games; texture compression is off so
# the images come straight from the PNG/JPEG files (S3TC compression on the CPU at load time
# costs minutes here).
#
# Frames: presents 70-72. Loading the track (shader compilation and texture upload on lavapipe)
# takes 45-150 s but presents only a few dozen times (the loading screen redraws per loaded group
# of assets); present 60 already shows the race under way (karts on the track, HUD over them),
# and 70 leaves a margin.
. "$(dirname "$0")/lib.sh"
wl_init 70-72 900 "$@"
wl_require supertuxkart xvfb

wl_capture --gl -- /usr/games/supertuxkart --race-now --track=lighthouse --numkarts=4 \
  --profile-laps=10 --screensize="${wl_width}x${wl_height}" --windowed --log=3 \
  --disable-dynamic-lights --shadows=0 --disable-texture-compression --disable-hd-textures \
  --disable-motion-blur --disable-mlaa --disable-glow --disable-bloom --disable-light-shaft \
  --disable-ssao --disable-dof
