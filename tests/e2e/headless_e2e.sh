#!/usr/bin/env bash
# Frames without presents: vkscene --headless renders into offscreen images and never presents
# (and, for VK_EXT_frame_boundary, the same in a window under Xvfb, whose presents carry it).
# Captured at submit boundaries (tessera capture --frame-boundary submit: every vkQueueSubmit
# call with command buffers is a frame), replayed, and checked:
#  - every frame that drew is compared with its last colour target as the driver left it
#    (PSNR >= 35 dB, no skipped draw),
#  - the replayed last frame matches what vkscene itself read back (--dump-last-frame, >= 35 dB),
#  - the capture records submit as its boundary,
#  - at marker boundaries (a queue debug label) the frames are the application's own four, and
#    the same with VK_EXT_frame_boundary (offered by the layer; headless and in a window),
#  - a trigger armed by content (--arm-draws) fires after three frames that draw enough, never
#    when none does,
#  - the model's timeline of the last frame (tessera replay --trace) is trace-event JSON whose
#    shader-core counters sum to the frame's core metrics, and it opens in headless Chromium;
#    --trace with two configurations is refused with one line.
# Usage: headless_e2e.sh TESSERA_CLI VKSCENE
set -euo pipefail
tessera=$1 vkscene=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tessera-headless-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
fail=0
app=("$vkscene" --headless --frames 4 --width 640 --height 360)

# Every submit of the run: texture and buffer uploads first, then one per frame (the last one
# also copies the image out for --dump-last-frame).
"$tessera" capture --frame-boundary submit --frames 1-64 -o "$work/c.tcap" -- "${app[@]}" \
  --dump-last-frame "$work/last.ppm" > "$work/capture.log" 2>&1 || { cat "$work/capture.log"; exit 1; }
"$tessera" info "$work/c.tcap" > "$work/info.txt"
grep -q 'frame_boundary.*submit' "$work/info.txt" || { echo "FAIL: the capture does not say frame_boundary submit"; fail=1; }

"$tessera" replay "$work/c.tcap" --db "$work/r.db" --config mobile4 --png "$work/png" --quiet | tee "$work/replay.txt"
q() { "$tessera" query "$work/r.db" "$1" --csv | tail -n +2; }
drawn=$(q "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.draws_submitted' AND value > 0")
[ "$drawn" = 4 ] || { echo "FAIL: $drawn frames drew, expected vkscene's 4"; fail=1; }
low=$(q "SELECT count(*) FROM frame_metrics d LEFT JOIN frame_metrics p ON p.capture = d.capture
         AND p.frame = d.frame AND p.config = d.config AND p.metric = 'replay.psnr_db'
         WHERE d.metric = 'replay.draws_submitted' AND d.value > 0 AND (p.value IS NULL OR p.value < 35)")
[ "$low" = 0 ] && echo "ok: every frame that drew is at >= 35 dB against its final colour target" ||
  { echo "FAIL: $low frames that drew have no PSNR or one below 35 dB"; fail=1; }
skipped=$(q "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.skipped' AND value != 0")
[ "$skipped" = 0 ] || { echo "FAIL: skipped draws in $skipped frames"; fail=1; }
approximated=$(q "SELECT count(*) FROM frame_metrics WHERE metric = 'replay.approximated' AND value != 0")
[ "$approximated" = 0 ] || { echo "FAIL: draws rendered with an approximation in $approximated frames"; fail=1; }
last=$(q "SELECT max(frame) FROM frame_metrics WHERE metric = 'replay.draws_submitted' AND value > 0")
if psnr=$(/usr/bin/python3 "$here/image_psnr.py" "$work/png/frame$last.png" "$work/last.ppm" --min 35); then
  echo "ok: replayed frame $last against vkscene's own readback: $psnr dB"
else
  echo "FAIL: replayed frame $last against vkscene's --dump-last-frame"; fail=1
fi

# At marker boundaries (vkscene --frame-labels inserts the label tessera.frame_end after each
# frame's submit) the frames are vkscene's own four, the uploads before them in the first.
"$tessera" capture --frame-boundary marker --frames 1-64 -o "$work/m.tcap" -- "${app[@]}" --frame-labels \
  > "$work/marker.log" 2>&1 || { cat "$work/marker.log"; exit 1; }
"$tessera" info "$work/m.tcap" > "$work/minfo.txt"
mframes=$(sed -n 's/^frames *\([0-9]*\).*/\1/p' "$work/minfo.txt" | head -1)
[ "$mframes" = 4 ] && grep -q 'frame_boundary.*marker' "$work/minfo.txt" && echo "ok: marker boundaries: 4 frames" ||
  { echo "FAIL: marker boundaries: $mframes frames, expected vkscene's 4"; cat "$work/minfo.txt"; fail=1; }
"$tessera" replay "$work/m.tcap" --db "$work/m.db" --config mobile4 --quiet > "$work/mreplay.txt"
mlow=$("$tessera" query "$work/m.db" "SELECT count(*) FROM frame f WHERE NOT EXISTS (SELECT 1 FROM frame_metrics p
         WHERE p.frame = f.present AND p.metric = 'replay.psnr_db' AND p.value >= 35)" --csv | tail -n +2)
[ "$mlow" = 0 ] && echo "ok: every marker frame is at >= 35 dB against its final colour target" ||
  { echo "FAIL: $mlow marker frames without a PSNR >= 35 dB"; cat "$work/mreplay.txt"; fail=1; }

# VK_EXT_frame_boundary at marker boundaries: lavapipe lacks the extension, the layer offers it;
# vkscene --frame-boundary-ext flags each frame's last submission (headless its submit, in a
# window its present) with VK_FRAME_BOUNDARY_FRAME_END_BIT_EXT, which ends the frame.
# (--validate: the validation layer below the capture layer reports nothing, so the extension's
# structures do not reach it from a layer that offers the extension itself.)
ext_err=$("${app[@]}" --frame-boundary-ext 2>&1 >/dev/null) && rc=0 || rc=$?
if [ "$rc" = 0 ]; then
  echo "note: this driver offers VK_EXT_frame_boundary itself; the layer passes it through"
elif [[ "$ext_err" == *"does not offer VK_EXT_frame_boundary"* ]]; then
  echo "ok: without the layer the driver does not offer VK_EXT_frame_boundary"
else
  echo "FAIL: vkscene --frame-boundary-ext without the layer: rc=$rc: $ext_err"; fail=1
fi
ext_frames() {  # ext_frames NAME MODE [xvfb-run ...]: capture vkscene --frame-boundary-ext at marker boundaries
  local name=$1 mode=$2; shift 2
  "$@" "$tessera" capture --frame-boundary marker --frames 1-64 -o "$work/$name.tcap" -- "$vkscene" $mode \
    --frames 4 --width 640 --height 360 --frame-boundary-ext --validate > "$work/$name.log" 2>&1 ||
    { cat "$work/$name.log"; return 1; }
  local n low
  n=$("$tessera" info "$work/$name.tcap" | sed -n 's/^frames *\([0-9]*\).*/\1/p' | head -1)
  "$tessera" replay "$work/$name.tcap" --db "$work/$name.db" --config mobile4 --quiet > "$work/$name.replay" || return 1
  low=$("$tessera" query "$work/$name.db" "SELECT count(*) FROM frame f WHERE NOT EXISTS (SELECT 1 FROM frame_metrics p
         WHERE p.frame = f.present AND p.metric = 'replay.psnr_db' AND p.value >= 35)" --csv | tail -n +2)
  [ "$n" = 4 ] && [ "$low" = 0 ] || { echo "$name: $n frames, $low below 35 dB"; cat "$work/$name.replay"; return 1; }
}
ext_frames e --headless && echo "ok: VK_EXT_frame_boundary headless (submits): 4 frames, each >= 35 dB" ||
  { echo "FAIL: VK_EXT_frame_boundary headless"; fail=1; }
ext_frames w "" xvfb-run -a -s '-screen 0 640x360x24' && grep -q "^  presented_image  *4$" <("$tessera" info "$work/w.tcap") &&
  echo "ok: VK_EXT_frame_boundary in a window (presents): 4 frames with their presented images, each >= 35 dB" ||
  { echo "FAIL: VK_EXT_frame_boundary in a window"; fail=1; }

# Trigger by content: vkscene draws 54 draws a frame and its uploads none, so three frames in a
# row of at least 50 fire the trigger (the next two are captured, 54 draws each); at least 60
# never does.
draws_per_frame() {  # draws_per_frame FILE: "FRAMES DRAWS"
  "$tessera" info "$1" | awk '/^frames/ { f = $2 } /^  cmd_draw/ && NF == 2 { n += $2 } END { print f + 0, n + 0 }'
}
"$tessera" capture --frame-boundary submit --trigger 2 --arm-draws 50 -o "$work/a.tcap" -- "$vkscene" --headless \
  --frames 8 --width 320 --height 180 > "$work/arm.log" 2>&1 || { cat "$work/arm.log"; fail=1; }
[ "$(draws_per_frame "$work/a.tcap")" = "2 108" ] && grep -q "armed by 3 frames of at least 50 draws" "$work/arm.log" &&
  echo "ok: armed by draws: 2 frames of 54 draws" || { echo "FAIL: armed by draws: $(draws_per_frame "$work/a.tcap")"; fail=1; }
"$tessera" capture --frame-boundary submit --trigger 2 --arm-draws 60 -o "$work/b.tcap" -- "$vkscene" --headless \
  --frames 8 --width 320 --height 180 > "$work/arm2.log" 2>&1 && rc=0 || rc=$?
# The application ran to its end (exit 0), the file is intact and holds no frame, nothing armed.
if [ "$rc" = 0 ] && "$tessera" verify "$work/b.tcap" > /dev/null && ! grep -q "armed by" "$work/arm2.log" &&
   [ "$(draws_per_frame "$work/b.tcap")" = "0 0" ]; then
  echo "ok: 60 draws a frame never arms it"
else
  echo "FAIL: armed at 60 draws (rc=$rc): $(draws_per_frame "$work/b.tcap")"; cat "$work/arm2.log"; fail=1
fi

"$tessera" replay "$work/c.tcap" --config mobile4 --frames "$last" --trace "$work/t.json" --db "$work/t.db" --quiet \
  > "$work/trace.txt" || { cat "$work/trace.txt"; fail=1; }
/usr/bin/python3 "$here/trace_check.py" "$work/t.json" "$work/t.db" mobile4 "$last" || fail=1
err=$("$tessera" replay "$work/c.tcap" --config mobile4 --config mobile32 --frames "$last" --trace "$work/x.json" 2>&1 >/dev/null) && rc=0 || rc=$?
if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$err" | grep -c .)" = 1 ] && [[ "$err" == *"--trace records one configuration"* ]]; then
  echo "ok: --trace with two configurations: $err"
else
  echo "FAIL: --trace with two configurations: rc=$rc: $err"; fail=1
fi
exit $fail
