#!/usr/bin/env bash
# The sweep through a real single-node Slurm cluster (slurm_cluster.sh: munged, slurmctld, slurmd
# started here as root, stopped at the end): sweep_fixture.sh's sweep as one job array, waited
# for, equal to the database tessera replay wrote for the same work; then a held submission
# (--no-wait): --merge reports it pending, a second submission is refused while it is queued,
# and once released --merge completes it. Exit 77 (skipped) when not root.
# Usage: sweep_slurm_e2e.sh TESSERA FIXTURE_DIR
set -euo pipefail
tessera=$1 dir=$2
source "$(dirname "$0")/sweep_lib.sh"
if [ "$(id -u)" != 0 ]; then echo "skipped: the Slurm daemons run as root"; exit 77; fi
cluster=$(mktemp -d /tmp/tessera-slurm-XXXXXX)
trap 'bash "$sweep_tests_dir/slurm_cluster.sh" stop "$cluster"; rm -rf "$cluster"' EXIT
bash "$sweep_tests_dir/slurm_cluster.sh" start "$cluster"
export SLURM_CONF=$cluster/slurm.conf
cd "$dir"
rm -rf slurm.db slurm.db.sweep held.db held.db.sweep

"$tessera" sweep sweep.json --db slurm.db --slurm > slurm.txt
cat slurm.txt
grep -q "^submitted Slurm job [0-9]*: 3 array tasks" slurm.txt && grep -q "3 run now, 0 finished earlier, 0 already in slurm.db, 0 not done" slurm.txt \
  && ok "three array tasks run and merged" || bad "Slurm sweep"
[ "$(cat slurm.db.sweep/slurm-*_*.out | grep -c ": $(cat configs_per_job) configurations in ")" = 3 ] \
  && ok "each task's log reports its job" || { bad "task logs"; cat slurm.db.sweep/slurm-*_*.out; }
expect_equal "the Slurm sweep's database equals tessera replay's" slurm.db reference.db
[ ! -e slurm.db.sweep/slurm-job ] && "$tessera" sweep sweep.json --db slurm.db > local.txt \
  && grep -q "0 run now, 0 finished earlier, 3 already in slurm.db, 0 not done" local.txt \
  && ok "the finished submission is forgotten: a local rerun runs nothing" || { bad "rerun after Slurm"; cat local.txt; }

# A held array: nothing runs until it is released.
cat > held.json <<'JSON'
{"captures": ["vkcube.tcap", "glmark2-texture.tcap"], "frames": "3-4", "configs": ["mobile4", "mobile32"],
 "slurm": {"extra": ["--hold"]}}
JSON
"$tessera" sweep held.json --db held.db --slurm --no-wait > held.txt
job=$(sed -n 's/^submitted Slurm job \([0-9]*\): 2 array tasks.*/\1/p' held.txt)
[ -n "$job" ] && grep -q -- "--merge" held.txt && ok "--no-wait returns after submitting job $job" || { bad "--no-wait"; cat held.txt; }
rc=0; "$tessera" sweep held.json --db held.db --merge > merge1.txt 2> merge1.err || rc=$?
[ $rc = 1 ] && grep -q "tessera sweep: 2 jobs not done: Slurm job $job is still running; --merge again when it is done" merge1.err \
  && ok "--merge while it is queued merges nothing and says so" || { bad "--merge while queued"; cat merge1.txt merge1.err; }
rc=0; "$tessera" sweep held.json --db held.db --slurm 2> again.err || rc=$?
[ $rc = 1 ] && grep -q "held.db: Slurm job $job of an earlier submission is still queued or running" again.err \
  && ok "a second submission is refused while the first is queued" || { bad "second submission"; cat again.err; }
scontrol release "$job"
for _ in $(seq 300); do
  rc=0; "$tessera" sweep held.json --db held.db --merge > merge2.txt 2>&1 || rc=$?
  [ $rc = 0 ] && break
  sleep 1
done
# The two tasks may finish seconds apart: a --merge between them merges the first (and exits 1
# for the other), the next one the second.
[ $rc = 0 ] && grep -Eq "0 run now, (2 finished earlier, 0|1 finished earlier, 1) already in held.db, 0 not done" merge2.txt \
  && ok "--merge after the release merges both jobs" \
  || { bad "--merge after release"; cat merge2.txt; }
for c in vkcube.tcap glmark2-texture.tcap; do
  "$tessera" replay "$c" --db held-reference.db --frames 3-4 --config mobile4 --config mobile32 --quiet > /dev/null
done
expect_equal "the merged held sweep equals tessera replay's" held.db held-reference.db
exit $fail
