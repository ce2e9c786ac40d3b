#!/usr/bin/env bash
# How `tessera replay` scales with --threads: per capture and thread count, the seconds of each
# stage and its speedup over one thread, read from `tessera replay --stage-times`:
#   shading  the study's thread shading the frames (front end, vertex stage and binning serial,
#            the tiles of a pass on the threads the models leave free)
#   model    index builds and model runs, summed over the threads that ran them
#   other    workload profile, PSNR and PNGs, and the database, summed likewise
#   total    wall time of the process
# A frame's model runs, profile and comparison run while the next frame is shaded, so stages
# overlap: their sum exceeds the total, and a stage's speedup near 1 with a total speedup above
# it is that overlap. Every run's summary rows (the time column aside, as printed: rounded) must
# be the same for every thread count; a difference is printed and the script exits 1. Every
# metric bit for bit is bench/model/results_equal.sh's check (THREADS_NEW).
#
# Usage: bench/replay_scaling.sh [BUILD_DIR] [THREADS...] CAPTURE...
#   BUILD_DIR  a build folder holding bin/tessera (default build)
#   THREADS    thread counts to run (default 1, 2 and the machine's CPU count)
#   REPLAY_ARGS (environment) the replay's other options (default --config mobile4)
#   REPEAT      (environment) runs per thread count, the fastest kept (default 1)
# e.g. bench/replay_scaling.sh build-release 1 2 out/openarena.tcap out/minetest.tcap
set -euo pipefail
build=build
if [ $# -gt 0 ] && [ -d "$1" ]; then
  build=$1
  shift
fi
threads=()
while [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; do
  threads+=("$1")
  shift
done
[ $# -gt 0 ] || { echo "usage: $0 [BUILD_DIR] [THREADS...] CAPTURE..." >&2; exit 2; }
if [ ${#threads[@]} -eq 0 ]; then
  threads=(1 2)
  [ "$(nproc)" -gt 2 ] && threads+=("$(nproc)")
fi
tessera=$build/bin/tessera
[ -x "$tessera" ] || { echo "$0: no $tessera" >&2; exit 2; }
read -r -a args <<< "${REPLAY_ARGS:---config mobile4}"
repeat=${REPEAT:-1}
work=$(mktemp -d /tmp/tessera-replay-scaling-XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start; replay ${args[*]}"
status=0
for capture in "$@"; do
  name=$(basename "$capture" .tcap)
  printf '\n%s\n%-8s %16s %16s %16s %16s\n' "$name" threads "shading s (x)" "model s (x)" "other s (x)" "total s (x)"
  base=()
  for t in "${threads[@]}"; do
    best=""
    for ((r = 0; r < repeat; ++r)); do
      "$tessera" replay "$capture" "${args[@]}" --threads "$t" --quiet --stage-times > "$work/rows.txt" 2> "$work/err.txt" || {
        echo "$name --threads $t: tessera replay failed:"; cat "$work/err.txt"; status=1; continue 2; }
      line=$(grep '^stage seconds:' "$work/err.txt") || {
        echo "$name --threads $t: no stage seconds line (a build without --stage-times?)"; status=1; continue 2; }
      # shading, index + model, profile + compare + database, total
      stages=$(awk '{for (i = 3; i < NF; i += 2) v[$i] = $(i + 1);
                     printf "%s %s %s %s", v["shading"], v["index"] + v["model"],
                            v["profile"] + v["compare"] + v["database"], v["total"]}' <<< "$line")
      if [ -z "$best" ] || awk -v a="${stages##* }" -v b="${best##* }" 'BEGIN {exit !(a < b)}'; then best=$stages; fi
      # The summary without its time column (the frame rows' seventh field).
      awk '{if ($1 ~ /^[0-9]+$/ && NF >= 8) $7 = "-"; print}' "$work/rows.txt" > "$work/rows-$t.txt"
    done
    read -r -a v <<< "$best"
    [ ${#base[@]} -gt 0 ] || base=("${v[@]}")
    row=$(printf '%-8s' "$t")
    for k in 0 1 2 3; do
      row+=$(awk -v s="${v[$k]}" -v b="${base[$k]}" 'BEGIN {printf " %9.2f (%4.2f)", s, (s > 0 ? b / s : 0)}')
    done
    echo "$row"
    if ! cmp -s "$work/rows-${threads[0]}.txt" "$work/rows-$t.txt"; then
      echo "FAIL: $name: --threads $t prints other rows than --threads ${threads[0]}:"
      diff "$work/rows-${threads[0]}.txt" "$work/rows-$t.txt" | head -5
      status=1
    fi
  done
done
exit $status
