#!/usr/bin/env bash
# tessera diff end to end on vkscene captured headless (frames at submit boundaries).
# MODE constructed: the capture is copied by diff_fixture with the pass contents `tessera capture
# --readback passes` writes, made from this replay's own attachments (the "driver" is the
# replay). MODE readback: the capture is taken with --readback passes (the driver is lavapipe).
# Either is then copied again with one draw's push constants changed (its tint: the draw's
# pixels change, its coverage does not). Checks:
#  - (constructed) without pass contents: exit 2, one line naming the file and `--readback passes`,
#  - on the unchanged capture: exit 0, "no pass below 40.0 dB" (constructed: every attachment
#    exact),
#  - with a draw perturbed in the main pass (where the ground plane, drawn first, lies under the
#    draw) and in the render-to-texture pass: exit 1, the draw's pass named as the first below
#    the threshold and the draw as the first divergent one, PNGs written; with a draw of the
#    render-to-texture pass left out: the pixels no replayed draw covers named,
#  - (constructed) a frame not in the capture, a damaged file, a file that is no capture: exit 2,
#    one line.
# Usage: diff_e2e.sh TESSERA_CLI DIFF_FIXTURE VKSCENE constructed|readback
set -euo pipefail
tessera=$1 fixture=$2 vkscene=$3 mode=$4
work=$(mktemp -d /tmp/tessera-diff-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
fail=0
check() {  # check DESCRIPTION COMMAND...: the command must succeed
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
# diff_run NAME ARGS...: runs tessera diff, stdout to NAME.out, stderr to NAME.err, status to NAME.rc
diff_run() {
  local name=$1; shift
  local rc=0
  "$tessera" diff "$@" > "$work/$name.out" 2> "$work/$name.err" || rc=$?
  echo "$rc" > "$work/$name.rc"
  echo "--- tessera diff $* (exit $rc)"; cat "$work/$name.out" "$work/$name.err"
}
rc() { cat "$work/$1.rc"; }
one_line() { [ "$(wc -l < "$work/$1.err")" = 1 ] && [ ! -s "$work/$1.out" ]; }

readback=()
if [ "$mode" = readback ]; then readback=(--readback passes); fi
"$tessera" capture "${readback[@]}" --frame-boundary submit --frames 1-64 -o "$work/c.tcap" -- \
  "$vkscene" --headless --frames 2 --width 320 --height 180 > "$work/capture.log" 2>&1 || { cat "$work/capture.log"; exit 1; }
# A capture with pass contents is copied as it is.
"$fixture" "$work/c.tcap" "$work/same.tcap" > "$work/fixture.txt"
cat "$work/fixture.txt"
# vkscene's last frame: its two passes (render to texture, main) and 54 draws.
frame=$(awk '/ 2 passes, 54 draws/ { sub(":", "", $2); f = $2 } END { print f }' "$work/fixture.txt")
[ -n "$frame" ] || { echo "FAIL: no frame of vkscene's two passes and 54 draws"; exit 1; }

if [ "$mode" = constructed ]; then
diff_run none "$work/c.tcap" --frame "$frame"
check "no pass contents: exit 2" [ "$(rc none)" = 2 ]
check "no pass contents: one line naming the file and --readback passes" one_line none
check "no pass contents: the message" grep -qF "$work/c.tcap: capture has no pass contents; capture it with tessera capture --readback passes" "$work/none.err"

fi

diff_run same "$work/same.tcap" --frame "$frame" -o "$work/png-same"
check "unchanged: exit 0" [ "$(rc same)" = 0 ]
check "unchanged: no pass below 40 dB" \
  grep -q "^no pass below 40.0 dB (2 attachment aspects of 2 passes compared)" "$work/same.out"
check "unchanged: no PNG" [ ! -e "$work/png-same" ]
# The main pass's depth is not stored (DONT_CARE): what the pass leaves there is undefined.
check "unchanged: the depth not stored is not compared" \
  grep -q "^pass 1 attachment 1 depth: not compared: its store op is DONT_CARE" "$work/same.out"
if [ "$mode" = constructed ]; then
  check "unchanged: both colour attachments exact" [ "$(grep -c ' colour (.*): exact, 0 of ' "$work/same.out")" = 2 ]
fi

if [ "$mode" = constructed ]; then
  # Records naming a view format of the other component order: the bytes are the image's (as
  # vkCmdCopyImageToBuffer writes them), so the pass still matches exactly.
  "$fixture" "$work/c.tcap" "$work/view.tcap" --swap-view-format > "$work/view.fixture"
  check "view format: records rewritten" grep -q "^view formats swapped: " "$work/view.fixture"
  diff_run view "$work/view.tcap" --frame "$frame"
  check "view format: exit 0" [ "$(rc view)" = 0 ]
  check "view format: both colour attachments exact, the view format reported" \
    [ "$(grep -c ' colour (.*, view format [0-9]*, .*): exact, 0 of ' "$work/view.out")" = 2 ]
  # The main pass's colour stored with STORE_OP_NONE: what the pass wrote there is undefined
  # after it (spec "Render Pass Store Operations"), so it is not compared.
  "$fixture" "$work/c.tcap" "$work/none.tcap" --store-none > "$work/storenone.fixture"
  check "store op NONE: render pass rewritten" grep -q "^stored as NONE: " "$work/storenone.fixture"
  diff_run storenone "$work/none.tcap" --frame "$frame"
  check "store op NONE: exit 0" [ "$(rc storenone)" = 0 ]
  check "store op NONE: the colour not compared" \
    grep -q "^pass 1 attachment 0 colour: not compared: its store op is NONE, its contents after the pass undefined" "$work/storenone.out"
  # Alpha is compared where the format has it: the driver's alpha of pass 0 set to 0 diverges,
  # set one level off (254) stays within the tolerance.
  "$fixture" "$work/c.tcap" "$work/alpha.tcap" --set-byte 0 3 0 > "$work/alpha.fixture"
  check "alpha: contents changed" grep -q "^bytes set: pass 0" "$work/alpha.fixture"
  diff_run alpha "$work/alpha.tcap" --frame "$frame"
  check "alpha: exit 1" [ "$(rc alpha)" = 1 ]
  check "alpha: pass 0 named" grep -q "^first pass below 40.0 dB: pass 0 " "$work/alpha.out"
  "$fixture" "$work/c.tcap" "$work/alpha1.tcap" --set-byte 0 3 254 > "$work/alpha1.fixture"
  diff_run alpha1 "$work/alpha1.tcap" --frame "$frame"
  check "alpha one level off: exit 0" [ "$(rc alpha1)" = 0 ]
  check "alpha one level off: no pixel differs" grep -q "^pass 0 attachment 0 colour (.*): [0-9.]* dB, 0 of " "$work/alpha1.out"
fi

# perturbed NAME DRAW PUSH_OFFSET VALUE: the copy with the float at PUSH_OFFSET of draw DRAW's
# push constants set to VALUE; tessera diff must name the draw's pass and the draw.
perturbed() {
  local name=$1 draw=$2 offset=$3 value=$4
  "$fixture" "$work/c.tcap" "$work/$name.tcap" --perturb "$frame" "$draw" "push:$offset=$value" > "$work/$name.fixture"
  local line; line=$(grep '^perturbed:' "$work/$name.fixture")
  echo "$line"
  local pass in_pass
  pass=$(echo "$line" | awk '{ print $7 }')
  in_pass=$(echo "$line" | awk '{ print $9 }')
  diff_run "$name" "$work/$name.tcap" --frame "$frame" -o "$work/png-$name"
  check "$name: exit 1" [ "$(rc "$name")" = 1 ]
  check "$name: pass $pass named" grep -q "^first pass below 40.0 dB: pass $pass " "$work/$name.out"
  check "$name: draw $in_pass of pass $pass (draw $draw of the frame) named" \
    grep -q "^first divergent draw: draw $in_pass of the pass (draw $draw of the frame): pipeline 0x" "$work/$name.out"
  for png in replay driver diff "draw$in_pass-coverage"; do
    check "$name: pass$pass-att0-$png.png written" [ -s "$work/png-$name/pass$pass-att0-$png.png" ]
  done
}
# Draw 20: a grid cube of the main pass (draws 8-53; the ground plane, draw 8, lies under it):
# its tint's red set to 0. Draw 2: a blade of the render-to-texture pass (draws 0-7).
perturbed main 20 64 0
check "main: the perturbed draw is in the main pass" grep -q "^perturbed: frame $frame draw 20 pass 1 draw 12$" "$work/main.fixture"
perturbed rtt 2 64 0
check "rtt: the perturbed draw is in the render-to-texture pass" grep -q "^perturbed: frame $frame draw 2 pass 0 draw 2$" "$work/rtt.fixture"
# The blade left out (instance count 0): only the render-to-texture pass's clear is under it.
"$fixture" "$work/c.tcap" "$work/gone.tcap" --perturb "$frame" 2 instances=0 > "$work/gone.fixture"
diff_run gone "$work/gone.tcap" --frame "$frame"
check "gone: exit 1" [ "$(rc gone)" = 1 ]
check "gone: pass 0 named" grep -q "^first pass below 40.0 dB: pass 0 " "$work/gone.out"
check "gone: the driver wrote pixels no replayed draw covers" \
  grep -q "^no replayed draw of pass 0 falls below 40.0 dB alone, but the pixels no replayed draw changes do (.*): the driver wrote pixels no replayed draw covers" "$work/gone.out"

# Draw 20 (a cube over the ground plane, draw 0 of the main pass) left out: the ground shows
# where the driver drew the cube; the ground is not named as the culprit.
"$fixture" "$work/c.tcap" "$work/hole.tcap" --perturb "$frame" 20 count=0 > "$work/hole.fixture"
diff_run hole "$work/hole.tcap" --frame "$frame"
check "hole: exit 1" [ "$(rc hole)" = 1 ]
check "hole: pass 1 named" grep -q "^first pass below 40.0 dB: pass 1 " "$work/hole.out"
check "hole: no draw named as the culprit" bash -c '! grep -q "^first divergent draw:" "$1"' _ "$work/hole.out"
check "hole: a later draw over draw 0 may be missing" \
  grep -q "^no draw of pass 1 named: the pixels that differ where draw 0 of the pass (draw 8 of the frame): .* is the last write are [0-9]* of the [0-9]* it left, the rest match the driver's (.*): a later draw (between it and the pass's end) may be missing or mis-rasterised at those pixels" "$work/hole.out"

if [ "$mode" = constructed ]; then
diff_run range "$work/same.tcap" --frame 999
check "frame not in the capture: exit 2" [ "$(rc range)" = 2 ]
check "frame not in the capture: one line naming the file" one_line range
check "frame not in the capture: the message" grep -q "^tessera diff: $work/same.tcap: frame 999 is not in the capture (presents 1-" "$work/range.err"

head -c 1000 "$work/same.tcap" > "$work/cut.tcap"
diff_run cut "$work/cut.tcap" --frame "$frame"
check "damaged file: exit 2" [ "$(rc cut)" = 2 ]
check "damaged file: one line naming the file" one_line cut
check "damaged file: the file named" grep -qF "$work/cut.tcap" "$work/cut.err"

printf 'not a capture' > "$work/text.tcap"
diff_run text "$work/text.tcap" --frame 1
check "not a capture: exit 2" [ "$(rc text)" = 2 ]
check "not a capture: one line naming the file" one_line text
check "not a capture: the file named" grep -qF "$work/text.tcap" "$work/text.err"
fi

exit $fail
