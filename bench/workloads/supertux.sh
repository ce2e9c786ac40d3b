#!/usr/bin/env bash
# SuperTux 0.6 (Debian package supertux): 2D side-scrolling platformer, OpenGL through Zink. The
# closest of the suite to the papers' 2D mobile games: a parallax background, tiled terrain and
# sprites, all alpha-blended textured quads.
#
# Driven: the first level of world 1 ("Welcome to Antarctica") is started from the command line.
# xdotool waits for the window, presses space 8 s later to dismiss the level intro card, waits
# 6 s for the card to fade, then presses Right and space every 1.2 s (space held 0.4 s): Tux
# runs right and jumps. Right is pressed again each period because a held key is not enough:
# the level start resets the input state and XTest sends no autorepeat.
#
# Frames: presents 250-252. At 1280x720 and above SuperTux presents 3-10 times a second here, so
# present 250 comes 25-80 s in, after the intro card and its fade, with Tux running through the
# level (terrain, enemies, bonus blocks, the parallax mountains): gameplay, not a menu. Not much
# later: the driver does not avoid pits or enemies, and at 1960x768 the game once ended by itself
# before present 300. Smaller screens present faster and need a later range (the e2e test takes
# 600-601 at 640x360).
. "$(dirname "$0")/lib.sh"
wl_init 250-252 300 "$@"
wl_require supertux xdotool xvfb

wl_drive() {
  xdotool search --sync --onlyvisible --name SuperTux >/dev/null
  # Past the level load: a key pressed during a screen transition made SuperTux abort once (in
  # ScreenManager::handle_screen_switch, at 2160x1080 on a loaded machine).
  sleep 8
  xdotool key space  # dismisses the level intro card
  # The card fades out before the level starts, slowly on a loaded machine. With presses every
  # 1.2 s from the start SuperTux sometimes exited (status 0) before the level ran, most likely
  # a second press during the fade popping the level screen too: wait the fade out.
  sleep 6
  while true; do
    xdotool keyup Right keydown Right keydown space sleep 0.4 keyup space sleep 0.8
  done
}

wl_capture --gl -- /usr/games/supertux2 --renderer opengl -g "${wl_width}x${wl_height}" \
  --disable-sound --disable-music /usr/share/games/supertux2/levels/world1/welcome_antarctica.stl
