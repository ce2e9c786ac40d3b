#!/usr/bin/env bash
# tessera diff on a real OpenGL capture: samples/glreflect (a stencil-masked planar reflection)
# captured through Zink on lavapipe under Xvfb with --readback passes. Checks:
#  - the replay as it is: exit 0, "no pass below 40.0 dB", colour, depth and stencil compared,
#  - the reflected object's draw left out (its instance count set to 0 by diff_fixture, which
#    keeps the driver's contents and fails unless the change alters the pass): exit 1, the pass
#    named, its PNGs written, and a line saying which draw's pixels, or which pixels no draw
#    wrote, carry the difference (a draw the replay leaves out shows through what was under it).
# Usage: diff_gl_e2e.sh TESSERA_CLI DIFF_FIXTURE GLREFLECT
set -euo pipefail
tessera=$1 fixture=$2 glreflect=$3
work=$(mktemp -d /tmp/tessera-diff-gl-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
fail=0
check() {  # check DESCRIPTION COMMAND...: the command must succeed
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
diff_run() {  # diff_run NAME ARGS...: stdout to NAME.out, exit status to NAME.rc
  local name=$1; shift
  local rc=0
  "$tessera" diff "$@" > "$work/$name.out" 2>&1 || rc=$?
  echo "$rc" > "$work/$name.rc"
  echo "--- tessera diff $* (exit $rc)"; cat "$work/$name.out"
}

xvfb-run -a -s '-screen 0 1280x720x24' "$tessera" capture --gl --readback passes --frames 3-4 -o "$work/g.tcap" -- \
  "$glreflect" --frames 6 --width 320 --height 180 > "$work/capture.log" 2>&1 || { cat "$work/capture.log"; exit 1; }

diff_run same "$work/g.tcap" --frame 4
check "as captured: exit 0" [ "$(cat "$work/same.rc")" = 0 ]
check "as captured: no pass below 40 dB" grep -q "^no pass below 40.0 dB (3 attachment aspects of 1 passes compared)" "$work/same.out"
for aspect in colour depth stencil; do
  check "as captured: the $aspect compared" grep -q "^pass 0 attachment [0-9] $aspect (" "$work/same.out"
done

"$fixture" "$work/g.tcap" "$work/p.tcap" --perturb 4 3 instances=0 > "$work/p.fixture"
check "perturbed: the draw is the pass's last" grep -q "^perturbed: frame 4 draw 3 pass 0 draw 3$" "$work/p.fixture"
diff_run perturbed "$work/p.tcap" --frame 4 -o "$work/png"
check "perturbed: exit 1" [ "$(cat "$work/perturbed.rc")" = 1 ]
check "perturbed: pass 0 named" grep -q "^first pass below 40.0 dB: pass 0 (4 draws): attachment 0 colour" "$work/perturbed.out"
# The pass's last draw left out: what the earlier draws left shows where the driver drew it, so
# a later draw (none was replayed after them) is said to be missing there.
check "perturbed: a later draw may be missing" grep -Eq "^(no draw of pass 0 named: the pixels that differ where draw [0-2] of the pass .* a later draw \(between it and the pass's end\) may be missing|no replayed draw of pass 0)" "$work/perturbed.out"
for png in replay driver diff; do
  check "perturbed: pass0-att0-$png.png written" [ -s "$work/png/pass0-att0-$png.png" ]
done
exit $fail
