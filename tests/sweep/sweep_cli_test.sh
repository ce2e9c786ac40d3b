#!/usr/bin/env bash
# tessera sweep end to end on synthetic captures (tessera-synth, no driver): bad input gets one
# line naming the file and the problem and writes nothing; a sweep over two captures x two frame
# ranges x a configuration grid equals what tessera replay writes for the same work (compare.sql);
# a rerun skips everything; a configuration added later runs alone; a finished job database that
# cannot be merged is reported and nothing of it lands; one sweep per database at a time.
# Usage: sweep_cli_test.sh TESSERA TESSERA_SYNTH
set -euo pipefail
tessera=$1 synth=$2
source "$(dirname "$0")/sweep_lib.sh"
work=$(mktemp -d /tmp/tessera-sweep-cli-XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

"$synth" -o a.tcap --frames 3 --textures 2 --texture-size 64 --seed 1 >/dev/null
"$synth" -o b.tcap --frames 3 --textures 2 --texture-size 64 --seed 2 >/dev/null

# expect_error NAME SWEEP-JSON EXPECTED-STDERR-LINE: non-zero exit, exactly that one line, no database.
expect_error() {
  printf '%s' "$2" > bad.json
  local rc=0
  "$tessera" sweep bad.json --db bad.db >out.txt 2>err.txt || rc=$?
  if [ $rc = 0 ]; then bad "$1: exit 0"; return; fi
  if [ "$(cat err.txt)" != "$3" ]; then bad "$1: stderr was: $(cat err.txt)"; return; fi
  if [ -e bad.db ] || [ -e bad.db.sweep ]; then bad "$1: wrote a database"; return; fi
  ok "$1"
}
expect_error "malformed JSON" '{"captures": ["a.tcap"' \
  "tessera sweep: bad.json: not valid JSON: parse error at line 1, column 23: syntax error while parsing array - unexpected end of input; expected ']'"
expect_error "unknown key" '{"captures": ["a.tcap"], "config": ["mobile4"]}' \
  "tessera sweep: bad.json: unknown key 'config' (known: captures, frames, configs, schemes, set, slurm)"
expect_error "missing capture" '{"captures": ["a.tcap", "gone.tcap"]}' \
  "tessera sweep: bad.json: captures[1]: $work/gone.tcap: cannot open: No such file or directory"
expect_error "unknown configuration" '{"captures": ["a.tcap"], "configs": ["mobile4+dtexl", "mobile4+nope"]}' \
  "tessera sweep: bad.json: configs: configuration 'mobile4+nope': unknown scheme 'nope' (tessera schemes --list names every one)"
expect_error "unknown scheme" '{"captures": ["a.tcap"], "schemes": "dtexl,nope"}' \
  "tessera sweep: bad.json: schemes: unknown scheme 'nope' (tessera schemes lists them)"
expect_error "frames outside the capture" '{"captures": ["a.tcap"], "frames": "4-5"}' \
  "tessera sweep: bad.json: frames '4-5': a.tcap holds presents 1-3, none in the range"
expect_error "a grid parameter no configuration has" '{"captures": ["a.tcap"], "set": {"dtexl.grouping": "CG-xrect"}}' \
  "tessera sweep: bad.json: set: no configuration of this sweep has the parameter 'dtexl.grouping' (a parameter of scheme dtexl)"
rc=0; "$tessera" sweep bad.json 2>err.txt || rc=$?
[ $rc != 0 ] && [ "$(cat err.txt)" = "tessera sweep: bad.json: --db OUT is needed (the database the sweep merges into)" ] \
  && ok "no --db" || bad "no --db: $(cat err.txt)"

echo '{"captures": ["a.tcap"]}' > one.json
rc=0; "$tessera" sweep one.json --db nodir/out.db 2>err.txt || rc=$?
[ $rc != 0 ] && [ "$(cat err.txt)" = "tessera sweep: $work/nodir/out.db.sweep: cannot create the sweep's state directory: No such file or directory" ] \
  && [ ! -e nodir ] && ok "--db in a missing directory" || bad "--db in a missing directory: $(cat err.txt)"

# The example names every key; its configurations and grid are valid (its captures are not here).
"$tessera" sweep --example > example.json
rc=0; "$tessera" sweep example.json --db ex.db 2>err.txt || rc=$?
[ $rc != 0 ] && grep -qx "tessera sweep: example.json: captures\[0\]: $work/vkcube.tcap: cannot open: No such file or directory" err.txt \
  && ok "the example parses and plans up to its captures" || bad "example: $(cat err.txt)"

cat > sweep.json <<'JSON'
{"captures": ["a.tcap", "b.tcap"], "frames": ["1-2", "3"], "configs": ["mobile4", "mobile32"],
 "set": {"l2.size": ["1MiB", "2MiB"]}}
JSON
"$tessera" sweep sweep.json --db out.db --jobs 2 > run1.txt
grep -q "sweep sweep.json: 2 captures x 2 frame ranges x 4 configurations = 4 jobs, 0 already in out.db" run1.txt \
  && grep -q "4 run now, 0 finished earlier, 0 already in out.db, 0 not done" run1.txt \
  && ok "4 jobs run" || { bad "first sweep"; cat run1.txt; }

# b.tcap's job over present 3, for later.
key=$(ls out.db.sweep | grep '^b-3-.*\.log$' | sed 's/\.log$//')
# The same work through tessera replay: per capture, frame range and grid point.
replays() {  # replays DB CONFIG...
  local db=$1; shift
  local args=(); for c in "$@"; do args+=(--config "$c"); done
  for c in a.tcap b.tcap; do
    for f in 1-2 3; do
      for s in 1MiB 2MiB; do
        "$tessera" replay "$c" --db "$db" --frames $f "${args[@]}" --set l2.size=$s --quiet >/dev/null
      done
    done
  done
}
replays ref.db mobile4 mobile32
expect_equal "the sweep's database equals tessera replay's" out.db ref.db
# The comparison sees one changed value (python3's sqlite3 writes the copy).
cp ref.db changed.db
python3 -c "import sqlite3; d = sqlite3.connect('changed.db'); d.execute('UPDATE frame_metric SET value = value + 1 WHERE (run_id, frame_id, metric_id) IN (SELECT run_id, frame_id, metric_id FROM frame_metric LIMIT 1)'); d.commit()"
changed=$(compare out.db changed.db | cut -d, -f1-3)
[ "$changed" = "frame_metric,1,1" ] && ok "the comparison finds one changed value" || bad "comparison missed a change: $changed"

"$tessera" sweep sweep.json --db out.db > run2.txt
grep -q "0 run now, 0 finished earlier, 4 already in out.db, 0 not done" run2.txt && ok "a rerun runs nothing" \
  || { bad "rerun"; cat run2.txt; }

# A configuration added to the sweep: each job runs only it (shading once more, per job).
sed -i 's/"mobile32"\]/"mobile32", "mobile4-64k"]/' sweep.json
"$tessera" sweep sweep.json --db out.db > run3.txt
[ "$(grep -c '(2 configurations): .* merged' run3.txt)" = 4 ] && grep -q "4 run now" run3.txt \
  && ok "only the added configuration runs" || { bad "added configuration"; cat run3.txt; }
replays ref.db mobile4-64k
expect_equal "with the added configuration, still equal to tessera replay's" out.db ref.db

# A job database that cannot be merged: reported, nothing of it lands, the rest is merged; once
# it is gone the rerun runs that job.
rm -rf out2.db out2.db.sweep
mkdir -p out2.db.sweep
# The sweep as first planned: the same keys as out.db's first run.
sed -i 's/, "mobile4-64k"\]/]/' sweep.json
mkdir -p "out2.db.sweep/$key.db/not-a-database"
rc=0; "$tessera" sweep sweep.json --db out2.db --jobs 2 > run4.txt 2> err4.txt || rc=$?
[ $rc = 1 ] && grep -q "3 run now, 0 finished earlier, 0 already in out2.db, 1 not done" run4.txt \
  && grep -q "^tessera sweep: failed: b.tcap frames 3 (4 configurations): cannot merge $work/out2.db.sweep/$key.db: cannot open results database" err4.txt \
  && [ "$("$tessera" query out2.db "SELECT count(*) FROM frame_metrics WHERE capture = 'b.tcap' AND frame = 3" --csv | tail -1)" = 0 ] \
  && ok "an unmergeable job database is reported and nothing of it lands" || { bad "unmergeable job"; cat run4.txt err4.txt; }
rm -rf "out2.db.sweep/$key.db"
"$tessera" sweep sweep.json --db out2.db > run5.txt
grep -q "1 run now, 0 finished earlier, 3 already in out2.db, 0 not done" run5.txt && ok "the rerun finishes it" \
  || { bad "rerun after failure"; cat run5.txt; }
[ -z "$(ls out.db.sweep out2.db.sweep | grep -E '\.(db|job)$|part\.db')" ] && ok "no job database left behind" \
  || bad "left behind: $(ls out.db.sweep out2.db.sweep)"

# A job the replay refuses (its share of --max-memory is too small for the capture: exit 3) is
# reported and not run again, whatever --retries says.
rc=0; "$tessera" sweep sweep.json --db out3.db --jobs 2 --max-memory 8K --retries 2 > run6.txt 2> err6.txt || rc=$?
[ $rc = 1 ] && ! grep -q "running it again" err6.txt && grep -q "tessera replay exited 3: " err6.txt \
  && ok "a refused job is not run again" || { bad "refused job"; cat run6.txt err6.txt; }
rc=0; "$tessera" sweep sweep.json --db out3.db --max-memory 12X 2> err7.txt || rc=$?
[ $rc = 2 ] && grep -qx "tessera sweep: --max-memory '12X': expected a size in bytes, or with K, M, G or T (512M, 12G)" err7.txt \
  && ok "a bad --max-memory" || bad "bad --max-memory: $(cat err7.txt)"
rm -rf out3.db out3.db.sweep

# One sweep per database at a time.
rc=0; flock out.db.sweep/lock "$tessera" sweep sweep.json --db out.db 2>err.txt || rc=$?
[ $rc != 0 ] && grep -qx "tessera sweep: out.db: another tessera sweep is using this database ($work/out.db.sweep/lock)" err.txt \
  && ok "a second sweep on the same database is refused" || bad "lock: $(cat err.txt)"

"$tessera" sweep sweep.json --db out.db --merge > merge.txt && grep -q "4 already in out.db, 0 not done" merge.txt \
  && ok "--merge with nothing left" || { bad "--merge"; cat merge.txt; }

echo "sweep cli: $([ $fail = 0 ] && echo passed || echo FAILED)"
exit $fail
