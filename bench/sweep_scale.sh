#!/usr/bin/env bash
# tessera sweep at scale: the end-to-end test's study (tests/sweep/sweep_fixture.sh: vkcube,
# glmark2 texture and vkscene at 640x360, presents 3-4, every scheme on two L1 sizes) run
#   - as the separate tessera replay runs it replaces (one per capture and L1 size),
#   - as a sweep on 1 and on 2 local workers,
#   - as a sweep through a single-node Slurm cluster on this machine (as root),
# each into a fresh database; prints wall time, CPU time of the processes it waited for, and the
# peak memory of each replay worker. Every sweep's database is checked against the replays'.
# Usage: bench/sweep_scale.sh [BUILD_DIR]   (default build)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
tessera=$build/bin/tessera
work=$(mktemp -d /tmp/tessera-sweep-bench-XXXXXX)
chmod 755 "$work"  # munged wants the path to its socket searchable by all
cluster=$work/cluster
trap 'bash "$src/tests/sweep/slurm_cluster.sh" stop "$cluster" 2>/dev/null; rm -rf "$work"' EXIT
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
bash "$src/tests/sweep/sweep_fixture.sh" "$tessera" "$build/layer" "$build/bin/vkscene" "$work/study" >/dev/null
cd "$work/study"
rm -f reference.db
source "$src/tests/sweep/sweep_lib.sh"

row() { printf '%-34s %8s %8s  %s\n' "$@"; }
timed() {  # timed LABEL COMMAND...: wall and CPU (user+sys of waited-for children) seconds
  local t0 c0 t1 c1
  t0=$(date +%s.%N); c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  "${@:2}" > "$work/out.txt"
  t1=$(date +%s.%N); c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  local rss
  rss=$(sed -n 's/^\[[0-9]*\/[0-9]*\] \([^ ]*\) .*peak memory \([0-9]*\) MiB.*/\1 \2 MiB/p' "$work/out.txt" | paste -sd';' - | sed 's/;/, /g')
  row "$1" "$(awk "BEGIN {printf \"%.1f\", $t1 - $t0}")" \
      "$(awk "BEGIN {printf \"%.1f\", ($c1 - $c0) / $(getconf CLK_TCK)}")" "$rss"
}
replays() {
  for c in vkcube.tcap glmark2-texture.tcap vkscene.tcap; do
    for s in 16KiB 32KiB; do
      /usr/bin/time -f "$c l1tex.size=$s %M" -a -o "$work/replay-rss.txt" "$tessera" replay "$c" --db reference.db \
        --frames 3-4 --config mobile4 --config mobile32+l2.size=2MiB --schemes all --set l1tex.size=$s --quiet
    done
  done
}
row "run" "wall s" "CPU s" "peak memory per replay worker"
timed "tessera replay x 6 (one at a time)" replays
row "" "" "" "$(awk '{printf "%s%s %s %.0f MiB", (NR > 1 ? ", " : ""), $1, $2, $3 / 1024}' "$work/replay-rss.txt")"
timed "tessera sweep --jobs 1" "$tessera" sweep sweep.json --db jobs1.db --jobs 1
timed "tessera sweep --jobs 2" "$tessera" sweep sweep.json --db jobs2.db --jobs 2
if [ "$(id -u)" = 0 ]; then
  bash "$src/tests/sweep/slurm_cluster.sh" start "$cluster"
  export SLURM_CONF=$cluster/slurm.conf
  # The tasks run under slurmd, not below this shell: their CPU time is not counted here.
  timed "tessera sweep --slurm (2 CPUs)" "$tessera" sweep sweep.json --db slurm.db --slurm
else
  echo "(not root: no Slurm run)"
fi
for db in jobs1.db jobs2.db slurm.db; do
  [ -e $db ] && expect_equal "$db equals the replays' database" $db reference.db
done
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
exit $fail
