#!/usr/bin/env bash
# End to end: capture a real application on lavapipe under Xvfb, replay the capture through the
# functional tile-based renderer and the GPU model presets, and check what the issue asks:
#  - the replayed image matches the presented one (PSNR >= 35 dB) on every frame,
#  - no draw was skipped,
#  - the results database holds the docs/contracts.md metrics for mobile4 and mobile32,
#  - the counters reconcile (hits + misses = accesses, and the like).
# Usage: replay_e2e.sh TESSERA_CLI LAYER_DIR WORKLOAD [APP]   (WORKLOAD: vkcube, vkscene,
# glmark2-texture, glmark2-bump, glmark2-jellyfish, glmark2-ideas (line strips, Bresenham),
# glmark2-texture-msaa4 (a 4-sample default framebuffer, resolved for the present), glreflect
# (Tessera's GL sample through Zink: a stencil-masked planar reflection clipped by a user clip
# plane, with a front-face flip; APP is its binary), glreflect-breadth (its breadth scene: stencil
# per face, depth bias, clip and cull distances, winding), vkbreadth-d32 and vkbreadth-d24
# (Tessera's Vulkan breadth sample with a D32_SFLOAT_S8_UINT or D24_UNORM_S8_UINT depth/stencil
# buffer: stencil state per face as dynamic state, negative-height viewports, mirrored winding,
# depth bias with its clamp; APP is its binary))
set -euo pipefail
tessera=$1 layer_dir=$2 workload=$3 app=${4:-}
work=$(mktemp -d /tmp/tessera-replay-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
export VK_ADD_LAYER_PATH=$layer_dir
xvfb=(xvfb-run -a -s '-screen 0 1280x720x24')
size=640x360

capture() {  # capture [--gl] FRAMES -- APP ARGS
  local gl=()
  if [ "$1" = --gl ]; then gl=(--gl); shift; fi
  local frames=$1; shift; shift
  for attempt in 1 2 3; do
    # glmark2 on Zink + lavapipe's X11 WSI sometimes exits 1 at window teardown with an X
    # BadDrawable error, after its last frame (with or without the layer): retry only that.
    if "${xvfb[@]}" "$tessera" capture "${gl[@]}" --frames "$frames" -o "$work/c.tcap" -- "$@" \
        >"$work/capture.log" 2>&1; then return 0; fi
    grep -q BadDrawable "$work/capture.log" && [ -s "$work/c.tcap" ] && "$tessera" verify "$work/c.tcap" && return 0
    echo "capture attempt $attempt failed:"; tail -5 "$work/capture.log"
  done
  return 1
}

case $workload in
  vkcube) capture 3-4 -- vkcube --c 6 --width 640 --height 360 ;;
  vkscene) capture 2-3 -- "$app" --frames 4 --width 640 --height 360 ;;
  glreflect) capture --gl 3-4 -- "$app" --frames 6 --width 640 --height 360 ;;
  glreflect-breadth) capture --gl 2-3 -- "$app" --scene breadth --frames 4 --width 640 --height 360 ;;
  vkbreadth-d32|vkbreadth-d24)
    capture 2-3 -- "$app" --frames 4 --width 640 --height 360 --depth-format "${workload#vkbreadth-}" ;;
  # ideas: scene time 10x wall time, so its animation has moved by frame 5.
  glmark2-ideas) capture --gl 5-6 -- glmark2 -s $size -b "ideas:nframes=10:duration=1000:speed=10" ;;
  glmark2-texture-msaa4)
    capture --gl 5-6 -- glmark2 -s $size --visual-config samples=4 -b "texture:nframes=10:duration=1000" ;;
  glmark2-*) capture --gl 5-6 -- glmark2 -s $size -b "${workload#glmark2-}:nframes=10:duration=1000" ;;
  *) echo "unknown workload $workload"; exit 2 ;;
esac

"$tessera" replay "$work/c.tcap" --db "$work/r.db" --png "$work/png" --quiet | tee "$work/replay.txt"
# Every scheme variant and combination from the same capture (one shading pass per tile size).
# The tiles of a pass are shaded and the configurations of a frame run on --threads threads (one
# per core by default); one thread must give the same images and rows (vkcube only: the
# cheapest workload), so vkcube's run asks for 4 whatever the cores.
threads=()
if [ "$workload" = vkcube ]; then threads=(--threads 4 --png "$work/png4"); fi
"$tessera" replay "$work/c.tcap" --db "$work/r.db" --schemes all "${threads[@]}" --quiet > "$work/schemes.txt"
grep -c frame "$work/schemes.txt" | sed 's/^/scheme runs (configuration x frame lines): /'
if [ "$workload" = vkcube ]; then
  "$tessera" replay "$work/c.tcap" --db "$work/serial.db" --schemes all --threads 1 --png "$work/png1" --quiet > /dev/null
fi

q() { "$tessera" query "$work/r.db" "$1" --csv | tail -n +2; }
fail=0
check() {  # check DESCRIPTION SQL-returning-count-of-violations
  local n; n=$(q "$2")
  if [ "$n" != 0 ]; then echo "FAIL: $1 ($n violations)"; fail=1; else echo "ok: $1"; fi
}
check "PSNR >= 35 dB on every frame" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db' AND value < 35"
configs="(SELECT count(DISTINCT config) FROM frame_metrics)"
check "a PSNR for every frame and configuration" \
  "SELECT (SELECT count(*) FROM frame) * $configs - count(*) FROM frame_metrics WHERE metric = 'replay.psnr_db'"
if [ "$workload" = vkcube ]; then
  # Everything but the wall time of shading.
  differ="SELECT capture, frame, config, metric, value FROM %s.frame_metrics WHERE metric != 'replay.render_seconds'"
  check "--threads 1 gives the same frame metrics as --threads 4" \
    "ATTACH DATABASE '$work/serial.db' AS s;
     SELECT (SELECT count(*) FROM ($(printf "$differ" main) EXCEPT $(printf "$differ" s)))
          + (SELECT count(*) FROM ($(printf "$differ" s) EXCEPT $(printf "$differ" main)))
          + (SELECT count(*) = 0 FROM s.frame_metrics) AS violations"
fi
if [ "$workload" = vkcube ]; then
  pngs=$(ls "$work/png1" | wc -l)
  if [ "$pngs" -eq 0 ] || ! diff -r "$work/png1" "$work/png4" > /dev/null; then
    echo "FAIL: --threads 1 and --threads 4 write the same PNGs ($pngs of them)"; fail=1
  else
    echo "ok: --threads 1 and --threads 4 write the same PNGs ($pngs of them)"
  fi
fi
check "no skipped draws" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.skipped' AND value != 0"
check "no draw rendered with an approximation" \
  "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.approximated' AND value != 0"
for m in cycles energy.total_nj quads fragments draws l1tex.accesses l1tex.hits l1tex.local_hits \
         l2.accesses l2.misses dram.accesses pb.l2_accesses pb.dram_accesses replay.psnr_db \
         replay.skipped replay.approximated; do
  check "metric $m for every configuration on every frame" \
    "SELECT (SELECT count(*) FROM frame) * $configs - count(*) FROM frame_metrics WHERE metric = '$m'"
done
check "non-zero work: quads, fragments, cycles" \
  "SELECT count(*) FROM frame_metrics WHERE metric IN ('quads', 'fragments', 'cycles') AND value <= 0"
# reconcile "LHS metrics" "RHS metrics": per frame and configuration, the sums are equal and the
# metrics all exist (a missing one would make the check pass vacuously).
reconcile() {
  local l="" r="" names=""
  for m in $1; do l="$l + sum(CASE WHEN metric = '$m' THEN value ELSE 0 END)"; names="$names,'$m'"; done
  for m in $2; do r="$r + sum(CASE WHEN metric = '$m' THEN value ELSE 0 END)"; names="$names,'$m'"; done
  local n=$(( $(echo "$1 $2" | wc -w) ))
  # Violations: groups where the sums differ or a metric is missing, plus frames x configs with
  # none of the metrics at all.
  check "$1 = $2" "SELECT (SELECT count(*) FROM (SELECT 0 $l AS l, 0 $r AS r, count(DISTINCT metric) AS n
     FROM frame_metrics WHERE metric IN (${names#,}) GROUP BY capture, frame, config)
     WHERE l != r OR n != $n)
     + (SELECT (SELECT count(*) FROM frame) * $configs - count(DISTINCT capture || '/' || frame || '/' || config)
     FROM frame_metrics WHERE metric IN (${names#,})) AS violations"
}
for c in l1tex l2 tile vertex; do reconcile "$c.hits $c.misses" "$c.accesses"; done
reconcile "quads" "replay.quads"
reconcile "fragments" "replay.fragments"
reconcile "texture.samples" "replay.texture_samples"
reconcile "texture.lines" "replay.texture_lines"
# A buffer in front of L1 (paper 004 TFM, filter caches) serves some lines itself:
# model/schemes/tfm/check.sql reconciles those configurations against their preset.
check "l1tex.accesses = texture.lines without a front buffer" \
  "SELECT count(*) FROM frame_metrics a JOIN frame_metrics t
     ON t.capture = a.capture AND t.frame = a.frame AND t.config = a.config AND t.metric = 'texture.lines'
   WHERE a.metric = 'l1tex.accesses' AND a.value != t.value
     AND a.config NOT IN (SELECT config FROM frame_metrics WHERE metric = 'tfm.accesses')"
# Without prefetches every line L1 reads from L2 is a miss (prefetching schemes reconcile their
# fills in model/schemes/dae/check.sql).
check "l1tex.misses = l2.texture_accesses where nothing prefetches" \
  "SELECT count(*) FROM (SELECT sum(value) FILTER (WHERE metric = 'l1tex.misses') AS m,
     sum(value) FILTER (WHERE metric = 'l2.texture_accesses') AS l,
     sum(value) FILTER (WHERE metric = 'l1tex.prefetches') AS p
   FROM frame_metrics GROUP BY capture, frame, config) WHERE p = 0 AND (m IS NULL OR l IS NULL OR m != l)"
reconcile "vertex.misses" "l2.vertex_accesses"
reconcile "l2.accesses" "l2.texture_accesses l2.vertex_accesses pb.l2_accesses"
# L2 to DRAM: every line L2 reads or writes below is one DRAM access; attachment traffic goes
# straight to DRAM (paper 003 Fig. 2). A full-line write miss in L2 (a write-back from the tile
# cache) allocates without a read, so l2.misses may exceed l2.fetches by those.
reconcile "dram.accesses" "l2.fetches l2.writebacks l2.write_throughs dram.color_flushes dram.attachment_loads"
reconcile "dram.l2_fetches" "l2.fetches"
reconcile "dram.l2_writes" "l2.writebacks l2.write_throughs"
check "mobile4, mobile32 and at least one scheme configuration" \
  "SELECT 3 - (SELECT count(*) FROM config WHERE name IN ('mobile4', 'mobile32')) - min(1, (SELECT count(*) FROM config WHERE name LIKE '%+%'))"
# A scheme configuration that changes nothing against its preset on any frame is a stub (on a
# capture with fragment texture samples: without any, a texture-path scheme such as perfect-l1
# has nothing to change). Paper 004's conventional unit (a lookup per texel read, Algorithm 1)
# equals the preset's coalescing unit (a request per distinct line of a sample) where every
# sample reads one texel per line, as point-sampled captures do: there it has nothing to change.
check "every scheme configuration differs from its preset" \
  "SELECT count(*) FROM (SELECT s.config FROM frame_metrics s JOIN frame_metrics b
     ON b.capture = s.capture AND b.frame = s.frame AND b.metric = s.metric
     AND b.config = substr(s.config, 1, instr(s.config, '+') - 1)
   WHERE s.config LIKE '%+%' AND s.metric NOT LIKE 'replay.%' AND s.metric NOT LIKE 'sim.events.%'
     AND s.capture IN (SELECT capture FROM frame_metrics WHERE metric = 'texture.lines' AND value > 0)
     AND NOT (s.config LIKE '%+conventional-tu' AND NOT EXISTS (
       SELECT 1 FROM frame_metrics r JOIN frame_metrics l
         ON l.capture = r.capture AND l.frame = r.frame AND l.config = r.config AND l.metric = 'texture.lines'
       WHERE r.metric = 'texture.texel_reads' AND r.capture = s.capture AND r.config = b.config
         AND r.value != l.value))
   GROUP BY s.config HAVING max(abs(s.value - b.value)) = 0)"
# Each scheme's own reconciliations, in its folder (model/schemes/<scheme>/check.sql: a first-line
# comment naming the check, then one query returning the number of violations in a column named
# violations).
scheme_checks=0
for f in "$(dirname "$0")"/../../model/schemes/*/check.sql; do
  [ -e "$f" ] || continue
  check "$(head -1 "$f" | sed 's/^-- *//')" "$(tail -n +2 "$f")"
  scheme_checks=$((scheme_checks + 1))
done
[ "$scheme_checks" -gt 0 ] || { echo "FAIL: no model/schemes/*/check.sql found"; fail=1; }
[ "$(ls "$work/png" | wc -l)" -ge 2 ] || { echo "FAIL: no PNG written"; fail=1; }
exit $fail
