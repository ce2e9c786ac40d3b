#!/usr/bin/env bash
# tessera report and tessera compare end to end, the page opened in Debian's headless Chromium.
#   report_e2e.sh TESSERA FIXTURE_TOOL FIGURES_DIR fixture
#       constructed runs of every scheme configuration: every paper figure and heat map is drawn,
#       --svg writes one SVG per chart, compare prints the deltas, bad input fails in one line.
#   report_e2e.sh TESSERA LAYER_DIR FIGURES_DIR real
#       real captures (vkcube, and glmark2's texture scene through Zink) at 640x360 under Xvfb,
#       replayed with the default presets: the suite with thumbnails, heat maps and replication are
#       drawn, the scheme figures show their one-line notice.
set -euo pipefail
tessera=$1 aux=$2 figures=$3 mode=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/tessera-report-e2e-XXXXXX)
trap 'rm -rf "$work"' EXIT
check=(/usr/bin/python3 "$here/report_browser_check.py")
fail=0
expect_fail() {  # expect_fail CODE PATTERN CMD...: exits with CODE and one stderr line matching PATTERN
  local code=$1 pattern=$2; shift 2
  local rc=0
  "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  if [ "$rc" != "$code" ] || [ "$(wc -l <"$work/err.txt")" != 1 ] || ! grep -q -- "$pattern" "$work/err.txt"; then
    echo "FAIL: '$*' gave exit $rc, stderr: $(cat "$work/err.txt")"; fail=1
  else
    echo "ok: '$*' -> exit $code: $(cat "$work/err.txt")"
  fi
}

if [ "$mode" = fixture ]; then
  "$aux" "$work/f.db"
  charts=()
  for f in "$figures"/*.sql; do
    # A figure file carries its catalogue lines (report/README.md); the others are the page's queries.
    grep -q '^--@' "$f" && charts+=("$(basename "$f" .sql)")
  done
  charts+=(heatmap-racing heatmap-puzzle)
  "$tessera" report "$work/f.db" -o "$work/report.html" --svg "$work/svg" | tee "$work/report.txt"
  "${check[@]}" "$work/report.html" "$work/page.png" --expect-chart "${charts[@]}" suite summary headlines \
    > "$work/check.txt" || { cat "$work/check.txt"; fail=1; }
  grep -q '"notices": \[\]' "$work/check.txt" || { echo "FAIL: notices on a page with every figure's data"; fail=1; }
  # The heat maps travel as one zlib stream (0x78: base64 "eN") per capture, not per-tile numbers.
  [ "$(grep -o '"levels":"eN' "$work/report.html" | wc -l)" = 2 ] || { echo "FAIL: heat-map levels not deflated"; fail=1; }
  for id in "${charts[@]}"; do
    if ! head -c 200 "$work/svg/$id.svg" 2>/dev/null | grep -q '<svg'; then echo "FAIL: no SVG file for $id"; fail=1; fi
  done
  n=$(ls "$work/svg" | wc -l)
  [ "$n" = "${#charts[@]}" ] || { echo "FAIL: $n SVG files for ${#charts[@]} charts"; fail=1; }
  # Headlines printed on the terminal: ours next to the paper's (the fixture's numbers are exact).
  grep -E '^001 +L2 accesses, CG-square .* -46.8 % +-46.0 % +agrees +yes$' "$work/report.txt" >/dev/null ||
    { echo "FAIL: CG-square headline"; grep CG-square "$work/report.txt"; fail=1; }
  grep -E '^004 +footprints in one block.* 58.0 % +58.0 % +\(a share\) +yes$' "$work/report.txt" >/dev/null ||
    { echo "FAIL: TFM case 1 headline"; fail=1; }
  # The verdict's summary line counts the rows printed under it.
  agree=$(grep -cE ' agrees +(yes|no)$' "$work/report.txt")
  directed=$(grep -cE ' (agrees|opposite|no change) +(yes|no)$' "$work/report.txt")
  within=$(grep -cE ' yes$' "$work/report.txt")
  rows=$(grep -cE ' (yes|no)$' "$work/report.txt")
  grep -qE "^verdict: $agree of $directed claims agree in direction, $within of $rows within 2x" "$work/report.txt" ||
    { echo "FAIL: verdict summary ($agree/$directed, $within/$rows)"; grep '^verdict' "$work/report.txt"; fail=1; }
  [ "$rows" -gt 40 ] || { echo "FAIL: only $rows headlines with data in the fixture"; fail=1; }
  # compare: the table and CSV (frames 2 and 3 are warm: the ratio of their means).
  "$tessera" compare "$work/f.db" --base mobile4 --vs mobile4+dtexl --metric cycles l2.accesses | tee "$work/cmp.txt"
  grep -E '^fixture/racing.tcap +cycles +1\.0\d*e\+06 +[0-9.e+]+ +0\.8300 +-17\.00%' "$work/cmp.txt" >/dev/null ||
    grep -E '^fixture/racing.tcap +cycles .* 0\.8300 +-17\.00% +2$' "$work/cmp.txt" >/dev/null ||
    { echo "FAIL: compare cycles row"; fail=1; }
  "$tessera" compare "$work/f.db" --base mobile4 --vs mobile4+dtexl --metric l2.accesses --csv > "$work/cmp.csv"
  [ "$(head -1 "$work/cmp.csv")" = "capture,metric,base,vs,base_mean,vs_mean,ratio,change_percent,frames" ] ||
    { echo "FAIL: compare CSV header"; fail=1; }
  grep -q '^mean,l2.accesses,mobile4,mobile4+dtexl,,,0.54,-46.0000,4$' "$work/cmp.csv" ||
    { echo "FAIL: compare CSV mean row"; cat "$work/cmp.csv"; fail=1; }
  # A canned query runs as is through tessera query (speedup 1 / 0.83 on both captures).
  "$tessera" query "$work/f.db" "$(cat "$figures/001-fig17-speedup-dtexl.sql")" --csv > "$work/q.csv"
  grep -q '^mean,DTexL (HLB-flp2),,,1.2048' "$work/q.csv" || { echo "FAIL: canned query"; cat "$work/q.csv"; fail=1; }
  # --base: every configuration against mobile4; --captures: one capture.
  "$tessera" report "$work/f.db" -o "$work/base.html" --base mobile4 --captures puzzle >/dev/null
  grep -q 'mobile4+dtexl \\u2212 mobile4\|mobile4+dtexl − mobile4' "$work/base.html" || { echo "FAIL: no difference heat map"; fail=1; }
  if grep -q 'heatmap-racing' "$work/base.html"; then echo "FAIL: --captures puzzle kept racing"; fail=1; fi
  # Bad input: one line naming the file and the problem, non-zero exit.
  expect_fail 1 "missing.db" "$tessera" report "$work/missing.db" -o "$work/x.html"
  expect_fail 2 "no runs of that configuration" "$tessera" report "$work/f.db" -o "$work/x.html" --base nosuch
  expect_fail 2 "no capture 'nosuch'" "$tessera" report "$work/f.db" -o "$work/x.html" --captures nosuch
  expect_fail 1 "libjs-vega" "$tessera" report "$work/f.db" -o "$work/x.html" --vega-dir "$work"
  expect_fail 1 "cannot write" "$tessera" report "$work/f.db" -o "$work/nodir/x.html"
  expect_fail 2 "no runs of configuration 'mobile9'" "$tessera" compare "$work/f.db" --base mobile4 --vs mobile9
  [ "$fail" = 0 ] && echo "report e2e ($mode): all checks passed"
  exit $fail
fi

# real: captures of real applications, replayed with the default presets (mobile4, mobile32).
layer_dir=$aux
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
export VK_ADD_LAYER_PATH=$layer_dir
xvfb=(xvfb-run -a -s '-screen 0 1280x720x24')
capture() {  # capture NAME [--gl] FRAMES -- APP ARGS (retries glmark2's rare BadDrawable at exit)
  local name=$1; shift
  local gl=()
  if [ "$1" = --gl ]; then gl=(--gl); shift; fi
  local frames=$1; shift; shift
  for attempt in 1 2 3; do
    if "${xvfb[@]}" "$tessera" capture "${gl[@]}" --frames "$frames" -o "$work/$name.tcap" -- "$@" \
        >"$work/capture.log" 2>&1; then return 0; fi
    grep -q BadDrawable "$work/capture.log" && "$tessera" verify "$work/$name.tcap" && return 0
    echo "capture attempt $attempt failed:"; tail -5 "$work/capture.log"
  done
  return 1
}
capture vkcube 3-5 -- vkcube --c 6 --width 640 --height 360
capture glmark2-texture --gl 5-7 -- glmark2 -s 640x360 -b texture:nframes=10:duration=1000
for c in vkcube glmark2-texture; do
  "$tessera" replay "$work/$c.tcap" --db "$work/r.db" --png "$work/png/$c" --quiet >/dev/null
done
"$tessera" report "$work/r.db" -o "$work/report.html" --png "$work/png" --svg "$work/svg" | tee "$work/report.txt"
"${check[@]}" "$work/report.html" "$work/page.png" \
  --expect-chart suite summary headlines heatmap-vkcube heatmap-glmark2-texture replication-avg \
  --expect-notice 000-fig06-l2-nuca 001-fig11-l2-by-grouping 002-fig3a-speedup 003-fig14-pb-l2 004-fig8-hit-rate \
  > "$work/check.txt" || { cat "$work/check.txt"; fail=1; }
thumbs=$(grep -o 'src="data:image/png;base64,' "$work/report.html" | wc -l)
[ "$thumbs" = 4 ] || { echo "FAIL: $thumbs thumbnails, expected replayed + presented for 2 captures"; fail=1; }
# Each embedded shrunk to 480 pixels wide (report/thumbnail.h): the 640x360 frames as 480x270.
sizes=$(grep -o 'src="data:image/png;base64,[A-Za-z0-9+/]\{32\}' "$work/report.html" | cut -d, -f2 |
        while read -r b; do echo "$b" | base64 -d | od -An -tu1 -j16 -N8 | awk '{print $1*2^24+$2*2^16+$3*2^8+$4 "x" $5*2^24+$6*2^16+$7*2^8+$8}'; done | sort -u)
[ "$sizes" = 480x270 ] || { echo "FAIL: thumbnails of $sizes, expected 480x270"; fail=1; }
# A frame PNG that does not decode: one line naming it.
cp -r "$work/png" "$work/badpng"
for f in "$work/badpng/vkcube"/*.png; do echo "not a PNG" > "$f"; done
expect_fail 1 "badpng/vkcube/frame[0-9]*\.png: cannot decode PNG (" "$tessera" report "$work/r.db" -o "$work/x.html" --png "$work/badpng"
for id in heatmap-vkcube heatmap-glmark2-texture replication-avg; do
  head -c 200 "$work/svg/$id.svg" | grep -q '<svg' || { echo "FAIL: no SVG for $id"; fail=1; }
done
"$tessera" compare "$work/r.db" --base mobile4 --vs mobile32 | tee "$work/cmp.txt"
[ "$(grep -c '^vkcube.tcap\|/vkcube.tcap' "$work/cmp.txt")" = 4 ] || { echo "FAIL: compare rows for vkcube"; fail=1; }
[ "$fail" = 0 ] && echo "report e2e ($mode): all checks passed"
exit $fail
