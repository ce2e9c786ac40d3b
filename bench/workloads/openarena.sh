#!/usr/bin/env bash
# OpenArena 0.8.8 (Debian package openarena, engine ioquake3): arena first-person shooter, the
# classic Quake III renderer (cl_renderer opengl1: multi-pass, lightmapped, blended shader stages)
# through Zink.
#
# Driven: a local deathmatch with five bots on the map oasago2, watched as a spectator who follows
# bot 1 (first-person view of a bot playing, HUD and weapon drawn). No timedemo: the demos
# OpenArena ships (demos/*.dm_70 in the pk3 files) are protocol 70 and name the game "baseq3-1";
# Debian's ioquake3 plays demo protocols 71, 67 and 66 only, and OpenArena 0.8.8's game code refuses
# "baseq3-1" even when renamed. The command line sets the match up (no warm-up, no frag or time
# limit, networking off, sound off) and the player joins as a spectator (`setu team s`); 20 frames
# after the map (the player has taken client 0 by then) the config adds five named bots (bot 1 is
# Liz), and a loop sends `follow 1` every 10 frames. Every step is counted in frames, so a slow
# machine reaches the bot's view at the same present as a fast one (31-33 in the probes, idle
# and on one core).
# Before, bot_minplayers added the bots on a timer of game time while the config waited in frames
# (`wait 100`, then `follow 1` every 300 frames): 45 presents of the player's own spawn view (~300
# draws) and 150 of the spectator's fixed view (250) came before the bot's, in proportions that
# depended on the machine's speed.
#
# Frames: three, by content (lib.sh, wl_min_draws). Probe captures at 1280x720 (draw records per
# present; presents 1-400 with the former driver, 1-150 and 1-60 with this one): the loading
# screen ("LOADING OASAGO2" over the level shot, item icons appearing as they load) draws 0-20
# draws a present, presents 1-26; the spectator's fixed view 250-379, presents 27 to 30-32; the
# followed bot 58-572 (58-100 facing a wall, 250-500 across the arena). So the capture starts
# after 24 presents in a row of at least 40 draws (presents 51-53 on an idle machine and on one
# core alike), and a capture under 40 a frame is retried. The spectator's fixed view draws as many
# as gameplay, so no threshold tells it from the bot's: the driver keeps it to about 5 presents
# and the 24 wait it out.
# --frames A-B still takes presents A-B (the default range 300-302 only sizes the capture: three
# frames), checked the same.
. "$(dirname "$0")/lib.sh"
wl_min_draws=40
wl_arm_frames=24
wl_init 300-302 600 "$@"
wl_require openarena xvfb

mkdir -p "$HOME/.openarena/baseoa"
cat >"$HOME/.openarena/baseoa/bench.cfg" <<'END'
set bench_bots "addbot Liz 2; addbot Sarge 2; addbot Grism 2; addbot Kyonshi 2; addbot Major 2"
set follow_loop "follow 1; wait 10; vstr follow_loop"
END

wl_capture --gl -- /usr/games/openarena +set cl_renderer opengl1 +set r_mode -1 \
  +set r_customwidth "$wl_width" +set r_customheight "$wl_height" +set r_fullscreen 0 \
  +set s_initsound 0 +set net_enabled 0 +set sv_pure 0 +set bot_minplayers 0 +set g_doWarmup 0 \
  +set fraglimit 0 +set timelimit 0 +setu team s +exec bench.cfg +map oasago2 +wait 20 \
  +vstr bench_bots +vstr follow_loop
