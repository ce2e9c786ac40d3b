#!/usr/bin/env bash
# tessera verify / info on damaged files: non-zero exit and exactly one stderr line naming the
# file and the problem; exit 0 and "intact" on a good file.
set -u
tessera=$1
synth=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

"$synth" -o "$dir/good.tcap" --frames 2 --textures 2 --texture-size 32 >/dev/null || { echo "synth failed"; exit 1; }
size=$(stat -c %s "$dir/good.tcap")

: > "$dir/empty.tcap"
{ printf 'NOTATCAP'; tail -c +9 "$dir/good.tcap"; } > "$dir/magic.tcap"
head -c 100 "$dir/good.tcap" > "$dir/truncated.tcap"
cp "$dir/good.tcap" "$dir/flipped.tcap"
printf '\xff' | dd of="$dir/flipped.tcap" bs=1 seek=200 conv=notrunc status=none
cp "$dir/good.tcap" "$dir/size.tcap"   # stored_size field of the first chunk (offset 32 + 8)
printf '\x01\x00' | dd of="$dir/size.tcap" bs=1 seek=40 conv=notrunc status=none
head -c $((size - 5)) "$dir/good.tcap" > "$dir/cut-trailer.tcap"

expect_fail() {  # name, expected text
  local f="$dir/$1.tcap" err rc lines
  err=$("$tessera" verify "$f" 2>&1 >/dev/null); rc=$?
  lines=$(printf '%s\n' "$err" | grep -c .)
  if [ "$rc" -eq 0 ] || [ "$lines" -ne 1 ] || [[ "$err" != *"$f"* ]] || [[ "$err" != *"$2"* ]]; then
    echo "FAIL verify $1: rc=$rc lines=$lines: $err"; fail=1
  else
    echo "ok   verify $1: $err"
  fi
}

expect_fail empty "empty file"
expect_fail magic "wrong magic"
expect_fail truncated "truncated"
expect_fail flipped "checksum mismatch"
expect_fail size "checksum mismatch"
expect_fail cut-trailer "trailer footer is truncated"
expect_fail missing "cannot open"

out=$("$tessera" verify "$dir/good.tcap"); rc=$?
if [ "$rc" -ne 0 ] || [[ "$out" != *"intact (2 frames"* ]]; then echo "FAIL verify good: $out"; fail=1; else echo "ok   verify good: $out"; fi
out=$("$tessera" info "$dir/good.tcap"); rc=$?
if [ "$rc" -ne 0 ] || ! grep -qE '^trailer +present$' <<<"$out" || ! grep -qE '^  image +4$' <<<"$out"; then
  echo "FAIL info good: $out"; fail=1
else
  echo "ok   info good"
fi
# Storage by blob kind: 2 textures of 32x32 RGBA8 with full mip chains (1365 texels, 5460 bytes) plus
# their 24-byte blob entry headers; "without outputs" is the file less the presented images.
textures=$(sed -nE 's/^  textures +([0-9]+) +([0-9]+) +[0-9]+$/\1 \2/p' <<<"$out")
presented=$(sed -nE 's/^  presented images +[0-9]+ +[0-9]+ +([0-9]+)$/\1/p' <<<"$out")
without=$(sed -nE 's/^without outputs ([0-9]+) bytes.*/\1/p' <<<"$out")
if [ "$textures" != "2 $((2 * (24 + 5460)))" ] || [ -z "$presented" ] ||
   [ $((size - presented - without)) -lt -1 ] || [ $((size - presented - without)) -gt 1 ]; then
  echo "FAIL info storage: textures '$textures', presented '$presented', without '$without', size $size"; fail=1
else
  echo "ok   info storage by blob kind"
fi
# Warnings: the synthetic scene writes one in frame 1; info and replay print its text and frame.
if ! grep -qxF 'warning         frame 1: synthetic scene: no real draw was recorded' <<<"$out"; then
  echo "FAIL info warning: $out"; fail=1
else
  echo "ok   info prints the frame's warning"
fi
err=$("$tessera" replay "$dir/good.tcap" --no-model --quiet 2>&1 >/dev/null)
if [ "$(grep -cF 'capture warning' <<<"$err")" -ne 1 ] ||
   ! grep -qxF "tessera replay: $dir/good.tcap: capture warning, frame 1: synthetic scene: no real draw was recorded" <<<"$err"; then
  echo "FAIL replay warning: $err"; fail=1
else
  echo "ok   replay prints the capture's warning"
fi
err=$("$tessera" info "$dir/magic.tcap" 2>&1 >/dev/null); rc=$?
if [ "$rc" -eq 0 ] || [[ "$err" != *"wrong magic"* ]]; then echo "FAIL info magic: $err"; fail=1; else echo "ok   info magic"; fi
exit $fail
