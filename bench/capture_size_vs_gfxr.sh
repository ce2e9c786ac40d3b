#!/usr/bin/env bash
# Capture size on equal terms with GFXReconstruct: presents 5-7 (3 frames) of vkcube and of
# glmark2's texture scene (OpenGL through Zink) at 800x600 on lavapipe under Xvfb, captured by
# Tessera (size without presented images and render-target contents, which GFXR does not keep:
# `tessera info`, "without outputs") and by Debian's gfxreconstruct layer trimmed to the same
# frames with zstd compression (gfxrecon-capture-vulkan.py -f 5-7 --compression-type ZSTD).
# Usage: bench/capture_size_vs_gfxr.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
tessera=$build/bin/tessera
work=$(mktemp -d /tmp/tessera-size-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
xvfb=(xvfb-run -a -s '-screen 0 1280x720x24')

measure() {  # NAME GL(0/1) APP ARGS...
  local name=$1 gl=$2; shift 2
  local glenv=() glopt=()
  if [ "$gl" = 1 ]; then glenv=(MESA_LOADER_DRIVER_OVERRIDE=zink LIBGL_ALWAYS_SOFTWARE=1); glopt=(--gl); fi
  "${xvfb[@]}" "$tessera" capture "${glopt[@]}" --frames 5-7 -o "$work/$name.tcap" -- "$@" >/dev/null 2>&1 || true
  "$tessera" info "$work/$name.tcap" >"$work/$name.info"
  local total outputs
  total=$(stat -c %s "$work/$name.tcap")
  outputs=$(sed -n 's/^without outputs \([0-9]*\) bytes.*/\1/p' "$work/$name.info")
  mkdir -p "$work/gfxr-$name"
  (cd "$work/gfxr-$name" && "${xvfb[@]}" env "${glenv[@]}" gfxrecon-capture-vulkan.py -f 5-7 \
     --compression-type ZSTD --no-file-timestamp -o "$work/gfxr-$name/$name.gfxr" "$@" >/dev/null 2>&1 || true)
  local gfxr
  gfxr=$(find "$work/gfxr-$name" -name '*.gfxr' -printf '%s\n' | sort -n | tail -1)
  printf '%-16s tessera %9d bytes without outputs (%9d with them)   gfxr trimmed zstd %9d bytes   ratio %.2f\n' \
    "$name" "$outputs" "$total" "${gfxr:-0}" "$(awk -v a="$outputs" -v b="${gfxr:-0}" 'BEGIN { print (b ? a / b : 0) }')"
  grep -A40 '^stored by blob kind' "$work/$name.info" | sed -n '1,8p' | sed "s/^/  $name: /"
}

echo "3 frames (presents 5-7), 800x600, lavapipe"
measure vkcube 0 vkcube --c 10 --width 800 --height 600
measure glmark2-texture 1 glmark2 -s 800x600 -b texture:nframes=10:duration=1000
