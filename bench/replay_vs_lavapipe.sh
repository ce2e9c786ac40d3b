#!/bin/sh
# Replay speed: software replay time per frame of each workload next to
# lavapipe's own frame time for the same application and resolution, on this machine.
#   lavapipe frame time: glmark2 from its reported FPS; vkcube and vkscene from the wall time of
#   a long run minus a short one, divided by the extra presents (start-up cancels out).
#   replay time: `tessera replay --no-model` (functional renderer only, access stream recorded),
#   per frame, as it prints; and the same with the mobile4 and mobile32 models.
# Usage: bench/replay_vs_lavapipe.sh [BUILD_DIR] [WIDTHxHEIGHT]  (default build, 1280x720)
set -eu
build=${1:-build}
size=${2:-1280x720}
w=${size%x*}; h=${size#*x}
tessera=$build/bin/tessera
layer_dir=$(cd "$build/layer" && pwd)
work=$(mktemp -d /tmp/tessera-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -m 700 "$work/xdg"
export XDG_RUNTIME_DIR="$work/xdg" VK_ADD_LAYER_PATH="$layer_dir"
xvfb() { xvfb-run -a -s '-screen 0 1280x720x24' "$@"; }
zink() { MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 "$@"; }
now() { date +%s.%N; }
calc() { awk "BEGIN { print $1 }"; }
# Seconds per present of a Vulkan app: (t(long) - t(short)) / (long - short presents).
vk_frame_ms() {  # vk_frame_ms SHORT LONG CMD... (CMD gets the present count appended)
  short=$1 long=$2; shift 2
  t0=$(now); xvfb "$@" "$short" >/dev/null 2>&1; t1=$(now)
  xvfb "$@" "$long" >/dev/null 2>&1; t2=$(now)
  calc "($t2 - $t1 - ($t1 - $t0)) * 1000 / ($long - $short)"
}
replay_ms() {  # mean render seconds per frame from tessera replay's table, in ms
  "$tessera" replay "$1" --quiet $2 | awk '$1 ~ /^[0-9]+$/ && NF >= 8 {s += $7; n++} END {printf "%.0f", n ? s * 1000 / n : 0}'
}
total_s() { t0=$(now); "$tessera" replay "$1" --quiet >/dev/null; t1=$(now); calc "$t1 - $t0"; }

printf '%-20s %12s %14s %8s %18s\n' workload lavapipe_ms replay_ms ratio replay+models_s
row() {  # row NAME LAVAPIPE_MS CAPTURE
  r=$(replay_ms "$3" --no-model)
  t=$(total_s "$3")
  printf '%-20s %12.1f %14s %8.1f %18.1f\n' "$1" "$2" "$r" "$(calc "$r / $2")" "$t"
}

xvfb "$tessera" capture --frames 3-4 -o "$work/vkcube.tcap" -- vkcube --c 6 --width "$w" --height "$h" >/dev/null 2>&1
row vkcube "$(vk_frame_ms 50 550 vkcube --width "$w" --height "$h" --c)" "$work/vkcube.tcap"

if [ -x "$build/bin/vkscene" ]; then
  xvfb "$tessera" capture --frames 2-3 -o "$work/vkscene.tcap" -- "$build/bin/vkscene" --frames 4 --width "$w" --height "$h" >/dev/null 2>&1
  row vkscene "$(vk_frame_ms 10 60 "$build/bin/vkscene" --width "$w" --height "$h" --frames)" "$work/vkscene.tcap"
fi

for scene in texture bump jellyfish; do
  fps=$(xvfb env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 glmark2 -s "$size" \
        -b "$scene:nframes=300:duration=5" 2>&1 | sed -n 's/.*FPS: \([0-9]*\).*/\1/p' | head -n 1)
  xvfb "$tessera" capture --gl --frames 5-6 -o "$work/$scene.tcap" -- \
    glmark2 -s "$size" -b "$scene:nframes=10:duration=1000" >/dev/null 2>&1 || true
  row "glmark2-$scene" "$(calc "1000 / $fps")" "$work/$scene.tcap"
done
