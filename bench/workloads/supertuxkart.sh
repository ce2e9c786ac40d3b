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
# Frames: three, by content (lib.sh, wl_min_draws). Probe capture of presents 1-110 at 1280x720
# (draw records per present): the loading screen (chequered flag, clock, "Loading", the kart and
# item icons appearing as they load) draws 0-27 draws a present, presents 1-25, and presents only
# a few dozen times while loading (shader compilation and texture upload on lavapipe: about 15 s
# here, several minutes right after installing, with the 700 MB of data not yet in the disk cache);
# from present 26 the race draws 114-130: the start camera sweeping over the water to the grid
# (race clock at 0), then the karts racing, HUD over them (clock, lap 1/10, minimap, speedometer).
# So the capture starts after 24 presents in a row of at least 60 draws (present 50 on: karts at
# the start line, clock at about 1 s), and a capture under 60 a frame is retried. The former fixed
# range (presents 70-72) was the same race, as a present count.
# --frames A-B still takes presents A-B (the default range 70-72 only sizes the capture: three
# frames), checked the same.
. "$(dirname "$0")/lib.sh"
wl_min_draws=60
wl_arm_frames=24
wl_init 70-72 900 "$@"
wl_require supertuxkart xvfb

wl_capture --gl -- /usr/games/supertuxkart --race-now --track=lighthouse --numkarts=4 \
  --profile-laps=10 --screensize="${wl_width}x${wl_height}" --windowed --log=3 \
  --disable-dynamic-lights --shadows=0 --disable-texture-compression --disable-hd-textures \
  --disable-motion-blur --disable-mlaa --disable-glow --disable-bloom --disable-light-shaft \
  --disable-ssao --disable-dof
