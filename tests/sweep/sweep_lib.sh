# Sourced by the sweep's test scripts; needs $tessera.
sweep_tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# compare SWEEP_DB REF_DB: the tables (compare.sql) whose rows differ between the two databases,
# one CSV line each (table, only in the sweep's, only in replay's, rows, rows); nothing when
# they are equal. A database without runs or frame metrics counts as a difference.
compare() {
  "$tessera" query "$1" "$(sed "s|@REF@|$2|" "$sweep_tests_dir/compare.sql")" --csv | tail -n +2 |
    awk -F, '$2 != 0 || $3 != 0 || $4 != $5 || ($4 == 0 && ($1 == "frame_metric" || $1 == "run"))'
}

# expect_equal WHAT SWEEP_DB REF_DB
expect_equal() {
  local diffs
  diffs=$(compare "$2" "$3")
  if [ -z "$diffs" ]; then ok "$1"; else bad "$1:"; echo "$diffs"; fi
}
