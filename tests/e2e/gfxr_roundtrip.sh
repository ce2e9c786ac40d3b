#!/usr/bin/env bash
# GFXReconstruct captures as input: vkcube captured by Debian's gfxreconstruct layer
# (gfxrecon-capture-vulkan.py, zstd), replayed by gfxrecon-replay under `tessera capture`, so
# Tessera's layer records the frames GFXR replays on lavapipe; `tessera replay` must then match
# the image GFXR's replay presented (the presented-image record) at >= 35 dB on every frame.
# Usage: gfxr_roundtrip.sh TESSERA_CLI
set -euo pipefail
tessera=$1
work=$(mktemp -d /tmp/tessera-gfxr-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
xvfb=(xvfb-run -a -s '-screen 0 1280x720x24')

for tool in gfxrecon-capture-vulkan.py gfxrecon-replay; do
  command -v "$tool" >/dev/null || { echo "FAIL: $tool not installed (Debian: gfxreconstruct)"; exit 1; }
done
# 1. The GFXR capture: every frame of an 8-present vkcube run.
"${xvfb[@]}" gfxrecon-capture-vulkan.py -o "$work/cube.gfxr" --no-file-timestamp \
  --compression-type ZSTD vkcube --c 8 --width 640 --height 360 >"$work/gfxr-capture.log" 2>&1 ||
  { cat "$work/gfxr-capture.log"; echo "FAIL: gfxrecon capture"; exit 1; }
[ -s "$work/cube.gfxr" ] || { cat "$work/gfxr-capture.log"; echo "FAIL: no .gfxr written"; exit 1; }
# 2. Tessera captures presents 3-5 of GFXR's replay of it.
"${xvfb[@]}" "$tessera" capture --frames 3-5 -o "$work/cube.tcap" -- gfxrecon-replay "$work/cube.gfxr" \
  >"$work/capture.log" 2>&1 || { cat "$work/capture.log"; echo "FAIL: tessera capture of gfxrecon-replay"; exit 1; }
cat "$work/capture.log"
"$tessera" verify "$work/cube.tcap"
# 3. Tessera's replay against the image GFXR's replay presented.
"$tessera" replay "$work/cube.tcap" --db "$work/r.db" --config mobile4 --quiet
q() { "$tessera" query "$work/r.db" "$1" --csv | tail -n +2; }
frames=$(q "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db'")
low=$(q "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db' AND value < 35")
q "SELECT frame, round(value, 2) FROM frame_metrics WHERE metric = 'replay.psnr_db' ORDER BY frame" |
  sed 's/^/psnr (frame, dB): /'
if [ "$frames" = 3 ] && [ "$low" = 0 ]; then
  echo "gfxr round trip: 1 passed, 0 failed"
else
  echo "FAIL: expected 3 frames at >= 35 dB, got $frames frames, $low below"; exit 1
fi
