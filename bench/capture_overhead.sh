#!/bin/sh
# Capture layer overhead (issue 3, point 8), on this machine's lavapipe under Xvfb:
#   1. glmark2 texture scene fps through Zink without the layer,
#   2. the same with the layer loaded but not capturing (target: < 2 % loss), with a
#      capture armed for a frame not yet reached (command buffers being recorded), and while
#      capturing every frame,
#   3. wall time and file size of capturing 3 frames of glmark2 texture, glmark2 bump, vkcube.
# Usage: bench/capture_overhead.sh [BUILD_DIR] [RUNS]   (default: build, 3 runs per fps figure)
# Frame contents follow wall-clock time, so fps is the median of RUNS runs.
set -eu

build=${1:-build}
runs=${2:-3}
layer_dir=$(cd "$build/layer" && pwd)
[ -f "$layer_dir/VkLayer_tessera_capture.json" ] || {
  echo "capture_overhead.sh: $layer_dir: no layer manifest (build VkLayer_tessera_capture)" >&2
  exit 2
}
work=$(mktemp -d /tmp/tessera-bench-XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -m 700 "$work/xdg"
export XDG_RUNTIME_DIR="$work/xdg"
xvfb() { xvfb-run -a -s '-screen 0 1280x720x24' "$@"; }
zink() { MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 "$@"; }

# fps of one glmark2 texture run (1280x720, 300 frames or 5 s).
texture_fps() {
  xvfb env "$@" glmark2 -s 1280x720 -b texture:nframes=300:duration=5 2>&1 |
    sed -n 's/.*FPS: \([0-9]*\).*/\1/p' | head -n 1
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : 0)}'; }

i=0; : >"$work/plain"; : >"$work/loaded"; : >"$work/armed"; : >"$work/capturing"
while [ "$i" -lt "$runs" ]; do
  # Interleaved so that machine load drifts hit both equally.
  zink texture_fps >>"$work/plain"
  zink texture_fps VK_ADD_LAYER_PATH="$layer_dir" VK_INSTANCE_LAYERS=VK_LAYER_TESSERA_capture \
    >>"$work/loaded"
  # Armed: a capture file is set but the frames are far ahead, so the layer records every
  # command buffer and object (what it does before the first captured frame).
  zink texture_fps VK_ADD_LAYER_PATH="$layer_dir" VK_INSTANCE_LAYERS=VK_LAYER_TESSERA_capture \
    TESSERA_CAPTURE_FILE="$work/armed.tcap" TESSERA_CAPTURE_FRAMES=1000000 >>"$work/armed"
  # Capturing: every frame of the run is written (commands, memory, presented image and render
  # targets read back at each present).
  zink texture_fps VK_ADD_LAYER_PATH="$layer_dir" VK_INSTANCE_LAYERS=VK_LAYER_TESSERA_capture \
    TESSERA_CAPTURE_FILE="$work/capturing.tcap" TESSERA_CAPTURE_FRAMES=1-1000000 >>"$work/capturing"
  rm -f "$work/capturing.tcap"
  i=$((i + 1))
done
plain=$(median <"$work/plain")
loaded=$(median <"$work/loaded")
armed=$(median <"$work/armed")
capturing=$(median <"$work/capturing")
echo "glmark2 texture 1280x720 (Zink on lavapipe), median of $runs runs"
echo "  without layer:            $plain fps   (runs: $(tr '\n' ' ' <"$work/plain"))"
echo "  layer loaded, no capture: $loaded fps   (runs: $(tr '\n' ' ' <"$work/loaded"))"
echo "  armed, before the range:  $armed fps   (runs: $(tr '\n' ' ' <"$work/armed"))"
echo "  capturing every frame:    $capturing fps   (runs: $(tr '\n' ' ' <"$work/capturing"))"
awk -v a="$plain" -v b="$loaded" -v c="$armed" 'BEGIN { if (a > 0) {
  printf "  loss when loaded:         %.1f %%\n", 100 * (a - b) / a
  printf "  loss when armed:          %.1f %%\n", 100 * (a - c) / a } }'

# Capturing frames 5-7: wall time of the whole run with and without capturing, and bytes.
capture() {
  name=$1; shift
  file="$work/$name.tcap"
  t0=$(date +%s.%N)
  xvfb env "$@" >/dev/null 2>&1 || true
  t1=$(date +%s.%N)
  xvfb env VK_ADD_LAYER_PATH="$layer_dir" VK_INSTANCE_LAYERS=VK_LAYER_TESSERA_capture \
    TESSERA_CAPTURE_FILE="$file" TESSERA_CAPTURE_FRAMES=5-7 "$@" >/dev/null 2>&1 || true
  t2=$(date +%s.%N)
  bytes=$(stat -c %s "$file" 2>/dev/null || echo 0)
  awk -v n="$name" -v a="$t0" -v b="$t1" -v c="$t2" -v s="$bytes" 'BEGIN {
    printf "  %-16s run %.2f s, capturing run %.2f s (+%.2f s), %d bytes (%.2f MiB)\n",
           n, b - a, c - b, (c - b) - (b - a), s, s / 1048576 }'
}
echo "capturing 3 frames (presents 5-7)"
capture glmark2-texture env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 \
  glmark2 -s 800x600 -b texture:nframes=20:duration=1000
capture glmark2-bump env MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1 \
  glmark2 -s 800x600 -b bump:nframes=20:duration=1000
capture vkcube vkcube --c 20
