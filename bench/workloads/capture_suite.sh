#!/usr/bin/env bash
# Captures the workload suite headless and replays every captured frame, then prints one
# Markdown table row per workload: frames, capture bytes, capture time, texture footprint
# (distinct texture bytes sampled per frame, workload.texture_bytes), draws, overdraw, PSNR of
# each replayed frame against the presented one, and the draws the replay skipped with the
# reasons it gave.
#
# Usage: capture_suite.sh OUTDIR [--size WxH] [--only name,name...] [--config PRESET] [--replay-only]
#   --replay-only replays the captures already in OUTDIR (after a replay change) without
#   capturing again; their capture time then reads "-".
#   OUTDIR gets NAME-WxH.tcap, its capture and replay logs, png/NAME-WxH/ (replayed and
#   presented images) and NAME-WxH.db (the replay results, made anew by each replay:
#   frame_metrics holds workload.*, replay.* and the model's metrics for --config, default
#   mobile4). One database per capture: frame_metrics names a capture by its file name, so a
#   new capture at the same path would show up beside the old one in a shared database.
# Workloads: supertux supertuxkart minetest openarena warzone2100 glmark2-texture
# glmark2-jellyfish vkscene (bench/workloads/NAME.sh each).
# Screens: 1280x720 by default; the papers' are 1960x768 (mobile4) and 2160x1080 (mobile32).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
TESSERA=${TESSERA:-$here/../../build/bin/tessera}
export TESSERA

all=(supertux supertuxkart minetest openarena warzone2100 glmark2-texture glmark2-jellyfish vkscene)
[ $# -ge 1 ] || { echo "usage: $(basename "$0") OUTDIR [--size WxH] [--only name,...] [--config PRESET]" >&2; exit 2; }
out=$1
shift
size=1280x720 only="" config=mobile4 replay_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --replay-only) replay_only=1; shift ;;
    --size) size=${2:?}; shift 2 ;;
    --only) only=${2:?}; shift 2 ;;
    --config) config=${2:?}; shift 2 ;;
    *) echo "$(basename "$0"): unknown option $1" >&2; exit 2 ;;
  esac
done
names=("${all[@]}")
if [ -n "$only" ]; then
  IFS=, read -r -a names <<<"$only"
  for n in "${names[@]}"; do
    [ -f "$here/$n.sh" ] || { echo "$(basename "$0"): unknown workload '$n' (one of: ${all[*]})" >&2; exit 2; }
  done
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

q() { "$TESSERA" query "$db" "$1" --csv | tail -n +2; }

echo "| workload | screen | frames | capture MiB | capture s | replay s | footprint MiB/frame | draws/frame | overdraw | PSNR dB per frame | skipped (replay.skipped, by reason) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
status=0
for n in "${names[@]}"; do
  stem=$n-$size
  cap=$out/$stem.tcap
  t0=$SECONDS
  if [ $replay_only = 1 ]; then
    [ -f "$cap" ] || { echo "| $n | $size | no capture $cap | | | | | | | | |"; status=1; continue; }
    capture_s=-
  elif ! bash "$here/$n.sh" "$cap" --size "$size" >"$out/$stem.capture.log" 2>&1; then
    echo "| $n | $size | capture failed: $(tail -1 "$out/$stem.capture.log" | tr '|' '/') | | | | | | | | |"
    status=1
    continue
  else
    capture_s=$((SECONDS - t0))
  fi
  t0=$SECONDS
  db=$out/$stem.db
  rm -rf "$out/png/$stem" "$db"
  if ! "$TESSERA" replay "$cap" --db "$db" --png "$out/png/$stem" --config "$config" --quiet \
      >"$out/$stem.replay.txt" 2>&1; then
    echo "| $n | $size | replay failed: $(tail -1 "$out/$stem.replay.txt" | tr '|' '/') | | | | | | | | |"
    status=1
    continue
  fi
  replay_s=$((SECONDS - t0))
  where="config = '$config'"
  frames=$(q "SELECT count(*) FROM frame_metrics WHERE $where AND metric = 'workload.passes'")
  mib=$(awk -v b="$(stat -c %s "$cap")" 'BEGIN { printf "%.1f", b / 1048576 }')
  stats=$(q "SELECT printf('%.2f | %.0f | %.2f',
               avg(CASE WHEN metric = 'workload.texture_bytes' THEN value END) / 1048576.0,
               avg(CASE WHEN metric = 'replay.draws_submitted' THEN value END),
               avg(CASE WHEN metric = 'workload.overdraw' THEN value END)) AS s
             FROM frame_metrics WHERE $where")
  psnr=$(q "SELECT group_concat(printf('%.1f', value), ' / ') AS p FROM
             (SELECT value FROM frame_metrics WHERE $where AND metric = 'replay.psnr_db' ORDER BY frame)")
  skipped=$(q "SELECT CAST(sum(value) AS INTEGER) FROM frame_metrics WHERE $where AND metric = 'replay.skipped'")
  # Reasons, summed over the frames: shader hashes and image handles dropped so that one cause
  # reads as one line.
  reasons=$(sed -n 's/^ *skipped \([0-9]*\): \(.*\)$/\1\t\2/p' "$out/$stem.replay.txt" |
    sed -E 's/shader [0-9a-f]+: /shader: /; s/image [0-9]+: //' |
    awk -F'\t' '{ n[$2] += $1 } END { for (r in n) printf "%d x %s; ", n[r], r }' | sed 's/; $//' | tr '|' '/')
  [ "$skipped" = 0 ] && reasons="" || reasons=" ($reasons)"
  echo "| $n | $size | $frames | $mib | $capture_s | $replay_s | $stats | ${psnr:-n/a} | $skipped$reasons |"
done
exit $status
