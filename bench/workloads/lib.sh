# Shared by the workload scripts (sourced, not run). A workload script captures a frame range of
# one application running headless: its own Xvfb server at the requested screen size, Vulkan on
# Mesa lavapipe (OpenGL through Zink with `tessera capture --gl`), a private HOME so the game
# starts from the configuration the script writes and not from anything a user left behind.
#
# Everything it starts runs in process groups it owns and is ended by PID within a bounded time:
# the application is killed once the capture layer reports the last frame written (the layer
# prints "tessera capture: wrote frames A-B to FILE"), or when the time limit runs out.
#
# Gameplay by content (a script that sets wl_min_draws=D before wl_capture): a present count is a
# proxy for game state that shifts with machine speed, so by default such a script captures the
# frames after the first 3 presents in a row that each drew at least D draws (the layer's trigger
# by content, tessera capture --trigger N --arm-draws D --arm-frames K, K = wl_arm_frames or 3),
# whatever the machine's speed; and every
# capture, by content or by --frames, is checked after the fact: fewer than D draws a frame on
# average is not gameplay, the capture is retried once, then fails with one line. D comes from a
# probe capture (the script says which). A trigger that never fires ends in the time limit.
#
# Command line of every workload script:
#   SCRIPT OUT.tcap [--size WxH] [--frames A-B] [--timeout SECONDS]
# Environment: TESSERA (the tessera CLI; default: build/bin/tessera of this checkout),
# TESSERA_WORKLOAD_KEEP=1 keeps the work folder (logs, the game's home) for inspection.

set -euo pipefail

wl_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TESSERA=${TESSERA:-$wl_root/build/bin/tessera}

wl_usage() {
  echo "usage: $(basename "$0") OUT.tcap [--size WxH] [--frames A-B] [--timeout SECONDS]" >&2
  exit 2
}

# wl_init DEFAULT_FRAMES DEFAULT_TIMEOUT "$@": parses the command line into wl_out, wl_width,
# wl_height, wl_frames, wl_timeout and makes the work folder wl_work.
wl_init() {
  wl_frames=$1 wl_timeout=$2 wl_frames_given=0 wl_min_draws=${wl_min_draws:-0}
  shift 2
  [ $# -ge 1 ] || wl_usage
  wl_out=$1
  shift
  local size=1280x720
  while [ $# -gt 0 ]; do
    case $1 in
      --size) size=${2:?}; shift 2 ;;
      --frames) wl_frames=${2:?}; wl_frames_given=1; shift 2 ;;
      --timeout) wl_timeout=${2:?}; shift 2 ;;
      *) wl_usage ;;
    esac
  done
  if ! [[ $size =~ ^([0-9]+)x([0-9]+)$ ]]; then
    echo "$(basename "$0"): --size '$size': expected WxH" >&2
    exit 2
  fi
  wl_width=${BASH_REMATCH[1]} wl_height=${BASH_REMATCH[2]}
  [ -x "$TESSERA" ] || { echo "$(basename "$0"): $TESSERA: tessera CLI not built (set TESSERA)" >&2; exit 2; }
  case $wl_out in /*) ;; *) wl_out=$PWD/$wl_out ;; esac
  mkdir -p "$(dirname "$wl_out")"
  wl_work=$(mktemp -d /tmp/tessera-workload-XXXXXX)
  export HOME=$wl_work/home XDG_RUNTIME_DIR=$wl_work/xdg
  export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share XDG_CACHE_HOME=$HOME/.cache
  mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
  mkdir -m 700 "$XDG_RUNTIME_DIR"
  # No sound card here: games that open audio get a null device rather than waiting on one.
  export SDL_AUDIODRIVER=dummy ALSOFT_DRIVERS=null
  wl_pids=()
  trap wl_cleanup EXIT
  trap 'exit 130' INT TERM
}

# wl_require PACKAGE...: installs the Debian packages that are missing (apt-get, as root or via
# sudo), as .ci/install-deps does: a machine that has them pays nothing.
wl_require() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "$(basename "$0"): installing ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
    { DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; }
}

# Ends everything this script started (TERM, then KILL after 5 s) and the work folder. wl_pids
# holds process-group leaders (Xvfb, the capture, started with setsid) and the input driver, a
# subshell of this script that leads no group and is signalled by its own PID.
wl_signal() {  # wl_signal SIGNAL PID: the PID's process group, or the PID alone
  kill -"$1" -- "-$2" 2>/dev/null || kill -"$1" "$2" 2>/dev/null
}
wl_stop_all() {
  local pid
  for pid in "${wl_pids[@]}"; do wl_signal TERM "$pid" || true; done
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    local alive=0
    for pid in "${wl_pids[@]}"; do wl_signal 0 "$pid" && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.5
  done
  for pid in "${wl_pids[@]}"; do wl_signal KILL "$pid" || true; done
  wl_pids=()
}
wl_cleanup() {
  wl_stop_all
  if [ "${TESSERA_WORKLOAD_KEEP:-0}" = 1 ]; then
    echo "work folder kept: $wl_work" >&2
  else
    rm -rf "$wl_work"
  fi
}

# Starts an Xvfb server of wl_width x wl_height (24-bit) on a free display and exports DISPLAY.
# -displayfd lets the server pick the display number itself, so parallel runs do not race for
# one as `xvfb-run -a` does.
wl_start_xvfb() {
  local fifo=$wl_work/displayfd
  rm -f "$fifo"  # a retry's server must not read the previous one's display number
  setsid Xvfb -displayfd 3 -screen 0 "${wl_width}x${wl_height}x24" -nolisten tcp -noreset \
    3>"$fifo" >"$wl_work/xvfb.log" 2>&1 &
  wl_pids+=($!)
  local n=""
  for _ in $(seq 100); do
    n=$(head -1 "$fifo" 2>/dev/null || true)
    [ -n "$n" ] && break
    sleep 0.1
  done
  [ -n "$n" ] || { echo "$(basename "$0"): Xvfb did not start:" >&2; cat "$wl_work/xvfb.log" >&2; exit 1; }
  export DISPLAY=:$n
}

# wl_capture [--gl] -- APP ARGS: captures wl_frames of APP into wl_out (with wl_min_draws and
# no --frames: as many frames, once the game draws like gameplay), checks it is gameplay, and
# tries once more if not (see the top).
wl_capture() {
  local attempt
  for attempt in 1 2; do
    wl_capture_once "$@" || return 1
    wl_is_gameplay && return 0
    [ $attempt = 1 ] && echo "$(basename "$0"): $wl_draws_note: not gameplay, capturing again" >&2
    wl_stop_all  # the first attempt's Xvfb and input driver
  done
  echo "$(basename "$0"): $wl_out: $wl_draws_note twice: not gameplay (wl_min_draws=$wl_min_draws)" >&2
  return 1
}

# Draws per captured frame (the capture's draw records over its frames) against wl_min_draws.
wl_is_gameplay() {
  [ "$wl_min_draws" -gt 0 ] || return 0
  local info frames draws
  info=$("$TESSERA" info "$wl_out")
  frames=$(printf '%s\n' "$info" | sed -n 's/^frames *\([0-9]*\).*/\1/p' | head -1)
  draws=$(printf '%s\n' "$info" | awk '/^  cmd_draw/ && NF == 2 { n += $2 } END { print n + 0 }')
  wl_draws_note="${draws} draws in ${frames:-0} frames"
  [ "${frames:-0}" -gt 0 ] && [ "$draws" -ge $((wl_min_draws * frames)) ]
}

# One capture of APP (wl_capture). While the application runs, the function wl_drive (if the
# script defines one) runs in the background to send input. Returns once the layer has written
# the last frame (then the application is killed) or fails after wl_timeout seconds.
wl_capture_once() {
  local gl=()
  if [ "$1" = --gl ]; then gl=(--gl); shift; fi
  [ "$1" = -- ] && shift
  wl_start_xvfb
  local log=$wl_work/capture.log
  : >"$log"
  local start=$SECONDS
  local which=(--frames "$wl_frames")
  if [ "$wl_min_draws" -gt 0 ] && [ "$wl_frames_given" = 0 ]; then
    local first=${wl_frames%-*} last=${wl_frames#*-}
    which=(--trigger $((last - first + 1)) --arm-draws "$wl_min_draws" --arm-frames "${wl_arm_frames:-3}")
  fi
  setsid "$TESSERA" capture "${gl[@]}" "${which[@]}" -o "$wl_out" -- "$@" >"$log" 2>&1 &
  local app=$!
  wl_pids+=($app)
  if declare -F wl_drive >/dev/null; then
    (wl_drive >"$wl_work/drive.log" 2>&1) &
    wl_pids+=($!)
  fi
  local status=timeout
  while [ $((SECONDS - start)) -lt "$wl_timeout" ]; do
    if grep -q "tessera capture: wrote frames" "$log"; then status=done; break; fi
    if ! kill -0 "$app" 2>/dev/null; then
      grep -q "tessera capture: wrote frames" "$log" && status=done || status=exited
      break
    fi
    sleep 1
  done
  wl_capture_seconds=$((SECONDS - start))
  wl_cleanup_app "$app"
  case $status in
    done)
      if ! "$TESSERA" verify "$wl_out" >/dev/null; then
        echo "$(basename "$0"): $wl_out: capture written but does not verify" >&2
        return 1
      fi
      echo "$(basename "$0"): $(grep -o 'wrote frames [0-9-]*' "$log" | head -1) at ${wl_width}x${wl_height} in ${wl_capture_seconds} s -> $wl_out"
      ;;
    exited)
      echo "$(basename "$0"): the application exited before its last frame was captured (log below)" >&2
      tail -20 "$log" >&2
      return 1
      ;;
    timeout)
      echo "$(basename "$0"): frames $wl_frames not captured within $wl_timeout s (log below)" >&2
      tail -20 "$log" >&2
      return 1
      ;;
  esac
}

# Kills the application's process group (TERM, then KILL) and waits for it.
wl_cleanup_app() {
  local pid=$1
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 20); do
    kill -0 -- "-$pid" 2>/dev/null || break
    sleep 0.25
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}
