#!/usr/bin/python3
"""Checks a trace written by tessera replay --trace against the same run's database: the file is
trace-event JSON (every event has its phase, process and a finite time; counters have numeric
series), each shader core's counter sums to the core's cycles by state in core_metrics, and the
file loads in Debian's headless Chromium (a page that reads it as a script and walks its events;
the trace viewers' own importers are not run here) without a console error.

Usage: trace_check.py TRACE.json RESULTS.db CONFIG FRAME
Exit 0 when every check passes; prints one line per failed check otherwise.
"""
import json
import math
import os
import shutil
import sqlite3
import sys
import tempfile


def main():
    trace_path, db_path, config, frame = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    failures = []
    with open(trace_path) as f:
        trace = json.load(f)
    events = trace.get("traceEvents", [])
    sums = {}  # (core, state) -> cycles
    for e in events:
        if e.get("ph") not in ("M", "X", "C") or "pid" not in e:
            failures.append(f"malformed event {e}")
            break
        if e["ph"] != "M" and not math.isfinite(float(e.get("ts", math.nan))):
            failures.append(f"event without a finite ts: {e}")
            break
        if e["ph"] == "C":
            if not all(isinstance(v, (int, float)) for v in e["args"].values()):
                failures.append(f"counter with a non-numeric series: {e}")
                break
            name = e["name"]
            if name.startswith("shader core "):
                core = int(name.split()[2])
                for state, v in e["args"].items():
                    sums[(core, state)] = sums.get((core, state), 0) + v
    db = sqlite3.connect(db_path)
    rows = db.execute("SELECT core, metric, value FROM core_metrics WHERE config = ? AND frame = ? AND metric LIKE 'cycles.%'",
                      (config, frame)).fetchall()
    if not rows:
        failures.append(f"no core_metrics cycles.* of {config} frame {frame} in {db_path}")
    for core, metric, value in rows:
        state = metric[len("cycles."):]
        if sums.get((core, state), 0) != value:
            failures.append(f"core {core} {state}: {sums.get((core, state), 0)} cycles in the trace, {value} in core_metrics")
    print(f"{len(events)} events, {len(rows)} core states compared")

    # Chromium: the trace as a script (file:// pages cannot fetch), its events walked by the page.
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    work = tempfile.mkdtemp(prefix="tessera-trace-check-")
    try:
        with open(os.path.join(work, "trace.js"), "w") as out, open(trace_path) as src:
            out.write("window.trace = ")
            shutil.copyfileobj(src, out)
            out.write(";\n")
        with open(os.path.join(work, "page.html"), "w") as out:
            out.write("""<!DOCTYPE html><html><body><script src="trace.js"></script><script>
              const ev = window.trace.traceEvents;
              let bad = 0, counters = 0, slices = 0;
              for (const e of ev) {
                if (e.ph === 'C') { counters++; for (const v of Object.values(e.args)) if (!Number.isFinite(v)) bad++; }
                else if (e.ph === 'X') { slices++; if (!(e.dur >= 0)) bad++; }
                if (e.ph !== 'M' && !Number.isFinite(e.ts)) bad++;
              }
              document.title = 'events ' + ev.length + ' counters ' + counters + ' slices ' + slices + ' bad ' + bad;
            </script></body></html>""")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for a in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--allow-file-access-from-files",
                  "--user-data-dir=" + os.path.join(work, "profile")):
            options.add_argument(a)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        try:
            driver.get("file://" + os.path.join(work, "page.html"))
            title = driver.title
            print("chromium: " + title)
            if not title.startswith(f"events {len(events)} ") or not title.endswith(" bad 0"):
                failures.append(f"chromium read the trace as '{title}' ({len(events)} events)")
            for e in driver.get_log("browser"):
                if e["level"] == "SEVERE":
                    failures.append("console error: " + e["message"])
        finally:
            driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
