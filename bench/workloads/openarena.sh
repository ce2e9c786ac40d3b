#!/usr/bin/env bash
# OpenArena 0.8.8 (Debian package openarena, engine ioquake3): arena first-person shooter, the
# classic Quake III renderer (cl_renderer opengl1: multi-pass, lightmapped, blended shader stages)
# through Zink.
#
# Driven: a local deathmatch with five bots on the map oasago2, watched as a spectator who follows
# bot 1 (first-person view of a bot playing, HUD and weapon drawn). No timedemo: the demos
# OpenArena ships (demos/*.dm_70 in the pk3 files) are protocol 70 and name the game "baseq3-1";
# Debian's ioquake3 plays demo protocols 71, 67 and 66 only, and OpenArena 0.8.8's game code refuses
# "baseq3-1" even when renamed. So the script writes a config that loops `follow 1` (the bots
# join a moment after the map loads), and the command line sets the match up: no warm-up, no
# frag or time limit, networking off, sound off.
#
# Frames: presents 300-302. The map loads and the bots join within the first ~100 presents; by
# 300 the spectator has been following the bot for several seconds, through the arena.
. "$(dirname "$0")/lib.sh"
wl_init 300-302 600 "$@"
wl_require openarena xvfb

mkdir -p "$HOME/.openarena/baseoa"
echo 'set follow_loop "follow 1; wait 300; vstr follow_loop"' >"$HOME/.openarena/baseoa/bench.cfg"

wl_capture --gl -- /usr/games/openarena +set cl_renderer opengl1 +set r_mode -1 \
  +set r_customwidth "$wl_width" +set r_customheight "$wl_height" +set r_fullscreen 0 \
  +set s_initsound 0 +set net_enabled 0 +set sv_pure 0 +set bot_minplayers 5 +set g_doWarmup 0 \
  +set fraglimit 0 +set timelimit 0 +exec bench.cfg +map oasago2 +wait 100 +team spectator \
  +vstr follow_loop
