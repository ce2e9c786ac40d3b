#!/bin/sh
# Speed work must not change a result: runs two builds of tessera on the same captures with every
# scheme (`--schemes all`, both on --threads THREADS, default 1) and compares every frame, tile and
# core metric of their databases, value for value (SQLite's %!.17g: every bit of a double).
# Wall-clock metrics (seconds) are left out. With THREADS_NEW set, the new build runs on that many
# threads instead, which also checks that results do not depend on the thread count.
# Usage: bench/model/results_equal.sh OLD_TESSERA NEW_TESSERA CAPTURE[:FRAMES]...
#   e.g. bench/model/results_equal.sh /tmp/old/tessera build/bin/tessera vkscene.tcap openarena.tcap:301
# Prints one line per capture (rows compared, rows differing) and exits 1 on any difference.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 OLD_TESSERA NEW_TESSERA CAPTURE[:FRAMES]..." >&2; exit 2; }
old=$1 new=$2
shift 2
work=$(mktemp -d /tmp/tessera-equal-XXXXXX)
trap 'rm -rf "$work"' EXIT
threads=${THREADS:-1}
threads_new=${THREADS_NEW:-$threads}
dump() {  # dump DB: every metric row (one capture per database), sorted
  sqlite3 -separator ' ' "$1" "
    SELECT 'frame', frame, config, metric, printf('%!.17g', value) FROM frame_metrics WHERE metric NOT LIKE '%seconds%'
    UNION ALL SELECT 'tile', frame, config, tile_x || ',' || tile_y, metric || ' ' || printf('%!.17g', value) FROM tile_metrics
    UNION ALL SELECT 'core', frame, config, core, metric || ' ' || printf('%!.17g', value) FROM core_metrics" | sort
}
status=0
n=0
for spec in "$@"; do
  capture=${spec%%:*}
  frames=
  [ "$capture" = "$spec" ] || frames="--frames ${spec#*:}"
  n=$((n + 1))
  # shellcheck disable=SC2086
  "$old" replay "$capture" $frames --schemes all --threads "$threads" --quiet --db "$work/old$n.db" > "$work/old$n.txt"
  # shellcheck disable=SC2086
  "$new" replay "$capture" $frames --schemes all --threads "$threads_new" --quiet --db "$work/new$n.db" > "$work/new$n.txt"
  dump "$work/old$n.db" > "$work/old$n.rows"
  dump "$work/new$n.db" > "$work/new$n.rows"
  rows=$(wc -l < "$work/old$n.rows" | tr -d ' ')
  differing=$(diff "$work/old$n.rows" "$work/new$n.rows" | grep -c '^[<>]' || true)
  echo "$capture${frames:+ ($frames)}: $rows metric rows, $differing differing"
  if [ "$differing" -ne 0 ] || [ "$rows" -eq 0 ]; then
    diff "$work/old$n.rows" "$work/new$n.rows" | head -n 10
    status=1
  fi
done
exit $status
