#!/bin/bash
# "Shade once, simulate many": what the configurations of `--schemes all` cost next to the
# shading pass of the same frame, on one thread.
#   shading: the frame's replay.render_seconds (the shading pass of that frame alone, as the
#     replay measures it) from the `--schemes all` run's database;
#   model: wall time of `--schemes all` minus that of `--no-model` (the same frames replayed, so
#     the capture's reading and the earlier frames' shading cancel), measured in this one run.
# With --per-config it also times each configuration alone (its run minus --no-model's), which
# says which schemes cost the most.
# Usage: bench/model/schemes_cost.sh BUILD_DIR CAPTURE FRAME [--per-config]   (FRAME: one present)
set -euo pipefail
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR CAPTURE FRAME [--per-config]" >&2; exit 2; }
tessera=$1/bin/tessera capture=$2 frame=$3 per_config=${4:-}
case $frame in *[!0-9]*|'') echo "$0: FRAME is one present number, not '$frame'" >&2; exit 2 ;; esac
work=$(mktemp -d /tmp/tessera-schemes-cost-XXXXXX)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
t0=$(now)
"$tessera" replay "$capture" --frames "$frame" --no-model --threads 1 --quiet > /dev/null
t1=$(now)
"$tessera" replay "$capture" --frames "$frame" --schemes all --threads 1 --quiet --db "$work/all.db" > "$work/all.txt"
t2=$(now)
shading=$("$tessera" query "$work/all.db" \
  "SELECT printf('%.4f', value) FROM frame_metrics WHERE frame = $frame AND metric = 'replay.render_seconds'" --csv | tail -n +2 | head -n 1)
configs=$(grep -c ' cycles ' "$work/all.txt" || true)
if [ -z "$shading" ] || [ "$(calc "($shading > 0)")" != 1.00 ] || [ "$configs" -eq 0 ]; then
  echo "$0: no shading time or no configuration for present $frame of $capture (shading '$shading', $configs configurations)" >&2
  exit 1
fi
base=$(calc "$t1 - $t0")
model=$(calc "($t2 - $t1) - ($t1 - $t0)")
echo "capture $capture, frame $frame, one thread"
echo "shading pass of the frame: $shading s (replay without a model: $base s)"
echo "model, $configs configurations: $model s = $(calc "$model / $configs") s a configuration"
echo "model / shading: $(calc "$model / $shading")x (target <= 5x)"
if [ "$per_config" = --per-config ]; then
  awk '/ cycles /{print $1}' "$work/all.txt" | while read -r c; do
    a=$(now)
    "$tessera" replay "$capture" --frames "$frame" --config "$c" --threads 1 --quiet > /dev/null ||
      { echo "$c: failed" >&2; continue; }
    b=$(now)
    printf '%-45s %6s s\n' "$c" "$(calc "($b - $a) - $base")"
  done
fi
