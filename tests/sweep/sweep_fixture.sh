#!/usr/bin/env bash
# The sweep's end-to-end fixture: three real captures at 640x360, presents 3-4 (vkcube on
# lavapipe, glmark2's texture scene through Zink, Tessera's vkscene), the sweep file over them
# (two presets, every scheme's variants through "schemes": "all", an L1 size grid), and the
# database tessera replay writes for the same work, which the sweeps are compared with;
# configs_per_job holds the configurations each (capture, frames) job runs.
# Usage: sweep_fixture.sh TESSERA LAYER_DIR VKSCENE DIR
set -euo pipefail
tessera=$1 layer_dir=$2 vkscene=$3 dir=$4
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
export XDG_RUNTIME_DIR=$dir/xdg
mkdir -m 700 "$XDG_RUNTIME_DIR"
export VK_ADD_LAYER_PATH=$layer_dir
xvfb=(xvfb-run -a -s '-screen 0 1280x720x24')

capture() {  # capture [--gl] FILE -- APP ARGS (presents 3-4)
  local gl=()
  if [ "$1" = --gl ]; then gl=(--gl); shift; fi
  local file=$1; shift; shift
  for attempt in 1 2 3; do
    # glmark2 on Zink + lavapipe's X11 WSI sometimes exits 1 at window teardown with an X
    # BadDrawable error after its last frame: retry only that.
    if "${xvfb[@]}" "$tessera" capture "${gl[@]}" --frames 3-4 -o "$file" -- "$@" >capture.log 2>&1; then return 0; fi
    grep -q BadDrawable capture.log && [ -s "$file" ] && "$tessera" verify "$file" && return 0
    echo "capture of $file, attempt $attempt failed:"; tail -5 capture.log
  done
  return 1
}
capture vkcube.tcap -- vkcube --c 6 --width 640 --height 360
capture --gl glmark2-texture.tcap -- glmark2 -s 640x360 -b texture:nframes=10:duration=1000
capture vkscene.tcap -- "$vkscene" --frames 5 --width 640 --height 360

cat > sweep.json <<'JSON'
{
  "captures": ["vkcube.tcap", "glmark2-texture.tcap", "vkscene.tcap"],
  "frames": "3-4",
  "configs": ["mobile4", "mobile32+l2.size=2MiB"],
  "schemes": "all",
  "set": {"l1tex.size": ["16KiB", "32KiB"]},
  "slurm": {"cpus-per-task": 1, "mem": "2G", "time": "00:20:00"}
}
JSON
for c in vkcube.tcap glmark2-texture.tcap vkscene.tcap; do
  for s in 16KiB 32KiB; do
    "$tessera" replay "$c" --db reference.db --frames 3-4 --config mobile4 --config mobile32+l2.size=2MiB \
      --schemes all --set l1tex.size=$s --quiet > /dev/null
  done
done
"$tessera" query reference.db "SELECT count(DISTINCT capture) AS captures, count(DISTINCT config) AS configs,
                                      count(DISTINCT frame) AS frames FROM frame_metrics"
"$tessera" query reference.db "SELECT count(*) / count(DISTINCT capture_id) FROM run" --csv | tail -1 > configs_per_job
