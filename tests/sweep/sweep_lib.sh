# Sourced by the sweep's test scripts; needs $tessera.
sweep_tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# compare SWEEP_DB REF_DB: the tables whose rows (compare.sql) differ between the two databases,
# one CSV line each (table, rows only in the sweep's, rows only in replay's, row counts); nothing
# when they are equal. A database without runs or frame metrics counts as a difference.
compare() {
  local sql t
  sql="ATTACH DATABASE '$2' AS ref; $(sed 's/@S@/main/g' "$sweep_tests_dir/compare.sql")
       $(sed 's/@S@/ref/g' "$sweep_tests_dir/compare.sql")"
  local select=""
  for t in capture frame config run metric frame_metric tile_metric core_metric; do
    select+="${select:+ UNION ALL }SELECT '$t',
      (SELECT count(*) FROM (SELECT * FROM main_$t EXCEPT SELECT * FROM ref_$t)),
      (SELECT count(*) FROM (SELECT * FROM ref_$t EXCEPT SELECT * FROM main_$t)),
      (SELECT count(*) FROM main_$t), (SELECT count(*) FROM ref_$t)"
  done
  "$tessera" query "$1" "$sql $select" --csv | tail -n +2 |
    awk -F, '$2 != 0 || $3 != 0 || $4 != $5 || ($4 == 0 && ($1 == "frame_metric" || $1 == "run"))'
}

# expect_equal WHAT SWEEP_DB REF_DB
expect_equal() {
  local diffs
  diffs=$(compare "$2" "$3")
  if [ -z "$diffs" ]; then ok "$1"; else bad "$1:"; echo "$diffs"; fi
}
