#!/usr/bin/python3
"""Opens a tessera report in Debian's headless Chromium (python3-selenium + chromium-driver) and
checks what a reader would see: no console error, every figure either drawn (an SVG with marks;
a heat map, a canvas whose tiles cover its plot in every configuration of its menu) or replaced by
its one-line notice, every figure with data rows drawn, the tables present, the headline verdict's
summary line shown at the top (its own screenshot not blank, its counts equal to the table's
verdict cells), and a screenshot that is not blank.

Usage: report_browser_check.py REPORT.html SCREENSHOT.png [--expect-chart ID ...] [--expect-notice ID ...]
Exit 0 when every check passes; prints one line per failed check otherwise.
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from png_rows import png_rows  # noqa: E402 (tests/png_rows.py)
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def png_is_blank(path):
    """True when every pixel of the PNG equals the first one (stops at the first row that differs)."""
    width, _, bpp, rows = png_rows(path)
    first = None
    for line in rows:
        if first is None:
            first = line[:bpp]
        if line != first * width:
            return False
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("screenshot")
    ap.add_argument("--expect-chart", nargs="*", default=[])
    ap.add_argument("--expect-notice", nargs="*", default=[])
    ap.add_argument("--shots", help="folder for one screenshot per figure")
    args = ap.parse_args()

    profile = tempfile.mkdtemp(prefix="tessera-report-profile-")
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--user-data-dir=" + profile, "--window-size=1280,1000"):
        options.add_argument(a)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    failures = []
    try:
        driver.get("file://" + os.path.abspath(args.report))
        deadline = time.time() + 120
        while time.time() < deadline:
            if driver.execute_script("return document.body.dataset.rendered !== undefined"):
                break
            time.sleep(0.2)
        else:
            failures.append("the page never finished drawing (body[data-rendered] unset)")

        state = driver.execute_script("""
          const out = {figures: {}, tables: {}};
          for (const f of document.querySelectorAll('figure.fig')) {
            const chart = f.querySelector('div.chart');
            out.figures[f.dataset.fig] = {
              rows: Number(f.dataset.rows),
              notice: !!f.querySelector('.notice'),
              state: chart ? (chart.dataset.state || '') : 'notice',
              marks: chart ? Number(chart.dataset.marks || 0) : 0,
              heatmap: chart ? chart.dataset.heatmap !== undefined : false,
              svg: chart ? chart.querySelectorAll('svg').length : 0,
              canvas: chart ? chart.querySelectorAll('canvas').length : 0,
              error: chart ? (chart.dataset.renderError || '') : '',
            };
          }
          for (const t of document.querySelectorAll('[data-fig]:not(figure):not(div.chart)')) {
            out.tables[t.dataset.fig] = {tag: t.tagName, rows: t.querySelectorAll('tr').length,
                                         notice: t.classList.contains('notice')};
          }
          out.sections = Array.from(document.querySelectorAll('section')).map((s) => s.id);
          return out;""")
        for fid, f in sorted(state["figures"].items()):
            if f["error"]:
                failures.append(f"{fid}: render error: {f['error']}")
            drawn = f["canvas"] == 1 if f["heatmap"] else f["svg"] == 1
            if f["rows"] > 0 and (f["state"] != "chart" or not drawn or f["marks"] <= 0):
                failures.append(f"{fid}: has {f['rows']} data rows but no drawn chart ({f})")
            if f["rows"] == 0 and not f["notice"]:
                failures.append(f"{fid}: no data rows and no notice")
        for fid in args.expect_chart:
            f = state["figures"].get(fid) or state["tables"].get(fid)
            if not f:
                failures.append(f"{fid}: not on the page")
            elif "state" in f and f["state"] != "chart":
                failures.append(f"{fid}: expected a drawn chart, got {f}")
            elif "tag" in f and (f["notice"] or f["rows"] < 2):
                failures.append(f"{fid}: expected a table with rows, got {f}")
        for fid in args.expect_notice:
            f = state["figures"].get(fid) or state["tables"].get(fid)
            if not f or not f["notice"]:
                failures.append(f"{fid}: expected its one-line notice, got {f}")
        # Heat maps: every configuration (and difference) of the menu draws its tiles of the first
        # metric (cycles), and of the last one (the highest core) either its tiles or the line
        # saying that configuration has no such core; no error either way. Drawn tiles are read
        # back from the canvas: no pixel of the plot is the page's white (no colour of either
        # scheme is), so a map that drew nothing, or only part of its grid, fails.
        from selenium.webdriver.support.ui import Select
        for chart in driver.find_elements("css selector", "div.chart[data-heatmap]"):
            fid = chart.get_attribute("data-fig")
            selects = chart.find_elements("css selector", ".heatmap-menus select")
            if len(selects) != 2:
                failures.append(f"{fid}: {len(selects)} menus, expected metric and configuration")
                continue
            metric, view = Select(selects[0]), Select(selects[1])
            for i in range(len(view.options)):
                view.select_by_index(i)
                for m in (len(metric.options) - 1, 0):
                    metric.select_by_index(m)
                    time.sleep(0.05)
                    tiles, note, pixels, blank = driver.execute_script("""
                      const c = arguments[0], canvas = c.querySelector('canvas.heatmap');
                      if (!canvas) return [0, '', 0, 0];
                      const k = canvas.width / parseFloat(canvas.style.width);
                      const [x, y, w, h] = canvas.dataset.plot.split(',').map((v) => Math.round(Number(v) * k));
                      const d = canvas.getContext('2d').getImageData(x, y, w, h).data;
                      let blank = 0;
                      for (let i = 0; i < d.length; i += 4)
                        if (d[i] === 255 && d[i + 1] === 255 && d[i + 2] === 255) ++blank;
                      return [Number(c.dataset.tiles || 0), c.dataset.note || '', d.length / 4, blank];""",
                        chart)
                    what = f"{fid}: {metric.options[m].text} of {view.options[i].text}"
                    if m == 0 and tiles == 0:
                        failures.append(what + ": no tiles")
                    if tiles == 0 and "is not measured" not in note:
                        failures.append(what + ": neither tiles nor a note")
                    if tiles > 0 and (pixels == 0 or blank > 0):
                        failures.append(f"{what}: {blank} of the plot's {pixels} pixels blank")
            # Hovering a tile reads its value (the centre of its level) on the title and the line
            # under the menus.
            hovered = driver.execute_script("""
              const c = arguments[0].querySelector('canvas.heatmap');
              const [x, y, w, h] = c.dataset.plot.split(',').map(Number);
              const map = JSON.parse(document.getElementById('tessera-data').textContent).heatmaps
                .find((m) => m.capture === arguments[0].dataset.heatmap);
              const r = c.getBoundingClientRect(), cell = w / map.width;
              const tx = Math.min(2, map.width - 1), ty = Math.min(1, map.height - 1);
              c.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + x + (tx + 0.5) * cell,
                                                           clientY: r.top + y + (ty + 0.5) * cell, bubbles: true}));
              return [tx, ty, c.title, arguments[0].querySelector('.heatmap-readout').textContent];""", chart)
            tx, ty, title, readout = hovered
            if not re.match(rf"^tile \({tx}, {ty}\): \u2248 -?[0-9,.]+(e[-+]?[0-9]+)?$", title) or title != readout:
                failures.append(f"{fid}: hovering tile ({tx}, {ty}) reads {hovered}")
        # Thumbnails (--png): each decodes, is at most 480 pixels wide (twice the 240 it is drawn)
        # and links its full-size file.
        for thumb in driver.execute_script("""
          return Array.from(document.querySelectorAll('.thumb img')).map((i) => [
            i.alt, i.complete, i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width,
            i.closest('a') ? i.closest('a').getAttribute('href') : null]);"""):
            alt, complete, nw, nh, shown, href = thumb
            if not complete or nw == 0 or nh == 0 or nw > 480 or round(shown) != 242 or not href:
                failures.append(f"thumbnail {alt}: loaded {complete}, {nw}x{nh}, drawn {shown} px wide, "
                                f"link {href} (expected a decoded image at most 480 wide, drawn 240 + border, linked)")
        for errors in [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]:
            failures.append("console error: " + errors["message"])

        # The verdict: the summary line is on screen when the page opens, and says what the
        # table's cells say.
        summary = driver.find_elements("css selector", "#verdict-summary")
        if not summary:
            failures.append("no verdict summary line")
        else:
            line = summary[0]
            rect = driver.execute_script("const r = arguments[0].getBoundingClientRect();"
                                         "return [r.top, r.height, window.innerHeight];", line)
            if not line.is_displayed() or rect[1] <= 0 or rect[0] + rect[1] > rect[2]:
                failures.append(f"the verdict summary is not on the first screen ({rect})")
            shot = os.path.join(profile, "verdict.png")
            line.screenshot(shot)
            if png_is_blank(shot):
                failures.append("the verdict summary's screenshot is blank")
            if args.shots:
                os.makedirs(args.shots, exist_ok=True)
                shutil.copy(shot, os.path.join(args.shots, "verdict-summary.png"))
            m = re.match(r"^(\d+) of (\d+) claims agree in direction, (\d+) of (\d+) within 2x", line.text)
            cells = driver.execute_script("""
              const rows = Array.from(document.querySelectorAll('table[data-fig=headlines] tr')).slice(1);
              const cell = (r, i) => r.children[i] ? r.children[i].textContent : '';
              const data = rows.filter((r) => cell(r, 3) !== 'no data');
              return [data.filter((r) => cell(r, 4) === 'agrees').length,
                      data.filter((r) => ['agrees', 'opposite', 'no change'].includes(cell(r, 4))).length,
                      data.filter((r) => cell(r, 5) === 'yes').length, data.length];""")
            if not m:
                failures.append(f"the verdict summary reads '{line.text}'")
            elif [int(g) for g in m.groups()] != cells:
                failures.append(f"the verdict summary '{line.text}' disagrees with the table's cells {cells}")
        height = driver.execute_script("return document.body.scrollHeight")
        driver.set_window_size(1280, min(max(height, 1000), 16000))
        driver.save_screenshot(args.screenshot)
        if png_is_blank(args.screenshot):
            failures.append("the screenshot is blank")
        if args.shots:
            os.makedirs(args.shots, exist_ok=True)
            for el in driver.find_elements("css selector", "section"):
                el.screenshot(os.path.join(args.shots, el.get_attribute("id") + ".png"))
        print(json.dumps({"charts": sorted(k for k, f in state["figures"].items() if f["state"] == "chart"),
                          "notices": sorted(k for k, f in state["figures"].items() if f["notice"]),
                          "tables": state["tables"], "sections": state["sections"]}, indent=1))
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
