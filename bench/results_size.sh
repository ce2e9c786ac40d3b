#!/usr/bin/env bash
# The results database and report, lean or not: a copy of DB (any schema version) brought up to
# this build's schema with tessera migrate, its size before and after, the report's time and page
# size. Usage: bash bench/results_size.sh BUILD_DIR DB [PNG_DIR]
# Measured on a copy; DB itself is not changed.
set -euo pipefail
build=${1:?usage: results_size.sh BUILD_DIR DB [PNG_DIR]}
db=${2:?usage: results_size.sh BUILD_DIR DB [PNG_DIR]}
png=${3:-}
tessera=$build/bin/tessera
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$db" "$work/r.db"
for ext in -wal -shm; do [ -e "$db$ext" ] && cp "$db$ext" "$work/r.db$ext"; done
before=$(stat -c %s "$work/r.db")
t0=$(date +%s.%N)
"$tessera" migrate "$work/r.db"
t1=$(date +%s.%N)
after=$(stat -c %s "$work/r.db")
tiles=$("$tessera" query --csv "$work/r.db" "SELECT count(*) FROM tile_metrics" | tail -1)
grids=$("$tessera" query --csv "$work/r.db" "SELECT (SELECT count(*) FROM tile_grid) || ' ' || (SELECT count(*) FROM tile_grid_data)" | tail -1)
t2=$(date +%s.%N)
"$tessera" report "$work/r.db" -o "$work/report.html" ${png:+--png "$png"} > /dev/null
t3=$(date +%s.%N)
page=$(stat -c %s "$work/report.html")
awk -v b="$before" -v a="$after" -v m="$(echo "$t1 - $t0" | bc)" -v r="$(echo "$t3 - $t2" | bc)" \
    -v p="$page" -v t="$tiles" -v g="$grids" 'BEGIN {
  split(g, n, " ");
  printf "database         %8.1f MB -> %8.1f MB (%.1fx smaller), migrate %.1f s\n", b / 1e6, a / 1e6, b / a, m;
  printf "tile rows        %d in %d grids, %d stored (%.2fx shared)\n", t, n[1], n[2], n[2] ? n[1] / n[2] : 0;
  printf "report           %.1f s, page %.2f MB\n", r, p / 1e6 }'
