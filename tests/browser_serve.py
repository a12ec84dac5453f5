#!/usr/bin/python3
"""browser_serve.py - psolve serve's app in a real browser (Selenium with
Debian's chromium-driver), run by ctest (tests/CMakeLists.txt).

Starts `psolve serve --port 0`, opens the printed URL in headless Chromium
and, as a person would: loads a bundled SameGame board, edits a cell, plays
two moves, undoes one, asks for a hint, runs two algorithms, watches their
live progress advance, stops one, steps through its replay in the result
page, downloads its solution and checks it with `psolve verify`. Fails on
any console error. Screenshots go to OUT_DIR (serve-*.png).

usage: browser_serve.py PSOLVE OUT_DIR
Exit 77 (ctest: skipped) with a message when chromium, chromedriver or
Selenium is absent. Every wait is bounded.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_driver  # noqa: E402 (exit 77 without Selenium or chromium)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

psolve, out_dir = sys.argv[1], sys.argv[2]
os.makedirs(out_dir, exist_ok=True)
work = tempfile.mkdtemp(prefix="psolve-browser-serve-")
server = subprocess.Popen([psolve, "serve", "--port", "0", "--time-cap", "30"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True)
url = server.stdout.readline().strip()
assert url.startswith("http://127.0.0.1:"), url

driver = browser_driver.chrome(os.path.join(work, "profile"))
failures = []


def wait(cond, what, seconds=60):
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.1).until(
            lambda d: cond())
    except Exception:
        driver.save_screenshot(os.path.join(out_dir, "serve-failed.png"))
        raise AssertionError("timed out waiting for: " + what)


def text(id_):
    return driver.find_element(By.ID, id_).text


def idle():
    wait(lambda: driver.execute_script("return window.psolvePending") == 0,
         "requests to finish")


def click_cell(i):
    driver.find_element(By.CSS_SELECTOR, "#board rect[data-cell='%d']" % i).click()


def shot(name):
    path = os.path.join(out_dir, "serve-%s.png" % name)
    driver.save_screenshot(path)
    print("screenshot:", path)


try:
    driver.get(url)
    wait(lambda: text("status") == "ok", "the app to load")
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
    driver.find_element(By.ID, "edit").click()  # editing off
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
    driver.find_element(By.ID, "algo-nrpa").click()
    driver.find_element(By.ID, "algo-mc").click()
    t = driver.find_element(By.ID, "time")
    t.clear()
    t.send_keys("8")
    driver.find_element(By.ID, "run").click()
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
    shot("live")
    driver.find_elements(By.CSS_SELECTOR, "#runs .run .stop")[0].click()
    wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#runs .run[data-done]")) == 2,
         "both runs to end", 90)
    stopped = driver.find_elements(By.CSS_SELECTOR, "#runs .run .live")[0].text
    assert "interrupted" in stopped, stopped
    assert len(driver.find_elements(By.CSS_SELECTOR, "#compare tr")) == 3, "comparison rows"
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
    for entry in driver.get_log("browser"):
        if entry["level"] in ("SEVERE", "WARNING"):
            failures.append("console: " + entry["message"])
except AssertionError as e:
    failures.append(str(e) or repr(e))
finally:
    try:
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                failures.append("console: " + entry["message"])
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
