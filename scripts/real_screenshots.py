#!/usr/bin/python3
"""real_screenshots.py - remake tests/data/import-real: screenshots of two
real SameGame programs from Debian, each showing a board whose cells are
known because the board was handed to the program, not read off it.

  Simon Tatham's Puzzles, Same Game (package sgt-puzzles, MIT licence):
    the board goes in as a game ID on the command line ("WxHcK...:c,c,...",
    0 an empty cell);
  GNOME Swell Foop (package swell-foop, GPL-2+): the board goes in as the
    saved game in its settings (GSETTINGS_BACKEND=keyfile): the board it
    began with and the clicks made, which it plays again at start.

Boards are random (fixed seeds), full or after random clicks played by the
rules both programs share (groups of 2 or more; cells fall; empty columns
close up to the left), in several sizes, colour counts, window sizes and
themes; some are saved as JPEG. Swell Foop's "boring shapes" theme (every
piece the same grey, told apart by its shape alone) is left out: psolve
tells cells by colour, and refuses those pictures (docs/import.md). A
window must hold the whole board: a smaller one clips it. Each picture NAME.png or NAME.jpg has its
board in NAME.txt (psolve's format: a digit a colour, 0 empty).

Needs xvfb, xdotool, imagemagick, sgt-puzzles and swell-foop
(apt-get install -y xvfb xdotool imagemagick sgt-puzzles swell-foop); runs
them on a private X display. Takes about a minute.

usage: scripts/real_screenshots.py OUT_DIR
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

OUT = sys.argv[1] if len(sys.argv) > 1 else sys.exit(__doc__)
os.makedirs(OUT, exist_ok=True)
DISPLAY = ":87"


def board(rows, cols, colours, clicks, seed):
    """A random board (rows top to bottom, lists of colours, 0 empty), the
    board after `clicks` random legal clicks, and those clicks, each as
    (column, row) of a cell of its group."""
    rnd = random.Random(seed)
    start = [[rnd.randint(1, colours) for _ in range(cols)] for _ in range(rows)]
    b = [row[:] for row in start]
    played = []
    for _ in range(clicks):
        groups = groups_of(b)
        if not groups:
            break
        group = rnd.choice(groups)
        played.append((group[0][1], group[0][0]))
        for r, q in group:
            b[r][q] = 0
        fall_and_close(b)
    return start, b, played


def groups_of(b):
    rows, cols = len(b), len(b[0])
    seen, out = set(), []
    for r in range(rows):
        for q in range(cols):
            if b[r][q] == 0 or (r, q) in seen:
                continue
            stack, group = [(r, q)], []
            seen.add((r, q))
            while stack:
                y, x = stack.pop()
                group.append((y, x))
                for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                    if 0 <= ny < rows and 0 <= nx < cols and (ny, nx) not in seen \
                            and b[ny][nx] == b[r][q]:
                        seen.add((ny, nx))
                        stack.append((ny, nx))
            if len(group) >= 2:
                out.append(group)
    return out


def fall_and_close(b):
    rows, cols = len(b), len(b[0])
    columns = []
    for q in range(cols):
        cells = [b[r][q] for r in range(rows) if b[r][q]]
        if cells:
            columns.append([0] * (rows - len(cells)) + cells)
    while len(columns) < cols:
        columns.append([0] * rows)
    for q in range(cols):
        for r in range(rows):
            b[r][q] = columns[q][r]


def run(cmd, env=None, **kw):
    return subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, **kw)


def window_of(name, env, tries=150):
    for _ in range(tries):
        r = subprocess.run(["xdotool", "search", "--name", name], env=env,
                           capture_output=True, text=True)
        ids = r.stdout.split()
        if ids:
            return ids[-1]
        time.sleep(0.2)
    sys.exit("no window named " + name)


def shoot(win, env, path, quality, pointer=None):
    # The pointer well away unless asked: a hovered group is drawn lighter.
    x, y = pointer or (1900, 1400)
    run(["xdotool", "mousemove", str(x), str(y)], env)
    time.sleep(1.0)
    png = path + ".png"
    run(["import", "-window", win, png], env)
    if quality:
        run(["convert", png, "-quality", str(quality), path + ".jpg"], env)
        os.remove(png)


def save_truth(path, b):
    with open(path + ".txt", "w") as f:
        f.write("".join("".join(str(v) for v in row) + "\n" for row in b))


def sgt(name, rows, cols, colours, clicks, seed, size, quality=0):
    _, b, _ = board(rows, cols, colours, clicks, seed)
    game_id = "%dx%dc%ds2:%s" % (cols, rows, colours,
                                 ",".join(str(v) for row in b for v in row))
    env = dict(os.environ, DISPLAY=DISPLAY)
    p = subprocess.Popen(["/usr/games/sgt-samegame", game_id], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        win = window_of("Same Game", env)
        if size:
            run(["xdotool", "windowsize", win, str(size[0]), str(size[1])], env)
        path = os.path.join(OUT, name)
        shoot(win, env, path, quality)
        save_truth(path, b)
    finally:
        p.terminate()
        p.wait()


SIZES = {"small": (5, 6), "normal": (10, 15), "large": (15, 20)}


def swellfoop(name, size, colours, clicks, seed, theme, window, quality=0,
              pointer=None):
    rows, cols = SIZES[size]
    start, b, played = board(rows, cols, colours, clicks, seed)
    home = tempfile.mkdtemp(prefix="psolve-swellfoop-")
    env = dict(os.environ, DISPLAY=DISPLAY, GSETTINGS_BACKEND="keyfile",
               XDG_CONFIG_HOME=home, GSK_RENDERER="cairo", NO_AT_BRIDGE="1")
    # Its saved game: the board it began with, the score, the clicks made
    # (column, row from the top); it plays them again when it resumes.
    saved = "([%s], 0, [%s])" % (
        ", ".join("[%s]" % ", ".join("0x%02x" % v for v in row) for row in start),
        ", ".join("(0x%02x, 0x%02x)" % c for c in played))
    for key, value in (("size", size), ("colors", str(colours)), ("theme", theme),
                       ("first-run", "false"), ("saved-game", saved)):
        run(["gsettings", "set", "org.gnome.SwellFoop", key, value], env)
    p = subprocess.Popen(["/usr/games/swell-foop"], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        win = window_of("Swell Foop", env)
        time.sleep(2)
        run(["xdotool", "windowsize", win, str(window[0]), str(window[1])], env)
        time.sleep(1)
        path = os.path.join(OUT, name)
        shoot(win, env, path, quality, pointer)
        save_truth(path, b)
    finally:
        p.terminate()
        p.wait()
        shutil.rmtree(home, ignore_errors=True)


xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1920x1440x24"],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(1)
try:
    # name, rows, cols, colours, clicks, seed, window size (None: its own)
    sgt("sgt-01", 6, 8, 4, 0, 1, None)
    sgt("sgt-02", 10, 15, 3, 0, 2, (700, 560))
    sgt("sgt-03", 10, 10, 5, 12, 3, (520, 600))
    sgt("sgt-04", 15, 20, 6, 30, 4, (900, 760), 85)
    sgt("sgt-05", 8, 8, 9, 3, 5, (600, 700))
    sgt("sgt-06", 12, 9, 4, 25, 6, (420, 620), 80)
    sgt("sgt-07", 5, 5, 3, 2, 7, (300, 330))
    sgt("sgt-08", 20, 16, 7, 40, 8, (800, 1000))
    # name, size, colours, clicks, seed, theme, window size
    swellfoop("swellfoop-01", "normal", 4, 0, 11, "shapesandcolors", (900, 700))
    swellfoop("swellfoop-02", "normal", 3, 15, 12, "colors", (760, 560), 85)
    swellfoop("swellfoop-03", "large", 4, 25, 13, "shapesandcolors", (1000, 800))
    swellfoop("swellfoop-04", "small", 3, 2, 14, "shapesandcolors", (500, 480))
    swellfoop("swellfoop-05", "large", 4, 60, 15, "colors", (1000, 800), 80)
    swellfoop("swellfoop-06", "normal", 2, 8, 16, "colors", (1100, 760))
    swellfoop("swellfoop-07", "normal", 4, 30, 17, "colors", (700, 520), 70)
    swellfoop("swellfoop-08", "large", 3, 45, 18, "shapesandcolors", (1200, 900))
    # The pointer over the board: the group under it is drawn lighter.
    swellfoop("swellfoop-09", "normal", 4, 5, 19, "shapesandcolors", (900, 700),
              pointer=(450, 420))
finally:
    xvfb.terminate()
    xvfb.wait()
