#!/usr/bin/env bash
# Seed corpora of the fuzz targets, one folder each under OUT, made from the project's own
# captures, shaders and files so that each fuzzer starts from every structure its input has:
#   make_corpus.sh BIN_DIR OUT [CAPTURE...]
# BIN_DIR holds tessera-synth and fuzz_seed_tool (the fuzz build's bin/); CAPTUREs are real
# captures (a small vkscene capture, say) that seed the capture targets and, replayed, the stream
# target: the synthetic scene's records exercise the container, not the replay.
set -euo pipefail
bin=$1
out=$2
shift 2
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"/{capture_reader,replay,spirv,stream_model,texture,specs}

# Captures: closed, killed before closing, uncompressed; textured and not.
caps=$out/capture_reader
small=(--width 16 --height 8 --texture-size 8)
"$bin/tessera-synth" -o "$caps/closed.tcap" --frames 2 --textures 2 "${small[@]}" >/dev/null
"$bin/tessera-synth" -o "$caps/stored.tcap" --frames 2 --textures 1 --level 0 "${small[@]}" >/dev/null
"$bin/tessera-synth" -o "$caps/one.tcap" --frames 1 --textures 0 "${small[@]}" >/dev/null
head -c $(( $(stat -c %s "$caps/closed.tcap") * 2 / 3 )) "$caps/closed.tcap" > "$caps/killed.tcap"
# fuzz_replay reseals checksums but not zstd frames: real captures go in stored uncompressed
# only (a mutation of the compressed copy would mostly land in a zstd frame).
cp "$caps"/*.tcap "$out/replay/"
for c in "$@"; do
  cp "$c" "$caps/$(basename "$c")"
  "$bin/fuzz_seed_tool" stored "$c" "$out/replay/stored-$(basename "$c")"
done

# Access streams of the captures' frames, each behind its configuration byte (the synthetic
# scene's frames draw nothing: their streams are bare frames; the real captures' draw).
"$bin/fuzz_seed_tool" streams "$out/stream_model" "$caps/closed.tcap" "$@"

# SPIR-V: the shader tests' GLSL and the samples' shaders compiled by glslang, behind the stage
# byte (0 vertex, 1 fragment, 2 compute) and an input seed byte.
# vulkan1.1 (SPIR-V 1.3), as the tests and samples compile them and close to what captures hold.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for glsl in "$src"/tests/shader/glsl/* "$src"/tests/render/glsl/* "$src"/samples/*/*.vert "$src"/samples/*/*.frag \
            "$src"/samples/*/shaders/*; do
  [ -f "$glsl" ] || continue
  case "$glsl" in
    *.vert) stage='\x00' ;;
    *.frag) stage='\x01' ;;
    *.comp) stage='\x02' ;;
    *) continue ;;
  esac
  name=$(basename "$glsl")
  if ! glslangValidator -V --target-env vulkan1.1 -S "${name##*.}" -o "$tmp/s.spv" "$glsl" >"$tmp/log" 2>&1; then
    echo "make_corpus.sh: $glsl: not compiled: $(grep -m1 ERROR "$tmp/log")" >&2
    continue
  fi
  # Named by the two folders above it: tests/shader/glsl and tests/render/glsl share names.
  folder=$(dirname "$glsl")
  { printf "$stage\x05"; cat "$tmp/s.spv"; } > "$out/spirv/$(basename "$(dirname "$folder")")-$(basename "$folder")-$name"
done
[ -n "$(ls "$out/spirv")" ] || { echo "make_corpus.sh: no SPIR-V seed compiled (glslangValidator?)" >&2; exit 1; }

# Textures: each format index the target knows with a 8x8, two-level texture of varied bytes.
python3 - "$out/texture" <<'PY'
import os, sys
out = sys.argv[1]
payload = bytes((i * 97 + (i >> 3) * 13) & 0xff for i in range(1024))
for f in range(64):
    header = bytes([f, 7, 7, 1, f * 37 & 0xff]) + bytes((f + k * 29) & 0xff for k in range(16))
    open(os.path.join(out, "format-%02d" % f), "wb").write(header + payload[: 256 + f * 8])
PY

# Specs, --set values, configuration files, sweep files, frame ranges, names, figure and paper
# files: byte 0 picks the parser (fuzz_specs.cpp).
specs=$out/specs
printf '\x00mobile4' > "$specs/config-mobile4"
printf '\x00tegra2+dae' > "$specs/config-stacked"
printf '\x00mobile32+l2.size=2MiB' > "$specs/config-override"
printf '\x01mobile4\nl2.size=512KiB\ngpu.shader_cores=8' > "$specs/set-values"
printf '\x02# a configuration file\ngpu.shader_cores=8\nl2.ways=4\n' > "$specs/config-file"
for j in "$src"/studies/*.json; do { printf '\x03'; cat "$j"; } > "$specs/sweep-$(basename "$j")"; done
printf '\x041-3' > "$specs/frames-range"
printf '\x0442' > "$specs/frames-one"
printf '\x05mobile4+dtexl+l2.size=512KiB' > "$specs/name"
for f in "$src"/report/figures/0*.sql; do { printf '\x06'; cat "$f"; } > "$specs/figure-$(basename "$f")"; done
for p in "$src"/report/papers/*.txt; do { printf '\x06'; cat "$p"; } > "$specs/paper-$(basename "$p")"; done
printf '\x0712G' > "$specs/max-memory-g"
printf '\x071.5GiB' > "$specs/max-memory-fraction"

# Inputs that once crashed a target seed it too.
for d in "$src"/tests/fuzz/regressions/*/; do
  [ -d "$d" ] || continue
  target=$(basename "$d")
  cp "$d"* "$out/${target#fuzz_}/"
done
