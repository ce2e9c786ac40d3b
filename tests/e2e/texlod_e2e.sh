#!/usr/bin/env bash
# End to end for the texture LOD rules (replay/texture/README.md, "LOD selection"): capture one
# vktexlod scene on lavapipe under Xvfb (samples/vktexlod/README.md), replay it (one model
# configuration, mobile4), and check
#  - every replayed frame is within 1.5 dB below the scene's PSNR when the LOD rules followed
#    lavapipe (replay/texture/README.md's table), so that a revert of any rule fails,
#  - no draw, image or texture sample was skipped,
#  - querylod: the per-pixel LOD encoded in the presented and in the replayed image (both
#    components of textureQueryLod) agree within one code of the encoding
#    (tests/e2e/texlod_lod_diff.py: 8/255 LOD in x, 12/255 in y).
# Usage: texlod_e2e.sh TESSERA_CLI LAYER_DIR VKTEXLOD SCENE
set -euo pipefail
tessera=$1 layer_dir=$2 app=$3 scene=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tessera-texlod-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
export VK_ADD_LAYER_PATH=$layer_dir TESSERA_LAYER_DIR=$layer_dir
xvfb-run -a -s '-screen 0 1280x720x24' "$tessera" capture --frames 2 -o "$work/c.tcap" -- \
  "$app" --scene "$scene" --frames 3 --width 640 --height 360 > "$work/capture.log" 2>&1 ||
  { echo "FAIL: capture"; tail -5 "$work/capture.log"; exit 1; }
# One model configuration: the database then holds the frame's PSNR and skip counts.
"$tessera" replay "$work/c.tcap" --config mobile4 --db "$work/r.db" --png "$work/png" --quiet | tee "$work/replay.txt"
# Each scene's PSNR with the lavapipe rules, less 1.5 dB (the spec formulas scored 20.5 - 55.8).
case "$scene" in
  trilinear) min_db=55.5 ;; mips) min_db=55.1 ;; nearest) min_db=54.3 ;; aniso16) min_db=57.0 ;;
  aniso4) min_db=57.1 ;; lodclamp) min_db=55.1 ;; querylod) min_db=47.8 ;; *) min_db=40 ;;
esac
q() { "$tessera" query "$work/r.db" "$1" --csv | tail -n +2; }
fail=0
check() {  # check DESCRIPTION SQL-returning-count-of-violations
  local n; n=$(q "$2")
  if [ "$n" != 0 ]; then echo "FAIL: $1 ($n violations)"; fail=1; else echo "ok: $1"; fi
}
q "SELECT 'frame ' || frame || ': ' || round(value, 2) || ' dB' FROM frame_metrics WHERE metric = 'replay.psnr_db'"
check "PSNR >= $min_db dB on every frame" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db' AND value < $min_db"
check "a PSNR for every frame" \
  "SELECT (SELECT count(*) FROM frame) - count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db'"
check "no skipped draws, images or samples" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.skipped' AND value != 0"
check "a replay.skipped for every frame" \
  "SELECT (SELECT count(*) FROM frame) - count(*) FROM frame_metrics WHERE metric = 'replay.skipped'"
if [ "$scene" = querylod ]; then
  pairs=0
  while IFS= read -r presented; do
    replayed=${presented%-presented.png}.png
    [ -f "$replayed" ] || continue
    pairs=$((pairs + 1))
    if python3 "$here/texlod_lod_diff.py" "$presented" "$replayed"; then
      echo "ok: per-pixel LOD of $(basename "$replayed") within one code"
    else
      echo "FAIL: per-pixel LOD of $(basename "$replayed")"; fail=1
    fi
  done < <(find "$work/png" -name '*-presented.png' | sort)
  [ "$pairs" -gt 0 ] || { echo "FAIL: no presented/replayed PNG pairs in $(ls "$work/png")"; fail=1; }
fi
exit $fail
