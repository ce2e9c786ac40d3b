#!/usr/bin/env bash
# A sweep of real captures on local workers, interrupted and resumed (sweep_fixture.sh's captures
# and sweep file; one worker, so the order is known):
#  1. the first job's replay worker is SIGKILLed: the job is reported and run again;
#  2. once a job is merged, the sweep and its workers are SIGKILLed mid-run: the database holds
#     whole jobs only (every run with both frames, a marker each), no job database is left;
#  3. the rerun (two workers) runs only what is missing and the database then equals the one
#     tessera replay wrote for the same work; a third run runs nothing.
# Usage: sweep_local_e2e.sh TESSERA FIXTURE_DIR
set -euo pipefail
tessera=$1 dir=$2
source "$(dirname "$0")/sweep_lib.sh"
cd "$dir"
rm -rf local.db local.db.sweep
q() { "$tessera" query local.db "$1" --csv 2>/dev/null | tail -1; }

# setsid: the sweep leads a process group of its own, its workers in it.
setsid "$tessera" sweep sweep.json --db local.db --jobs 1 --retries 1 > run1.txt 2>&1 &
sweep=$!
wait_for() {  # wait_for WHAT COMMAND...: up to 300 s
  for _ in $(seq 1500); do "${@:2}" && return 0; sleep 0.2; done
  bad "timed out waiting for $1"; cat run1.txt; exit 1
}
worker() { pgrep -P "$sweep" >/dev/null; }
wait_for "the first worker" worker
kill -9 "$(pgrep -P "$sweep")"
merged_jobs() { [ "$(q "SELECT count(DISTINCT capture_id) FROM sweep_run JOIN run USING (run_id)")" -ge 1 ] 2>/dev/null; }
wait_for "the first merged job" merged_jobs
wait_for "the next worker" worker
sleep 1
kill -9 -- -"$sweep"
while kill -0 -- -"$sweep" 2>/dev/null; do sleep 0.1; done
wait "$sweep" 2>/dev/null || true
cat run1.txt
grep -q "failed after .* running it again: tessera replay was killed by signal 9" run1.txt \
  && ok "a killed worker is reported and its job run again" || bad "no retry of the killed worker"
captures=$(q "SELECT count(DISTINCT capture_id) FROM run")
runs=$(q "SELECT count(*) FROM run")
per_job=$(cat configs_per_job)
[ "$captures" -ge 1 ] && [ "$captures" -lt 3 ] && [ "$runs" = $((captures * per_job)) ] \
  && ok "killed mid-sweep: $captures whole job(s) of $per_job runs merged" || bad "after the kill: $captures captures, $runs runs"
[ "$(q "SELECT count(*) FROM (SELECT run_id FROM frame_metric GROUP BY run_id HAVING count(DISTINCT frame_id) != 2)")" = 0 ] \
  && [ "$(q "SELECT count(*) FROM sweep_run")" = "$runs" ] \
  && ok "no partial run: both frames and a marker for every run" || bad "partial rows after the kill"

"$tessera" sweep sweep.json --db local.db --jobs 2 > run2.txt
cat run2.txt
done_before=$(sed -n 's/.*run now, \([0-9]*\) finished earlier, \([0-9]*\) already in.*/\1 \2/p' run2.txt)
ran=$(sed -n 's/^sweep: 3 jobs: \([0-9]*\) run now.*/\1/p' run2.txt)
[ -n "$ran" ] && [ "$ran" -le 2 ] && [ "$ran" -ge 1 ] && grep -q ", 0 not done" run2.txt \
  && ok "the rerun ran $ran job(s) (finished earlier, already merged: $done_before)" || bad "rerun"
expect_equal "the resumed sweep's database equals tessera replay's" local.db reference.db
"$tessera" sweep sweep.json --db local.db > run3.txt
grep -q "0 run now, 0 finished earlier, 3 already in local.db, 0 not done" run3.txt \
  && ok "a third run runs nothing" || { bad "third run"; cat run3.txt; }
[ -z "$(ls local.db.sweep | grep -E '\.(db|job)$|part\.db')" ] && ok "no job database left behind" \
  || bad "left behind: $(ls local.db.sweep)"
exit $fail
