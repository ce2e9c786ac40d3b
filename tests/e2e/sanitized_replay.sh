#!/usr/bin/env bash
# A real capture replayed by an instrumented tessera (ASan + UBSan, or TSan): the capture reader,
# the front end, the tile-parallel renderer, the access stream writer and reader, the GPU model
# with its schemes and the results database all run on a README workload, not only on the unit
# suites' synthetic inputs. Any sanitizer report fails the test.
#
# The capture is taken by an uninstrumented build (CAPTURE_BUILD: its bin/tessera, layer/ and
# bin/vkscene): an instrumented layer cannot load into an uninstrumented application, whose
# process would not start with the sanitizer runtime first.
#
# Frames and configurations are few so that the stage fits CI on two cores: one or two frames
# through mobile4, every scheme configuration (--schemes all) only on the tiny frames (vkcube,
# glmark2 texture), a short scheme list on vkscene, none on the game.
#
# Usage: sanitized_replay.sh TESSERA CAPTURE_BUILD WORKLOAD THREADS...
#   WORKLOAD: vkcube, vkscene, glmark2-texture, or a game of bench/workloads (supertux, ...)
#   THREADS: the --threads of each replay (two at least run tiles and configurations in parallel;
#   the TSan build asks for 2 and 4, more interleavings, and both must give the same results)
set -euo pipefail
tessera=$1 capture_build=$2 workload=$3
shift 3
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(2)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tessera-sanitized-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"

# Reports must fail the run whatever the caller's environment: the first ASan report aborts,
# UBSan does not recover (TESSERA_SANITIZE builds with -fno-sanitize-recover), the first TSan
# report ends the process with a non-zero status. The caller's own options come first so that
# these win.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}abort_on_error=1:halt_on_error=1:detect_leaks=1"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="${TSAN_OPTIONS:+$TSAN_OPTIONS:}halt_on_error=1:second_deadlock_stack=1"

for tool in "$capture_build/bin/tessera" "$capture_build/layer"; do
  [ -e "$tool" ] || { echo "FAIL: $tool missing: build the uninstrumented tree first"; exit 1; }
done
release=$capture_build/bin/tessera
export TESSERA=$release TESSERA_LAYER_DIR=$capture_build/layer VKSCENE=$capture_build/bin/vkscene

# Captures with the uninstrumented tools at 640x360, as the release stage's e2e tests do. Each
# workload names the frames replayed through mobile4 (with PNGs) and the configurations (sims)
# simulated on its first frame: every scheme only where the frame is tiny; none on the game, whose
# frame alone takes the longest.
case $workload in
  vkcube)
    # xvfb-run -a races with a second server starting at once: ctest holds RESOURCE_LOCK xvfb.
    xvfb-run -a -s '-screen 0 1280x720x24' "$release" capture --frames 3-4 -o "$work/c.tcap" -- \
      vkcube --c 6 --width 640 --height 360 >"$work/capture.log" 2>&1 || { cat "$work/capture.log"; exit 1; }
    frames=3-4 sims=(--schemes all) ;;
  vkscene)
    bash "$here/../../bench/workloads/vkscene.sh" "$work/c.tcap" --size 640x360 --frames 3
    frames=3 sims=(--schemes tcor,dae) ;;
  glmark2-texture)
    bash "$here/../../bench/workloads/glmark2-texture.sh" "$work/c.tcap" --size 640x360 --frames 5
    frames=5 sims=(--schemes all) ;;
  *)
    # A game: its script captures gameplay by content (three frames; their present numbers vary
    # with the machine's speed); the first of them is replayed.
    bash "$here/../../bench/workloads/$workload.sh" "$work/c.tcap" --size 640x360
    frames=$("$release" info "$work/c.tcap" | sed -n 's/^frames .*(presents \([0-9]*\)-.*/\1/p')
    [ -n "$frames" ] || { echo "FAIL: no present range in the capture's info"; exit 1; }
    sims=() ;;
esac

# run NAME ARGS...: runs the instrumented tessera, its stderr kept; any report text fails the
# test even where the status would not (a report from a child process, an option overridden).
run() {
  local name=$1; shift
  echo "+ tessera $*"
  local start=$SECONDS status=0
  "$tessera" "$@" >"$work/$name.out" 2>"$work/$name.err" || status=$?
  echo "  ${name}: $((SECONDS - start)) s, status $status"
  if [ $status -ne 0 ] || grep -qE "ERROR: (Address|Leak)Sanitizer|runtime error:|WARNING: ThreadSanitizer" "$work/$name.err"; then
    echo "FAIL: $name (status $status)"; cat "$work/$name.err"; tail -5 "$work/$name.out"; exit 1
  fi
}

run verify verify "$work/c.tcap"
run info info "$work/c.tcap"
for t in "${threads[@]}"; do
  run "replay-$t" replay "$work/c.tcap" --frames "$frames" --config mobile4 --threads "$t" \
    --db "$work/r$t.db" --png "$work/png$t" --quiet
  if [ ${#sims[@]} -gt 0 ]; then
    run "sims-$t" replay "$work/c.tcap" --frames "${frames%-*}" "${sims[@]}" --threads "$t" --db "$work/s$t.db" --quiet
  fi
done

q() { "$tessera" query "$1" "$2" --csv | tail -n +2; }
fail=0
check() {  # check DESCRIPTION DB SQL-returning-count-of-violations-as-one-column
  local n; n=$(q "$2" "$3")
  if [ "$n" != 0 ]; then echo "FAIL: $1 ($n violations)"; fail=1; else echo "ok: $1"; fi
}
nframes=$(( ${frames#*-} - ${frames%-*} + 1 ))
# same DESCRIPTION DB1 DB2: the two databases hold the same frame metrics (the wall time of
# shading aside): the tiles of a pass and the configurations of a frame run in parallel, and the
# thread count must not change a result.
same() {
  local rows="SELECT frame, config, metric, value FROM %s.frame_metrics WHERE metric != 'replay.render_seconds'"
  check "$1" "$2" "ATTACH DATABASE '$3' AS o;
     SELECT (SELECT count(*) FROM ($(printf "$rows" main) EXCEPT $(printf "$rows" o)))
          + (SELECT count(*) FROM ($(printf "$rows" o) EXCEPT $(printf "$rows" main))) AS violations"
}
for t in "${threads[@]}"; do
  r=$work/r$t.db
  check "--threads $t: $nframes frames replayed through mobile4" "$r" \
    "SELECT count(*) != $nframes AS violations FROM frame_metrics WHERE metric = 'replay.psnr_db' AND config = 'mobile4'"
  check "--threads $t: PSNR >= 35 dB on every frame" "$r" \
    "SELECT count(*) AS violations FROM frame_metrics WHERE metric = 'replay.psnr_db' AND value < 35"
  check "--threads $t: no skipped draws" "$r" \
    "SELECT count(*) AS violations FROM frame_metrics WHERE metric = 'replay.skipped' AND value != 0"
  [ "$(ls "$work/png$t" | wc -l)" -ge 2 ] || { echo "FAIL: --threads $t: no PNG written"; fail=1; }
  if [ ${#sims[@]} -gt 0 ]; then
    check "--threads $t: scheme configurations simulated, cycles on each" "$work/s$t.db" \
      "SELECT ((SELECT count(*) FROM config WHERE name LIKE '%+%') = 0)
            + (SELECT count(*) FROM config)
            - (SELECT count(DISTINCT config) FROM frame_metrics WHERE metric = 'cycles' AND value > 0) AS violations"
  fi
done
if [ ${#threads[@]} -gt 1 ]; then
  a=${threads[0]} b=${threads[1]}
  same "--threads $a and --threads $b give the same mobile4 rows" "$work/r$a.db" "$work/r$b.db"
  if diff -r "$work/png$a" "$work/png$b" >/dev/null; then
    echo "ok: --threads $a and --threads $b write the same PNGs"
  else
    echo "FAIL: --threads $a and --threads $b write different PNGs"; fail=1
  fi
  if [ ${#sims[@]} -gt 0 ]; then
    same "--threads $a and --threads $b give the same scheme rows" "$work/s$a.db" "$work/s$b.db"
  fi
fi
exit $fail
