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
# Frames: three, by content (lib.sh, wl_min_draws): the intro card ("Welcome to Antarctica" and
# Tux on black) draws 6 draws a frame, the level (terrain, enemies, bonus blocks, the parallax
# mountains, Tux) 84 at 1280x720 (probe captures: the intro card at presents 250-252 on an idle
# machine, gameplay at the same presents on a loaded one), so the capture starts after 24
# presents in a row of at least 40 draws, and a capture under 40 a frame is retried. A present
# count alone was a proxy that shifted with machine speed (3-10 presents a second here).
# --frames A-B still takes presents A-B (the e2e test takes 600-601 at 640x360), checked the same.
. "$(dirname "$0")/lib.sh"
wl_min_draws=40
# The level is drawn under the fading card for a while: 24 presents of it (2 s at 12 presents a
# second on an idle machine, 8 s at 3 on a loaded one) before the three captured.
wl_arm_frames=24
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
