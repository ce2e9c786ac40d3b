#!/usr/bin/env bash
# Seed corpus for fuzz_capture_reader: small real captures (closed, killed before closing, and
# uncompressed), so the fuzzer starts from every structure of the format.
set -euo pipefail
synth=$1
out=$2
mkdir -p "$out"
small=(--width 16 --height 8 --texture-size 8)
"$synth" -o "$out/closed.tcap" --frames 2 --textures 2 "${small[@]}" >/dev/null
"$synth" -o "$out/stored.tcap" --frames 2 --textures 1 --level 0 "${small[@]}" >/dev/null
"$synth" -o "$out/one.tcap" --frames 1 --textures 0 "${small[@]}" >/dev/null
head -c $(( $(stat -c %s "$out/closed.tcap") * 2 / 3 )) "$out/closed.tcap" > "$out/killed.tcap"
