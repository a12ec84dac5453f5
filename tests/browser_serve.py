#!/usr/bin/python3
"""browser_serve.py - psolve serve's app in a real browser (Selenium with
Debian's chromium-driver), run by ctest (tests/CMakeLists.txt).

Starts `psolve serve --port 0 --allow-scripts`, opens the printed URL in
headless Chromium and, as a person would: loads a bundled SameGame board,
edits a cell, plays two moves, undoes one, asks for a hint, runs two
algorithms, watches their live progress and best line advance, stops one,
steps through its replay in the result page, downloads its solution and
checks it with `psolve verify`. Then: edits a Water Sort level (a unit off
and back, a tube added, a capacity the parser refuses with its line and
column) and plays it; edits an 8-puzzle (a tile set, resized to a
15-puzzle), plays a slide and solves from there; pastes a level with an
error; watches IDA*'s --trace live with pause, step and back; steps A*'s
trace on the 8-puzzle and checks its tree (a node per id the events named,
the expanded one marked) and the open list's size against the events; asks for a
hint on a Lua game after a move; plays under a Lua rules script and checks
the score with `psolve verify --rules`; picks a screenshot, gets its board,
solves it and steps through the moves drawn on the picture; starts a long
run, starts another beside it (the live panel stays), reloads the page (the
live run comes back) and stops it there. Fails on any console error.
Screenshots go to OUT_DIR (serve-*.png).

usage: browser_serve.py PSOLVE OUT_DIR [WIDTHxHEIGHT]
The window is 1300x1500 unless given: ctest runs the whole walk again at a
phone's 390x844 (browser_serve_phone), so every item is tried at both sizes.
Exit 77 (ctest: skipped) with a message when chromium, chromedriver or
Selenium is absent. Every wait is bounded.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_driver  # noqa: E402 (exit 77 without Selenium or chromium)
from selenium.common.exceptions import ElementClickInterceptedException  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

psolve, out_dir = sys.argv[1], sys.argv[2]
SIZE = sys.argv[3] if len(sys.argv) > 3 else None
WIDTH, HEIGHT = (int(v) for v in (SIZE or "1300x1500").split("x"))
# After the layout checks (which set both sizes): the size given, else the
# laptop's.
AFTER_LAYOUT = (WIDTH, HEIGHT) if SIZE else (1280, 1000)
os.makedirs(out_dir, exist_ok=True)
work = tempfile.mkdtemp(prefix="psolve-browser-serve-")
SOURCE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
server = subprocess.Popen([psolve, "serve", "--port", "0", "--time-cap", "30",
                           "--allow-scripts"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True)
url = server.stdout.readline().strip()
assert url.startswith("http://127.0.0.1:"), url

driver = browser_driver.chrome(os.path.join(work, "profile"), WIDTH, HEIGHT)
failures = []


def wait(cond, what, seconds=60):
    """Wait until cond() is true. An element the page replaced while cond
    read it (stale) is read again at the next poll, not a failure: a wait
    that raised on it read as a timeout after 0 s (CI, 2026-12-05)."""
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.1,
                             ignored_exceptions=(StaleElementReferenceException,)).until(
            lambda d: cond())
    except TimeoutException:
        driver.save_screenshot(os.path.join(out_dir, "serve-failed.png"))
        raise AssertionError("timed out waiting for: " + what + "\n" + diagnosis())
    except Exception as e:
        driver.save_screenshot(os.path.join(out_dir, "serve-failed.png"))
        raise AssertionError("failed waiting for: %s: %r\n%s" % (what, e, diagnosis()))


def click_run():
    """Click Run and wait for its answer: a panel of a new run. The same
    step removes the finished panels of earlier runs, so a wait on
    run_panels() after this never reads a panel that is about to go."""
    old = {p.get_attribute("data-id") for p in run_panels()}
    driver.find_element(By.ID, "run").click()
    wait(lambda: any(p.get_attribute("data-id") not in old for p in run_panels()),
         "the answer to Run")


def diagnosis():
    """What the page's run panels and the server's runs said at a timeout:
    a wait that failed says where it stuck."""
    try:
        panels = [(p.get_attribute("data-id"), p.get_attribute("data-done-by"),
                   p.text.replace("\n", " | ")[:200]) for p in run_panels()]
        runs = json.loads(urllib.request.urlopen(
            url.replace("/?token=", "/api/runs?token="), timeout=10).read())
        kept = [(r["id"], r["algo"], r["state"], round(r["elapsed"], 1),
                 r.get("exit_status")) for r in runs["runs"]]
        return "panels: %s\nserver runs: %s (running %s)" % (panels, kept, runs["running"])
    except Exception as e:  # the diagnosis must not hide the failure
        return "no diagnosis: %r" % e


def click_when_free(find):
    """Click the element find() gives, once nothing covers it: a page
    still laying out (runs restored after a reload) can put another
    element over it for a moment."""
    def attempt():
        e = find()
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", e)
        try:
            e.click()
            return True
        except ElementClickInterceptedException:
            return False
    wait(attempt, "a free click", 20)


def text(id_):
    return driver.find_element(By.ID, id_).text


def idle():
    wait(lambda: driver.execute_script("return window.psolvePending") == 0,
         "requests to finish")


def click_cell(i):
    driver.find_element(By.CSS_SELECTOR, "#board rect[data-cell='%d']" % i).click()


def value_of(id_):
    return driver.find_element(By.ID, id_).get_attribute("value")


def lines():
    return [x for x in value_of("text").split("\n")
            if x and not x.startswith("#")]


def load_bundled(name):
    Select(driver.find_element(By.ID, "puzzle-select")).select_by_visible_text(name)
    driver.find_element(By.ID, "load-bundled").click()
    idle()
    wait(lambda: text("nmoves") == "0", "the bundled " + name)


def paint(value):
    Select(driver.find_element(By.ID, "paint")).select_by_value(value)


def click_tube(k):
    # The tube's outline: the last rect of that tube.
    driver.find_elements(By.CSS_SELECTOR, "#board rect[data-tube='%d']" % k)[-1].click()


def set_number(id_, v):
    e = driver.find_element(By.ID, id_)
    e.clear()
    e.send_keys(str(v))


def edit_result(what):
    idle()
    wait(lambda: text("edit-status") in ("valid", "not valid"), what)
    return text("edit-status")


def only_algos(*names):
    """Tick exactly these algorithms, and see them ticked: a click that
    missed its box (the page moving under a loaded run, on the phone
    layout: CI, 2026-12-07) is clicked again, not left for Run to refuse."""
    def ticked():
        done = True
        for c in driver.find_elements(By.CSS_SELECTOR, "#algos input"):
            if c.is_selected() != (c.get_attribute("data-algo") in names):
                c.click()
                done = False
        return done
    wait(ticked, "the algorithms " + ", ".join(names) + " ticked alone")


def run_panels():
    return driver.find_elements(By.CSS_SELECTOR, "#runs .run")


def shot(name):
    path = os.path.join(out_dir, "serve-%s.png" % name)
    driver.save_screenshot(path)
    print("screenshot:", path)


try:
    driver.get(url)
    wait(lambda: driver.find_element(By.ID, "status").get_attribute("textContent") == "ok",
         "the app to load")
    # A bundled board: the first standard position (15x15).
    sel = driver.find_element(By.ID, "puzzle-select")
    for o in sel.find_elements(By.TAG_NAME, "option"):
        if o.text == "samegame/standard/01.txt":
            o.click()
            break
    driver.find_element(By.ID, "load-bundled").click()
    wait(lambda: driver.find_element(By.ID, "text").get_attribute("value")
         .count("\n") >= 15, "the bundled board")
    idle()
    # Edit: paint the top-left cell with colour 5.
    driver.find_element(By.ID, "edit").click()
    for o in driver.find_element(By.ID, "paint").find_elements(By.TAG_NAME, "option"):
        if o.text == "5":
            o.click()
    before = driver.find_element(By.ID, "text").get_attribute("value")
    click_cell(0)
    wait(lambda: driver.find_element(By.ID, "text").get_attribute("value") != before,
         "the edit to change the text")
    idle()
    edited = driver.find_element(By.ID, "text").get_attribute("value")
    assert edited.split("\n")[0][0] == "5", "edited: " + edited[:20]
    driver.find_element(By.ID, "edit").click()  # editing off: reloads the text
    idle()
    # Play two moves: click cells until two moves were legal.
    played = 0
    for i in range(15 * 15):
        if played == 2:
            break
        n0 = int(text("nmoves"))
        click_cell(i)
        idle()
        time.sleep(0.05)
        if int(text("nmoves")) == n0 + 1:
            played += 1
    assert played == 2, "could not play two moves"
    score2 = int(text("value"))
    shot("play")
    driver.find_element(By.ID, "undo").click()
    wait(lambda: text("nmoves") == "1", "undo to leave one move")
    idle()
    assert int(text("value")) <= score2, "undo raised the score"
    driver.find_element(By.ID, "hint").click()
    wait(lambda: text("hint-text").startswith("hint:"), "a hint")
    idle()
    shot("hint")
    # Solve from the start with two algorithms, 8 s each.
    # Only the algorithms that run on the position's kind are offered: a
    # SameGame score board has no cost searches (A* was accepted, then failed).
    def offered_algos():
        return {b.get_attribute("id")[5:] for b in
                driver.find_elements(By.CSS_SELECTOR, "input[id^='algo-']") if b.is_enabled()}
    assert not {"bfs", "astar", "idastar"} & offered_algos(), offered_algos()
    assert {"nrpa", "beam", "dfs"} <= offered_algos(), offered_algos()
    driver.find_element(By.ID, "algo-nrpa").click()
    driver.find_element(By.ID, "algo-mc").click()
    t = driver.find_element(By.ID, "time")
    t.clear()
    t.send_keys("8")
    click_run()
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#runs .run")) == 2,
         "two run panels")

    def nodes(k):
        live = driver.find_elements(By.CSS_SELECTOR, "#runs .run .live")[k]
        v = live.get_attribute("data-nodes")
        return int(v) if v else None

    wait(lambda: nodes(0) is not None, "live progress of the first run")
    first = nodes(0)
    wait(lambda: nodes(0) is not None and nodes(0) > first,
         "the live node count to advance")
    # The best line so far, drawn on the run's board while it runs.
    # The first panel's own line (under ASan the second run's line could
    # come first, and the first panel's board was not drawn yet).
    wait(lambda: run_panels()[0].find_elements(By.CSS_SELECTOR,
                                               ".best-line[data-len]")
         and not run_panels()[0].get_attribute("data-done"),
         "the live best line of a running run")
    assert run_panels()[0].find_elements(By.CSS_SELECTOR, ".best-board svg"), \
        "the best line's board"
    shot("live")
    live_text = driver.find_elements(By.CSS_SELECTOR, "#runs .run .live")[0].text
    assert "process memory now" in live_text, live_text
    driver.find_elements(By.CSS_SELECTOR, "#runs .run .stop")[0].click()
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#runs .run[data-done]")) == 2,
         "both runs to end", 90)
    stopped = driver.find_elements(By.CSS_SELECTOR, "#runs .run .live")[0].text
    assert "interrupted" in stopped, stopped
    assert len(driver.find_elements(By.CSS_SELECTOR, "#compare tr")) == 3, "comparison rows"
    # One set of numbers: every run counts what it generated (nrpa said 0),
    # and the two memory figures say which memory they are.
    table = driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#compare tr'),"
        " function (r) { return Array.prototype.map.call(r.cells, function (c) { return c.textContent; }); });")
    gen = table[0].index("generated")
    assert all(row[gen] not in ("0", "-") for row in table[1:]), table
    assert "search memory (peak)" in table[0], table[0]
    # Step through the stopped run's replay (its --html page).
    driver.find_elements(By.CSS_SELECTOR, "#runs .run .view")[0].click()
    wait(lambda: driver.find_elements(By.ID, "result-frame"), "the result page")
    driver.switch_to.frame(driver.find_element(By.ID, "result-frame"))
    wait(lambda: driver.find_elements(By.ID, "forward") and
         driver.find_element(By.ID, "status").get_attribute("textContent") == "ok", "the replay")
    driver.find_element(By.ID, "forward").click()
    driver.find_element(By.ID, "forward").click()
    wait(lambda: driver.find_element(By.ID, "step").text == "2", "replay step 2")
    driver.switch_to.default_content()
    driver.execute_script("document.getElementById('result').scrollIntoView()")
    shot("result")
    driver.execute_script("window.scrollTo(0, 0)")
    # Download the solution and verify it.
    href = driver.find_elements(By.CSS_SELECTOR, "#runs .run a.dl-solution")[0] \
        .get_attribute("href")
    sol = urllib.request.urlopen(href, timeout=30).read().decode()
    with open(os.path.join(work, "board.txt"), "w") as f:
        f.write(edited)
    with open(os.path.join(work, "sol.txt"), "w") as f:
        f.write(sol)
    v = subprocess.run([psolve, "verify", os.path.join(work, "board.txt"),
                        os.path.join(work, "sol.txt")], capture_output=True,
                       text=True, timeout=60)
    assert v.returncode == 0, v.stdout + v.stderr
    print("verify:", v.stdout.replace("\n", "; "))

    # ---- Water Sort: the editor, checked by the game's parser ----
    load_bundled("watersort/levels/frozenfrank-463.txt")
    driver.find_element(By.ID, "edit").click()
    n = len(lines())
    paint("0")  # remove top
    click_tube(0)
    assert edit_result("a unit off tube 1") == "valid", text("error")
    assert lines()[1] == "1 2 3", lines()[:2]
    paint("4")
    click_tube(0)
    wait(lambda: lines()[1] == "1 2 3 4", "the unit back on tube 1")
    driver.find_element(By.ID, "e-add-tube").click()
    wait(lambda: len(lines()) == n + 1 and lines()[-1] == "-", "a tube added")
    assert edit_result("the tube added") == "valid", text("error")
    set_number("e-capacity", 1)
    driver.find_element(By.ID, "e-set-capacity").click()
    wait(lambda: text("edit-status") == "not valid", "capacity 1 refused")
    assert "puzzle:1:10:" in text("error"), text("error")
    shot("editor-error")
    set_number("e-capacity", 4)
    driver.find_element(By.ID, "e-set-capacity").click()
    wait(lambda: text("edit-status") == "valid", "capacity 4 again")
    driver.find_element(By.ID, "e-remove-tube").click()
    wait(lambda: len(lines()) == n, "the tube removed")
    assert edit_result("the tube removed") == "valid"
    driver.find_element(By.ID, "edit").click()  # editing off: play it
    idle()
    # Every unit carries its colour's number; the count is called pours;
    # only Water Sort's heuristics are offered.
    units = sum(len(l.split()) for l in lines()[1:] if l != "-")
    assert len(driver.find_elements(By.CSS_SELECTOR, "#board text.unit-mark")) == units
    assert text("value-name") == "pours", text("value-name")
    offered = [o.get_attribute("value") for o in
               driver.find_elements(By.CSS_SELECTOR, "#heuristic option")]
    assert offered == ["", "zero", "phi", "lookahead"], offered
    assert {"bfs", "astar", "idastar"} <= offered_algos(), offered_algos()
    # Generate takes Water Sort's own parameters.
    set_number("g-colors", 3)
    set_number("g-tubes", 5)
    set_number("g-capacity", 3)
    driver.find_element(By.ID, "gen").click()
    idle()
    wait(lambda: lines()[0] == "capacity 3" and len(lines()) == 6, "a 3-colour level of 5 tubes")
    click_tube(0)
    # The picked tube is drawn picked until the second click.
    assert driver.find_elements(By.CSS_SELECTOR, "#board rect[data-tube='0'][stroke='#e65100']"), \
        "the picked tube is not marked"
    click_tube(len(lines()) - 2)  # an empty tube
    wait(lambda: text("nmoves") == "1", "a pour on the edited level")
    shot("watersort")

    # ---- npuzzle: set a tile, resize, play, solve from there ----
    load_bundled("npuzzle/examples/8-hardest.txt")
    driver.find_element(By.ID, "edit").click()
    paint("1")
    click_cell(0)  # 8 there: 1 takes its place, 8 goes where 1 was
    assert edit_result("tile 1 set") == "valid", text("error")
    assert lines() == ["1 6 7", "2 5 4", "3 0 8"], lines()
    set_number("e-rows", 4)
    set_number("e-cols", 4)
    driver.find_element(By.ID, "e-resize").click()
    wait(lambda: len(lines()) == 4, "the 15-puzzle")
    assert edit_result("resized") == "valid", text("error")
    assert lines() == ["1 2 3 4", "5 6 7 8", "9 10 11 12", "13 14 15 0"], lines()
    driver.find_element(By.ID, "edit").click()
    idle()
    click_cell(14)  # tile 15 slides into the blank
    wait(lambda: text("nmoves") == "1", "a slide on the edited board")
    only_algos("astar")
    Select(driver.find_element(By.ID, "from")).select_by_value("here")
    click_run()
    wait(lambda: run_panels() and run_panels()[0].get_attribute("data-done"),
         "astar from the position reached")
    live = run_panels()[0].find_element(By.CSS_SELECTOR, ".live").text
    assert live.startswith("optimal: cost 1 in 1 moves"), live
    # A stream that never speaks (a browser holding it back behind its
    # connection limit): the panel's watchdog asks the run and ends it.
    driver.execute_script(
        "window.realEventSource = window.EventSource;"
        "window.EventSource = function () { this.close = function () {};"
        " this.addEventListener = function () {}; };")
    click_run()
    wait(lambda: run_panels() and run_panels()[0].get_attribute("data-done-by") == "poll",
         "the watchdog to end a silent stream's run", 30)
    live = run_panels()[0].find_element(By.CSS_SELECTOR, ".live").text
    assert live.startswith("optimal: cost 1 in 1 moves"), live
    driver.execute_script("window.EventSource = window.realEventSource;")
    Select(driver.find_element(By.ID, "from")).select_by_value("start")

    # ---- a pasted level with an error: the parser's line and column ----
    Select(driver.find_element(By.ID, "game")).select_by_value("watersort")
    t = driver.find_element(By.ID, "text")
    t.clear()
    t.send_keys("capacity 4\n1 2 x!\n")
    driver.find_element(By.ID, "load-text").click()
    idle()
    wait(lambda: "puzzle:2:5: error: unknown token 'x!'" in text("error"),
         "the paste's parse error")

    # ---- the --trace step-through, live while IDA* runs ----
    load_bundled("npuzzle/examples/15-56.txt")
    only_algos("idastar")
    set_number("trace", 12)
    set_number("time", 20)
    click_run()
    wait(lambda: run_panels() and run_panels()[0].find_elements(
        By.CSS_SELECTOR, ".trace-pos[data-count]"), "the trace viewer")
    panel = run_panels()[0]
    pos = panel.find_element(By.CSS_SELECTOR, ".trace-pos")

    def at():
        return int(pos.get_attribute("data-at") or 0)

    wait(lambda: at() >= 3 and not panel.get_attribute("data-done"),
         "the trace advancing while the run runs")
    panel.find_element(By.CSS_SELECTOR, ".trace-play").click()  # pause
    paused = at()
    time.sleep(0.8)
    assert at() == paused, "the trace moved while paused"
    panel.find_element(By.CSS_SELECTOR, ".trace-step").click()
    assert at() == paused + 1, (at(), paused)
    panel.find_element(By.CSS_SELECTOR, ".trace-back").click()
    assert at() == paused, (at(), paused)
    assert panel.find_elements(By.CSS_SELECTOR, ".trace-board svg"), "the trace's board"
    assert "expand" in panel.find_element(By.CSS_SELECTOR, ".trace-info").text or \
        "push" in panel.find_element(By.CSS_SELECTOR, ".trace-info").text
    driver.execute_script("arguments[0].scrollIntoView()", panel)
    shot("trace")
    driver.execute_script("window.scrollTo(0, 0)")
    panel.find_element(By.CSS_SELECTOR, ".stop").click()
    wait(lambda: panel.get_attribute("data-done"), "the traced run stopped", 60)
    set_number("trace", 0)

    # ---- A*'s trace stepped: its tree, the node expanded, the open list ----
    load_bundled("npuzzle/examples/8-hardest.txt")
    only_algos("astar")
    set_number("trace", 30)
    click_run()
    wait(lambda: run_panels() and run_panels()[0].get_attribute("data-done"),
         "the traced A* run")
    panel = run_panels()[0]
    panel.find_element(By.CSS_SELECTOR, ".trace-play").click()  # pause
    pos = panel.find_element(By.CSS_SELECTOR, ".trace-pos")
    with urllib.request.urlopen(url.split("?")[0] + "api/run/%s?%s" % (
            panel.get_attribute("data-id"), url.split("?")[1]), timeout=30) as f:
        events = json.loads(f.read())["trace"]
    wait(lambda: int(pos.get_attribute("data-count")) == len(events),
         "all the trace's events on the page")
    for _ in range(len(events)):  # back to the first event
        if int(pos.get_attribute("data-at")) == 1:
            break
        panel.find_element(By.CSS_SELECTOR, ".trace-back").click()
    for _ in range(12):
        panel.find_element(By.CSS_SELECTOR, ".trace-step").click()
        at = int(pos.get_attribute("data-at"))
        seen = events[:at]
        ids = set(e["id"] for e in seen if e["event"] in ("expand", "push") and "id" in e)
        circles = panel.find_elements(By.CSS_SELECTOR, ".trace-tree svg circle")
        assert len(circles) == len(ids), ("tree nodes", at, len(circles), len(ids))
        expanded = [e["id"] for e in seen if e["event"] == "expand"]
        marked = panel.find_elements(By.CSS_SELECTOR, ".trace-tree circle[data-current]")
        assert len(marked) == 1, ("marked nodes", at, len(marked))
        title = marked[0].find_element(By.TAG_NAME, "title").get_attribute("textContent")
        assert title.split(" ")[0] == "#%d" % expanded[-1], (title, expanded[-1])
        counts = panel.find_element(By.CSS_SELECTOR, ".trace-counts")
        assert "open" in seen[-1], seen[-1]  # an expansion or a push
        assert counts.get_attribute("data-open") == str(seen[-1]["open"]), \
            (at, counts.get_attribute("data-open"), seen[-1])
        assert counts.get_attribute("data-closed") == str(len(set(expanded))), at
        assert "open list %d" % seen[-1]["open"] in counts.text, counts.text
    assert "f = g + h = " in panel.find_element(By.CSS_SELECTOR, ".trace-info").text, \
        panel.find_element(By.CSS_SELECTOR, ".trace-info").text
    driver.execute_script("arguments[0].scrollIntoView()", panel)
    shot("trace-tree")
    # The slider jumps; the speeds include the search's own timing.
    driver.execute_script("var s = arguments[0]; s.value = s.max; s.dispatchEvent(new Event('input'))",
                          panel.find_element(By.CSS_SELECTOR, ".trace-slider"))
    assert int(pos.get_attribute("data-at")) == len(events), pos.get_attribute("data-at")
    assert "as it ran" in [o.text for o in panel.find_elements(By.CSS_SELECTOR, ".trace-speed option")]
    # ---- two traces stepping together: A* and IDA*, lock-step ----
    only_algos("astar", "idastar")
    click_run()
    # Counted in the page: Run just removed the last panels, and an element
    # found before that would be stale.
    wait(lambda: driver.execute_script(
        "return document.querySelectorAll('#runs .run[data-done]').length") == 2,
         "the two traced runs", 120)
    idle()
    a, b = run_panels()[-2], run_panels()[-1]
    for p in (a, b):
        wait(lambda: int(p.find_element(By.CSS_SELECTOR, ".trace-pos").get_attribute("data-count") or 0) > 5,
             "the events on the page")
        p.find_element(By.CSS_SELECTOR, ".trace-play").click()  # pause
    driver.find_element(By.ID, "trace-lock").click()
    driver.execute_script("var s = arguments[0]; s.value = 0; s.dispatchEvent(new Event('input'))",
                          a.find_element(By.CSS_SELECTOR, ".trace-slider"))
    for _ in range(3):
        a.find_element(By.CSS_SELECTOR, ".trace-step").click()
    at_a = a.find_element(By.CSS_SELECTOR, ".trace-pos").get_attribute("data-at")
    at_b = b.find_element(By.CSS_SELECTOR, ".trace-pos").get_attribute("data-at")
    assert at_a == at_b == "4", (at_a, at_b)
    ida = b if "idastar" in b.find_element(By.TAG_NAME, "b").text else a
    assert "keeps no open list" in ida.find_element(By.CSS_SELECTOR, ".trace-counts").text
    assert not ida.find_elements(By.CSS_SELECTOR, ".trace-open table")
    info_ida = ida.find_element(By.CSS_SELECTOR, ".trace-info").text
    assert "iteration iteration" not in info_ida, info_ida
    driver.find_element(By.ID, "trace-lock").click()
    driver.execute_script("window.scrollTo(0, 0)")
    set_number("trace", 0)

    # ---- board first, at a laptop's and a phone's size ----
    for w, h in ((1280, 800), (390, 844)):
        driver.set_window_size(w, h)
        driver.execute_script("window.scrollTo(0, 0)")
        load_bundled("samegame/examples/samegame-5x5.txt")
        geo = driver.execute_script(
            "var d = document.documentElement, r = function (id) { return document.getElementById(id).getBoundingClientRect(); };"
            "return [d.scrollWidth, d.clientWidth, r('board').bottom, r('hint').bottom, window.innerHeight];")
        wide = driver.execute_script(
            "var out = []; document.querySelectorAll('body *').forEach(function (e) {"
            " var r = e.getBoundingClientRect(); if (r.right > document.documentElement.clientWidth + 1 && out.length < 5)"
            " out.push(e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(r.right)); }); return out;")
        assert geo[0] <= geo[1], "%dx%d: the page scrolls sideways (%d > %d): %s" % (w, h, geo[0], geo[1], wide)
        assert geo[2] <= geo[4] and geo[3] <= geo[4], \
            "%dx%d: the board or its controls below the fold: %s" % (w, h, geo)
        shot("layout-%d" % w)
    driver.set_window_size(*AFTER_LAYOUT)
    # ---- errors beside the board, in words, cleared when they no longer
    # apply; a text that does not load leaves the board playable ----
    set_number("move-text", "9 9")
    driver.find_element(By.ID, "play-move").click()
    idle()
    wait(lambda: text("error").startswith("move 1 cannot be played: "), "the illegal move's error")
    assert driver.find_elements(By.CSS_SELECTOR, "#play #error"), "the error is not beside the board"
    set_number("move-text", "0 0")
    driver.find_element(By.ID, "play-move").click()
    idle()
    wait(lambda: text("error") == "" and text("nmoves") == "1", "the error cleared by a legal move")
    driver.execute_script("document.getElementById('text').value = 'not a board'")
    driver.find_element(By.ID, "load-text").click()
    idle()
    wait(lambda: text("error") != "", "the bad text's error")
    driver.find_element(By.ID, "undo").click()
    idle()
    wait(lambda: text("nmoves") == "0" and text("error") == "", "the old board still playable")

    # ---- runs you can see and manage: Run keeps live panels, a reload
    # brings them back, the cap is said before it is hit ----
    load_bundled("samegame/standard/01.txt")
    only_algos("nrpa")
    set_number("time", 25)
    click_run()
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#runs .run:not([data-done])"), "a live nrpa run")
    live_id = driver.find_element(By.CSS_SELECTOR, "#runs .run:not([data-done])").get_attribute("data-id")
    wait(lambda: text("run-cap").startswith("1 of "), "the run slots said")
    only_algos("greedy")
    click_run()
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#runs .run[data-done='1']")) >= 1,
         "the greedy run beside the live one")
    assert driver.find_elements(By.CSS_SELECTOR, "#runs .run[data-id='%s']" % live_id), \
        "Run removed a live run's panel"
    driver.refresh()
    wait(lambda: driver.find_element(By.ID, "status").get_attribute("textContent") == "ok",
         "the app to load again")
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#runs .run[data-id='%s']" % live_id),
         "the live run back after a reload")
    click_when_free(lambda: driver.find_element(
        By.CSS_SELECTOR, "#runs .run[data-id='%s'] button.stop" % live_id))
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#runs .run[data-id='%s'][data-done='1']" % live_id),
         "the restored run stopped")
    set_number("time", 5)
    idle()

    # ---- a screenshot: picked, read, solved, its moves drawn on it ----
    picture = os.path.join(SOURCE, "games", "samegame", "examples", "screenshot-8x8.png")
    want = subprocess.run([psolve, "import", picture], capture_output=True, text=True,
                          timeout=60).stdout
    want_rows = [l for l in want.splitlines() if l and not l.startswith("#")]
    driver.find_element(By.ID, "shot-file").send_keys(picture)
    wait(lambda: text("shot-status").startswith("read a samegame puzzle"), "the screenshot read")
    idle()
    got_rows = [l for l in value_of("text").splitlines() if l and not l.startswith("#")]
    assert got_rows == want_rows, (got_rows, want_rows)
    assert driver.find_element(By.ID, "shot").is_displayed()
    assert driver.find_elements(By.CSS_SELECTOR, "#shot-picture svg image"), "no picture shown"
    only_algos("greedy")
    click_run()
    wait(lambda: driver.find_elements(By.CSS_SELECTOR, "#runs .run[data-done='1'] button.on-shot"),
         "the run's On the screenshot button")
    driver.find_element(By.CSS_SELECTOR, "#runs .run[data-done='1'] button.on-shot").click()
    wait(lambda: text("shot-step").startswith("move 1 of "), "the first move on the screenshot")
    first = len(driver.find_elements(By.CSS_SELECTOR, "#shot-picture rect.shot-move"))
    assert first >= 2, "move 1 marks %d cells" % first
    driver.find_element(By.ID, "shot-next").click()
    wait(lambda: text("shot-step").startswith("move 2 of "), "the second move on the screenshot")
    shot("screenshot-moves")
    driver.execute_script("window.scrollTo(0, 0)")
    # A level drawn by the import tests' tool: its pours on the picture.
    draw = os.path.join(os.path.dirname(os.path.abspath(psolve)), "tests", "draw_picture")
    if os.path.exists(draw):
        level = os.path.join(work, "level.png")
        subprocess.run([draw, "tubes", "5", "4", "3", level], check=True, timeout=60)
        Select(driver.find_element(By.ID, "shot-game")).select_by_value("watersort")
        driver.find_element(By.ID, "shot-file").send_keys(level)
        wait(lambda: text("shot-status").startswith("read a watersort puzzle"), "the level read")
        idle()
        only_algos("astar")
        click_run()
        # The A* run's button, clicked in the page: greedy's panel from the
        # board above stays until the answer to Run comes (slow under ASan).
        wait(lambda: driver.execute_script(
            "var b = Array.prototype.filter.call(document.querySelectorAll("
            "'#runs .run[data-done] button.on-shot'), function (x) {"
            " return x.closest('.run').querySelector('b').textContent === 'astar'; });"
            "if (b.length) b[0].click(); return b.length > 0;"),
             "the level's On the screenshot button")
        wait(lambda: text("shot-step").startswith("move 1 of "), "the first pour on the screenshot")
        assert len(driver.find_elements(By.CSS_SELECTOR, "#shot-picture rect.shot-move")) == 2
        Select(driver.find_element(By.ID, "shot-game")).select_by_value("")
        driver.execute_script("window.scrollTo(0, 0)")

    # ---- a hint on a Lua game, after a move ----
    load_bundled("lua/hanoi-4.txt")
    # Its legal moves as buttons: the first is played by pointing.
    wait(lambda: [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#next-moves button")]
         == ["1 2", "1 3"], "the Lua game's legal moves offered")
    driver.find_element(By.CSS_SELECTOR, "#next-moves button").click()
    idle()
    wait(lambda: text("nmoves") == "1", "a move on the Lua game")
    driver.find_element(By.ID, "hint").click()
    wait(lambda: text("hint-text").startswith("hint: 1 3"), "the Lua game's hint")
    idle()

    # ---- a Lua rules script (the server has --allow-scripts) ----
    assert driver.find_element(By.ID, "script-box").is_displayed()
    script = os.path.join(SOURCE, "scripts", "rules", "clickomania.lua")
    with open(script) as f:
        driver.execute_script("document.getElementById('rules-script').value = arguments[0]",
                              f.read())
    load_bundled("samegame/examples/samegame-5x5.txt")
    set_number("move-text", "0 0")
    driver.find_element(By.ID, "play-move").click()
    idle()
    wait(lambda: text("nmoves") == "1", "a move under the rules script")
    board = os.path.join(SOURCE, "games", "samegame", "examples", "samegame-5x5.txt")
    with open(os.path.join(work, "m.txt"), "w") as f:
        f.write("0 0\n")
    v = subprocess.run([psolve, "verify", "--json", "--rules", script, board,
                        os.path.join(work, "m.txt")], capture_output=True,
                       text=True, timeout=60)
    import json
    want = json.loads(v.stdout)["score"]
    assert int(text("value")) == want, (text("value"), want)
    driver.execute_script("document.getElementById('rules-script').value = ''")
    for entry in driver.get_log("browser"):
        if entry["level"] in ("SEVERE", "WARNING"):
            failures.append("console: " + entry["message"])
        elif "its end was polled" in entry["message"]:
            print("note: " + entry["message"])
except AssertionError as e:
    failures.append(str(e) or repr(e))
finally:
    try:
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                failures.append("console: " + entry["message"])
            elif "its end was polled" in entry["message"]:
                print("note: " + entry["message"])
    except Exception:
        pass
    driver.quit()
    server.terminate()
    try:
        rc = server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        rc = -1
    if rc != 0:
        failures.append("psolve serve exited %s on SIGTERM" % rc)
    shutil.rmtree(work, ignore_errors=True)

if failures:
    print("\n".join("FAIL: " + f for f in failures))
    sys.exit(1)
print("browser_serve: 1 passed, 0 failed")
