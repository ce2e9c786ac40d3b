#!/bin/sh
# "Shade once, simulate many": what the configurations of `--schemes all` cost next to the
# shading pass of the same frame, on one thread.
#   shading: the frame's render seconds as `tessera replay --no-model` prints them;
#   model: wall time of `--schemes all` minus that of `--no-model` (same frames replayed), so the
#   ratio model / shading is measured in one run of this script.
# With --per-config it also times each configuration alone (its run minus --no-model), which
# says which schemes cost the most.
# Usage: bench/model/schemes_cost.sh BUILD_DIR CAPTURE FRAME [--per-config]
set -eu
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR CAPTURE FRAME [--per-config]" >&2; exit 2; }
tessera=$1/bin/tessera capture=$2 frame=$3 per_config=${4:-}
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
t0=$(now)
shading=$("$tessera" replay "$capture" --frames "$frame" --no-model --threads 1 --quiet |
  awk -v f="$frame" '$1 == f && NF >= 8 {print $7}')
t1=$(now)
configs=$("$tessera" replay "$capture" --frames "$frame" --schemes all --threads 1 --quiet | grep -c ' cycles ')
t2=$(now)
base=$(calc "$t1 - $t0")
model=$(calc "($t2 - $t1) - ($t1 - $t0)")
echo "capture $capture, frame $frame, one thread"
echo "shading pass of the frame: ${shading} s (replay without a model: $base s)"
echo "model, $configs configurations: $model s = $(calc "$model / $configs") s a configuration"
echo "model / shading: $(calc "$model / $shading")x (target <= 5x)"
if [ "$per_config" = --per-config ]; then
  "$tessera" replay "$capture" --frames "$frame" --schemes all --threads 1 --quiet | awk '/ cycles /{print $1}' |
  while read -r c; do
    a=$(now)
    "$tessera" replay "$capture" --frames "$frame" --config "$c" --threads 1 --quiet >/dev/null || { echo "$c: failed" >&2; continue; }
    b=$(now)
    printf '%-45s %6s s\n' "$c" "$(calc "($b - $a) - $base")"
  done
fi
