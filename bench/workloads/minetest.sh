#!/usr/bin/env bash
# Minetest 5.6 with Minetest Game (Debian package minetest): voxel world, OpenGL (Irrlicht's GL
# driver, shaders on) through Zink.
#
# Driven: the script writes a world (world.mt: Minetest Game, creative, no damage) and a client
# configuration (screen size, fixed map seed 1357 with the v7 map generator, noon with time
# stopped, no sound, the local server bound to 127.0.0.1) and starts it with --go, which skips
# the main menu. The player spawns in a forest of apple trees by a lake and stands there; xdotool
# gives the game window the input focus (without a window manager nobody else does) and moves
# the mouse 8 pixels right every 0.1 s, so the camera turns slowly around the spawn point.
#
# Frames: three, by content (lib.sh, wl_min_draws). Probe capture of presents 1-350 at 1280x720
# (draw records per present): the loading screens (a progress bar over the menu clouds: "Connecting
# to server", "Media...", "Loading textures", "Done!") draw 13-49 draws, presents 1-45; the first
# presents in the world have no terrain yet (grey sky, hotbar, hearts, hand, the server's chat
# lines) and draw 216-235, presents 46-48; the terrain appears, 437-650, presents 49-69; then the
# forest by the lake, 757-2549 as the camera turns (a full turn is about 60 presents there). So the
# capture starts after 24 presents in a row of at least 400 draws (above the empty world, below the
# meshed one), and a capture under 400 a frame is retried. The former fixed range (presents
# 300-302: 30-90 s in) was a proxy for the same state that shifted with machine speed.
# --frames A-B still takes presents A-B (the default range 300-302 only sizes the capture: three
# frames), checked the same.
. "$(dirname "$0")/lib.sh"
wl_min_draws=400
wl_arm_frames=24
wl_init 300-302 600 "$@"
wl_require minetest xdotool xvfb

mkdir -p "$wl_work/world"
cat >"$wl_work/world/world.mt" <<END
gameid = minetest
backend = sqlite3
player_backend = sqlite3
auth_backend = sqlite3
creative_mode = true
enable_damage = false
END
cat >"$wl_work/minetest.conf" <<END
screen_w = $wl_width
screen_h = $wl_height
fullscreen = false
video_driver = opengl
enable_sound = false
fixed_map_seed = 1357
mg_name = v7
world_start_time = 12000
time_speed = 0
viewing_range = 120
bind_address = 127.0.0.1
server_announce = false
END

wl_drive() {
  xdotool search --sync --onlyvisible --name Minetest windowfocus --sync
  while true; do
    xdotool mousemove_relative -- 8 0 sleep 0.1
  done
}

wl_capture --gl -- /usr/games/minetest --go --world "$wl_work/world" --name bench \
  --config "$wl_work/minetest.conf"
