#!/usr/bin/env bash
# `cmake --install` into a temporary prefix: the layer library, its manifest in
# share/vulkan/explicit_layer.d and tessera in bin. The Vulkan loader must find the installed
# layer through XDG_DATA_DIRS alone (no VK_ADD_LAYER_PATH) and the capture must be intact; the
# installed tessera finds the installed layer by itself.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d /tmp/tessera-install-XXXXXX)
trap 'rm -rf "$work"' EXIT
export XDG_RUNTIME_DIR=$work/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
fail=0
check() { if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; fail=1; fi; }
check "tessera in bin" test -x "$prefix/bin/tessera"
manifest=$prefix/share/vulkan/explicit_layer.d/VkLayer_tessera_capture.json
check "manifest in share/vulkan/explicit_layer.d" test -f "$manifest"
lib=$(sed -n 's/.*"library_path": "\(.*\)".*/\1/p' "$manifest")
check "manifest names the installed library ($lib)" test -f "$(dirname "$manifest")/$lib"

# Only these two variables enable the layer: the loader searches each XDG_DATA_DIRS entry's
# vulkan/explicit_layer.d (and its icd.d: the system entries, the loader's default when the
# variable is unset, stay so that lavapipe is still found).
unset VK_ADD_LAYER_PATH VK_LAYER_PATH
env -u VK_ADD_LAYER_PATH -u VK_LAYER_PATH VK_INSTANCE_LAYERS=VK_LAYER_TESSERA_capture \
  XDG_DATA_DIRS="$prefix/share:/usr/local/share:/usr/share" TESSERA_CAPTURE_FILE="$work/cube.tcap" TESSERA_CAPTURE_FRAMES=2-3 \
  xvfb-run -a -s '-screen 0 1280x720x24' vkcube --c 4 --width 320 --height 240 >"$work/vkcube.log" 2>&1 ||
  { cat "$work/vkcube.log"; fail=1; }
check "capture written by the installed layer" test -s "$work/cube.tcap"
check "capture intact (installed tessera verify)" "$prefix/bin/tessera" verify "$work/cube.tcap"
check "frames 2-3 captured" grep -q "^frames  *2 (presents 2-3)" <("$prefix/bin/tessera" info "$work/cube.tcap")
# The installed launcher finds the installed layer (no build tree, no TESSERA_LAYER_DIR).
env -u TESSERA_LAYER_DIR xvfb-run -a -s '-screen 0 1280x720x24' "$prefix/bin/tessera" capture --frames 2 \
  -o "$work/launched.tcap" -- vkcube --c 3 --width 320 --height 240 >"$work/launch.log" 2>&1 ||
  { cat "$work/launch.log"; fail=1; }
check "installed tessera capture finds the installed layer" "$prefix/bin/tessera" verify "$work/launched.tcap"
if [ "$fail" -eq 0 ]; then echo "install test: every check passed"; else exit 1; fi
