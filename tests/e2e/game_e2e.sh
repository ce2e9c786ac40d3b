#!/usr/bin/env bash
# End to end on a game of the workload suite: capture gameplay frames of GAME headless with its
# bench/workloads script (640x360): by content where the script arms its capture by draws
# (wl_min_draws: as many frames as its range), else two presents of its range; replay them
# through the functional renderer and the mobile4 model, and check
#  - the replayed image matches the presented one (PSNR >= 35 dB) on every frame,
#  - no draw was skipped,
#  - the frame's workload profile (workload.*) is stored and agrees with the renderer's own
#    counts (replay.*) and the model's draws.
# Usage: game_e2e.sh TESSERA_CLI LAYER_DIR GAME [FIRST_PRESENT]
#   GAME: a bench/workloads script name; FIRST_PRESENT defaults to the first of the script's own
#   range (chosen for 1280x720 and larger screens, which present more slowly than 640x360).
set -euo pipefail
tessera=$1 layer_dir=$2 game=$3 first=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tessera-game-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
export TESSERA=$tessera TESSERA_LAYER_DIR=$layer_dir

# By content where the script arms by draws (unless a first present is given); else two presents
# from the script's own range (gameplay, as the script explains) unless told.
script=$here/../../bench/workloads/$game.sh
range=$(sed -n 's/^wl_init \([0-9]*-[0-9]*\) .*/\1/p' "$script")
[ -n "$range" ] || { echo "FAIL: no frame range in bench/workloads/$game.sh"; exit 1; }
which=()
expect=2
if [ -z "$first" ] && grep -q '^wl_min_draws=' "$script"; then
  expect=$(( ${range#*-} - ${range%-*} + 1 ))
else
  [ -n "$first" ] || first=${range%-*}
  which=(--frames "$first-$((first + 1))")
fi
start=$SECONDS
bash "$script" "$work/c.tcap" --size 640x360 "${which[@]}"
echo "capture: $((SECONDS - start)) s"
start=$SECONDS
"$tessera" replay "$work/c.tcap" --db "$work/r.db" --png "$work/png" --config mobile4 --quiet | tee "$work/replay.txt"
echo "replay: $((SECONDS - start)) s"

q() { "$tessera" query "$work/r.db" "$1" --csv | tail -n +2; }
fail=0
check() {  # check DESCRIPTION SQL-returning-count-of-violations
  local n; n=$(q "$2")
  if [ "$n" != 0 ]; then echo "FAIL: $1 ($n violations)"; fail=1; else echo "ok: $1"; fi
}
check "$expect frames replayed" "SELECT count(*) != $expect FROM frame"
check "PSNR >= 35 dB on every frame" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db' AND value < 35"
check "a PSNR for every frame" \
  "SELECT (SELECT count(*) FROM frame) - count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db'"
check "no skipped draws" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.skipped' AND value != 0"
check "no draw rendered with an approximation" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.approximated' AND value != 0"
for m in texture_lines texture_bytes draws primitives quads fragments overdraw \
         instructions_per_fragment instructions_per_vertex passes; do
  check "workload.$m on every frame, above zero" \
    "SELECT (SELECT count(*) FROM frame) - count(*) FROM frame_metrics WHERE metric = 'workload.$m' AND value > 0"
done
# agree A B: per frame, metric A equals metric B (and both exist).
agree() {
  check "$1 = $2" "SELECT (SELECT count(*) FROM frame) - count(*) FROM frame_metrics a JOIN frame_metrics b
     ON a.capture = b.capture AND a.frame = b.frame AND a.config = b.config
     WHERE a.metric = '$1' AND b.metric = '$2' AND a.value = b.value"
}
agree workload.quads replay.quads
agree workload.fragments replay.fragments
agree workload.primitives replay.primitives_binned
agree workload.passes replay.passes
agree workload.draws draws
check "texture_bytes = 64 x texture_lines, distinct lines <= line accesses" \
  "SELECT count(*) FROM frame_metrics a JOIN frame_metrics b ON a.frame = b.frame
     JOIN frame_metrics c ON c.frame = a.frame
     WHERE a.metric = 'workload.texture_bytes' AND b.metric = 'workload.texture_lines'
       AND c.metric = 'replay.texture_lines' AND (a.value != 64 * b.value OR b.value > c.value)"
[ "$(ls "$work/png" | wc -l)" -ge 4 ] || { echo "FAIL: PNGs missing"; fail=1; }
exit $fail
