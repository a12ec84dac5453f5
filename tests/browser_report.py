#!/usr/bin/python3
"""browser_report.py - the layout of the --html page in a real browser
(Selenium with Debian's chromium-driver), run by ctest (tests/CMakeLists.txt).

test_browser.c checks what the page says (values, replay, trace); this
checks how it looks, measured from the DOM Chromium laid out:
  - status: no bare "ok" (the script's load status) shown on the page;
  - gap: the comparison table does not touch the chart boxes below it;
  - labels: no curve's name is drawn over a curve (label boxes against the
    polylines of every chart);
  - anytime: the anytime curves span more than 80% of their panel's width;
  - units: no number in exponent form ("5.32e+7") anywhere on the page,
    memory in B/KiB/MiB/GiB, seconds with a unit;
  - tree: no two edges of the search-tree view cross (from node positions,
    at several events of the step-through);
  - winner: the line saying which algorithm won, checked against psolve's
    own --json for a score game, a cost game with a tie and an unsolvable
    puzzle.

usage: browser_report.py PSOLVE SOURCE_DIR OUT_DIR [CHECK...]
CHECK names limit the run to those checks. Screenshots of the pages go to
OUT_DIR (report-*.png). Exit 77 (ctest: skipped) when chromium,
chromedriver or Selenium is absent; 1 when a check fails.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_driver  # noqa: E402 (exit 77 without Selenium or chromium)

psolve, source, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
only = set(sys.argv[4:])
os.makedirs(out_dir, exist_ok=True)
work = tempfile.mkdtemp(prefix="psolve-browser-report-")

# The pages: a score game with anytime curves (a node budget, one thread:
# the same page on every machine), a traced cost game, a tie, no solution.
SAMEGAME = "games/samegame/examples/samegame-10x10.txt"
PAGES = {
    "samegame": ["--algo", "greedy,beam,nrpa", "--beam-width", "100",
                 "--max-nodes", "1000000", "--threads", "1", SAMEGAME],
    "eight": ["--game", "npuzzle", "--algo", "bfs,astar,greedy", "--trace",
              "60", "games/npuzzle/examples/8-hardest.txt"],
    "tie": ["--game", "watersort", "--algo", "bfs,astar,greedy",
            "games/watersort/levels/frozenfrank-115.txt"],
    "unsolvable": ["--game", "npuzzle", "--algo", "astar,greedy",
                   "--max-nodes", "2000",
                   "games/npuzzle/examples/8-unsolvable.txt"],
}


def make_page(name):
    """The page and psolve's own --json of the same runs."""
    page = os.path.join(work, name + ".html")
    p = subprocess.run([psolve] + PAGES[name] + ["--quiet", "--json",
                                                 "--html", page],
                       cwd=source, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, timeout=120)
    # 3: proved unsolvable, 4: stopped by a limit
    assert p.returncode in (0, 3, 4), (name, p.returncode)
    return page, json.loads(p.stdout)


driver = browser_driver.chrome(os.path.join(work, "profile"))
failures = []
pages = {}


def load(name, fragment=""):
    if name not in pages:
        pages[name] = make_page(name)
    driver.get("file://" + pages[name][0] + ("#" + fragment if fragment else ""))
    # Same document, new fragment: the page reacts to hashchange.
    driver.execute_script("window.dispatchEvent(new HashChangeEvent('hashchange'))")
    for entry in driver.get_log("browser"):
        failures.append("%s: console: %s" % (name, entry["message"]))
    return pages[name][1]


def shot(name):
    path = os.path.join(out_dir, "report-%s.png" % name)
    # The whole page: as tall as its content.
    h = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(1300, min(max(h + 40, 600), 6000))
    driver.save_screenshot(path)
    driver.set_window_size(1300, 1500)
    print("screenshot:", path)


def check(what, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + what + ("" if ok else ": " + detail))
    if not ok:
        failures.append(what + ": " + detail)


# Every text a reader sees: the laid-out text of the HTML elements and the
# text of the SVG drawings (innerText leaves SVG out).
VISIBLE_TEXT = """
var out = [];
document.body.innerText.split('\\n').forEach(function (l) { out.push(l.trim()); });
document.querySelectorAll('svg text').forEach(function (t) {
  if (t.getClientRects().length) out.push(t.textContent.trim());
});
return out;
"""


def test_status():
    load("samegame")
    lines = driver.execute_script(VISIBLE_TEXT)
    check("status: no bare 'ok' on the page", "ok" not in lines,
          "a line reads 'ok'")
    load("eight", "trace=end")
    lines = driver.execute_script(VISIBLE_TEXT)
    check("status: no bare 'ok' on the traced page", "ok" not in lines,
          "a line reads 'ok'")
    # An error is still shown, where the status line stands.
    driver.execute_script("window.dispatchEvent(new ErrorEvent('error', {message: 'boom'}))")
    lines = driver.execute_script(VISIBLE_TEXT)
    check("status: an error is shown", "error: boom" in lines, "%s" % lines[:4])
    driver.get_log("browser")  # that error was ours


def test_gap():
    load("samegame")
    gaps = driver.execute_script("""
var t = document.querySelector('#comparison-table table').getBoundingClientRect();
return Array.prototype.map.call(document.querySelectorAll('#comparison-bars .panel'),
  function (p) {
    var b = p.getBoundingClientRect();
    var dx = Math.max(b.left - t.right, t.left - b.right, 0);
    var dy = Math.max(b.top - t.bottom, t.top - b.bottom, 0);
    return Math.max(dx, dy);
  });
""")
    check("gap: chart boxes below the comparison table", len(gaps) >= 3,
          "%d boxes" % len(gaps))
    check("gap: the table does not touch a chart box (>= 8 px)",
          all(g >= 8 for g in gaps), "gaps %s px" % gaps)


# For every chart: the boxes of its curve labels (texts naming a series)
# against every segment of its curves (paths of M/L/H/V commands).
LABEL_HITS = """
var names = arguments[0], hits = [];
function segs(d) {
  var out = [], x = 0, y = 0, re = /([MLHV])([^MLHV]*)/g, m;
  while ((m = re.exec(d))) {
    var n = m[2].split(/[ ,]+/).filter(function (s) { return s !== ''; }).map(Number);
    var nx = x, ny = y;
    if (m[1] === 'M' || m[1] === 'L') { nx = n[0]; ny = n[1]; }
    if (m[1] === 'H') nx = n[0];
    if (m[1] === 'V') ny = n[0];
    if (m[1] !== 'M') out.push([x, y, nx, ny]);
    x = nx; y = ny;
  }
  return out;
}
function cross(s, b) {
  // Clip the segment to the box (Liang-Barsky).
  var x0 = s[0], y0 = s[1], dx = s[2] - x0, dy = s[3] - y0, t0 = 0, t1 = 1;
  var p = [-dx, dx, -dy, dy], q = [x0 - b.x, b.x + b.width - x0, y0 - b.y, b.y + b.height - y0];
  for (var i = 0; i < 4; i++) {
    if (p[i] === 0) { if (q[i] < 0) return false; continue; }
    var r = q[i] / p[i];
    if (p[i] < 0) t0 = Math.max(t0, r); else t1 = Math.min(t1, r);
  }
  return t0 <= t1;
}
var charts = document.querySelectorAll('svg.chart');
charts.forEach(function (c, ci) {
  var lines = [];
  c.querySelectorAll('path').forEach(function (p) { lines = lines.concat(segs(p.getAttribute('d'))); });
  c.querySelectorAll('text').forEach(function (t) {
    if (names.indexOf(t.textContent.trim()) < 0) return;
    // The box and the stroke's half width (2) round it.
    var g = t.getBBox(), b = {x: g.x - 2, y: g.y - 2, width: g.width + 4, height: g.height + 4};
    lines.forEach(function (s) { if (cross(s, b)) hits.push(ci + ':' + t.textContent); });
  });
});
return [charts.length, hits];
"""


def test_labels():
    data = load("samegame")
    names = [r["algorithm"] for r in data["runs"]]
    n, hits = driver.execute_script(LABEL_HITS, names)
    check("labels: charts drawn", n >= 2, "%d charts" % n)
    check("labels: no curve label crossed by a curve", not hits,
          "crossed: %s" % sorted(set(hits)))
    load("samegame", "step=end")
    n, hits = driver.execute_script(LABEL_HITS, names)
    check("labels: none crossed at the end of the replay", not hits,
          "crossed: %s" % sorted(set(hits)))


ANYTIME_SPAN = """
var box = document.getElementById('anytime');
var paths = box.querySelectorAll('svg path');
if (!paths.length) return null;
var lo = Infinity, hi = -Infinity;
paths.forEach(function (p) { var b = p.getBoundingClientRect(); lo = Math.min(lo, b.left); hi = Math.max(hi, b.right); });
var s = getComputedStyle(box);
var inner = box.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
return [hi - lo, inner];
"""


def test_anytime():
    load("samegame")
    r = driver.execute_script(ANYTIME_SPAN)
    check("anytime: curves drawn", r is not None, "no path")
    if r:
        check("anytime: the curves span > 80% of the panel",
              r[0] > 0.8 * r[1], "%.0f of %.0f px" % (r[0], r[1]))
    # A narrower window: the chart follows. The page redraws on the resize
    # event, which may come after set_window_size returns: wait for it
    # (a loaded machine showed the old drawing, 1029 of 700 px).
    driver.set_window_size(800, 1500)
    deadline = time.time() + 10
    r = driver.execute_script(ANYTIME_SPAN)
    while r and r[0] > r[1] + 1 and time.time() < deadline:
        time.sleep(0.05)
        r = driver.execute_script(ANYTIME_SPAN)
    driver.set_window_size(1300, 1500)
    if r:
        check("anytime: > 80% of the panel in a narrow window",
              r[0] > 0.8 * r[1] and r[0] <= r[1] + 1, "%.0f of %.0f px" % (r[0], r[1]))


def test_units():
    for name, frag in (("samegame", ""), ("eight", "trace=end"), ("tie", "")):
        load(name, frag)
        lines = driver.execute_script(VISIBLE_TEXT)
        bad = [l for l in lines if re.search(r"\d[eE][+-]?\d", l)]
        check("units: no exponent form on the %s page" % name, not bad,
              "%s" % bad[:5])
    load("samegame")
    cells = driver.execute_script("""
var t = document.querySelector('#comparison-table table');
var head = Array.prototype.map.call(t.rows[0].cells, function (c) { return c.textContent; });
var mem = head.indexOf('peak memory'), sec = head.indexOf('time');
if (sec < 0) sec = head.indexOf('seconds');
return Array.prototype.slice.call(t.rows, 1).map(function (r) {
  return [r.cells[mem].textContent, r.cells[sec].textContent]; });
""")
    check("units: the comparison table has runs", len(cells) >= 2, "%d rows" % len(cells))
    mem_ok = all(re.fullmatch(r"\d+(\.\d+)? (B|KiB|MiB|GiB)", m) for m, _ in cells)
    sec_ok = all(re.fullmatch(r"\d+(\.\d+)? (ms|s)|< 0\.1 ms|\d+ min \d\d s", s) for _, s in cells)
    check("units: memory in B/KiB/MiB/GiB", mem_ok, "%s" % [m for m, _ in cells])
    check("units: time with its unit", sec_ok, "%s" % [s for _, s in cells])


# The tree's edges as segments, and the pairs that cross (segments sharing
# an end point do not count).
TREE_CROSSINGS = """
var s = document.querySelector('#t-tree svg.tree');
if (!s) return null;
var e = Array.prototype.map.call(s.querySelectorAll('line'), function (l) {
  return ['x1', 'y1', 'x2', 'y2'].map(function (k) { return parseFloat(l.getAttribute(k)); }); });
function side(ax, ay, bx, by, cx, cy) { var v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax); return Math.abs(v) < 1e-9 ? 0 : v > 0 ? 1 : -1; }
function same(a, b, i, j) { return Math.abs(a[i] - b[j]) < 1e-6 && Math.abs(a[i + 1] - b[j + 1]) < 1e-6; }
var n = 0;
for (var i = 0; i < e.length; i++) for (var j = i + 1; j < e.length; j++) {
  var a = e[i], b = e[j];
  if (same(a, b, 0, 0) || same(a, b, 0, 2) || same(a, b, 2, 0) || same(a, b, 2, 2)) continue;
  var d1 = side(a[0], a[1], a[2], a[3], b[0], b[1]), d2 = side(a[0], a[1], a[2], a[3], b[2], b[3]);
  var d3 = side(b[0], b[1], b[2], b[3], a[0], a[1]), d4 = side(b[0], b[1], b[2], b[3], a[2], a[3]);
  if (d1 * d2 < 0 && d3 * d4 < 0) n++;
}
// An edge through a node that is not one of its two ends.
var c = Array.prototype.map.call(s.querySelectorAll('circle'), function (k) {
  return [parseFloat(k.getAttribute('cx')), parseFloat(k.getAttribute('cy')), parseFloat(k.getAttribute('r'))]; });
var through = 0;
e.forEach(function (a) {
  c.forEach(function (k) {
    if ((Math.abs(k[0] - a[0]) < 1e-6 && Math.abs(k[1] - a[1]) < 1e-6) ||
        (Math.abs(k[0] - a[2]) < 1e-6 && Math.abs(k[1] - a[3]) < 1e-6)) return;
    var dx = a[2] - a[0], dy = a[3] - a[1], L = dx * dx + dy * dy;
    var t = L ? Math.max(0, Math.min(1, ((k[0] - a[0]) * dx + (k[1] - a[1]) * dy) / L)) : 0;
    var px = a[0] + t * dx - k[0], py = a[1] + t * dy - k[1];
    if (px * px + py * py < k[2] * k[2]) through++;
  });
});
return [e.length, n + through];
"""


def test_tree():
    load("eight")
    runs = driver.execute_script(
        "return Array.prototype.map.call(document.getElementById('trace-buttons').children,"
        " function (b) { return b.getAttribute('data-run'); });")
    total = 0
    for run in runs:
        for step in (10, 25, 40, 59, "end"):
            load("eight", "run=%s&trace=%s" % (run, step))
            driver.execute_script(
                "document.querySelector('#trace-buttons [data-run=\"%s\"]').click();"
                "window.location.hash = 'trace=%s';"
                "window.dispatchEvent(new HashChangeEvent('hashchange'));" % (run, step))
            r = driver.execute_script(TREE_CROSSINGS)
            if r is None:
                check("tree: drawn for run %s" % run, False, "no tree")
                continue
            total += r[0]
            check("tree: run %s, event %s: no crossing edges, none through a node (%d edges)" %
                  (run, step, r[0]), r[1] == 0, "%d crossings or edges through nodes" % r[1])
    check("tree: edges drawn", total > 0, "none")


def fmt_int(v):
    return "{:,}".format(v)


def test_winner():
    data = load("samegame")
    found = [r for r in data["runs"] if r["found"]]
    best = max(r["score"] for r in found)
    winners = [r["algorithm"] for r in found if r["score"] == best]
    text = driver.execute_script(
        "var w = document.getElementById('winner'); return w ? w.textContent : null;")
    check("winner: a line on the score page", text is not None, "no #winner")
    if text is None:
        return
    names = winners[0] if len(winners) == 1 else \
        ", ".join(winners[:-1]) + " and " + winners[-1] + " tie"
    want = "best: %s, %s points" % (names, fmt_int(best))
    check("winner: says '%s'" % want, text.startswith(want), repr(text))
    for r in found:
        if r["algorithm"] not in winners:
            check("winner: names %s's score" % r["algorithm"],
                  "%s %s" % (r["algorithm"], fmt_int(r["score"])) in text, repr(text))
    check("winner: a score game's best is not called optimal unless proved",
          "optimal" not in text.replace("not proved optimal", ""), repr(text))

    data = load("tie")
    text = driver.execute_script("return document.getElementById('winner').textContent;")
    exact = [r for r in data["runs"] if r["status"] == "optimal"]
    cost = min(r["cost"] for r in exact)
    check("winner: a tie is said as a tie", text.startswith(
        "best: %s tie, %s moves, optimal" %
        (" and ".join(r["algorithm"] for r in exact), fmt_int(cost))), repr(text))

    data = load("unsolvable")
    text = driver.execute_script("return document.getElementById('winner').textContent;")
    check("winner: no solution said honestly",
          text.startswith("best: none") and "astar" in text, repr(text))


TESTS = [("status", test_status), ("gap", test_gap), ("labels", test_labels),
         ("anytime", test_anytime), ("units", test_units), ("tree", test_tree),
         ("winner", test_winner)]

try:
    for name, fn in TESTS:
        if only and name not in only:
            continue
        try:
            fn()
        except Exception as e:  # one broken check does not hide the others
            check(name, False, "%s: %s" % (type(e).__name__, e))
    if not only:
        load("samegame")
        shot("samegame")
        load("eight", "trace=40")
        shot("trace")
finally:
    driver.quit()
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print("%d failure(s)" % len(failures))
    sys.exit(1)
print("all checks passed")
