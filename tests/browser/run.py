#!/usr/bin/env python3
"""Browser tests for `sokuc serve`: drives the page in headless Chromium with Selenium.

    python3 tests/browser/run.py --sokuc target/release/sokuc [--shots DIR]

Starts `SOKUC serve --port 0`, reads the URL from its first line of output, runs the checks,
stops the server and prints `N passed, N failed` last (exit status 1 when a check failed).
Needs Debian's `chromium` and `chromium-driver` and PyPI's `selenium`
(scripts/install-tools.sh installs them); Selenium never downloads a driver here.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.request
from urllib.parse import parse_qs

os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SEED = os.path.join(ROOT, "instances", "icosoku-seed.toml")
SEED_PEGS = [1, 5, 11, 10, 7, 12, 9, 2, 6, 8, 4, 3]
UNSAT = os.path.join(ROOT, "instances", "icosoku-unsat.toml")
OCTAHEDRON = os.path.join(ROOT, "variants", "octahedron.toml")
CHROMEDRIVER = "/usr/bin/chromedriver"
CHROME_ARGS = [
    "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--window-size=1280,900",
]


class CheckFailed(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise CheckFailed(what)


def wait_for(fn, timeout=30.0, what="condition", interval=0.05):
    end = time.time() + timeout
    last = None
    while time.time() < end:
        try:
            v = fn()
            if v:
                return v
        except WebDriverException as e:  # an element may be replaced while we look
            last = e
        time.sleep(interval)
    raise CheckFailed("timed out waiting for " + what + (" (" + str(last).splitlines()[0] + ")" if last else ""))


def toml_capacities(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"^capacities\s*=\s*\[([^\]]*)\]", text, re.M)
    return [int(x) for x in m.group(1).replace(",", " ").split()]


# ---------- the server ----------
class Server:
    def __init__(self, sokuc):
        self.proc = subprocess.Popen(
            [sokuc, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=ROOT)
        line = self.proc.stdout.readline()
        m = re.match(r"sokuc serve: (http://127\.0\.0\.1:\d+/)", line.strip())
        if not m:
            err = self.proc.stderr.read() if self.proc.poll() is not None else ""
            self.stop()
            raise RuntimeError("unexpected first line from sokuc serve: %r %s" % (line, err))
        self.url = m.group(1)
        self.stderr_lines = []
        threading.Thread(target=self._drain, args=(self.proc.stdout, None), daemon=True).start()
        threading.Thread(target=self._drain, args=(self.proc.stderr, self.stderr_lines), daemon=True).start()

    @staticmethod
    def _drain(stream, keep):
        for line in stream:
            if keep is not None and len(keep) < 200:
                keep.append(line)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def api(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base.rstrip("/") + path, data=data, method="GET" if body is None else "POST")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=120) as r:
        raw = r.read().decode()
        return json.loads(raw) if "json" in (r.headers.get("Content-Type") or "") else raw


# ---------- checking answers ----------
def rotation_ok(weights, rotation, corners):
    return all(corners[i] == weights[(i - rotation) % 3] for i in range(3))


def dom_placements(d):
    """The placements list as it stands, read in one script: the page draws the list again when
    an answer's instructions arrive (the steps' order), after its status already says sat, so
    elements found one call and read the next can be gone by then (a stale element). One
    script runs between two of the page's tasks and sees one list whole, before or after
    that redraw, and both hold the same placements."""
    rows = d.execute_script(
        "return Array.from(document.querySelectorAll('#placements li'), (li) => ["
        "li.dataset.face, li.dataset.tile, li.dataset.rotation, li.dataset.corners, li.dataset.revealed]);")
    return [{
        "face": face.split(),
        "tile": int(tile),
        "rotation": int(rotation),
        "corners": [int(x) for x in corners.split()],
        "revealed": revealed,
    } for face, tile, rotation, corners, revealed in rows]


def check_valid(placements, vertices, faces, pegs, tiles):
    """Every face covered once, the tiles used exactly once each (with their weights, turned as
    said) and every vertex's corners adding up to its peg."""
    expect(len(placements) == len(faces), "%d placements for %d faces" % (len(placements), len(faces)))
    want_faces = sorted(" ".join(vertices[i] for i in f) for f in faces)
    got_faces = sorted(" ".join(p["face"]) for p in placements)
    expect(got_faces == want_faces, "the placed faces are not the solid's faces")
    used = sorted(p["tile"] for p in placements)
    expect(used == list(range(1, len(tiles) + 1)), "tiles used %s, not each of 1..%d once" % (used, len(tiles)))
    sums = {v: 0 for v in vertices}
    for p in placements:
        w = tiles[p["tile"] - 1]
        expect(rotation_ok(w, p["rotation"], p["corners"]),
               "face %s: corners %s are not tile %d %s turned %d" % ("".join(p["face"]), p["corners"], p["tile"], w, p["rotation"]))
        for name, c in zip(p["face"], p["corners"]):
            sums[name] += c
    got = [sums[v] for v in vertices]
    expect(got == list(pegs), "corner sums %s differ from the pegs %s" % (got, list(pegs)))


def signature(placements):
    return sorted((" ".join(p["face"]), p["tile"], p["rotation"]) for p in placements)


def grid_cells(text):
    """The size line's rows and columns, and the cell tokens, of a grid file."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    rows, cols = map(int, lines[0].split()[1:3])
    return rows, cols, [ln.split() for ln in lines[1:rows + 1]]


def check_kakuro(text, grid):
    rows, cols, cells = grid_cells(text)
    for r in range(rows):
        for c in range(cols):
            tok = cells[r][c]
            white = tok == "." or tok.isdigit()
            expect((grid[r][c] is not None) == white, "cell %d,%d: %r for %r" % (r, c, grid[r][c], tok))
            if tok.isdigit():
                expect(grid[r][c] == int(tok), "given %s at %d,%d changed" % (tok, r, c))
            if "\\" in tok:
                down, across = tok.split("\\")
                for clue, dr, dc in ((down, 1, 0), (across, 0, 1)):
                    if not clue:
                        continue
                    run, rr, cc = [], r + dr, c + dc
                    while rr < rows and cc < cols and grid[rr][cc] is not None:
                        run.append(grid[rr][cc])
                        rr, cc = rr + dr, cc + dc
                    expect(sum(run) == int(clue) and len(set(run)) == len(run) and all(1 <= x <= 9 for x in run),
                           "run from %d,%d: %s for clue %s" % (r, c, run, clue))


def check_tricky(text, grid):
    rows, cols, cells = grid_cells(text)
    for r in range(rows):
        for c in range(cols):
            tok = cells[r][c]
            if tok in ("X", "x"):
                expect(grid[r][c] is None, "black cell %d,%d filled" % (r, c))
                continue
            expect(grid[r][c] in (1, 2, 3), "cell %d,%d holds %r" % (r, c, grid[r][c]))
            if tok in ("1", "2", "3"):
                expect(grid[r][c] == int(tok), "given %s at %d,%d changed" % (tok, r, c))
    for r in range(rows):
        for c in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                pts = [(r + k * dr, c + k * dc) for k in range(3)]
                if not all(0 <= a < rows and 0 <= b < cols for a, b in pts):
                    continue
                vals = [grid[a][b] for a, b in pts]
                if None in vals:
                    continue
                expect(len(set(vals)) == 2, "three cells from %d,%d (%d,%d): %s" % (r, c, dr, dc, vals))


def dom_grid(d):
    cells = d.find_elements(By.CSS_SELECTOR, "#grid td")
    rows = max(int(td.get_attribute("data-row")) for td in cells) + 1
    cols = max(int(td.get_attribute("data-col")) for td in cells) + 1
    grid = [[None] * cols for _ in range(rows)]
    for td in cells:
        v = td.get_attribute("data-value")
        grid[int(td.get_attribute("data-row"))][int(td.get_attribute("data-col"))] = int(v) if v else None
    return grid


# ---------- page helpers ----------
class Page:
    def __init__(self, driver, base):
        self.d = driver
        self.base = base

    def el(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def status(self):
        return self.el("#status").get_attribute("data-status")

    def text(self, css):
        return self.el(css).text.strip()

    def wait_ready(self):
        wait_for(lambda: self.d.execute_script("return document.readyState") == "complete", what="the page")
        wait_for(lambda: len(self.d.find_elements(By.CSS_SELECTOR, "#vertices li")) > 0
                 or self.status() == "error", what="the vertex list")
        expect(self.status() != "error", "the page says: " + self.text("#message"))

    def type_into(self, css, text):
        e = self.el(css)
        e.click()
        e.send_keys(Keys.CONTROL, "a")
        e.send_keys(Keys.DELETE)
        if text:
            e.send_keys(text)

    def solve(self, timeout=60):
        before = self.el("#view").get_attribute("data-drawn")
        self.el("#solve").click()
        wait_for(lambda: self.status() not in ("running", "idle"), timeout, "an answer")
        return before

    def vertices(self):
        out = []
        for li in self.d.find_elements(By.CSS_SELECTOR, "#vertices li"):
            out.append({
                "name": li.get_attribute("data-vertex"), "peg": li.get_attribute("data-peg"),
                "visible": li.get_attribute("data-visible") == "true",
                "x": float(li.get_attribute("data-x") or "nan"), "y": float(li.get_attribute("data-y") or "nan"),
            })
        return out

    def click_canvas(self, x, y):
        c = self.el("#view")
        r = c.rect
        ActionChains(self.d).move_to_element_with_offset(c, x - r["width"] / 2, y - r["height"] / 2).click().perform()

    def shot(self, path):
        self.d.save_screenshot(path)

    def face_center(self, key):
        return self.d.execute_script("return window.sokucPage.faceCenter(arguments[0])", key)

    def click_face(self, key):
        """Turns the solid to the face (as the page does on a reveal), then clicks its centre."""
        self.d.execute_script("window.sokucPage.turnTo(arguments[0])", key)
        wait_for(lambda: self.el("#view").get_attribute("data-facing") == key, 5, "the solid turned to " + key)
        c = self.face_center(key)
        expect(c, "face %s is not visible after turning to it" % key)
        self.click_canvas(c[0], c[1])

    def net_tiles(self, revealed):
        return len(self.d.find_elements(By.CSS_SELECTOR, '#net svg g.tile[data-revealed="%s"]' % revealed))


def make_driver(downloads):
    opts = webdriver.ChromeOptions()
    for a in CHROME_ARGS:
        opts.add_argument(a)
    if os.path.exists("/usr/bin/chromium"):
        opts.binary_location = "/usr/bin/chromium"
    opts.add_experimental_option("prefs", {"download.default_directory": downloads, "download.prompt_for_download": False})
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    d.set_page_load_timeout(60)
    try:
        d.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
    except WebDriverException:
        pass
    return d


# ---------- the checks ----------
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sokuc", help="the sokuc binary (started as `sokuc serve --port 0`)")
    ap.add_argument("--url", help="use a server already running at this URL instead of starting one")
    ap.add_argument("--only", help="run only these checks, by number (\"17\" or \"1,17\"); later checks may need earlier ones")
    ap.add_argument("--shots", default=os.path.join(ROOT, "target", "browser-shots"), help="screenshot directory")
    args = ap.parse_args()
    if not args.sokuc and not args.url:
        ap.error("give --sokuc PATH (or --url of a running server)")
    sokuc = os.path.abspath(args.sokuc) if args.sokuc else None
    os.makedirs(args.shots, exist_ok=True)
    downloads = tempfile.mkdtemp(prefix="sokuc-browser-dl-")

    passed, failed = [], []
    server = None
    driver = None
    ctx = {}

    only = set(args.only.split(",")) if args.only else None

    def check(name, fn):
        if only is not None and name.split()[0] not in only:
            return
        t0 = time.time()
        try:
            fn()
            passed.append(name)
            print("ok   %-44s %6.1f s" % (name, time.time() - t0), flush=True)
        except Exception as e:  # noqa: BLE001 - report every failure and go on
            failed.append(name)
            detail = str(e) if isinstance(e, CheckFailed) else traceback.format_exc(limit=3)
            print("FAIL %-44s %s" % (name, detail.strip()), flush=True)
            if driver is not None:
                try:
                    driver.save_screenshot(os.path.join(args.shots, "fail-" + re.sub(r"\W+", "-", name) + ".png"))
                    msg = driver.find_element(By.ID, "message").text
                    if msg:
                        print("     page message: " + msg, flush=True)
                except Exception:  # noqa: BLE001
                    pass

    try:
        if args.url:
            base = args.url if args.url.endswith("/") else args.url + "/"
        else:
            server = Server(sokuc)
            base = server.url
        info = api(base, "/api/info")
        backends = info["backends"]
        ico = api(base, "/api/variant", {"name": "icosahedron"})
        vertices, faces = ico["vertices"], ico["faces"]
        # The reference answers: the CLI's verified solutions on every backend give the tile set.
        tiles = None
        ref_status = {}
        if sokuc:
            for b in backends:
                out = subprocess.run([sokuc, "solve", SEED, "--format", "json", "--backend", b],
                                     capture_output=True, text=True, timeout=300)
                j = json.loads(out.stdout)
                ref_status[b] = (j["status"], j.get("verified"))
                if j["status"] == "sat" and tiles is None:
                    tiles = [None] * len(j["placements"])
                    for p in j["placements"]:
                        tiles[p["tile"] - 1] = p["weights"]
        if tiles is None:
            j = api(base, "/api/solve", {"instance": open(SEED).read(), "name": "page.toml"})
            tiles = [None] * len(j["placements"])
            for p in j["placements"]:
                tiles[p["tile"] - 1] = p["weights"]

        driver = make_driver(downloads)
        page = Page(driver, base)

        def open_page():
            driver.get(base)
            page.wait_ready()
            expect(driver.title.startswith("sokuc"), "title %r" % driver.title)
            opts = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#backend option")]
            expect(opts == backends, "backend picker %s, /api/info %s" % (opts, backends))
            expect(Select(page.el("#backend")).first_selected_option.get_attribute("value") == "auto", "backend picker does not start on auto")
            vs = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#variant option")]
            expect("icosahedron" in vs, "no icosahedron in the variant picker: %s" % vs)
            expect(len(page.vertices()) == 12, "the icosahedron has %d vertices in #vertices" % len(page.vertices()))
            expect(driver.execute_script("return document.activeElement !== null && document.getElementById('view').tabIndex === 0"),
                   "the canvas is not focusable")
            logs = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
            expect(not logs, "console errors: %s" % logs)
        check("1 open the page", open_page)

        def set_pegs():
            Select(page.el("#variant")).select_by_value("icosahedron")
            wait_for(lambda: len(page.vertices()) == 12, what="the icosahedron")
            vis = [v for v in page.vertices() if v["visible"]]
            expect(len(vis) >= 3, "only %d vertices visible on the canvas" % len(vis))
            by_canvas = [vis[0]["name"], vis[len(vis) // 2]["name"]]
            typed = [0 if name in by_canvas else p for name, p in zip(vertices, SEED_PEGS)]
            page.type_into("#pegs", ", ".join(map(str, typed)))
            for name in by_canvas:
                v = next(x for x in page.vertices() if x["name"] == name)
                page.click_canvas(v["x"], v["y"])
                i = vertices.index(name)
                wait_for(lambda: page.el("#vertex-select").get_attribute("value") == str(i), 5, "vertex %s selected" % name)
                expect(driver.switch_to.active_element.get_attribute("id") == "vertex-peg", "the peg box has no focus after clicking %s" % name)
                e = driver.switch_to.active_element
                e.send_keys(Keys.CONTROL, "a")
                e.send_keys(str(SEED_PEGS[i]))
            got = [int(x) for x in re.split(r"[\s,]+", page.el("#pegs").get_attribute("value").strip())]
            expect(got == SEED_PEGS, "pegs box %s after editing vertices %s" % (got, by_canvas))
            expect([int(v["peg"]) for v in page.vertices()] == SEED_PEGS, "#vertices data-peg differ")
            expect(page.text("#message") == "", "message %r" % page.text("#message"))
            # Keyboard: arrow keys turn the view.
            before = [(v["x"], v["y"]) for v in page.vertices()]
            page.el("#view").send_keys(Keys.ARROW_LEFT, Keys.ARROW_LEFT)
            after = [(v["x"], v["y"]) for v in page.vertices()]
            expect(before != after, "arrow keys did not turn the view")
            page.el("#reset-view").click()
            # Letters / Pegs toggle and vertex selection without the mouse.
            page.el("#labels-letters").click()
            page.el("#labels-pegs").click()
            Select(page.el("#vertex-select")).select_by_visible_text("L")
            expect(page.el("#vertex-peg").get_attribute("value") == str(SEED_PEGS[-1]), "the peg box shows %r for L" % page.el("#vertex-peg").get_attribute("value"))
        check("2 set the seed's pegs (canvas and list)", set_pegs)

        def solve_all():
            for b in backends:
                Select(page.el("#backend")).select_by_value(b)
                page.solve(120)
                expect(page.status() == "sat", "backend %s: status %s (%s %s)" % (b, page.status(), page.text("#reason"), page.text("#message")))
                used = page.text("#backend-used")
                expect(used.startswith("answered by "), "backend %s: #backend-used %r" % (b, used))
                if b != "auto":
                    expect(used == "answered by " + b, "backend %s: %r" % (b, used))
                expect(re.search(r"\d", page.text("#elapsed") or ""), "no elapsed time shown")
                if b in ref_status:
                    expect(ref_status[b][0] == "sat", "the CLI says %s on %s" % (ref_status[b], b))
                check_valid(dom_placements(driver), vertices, faces, SEED_PEGS, tiles)
                if b == "auto":
                    time.sleep(0.4)  # let the net arrive
                    page.shot(os.path.join(args.shots, "page-solved.png"))
            Select(page.el("#backend")).select_by_value("auto")
            page.solve()
            wait_for(lambda: page.el("#net svg"), 10, "the flat net")
            expect(not page.el("#net-box").get_attribute("hidden"), "the net is hidden")
            # The net's title names no file of the page's own; the caption names the solid.
            expect(not driver.find_elements(By.CSS_SELECTOR, "#net svg text.title"), "the net keeps its file title")
            expect(page.text("#net-title") == "Flat net of the icosahedron", "net caption %r" % page.text("#net-title"))
            expect("page." not in page.el("#net").get_attribute("innerHTML"), "the net names page.toml")
            # The steps: the command line's sentences with the pegs, open at once.
            expect(page.el("#placements-box").get_attribute("open") is not None, "the step list is closed")
            wait_for(lambda: all(li.text.startswith("Put tile") for li in driver.find_elements(By.CSS_SELECTOR, "#placements li")), 10, "the steps' sentences")
            steps = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#placements li")]
            expect(len(steps) == len(faces), "%d steps for %d faces" % (len(steps), len(faces)))
            expect(all("on the face with pegs" in t and "[tile #" in t for t in steps), "a step without its pegs: %s" % steps[:3])
        check("3 solve on every backend", solve_all)

        def hints():
            page.el("#hint").click()
            pl = dom_placements(driver)
            expect(all(p["revealed"] == "false" for p in pl), "hint mode shows placements")
            expect(page.net_tiles("true") == 0 and page.net_tiles("false") == len(faces),
                   "hint mode: the net shows %d tiles" % page.net_tiles("true"))
            lis = [li for li in driver.find_elements(By.CSS_SELECTOR, "#placements li") if li.get_attribute("data-visible") == "true"]
            expect(lis, "no face visible on the canvas")
            li = max(lis, key=lambda e: float(e.get_attribute("data-area") or 0))
            face = li.get_attribute("data-face")
            page.click_canvas(float(li.get_attribute("data-x")), float(li.get_attribute("data-y")))
            wait_for(lambda: driver.find_element(By.CSS_SELECTOR, '#placements li[data-face="%s"]' % face).get_attribute("data-revealed") == "true",
                     5, "face %s revealed by a click" % face)
            expect(sum(p["revealed"] == "true" for p in dom_placements(driver)) == 1, "a click revealed more than one face")
            expect(page.text("#hint-text"), "no hint text")
            expect(page.net_tiles("true") == 1, "one face revealed, the net shows %d tiles" % page.net_tiles("true"))
            nxt = page.el("#next-tile")
            width = driver.execute_script("return document.getElementById('view').clientWidth")
            height = driver.execute_script("return document.getElementById('view').clientHeight")
            for k in range(4):
                nxt.click()
                # The solid turns until the revealed face looks at the viewer.
                shown = [p for p in dom_placements(driver) if p["revealed"] == "true"]
                wait_for(lambda: page.el("#view").get_attribute("data-facing") is not None, 5, "the solid turned to the revealed face")
                key = page.el("#view").get_attribute("data-facing")
                expect(key in [" ".join(p["face"]) for p in shown], "the solid turned to %s, not a revealed face" % key)
                c = page.face_center(key)
                expect(c and abs(c[0] - width / 2) < width * 0.12 and abs(c[1] - height / 2) < height * 0.12,
                       "face %s is at %s, not in the middle of %dx%d" % (key, c, width, height))
            expect(sum(p["revealed"] == "true" for p in dom_placements(driver)) == 5, "Next tile does not reveal one tile at a time")
            expect(page.net_tiles("true") == 5, "five revealed, the net shows %d tiles" % page.net_tiles("true"))
            page.shot(os.path.join(args.shots, "hint.png"))
            clicks = 0
            while nxt.is_enabled() and clicks < 40:
                nxt.click()
                clicks += 1
            expect(all(p["revealed"] == "true" for p in dom_placements(driver)), "not every face revealed after %d clicks" % clicks)
            expect(clicks == len(faces) - 5, "%d more clicks to reveal %d faces" % (clicks, len(faces) - 5))
            page.el("#hint").click()
            expect(all(p["revealed"] == "true" for p in dom_placements(driver)), "leaving hint mode hides tiles")
            expect(page.net_tiles("true") == len(faces), "out of hint mode the net shows %d tiles" % page.net_tiles("true"))
            # "Clear tiles" takes the tiles off, keeps the pegs, and a solve puts them back.
            page.el("#clear-tiles").click()
            wait_for(lambda: not dom_placements(driver), 5, "the tiles cleared")
            expect(page.el("#clear-tiles").get_attribute("disabled") is not None, "Clear tiles still enabled")
            expect([int(x) for x in page.el("#pegs").get_attribute("value").replace(",", " ").split()] == SEED_PEGS, "the pegs changed")
            page.solve()
            wait_for(lambda: len(dom_placements(driver)) == len(faces), 10, "the tiles back after solving")
        check("4 hint mode and Clear tiles", hints)

        def next_solution():
            first = signature(dom_placements(driver))
            expect(page.el("#solution-index").get_attribute("data-index") == "0", "the first answer is not solution 1: %r" % page.text("#solution-index"))
            expect(page.text("#solution-index").startswith("Solution 1 of"), "index %r" % page.text("#solution-index"))
            expect(page.el("#prev-solution").get_attribute("disabled") is not None, "Previous is enabled on solution 1")
            page.el("#next-solution").click()
            wait_for(lambda: page.status() not in ("running",) and page.el("#solution-index").get_attribute("data-index") == "1", 60,
                     "the next solution")
            expect(page.status() == "sat", "status %s (%s)" % (page.status(), page.text("#message")))
            pl = dom_placements(driver)
            check_valid(pl, vertices, faces, SEED_PEGS, tiles)
            second = signature(pl)
            expect(second != first, "Next solution shows the same solution")
            idx = page.el("#solution-index").get_attribute("data-index")
            page.el("#next-solution").click()
            wait_for(lambda: page.el("#solution-index").get_attribute("data-index") != idx and page.status() != "running", 60, "a third solution")
            third = signature(dom_placements(driver))
            expect(third != second, "the third solution equals the second")
            page.el("#prev-solution").click()
            wait_for(lambda: page.el("#solution-index").get_attribute("data-index") == idx, 30, "the previous solution")
            expect(signature(dom_placements(driver)) == second, "Previous solution does not go back")
            page.el("#prev-solution").click()
            wait_for(lambda: page.el("#solution-index").get_attribute("data-index") == "0", 30, "back to solution 1")
            expect(signature(dom_placements(driver)) == first, "Previous does not return to the first answer")
            page.el("#unique").click()
            page.solve()
            expect(page.status() == "sat", "unique: status %s" % page.status())
            expect(page.el("#unique-result").get_attribute("data-unique") == "false", "the seed's solution shown as unique: %r" % page.text("#unique-result"))
            page.el("#unique").click()
        check("5 next and previous solution", next_solution)

        def unsat_and_bad():
            unsat = toml_capacities(UNSAT)
            page.type_into("#pegs", " ".join(map(str, unsat)))
            page.solve()
            expect(page.status() == "unsat", "status %s for %s" % (page.status(), unsat))
            expect(len(page.text("#reason")) > 10, "no reason shown: %r" % page.text("#reason"))
            expect(not dom_placements(driver), "placements left over from the last answer")
            page.type_into("#pegs", "1 2 3")
            expect("12" in page.text("#pegs-msg"), "wrong count: message %r" % page.text("#pegs-msg"))
            expect(page.el("#pegs").get_attribute("aria-invalid") == "true", "the pegs box is not marked invalid")
            # As you type, the server reads the pegs as `sokuc solve` would: its message, the
            # command line's, naming the file and line, replaces the page's own.
            wait_for(lambda: page.el("#pegs-msg").get_attribute("data-source") == "server", 5, "the server's check of the pegs")
            said = page.text("#pegs-msg")
            expect("page." not in said and "12" in said and "pegs" in said, "the server's message under the pegs: %r" % said)
            page.type_into("#pegs", "1 5 x 10 7 12 9 2 6 8 4 3")
            expect('"x"' in page.text("#pegs-msg"), "bad token: message %r" % page.text("#pegs-msg"))
            page.el("#solve").click()
            expect(page.status() == "error" and "pegs" in page.text("#status"), "solving bad pegs: status %s %r" % (page.status(), page.text("#status")))
            # A list the page accepts but sokuc refuses: the server's message, beside the pegs.
            page.type_into("#pegs", "1 5 11 10 7 12 9 2 6 8 4 99999999999")
            page.solve()
            said = page.text("#pegs-msg") or page.text("#tiles-msg")
            expect(page.status() == "error" and said and "page." not in said, "the server's 400 is not shown (status %s, %r)" % (page.status(), said))
            print("     server said: " + said, flush=True)
        check("6 unsatisfiable pegs and bad peg lists", unsat_and_bad)

        def upload():
            page.el("#variant-file").send_keys(OCTAHEDRON)
            wait_for(lambda: len(page.vertices()) == 6, 10, "the uploaded octahedron")
            sel = Select(page.el("#variant")).first_selected_option
            expect("octahedron" in sel.text and "upload" in sel.text, "variant picker shows %r" % sel.text)
            expect(page.el("#share-note").is_displayed(), "no note that links cannot carry an uploaded variant")
            text = open(OCTAHEDRON).read()
            oc = api(base, "/api/variant", {"text": text})
            pegs = [int(x) for x in re.split(r"[\s,]+", page.el("#pegs").get_attribute("value").strip())]
            expect(pegs == oc["pegs"], "the page's pegs %s are not the variant's example %s" % (pegs, oc["pegs"]))
            expect("laying the tiles" in page.text("#pegs-origin"), "the octahedron's pegs' note: %r" % page.text("#pegs-origin"))
            otiles = oc["tiles"] if isinstance(oc["tiles"], list) else None
            page.solve()
            expect(page.status() == "sat", "octahedron: status %s (%s %s)" % (page.status(), page.text("#reason"), page.text("#message")))
            pl = dom_placements(driver)
            if otiles is None:
                j = api(base, "/api/solve", {"instance": 'variant = "octahedron"\ntiles = %s\ncapacities = %s\n' % (json.dumps(oc["tiles"]), pegs), "name": "page.toml"})
                otiles = [None] * len(j["placements"])
                for p in j["placements"]:
                    otiles[p["tile"] - 1] = p["weights"]
            check_valid(pl, oc["vertices"], oc["faces"], pegs, otiles)
            # Count on the small solid.
            page.el("#count-btn").click()
            wait_for(lambda: page.el("#count").get_attribute("data-status") not in ("running", None, ""), 60, "the count")
            st = page.el("#count").get_attribute("data-status")
            n = page.el("#count").get_attribute("data-count")
            expect(st == "counted" and n and int(n) >= 1, "count: status %s, count %r: %s" % (st, n, page.text("#count")))
            # A bad variant file shows the server's message.
            bad = os.path.join(downloads, "bad-variant.toml")
            with open(bad, "w") as f:
                f.write('name = "broken"\nvertices = ["A", "B", "C"]\nfaces = [["A", "B", "C"]]\n')
            page.el("#variant-file").send_keys(bad)
            wait_for(lambda: page.text("#message"), 10, "an error for a broken variant")
            expect(page.status() == "error", "status %s after a broken variant" % page.status())
        check("7 upload a variant, solve and count it", upload)

        def shared_url():
            h = "#k=3soku&v=icosahedron&pegs=%s&b=auto" % ",".join(map(str, SEED_PEGS))
            driver.get("about:blank")
            driver.get(base + h)
            wait_for(lambda: driver.execute_script("return document.getElementById('view') && document.getElementById('view').dataset.solvedDrawnAt"),
                     60, "the shared URL solved and drawn")
            ms = driver.execute_script("return Number(document.getElementById('view').dataset.solvedDrawnAt)")
            expect(page.status() == "sat", "status %s" % page.status())
            ctx["load_ms"] = ms
            check_valid(dom_placements(driver), vertices, faces, SEED_PEGS, tiles)
            got = [int(x) for x in re.split(r"[\s,]+", page.el("#pegs").get_attribute("value").strip())]
            expect(got == SEED_PEGS, "pegs %s restored from the link" % got)
            expect(h.split("&b=")[0] in page.el("#share").get_attribute("value"), "share link %r" % page.el("#share").get_attribute("value"))
            # Changing the hash in place solves the new puzzle too (the octahedron's example).
            oc = api(base, "/api/variant", {"name": "octahedron"})
            driver.execute_script("location.hash = arguments[0]", "#k=3soku&v=octahedron&pegs=%s&b=search" % ",".join(map(str, oc["pegs"])))
            wait_for(lambda: len(page.vertices()) == 6 and page.status() == "sat", 30, "the octahedron from a new hash")
            expect(page.text("#backend-used") == "answered by search", "backend from the hash: %r" % page.text("#backend-used"))
        check("8 shared URL", shared_url)

        def grids():
            page.el("#tab-kakuro").click()
            wait_for(lambda: page.el("#grid-view").is_displayed(), 5, "the Kakuro grid")
            for css in ("#clear-tiles", '#downloads [data-format="svg"]', "#placements-box", "#tiles-box", "#hint"):
                expect(not page.el(css).is_displayed(), "the Kakuro tab shows %s" % css)
            text = page.el("#grid-text").get_attribute("value")
            page.solve()
            expect(page.status() == "sat", "kakuro: %s (%s)" % (page.status(), page.text("#message")))
            check_kakuro(text, dom_grid(driver))
            page.shot(os.path.join(args.shots, "grid-kakuro.png"))
            page.el("#tab-trickytriple").click()
            Select(page.el("#sample")).select_by_index(2)
            text = page.el("#grid-text").get_attribute("value")
            page.solve()
            expect(page.status() == "sat", "tricky triple: %s (%s)" % (page.status(), page.text("#message")))
            check_tricky(text, dom_grid(driver))
            page.shot(os.path.join(args.shots, "grid-trickytriple.png"))
            page.type_into("#grid-text", "trickytriple 2 2\n. .\n. q\n")
            page.solve()
            said = page.text("#grid-msg")
            expect(page.status() == "error" and said.startswith("Line 3:") and "page." not in said,
                   "a broken grid: status %s, message %r" % (page.status(), said))
            expect(page.text("#message") == "", "the grid's mistake also under Solve: %r" % page.text("#message"))
        check("9 Kakuro and Tricky Triple", grids)

        def compare_and_export():
            driver.get("about:blank")
            driver.get(base + "#k=3soku&v=icosahedron&pegs=%s&b=auto" % ",".join(map(str, SEED_PEGS)))
            wait_for(lambda: page.status() == "sat", 60, "the seed solved")
            page.el("#compare-btn").click()
            wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "#compare tbody tr"), 120, "the comparison table")
            rows = driver.find_elements(By.CSS_SELECTOR, "#compare tbody tr")
            got = sorted(r.get_attribute("data-backend") for r in rows)
            want = sorted(b for b in backends if b != "auto")
            expect(set(want) <= set(got) or len(got) >= len(want), "compare rows %s, backends %s" % (got, want))
            expect(all(r.get_attribute("data-status") == "sat" for r in rows), "compare statuses %s" % [r.get_attribute("data-status") for r in rows])
            driver.execute_script("document.getElementById('compare').scrollIntoView({block: 'center'})")
            page.shot(os.path.join(args.shots, "compare.png"))
            driver.execute_script("window.scrollTo(0, 0)")
            # Downloads: every export format and the solution.
            for b in driver.find_elements(By.CSS_SELECTOR, "#downloads button"):
                b.click()
                time.sleep(0.2)
            want_files = {"sokuc-icosahedron." + e for e in ("cnf", "opb", "lp", "mps", "mzn", "svg")} | {"sokuc-icosahedron-solution.json"}
            wait_for(lambda: want_files <= set(os.listdir(downloads)), 30, "downloads %s (have %s)" % (sorted(want_files), sorted(os.listdir(downloads))))
            for f in want_files:
                expect(os.path.getsize(os.path.join(downloads, f)) > 20, "%s is (nearly) empty" % f)
            sol = json.load(open(os.path.join(downloads, "sokuc-icosahedron-solution.json")))
            expect(sol.get("status") == "sat", "the downloaded solution says %r" % sol.get("status"))
            expect(page.text("#message") == "", "message after downloads: %r" % page.text("#message"))
        check("10 compare and downloads", compare_and_export)

        def stop_count():
            page.type_into("#timeout", "60")
            page.el("#count-btn").click()
            wait_for(lambda: page.el("#count").get_attribute("data-status") == "running", 5, "counting")
            time.sleep(1.0)
            t0 = time.time()
            page.el("#stop").click()
            wait_for(lambda: page.el("#count").get_attribute("data-status") == "stopped", 5, "the count stopped")
            page.solve()
            expect(page.status() == "sat" and time.time() - t0 < 20, "the server is busy after Stop (%.1f s)" % (time.time() - t0))
            # Leaving the page stops what it was running.
            page.el("#count-btn").click()
            wait_for(lambda: page.el("#count").get_attribute("data-status") == "running", 5, "counting again")
            job = driver.execute_script("return document.body.dataset.job")
            expect(job, "no job id on the page")
            time.sleep(0.5)
            driver.get("about:blank")
            time.sleep(2.0)
            still = api(base, "/api/cancel", {"job": job})
            expect(still.get("cancelled") is False, "the count was still running after the page was left: %s" % still)
        check("11 stop a long count; leaving the page stops it too", stop_count)

        def random_pegs():
            driver.get(base)
            page.wait_ready()
            # IcoSoKu's pegs, as on the puzzle: the seed's at first, a permutation of 1..12.
            first = [int(x) for x in re.split(r"[\s,]+", page.el("#pegs").get_attribute("value").strip())]
            expect(first == SEED_PEGS, "the first pegs %s are not the seed's" % first)
            expect("1 to 12" in page.text("#pegs-origin"), "the pegs' note: %r" % page.text("#pegs-origin"))
            seen = set()
            for _ in range(3):
                page.el("#random").click()
                wait_for(lambda: page.status() not in ("running", "idle"), 60, "the random puzzle solved")
                expect(page.status() == "sat", "Random made %s (%s)" % (page.status(), page.text("#reason")))
                pegs = [int(x) for x in re.split(r"[\s,]+", page.el("#pegs").get_attribute("value").strip())]
                expect(sum(pegs) == sum(map(sum, tiles)), "random pegs %s do not add up to the tiles' %d" % (pegs, sum(map(sum, tiles))))
                check_valid(dom_placements(driver), vertices, faces, pegs, tiles)
                expect(sorted(pegs) == list(range(1, 13)), "random pegs %s are not a permutation of 1..12" % pegs)
                seen.add(tuple(pegs))
            expect(len(seen) > 1, "Random gave the same pegs three times")
        check("12 Random makes solvable pegs", random_pegs)

        def my_puzzle():
            driver.get("about:blank")
            driver.get(base)
            page.wait_ready()
            page.el("#mine").click()
            wait_for(lambda: page.el("#mine-box").is_displayed(), 5, "the My puzzle panel")
            expect(page.el("#hint").get_attribute("disabled") is not None, "hint mode stays on in My puzzle")
            # Four tiles around A whose corners at A add up to more than its peg (the CLI's
            # instances/icosoku-placed.txt): the page finds the same fewest to take off.
            placed = [("A B C", (0, 0, 0), 0), ("A C D", (3, 3, 3), 0), ("A D E", (2, 2, 2), 0), ("A E F", (1, 1, 1), 0)]
            for key, w, _ in placed:
                page.click_face(key)
                wait_for(lambda: page.el("#mine-face").get_attribute("data-face") == key, 5, "face %s chosen" % key)
                sel = Select(page.el("#mine-tile"))
                opt = next((o for o in sel.options if o.text.startswith("(%s)" % ",".join(map(str, w)))), None)
                expect(opt is not None, "tile %s not offered for %s: %s" % (w, key, [o.text for o in sel.options]))
                sel.select_by_value(opt.get_attribute("value"))
                page.el("#mine-place").click()
                wait_for(lambda: page.el("#mine-status").get_attribute("data-state") not in ("running", ""), 10, "the check of the placed tiles")
            state = page.el("#mine-status").get_attribute("data-state")
            expect(state == "take-off", "four tiles at A: %s (%s %s)" % (state, page.text("#mine-status"), page.text("#mine-msg")))
            red = [li.get_attribute("data-face") for li in driver.find_elements(By.CSS_SELECTOR, '#mine-list li[data-takeoff="true"]')]
            if sokuc:
                out = subprocess.run([sokuc, "check", SEED, os.path.join(ROOT, "instances", "icosoku-placed.txt"), "--partial", "--format", "json"],
                                     capture_output=True, text=True, timeout=120)
                cli = json.loads(out.stdout)
                expect(len(red) == len(cli["removed"]), "the page takes off %s, the CLI %d tiles" % (red, len(cli["removed"])))
            expect(red and set(red) <= {k for k, _, _ in placed}, "marked to take off: %s" % red)
            expect("the fewest" in page.text("#mine-status"), "status %r" % page.text("#mine-status"))
            page.shot(os.path.join(args.shots, "mine-stuck.png"))
            # Take them off: the rest can stay; the next tile continues from the player's own.
            for key in red:
                page.click_face(key)
                page.el("#mine-remove").click()
            wait_for(lambda: page.el("#mine-status").get_attribute("data-state") == "completable", 10, "the rest can stay")
            left = len(driver.find_elements(By.CSS_SELECTOR, "#mine-list li"))
            expect(left == len(placed) - len(red), "%d tiles left of %d" % (left, len(placed)))
            for _ in range(3):
                wait_for(lambda: page.el("#mine-hint").is_enabled(), 10, "a next tile")
                page.el("#mine-hint").click()
                expect(page.text("#mine-next").startswith("put ("), "next tile: %r" % page.text("#mine-next"))
                page.el("#mine-place").click()
                wait_for(lambda: page.el("#mine-status").get_attribute("data-state") not in ("running", ""), 10, "the check after a hint")
                expect(page.el("#mine-status").get_attribute("data-state") == "completable", "a hinted tile made it stuck: %s" % page.text("#mine-status"))
            n = len(driver.find_elements(By.CSS_SELECTOR, "#mine-list li"))
            expect(n == left + 3, "%d tiles after three hints, %d before" % (n, left))
            page.shot(os.path.join(args.shots, "mine.png"))
            page.el("#mine").click()
            expect(not page.el("#mine-box").is_displayed(), "the panel stays after leaving My puzzle")
        check("13 My puzzle: placed tiles, the fewest off, hints", my_puzzle)

        def tiles_panel():
            Select(page.el("#variant")).select_by_value("octahedron")
            wait_for(lambda: len(page.vertices()) == 6, 10, "the octahedron")
            page.el("#tiles-box summary").click()
            rows = driver.find_elements(By.CSS_SELECTOR, "#tiles-list li")
            oc = api(base, "/api/variant", {"name": "octahedron"})
            expect([[int(i.get_attribute("value")) for i in r.find_elements(By.TAG_NAME, "input")] for r in rows] == oc["tiles"],
                   "the tiles panel does not list the octahedron's tiles")
            # Take one out: the page says the count is wrong, beside the tiles.
            rows[0].find_element(By.TAG_NAME, "button").click()
            expect(len(driver.find_elements(By.CSS_SELECTOR, "#tiles-list li")) == 7, "a tile was not removed")
            expect("8 faces and 7 tiles" in page.text("#tiles-msg"), "tiles message %r" % page.text("#tiles-msg"))
            page.el("#tile-add").click()
            expect(len(driver.find_elements(By.CSS_SELECTOR, "#tiles-list li")) == 8, "a tile was not added")
            expect(page.text("#tiles-msg") == "", "tiles message %r after adding" % page.text("#tiles-msg"))
            # Make the new tile (3,3,3): Random plants pegs with it, and the answer uses it.
            for k in range(3):
                # Each change redraws the list: find the box again.
                inp = driver.find_elements(By.CSS_SELECTOR, "#tiles-list li")[-1].find_elements(By.TAG_NAME, "input")[k]
                inp.send_keys(Keys.CONTROL, "a")
                inp.send_keys("3")
                inp.send_keys(Keys.TAB)
            weights = [[int(i.get_attribute("value")) for i in r.find_elements(By.TAG_NAME, "input")] for r in driver.find_elements(By.CSS_SELECTOR, "#tiles-list li")]
            expect(weights[-1] == [3, 3, 3], "the new tile reads %s" % weights[-1])
            expect("changed" in page.text("#tiles-count"), "tiles count %r" % page.text("#tiles-count"))
            page.el("#random").click()
            wait_for(lambda: page.status() not in ("running", "idle"), 60, "the changed tiles solved")
            expect(page.status() == "sat", "changed tiles: %s (%s %s)" % (page.status(), page.text("#reason"), page.text("#tiles-msg")))
            pegs = [int(x) for x in re.split(r"[\s,]+", page.el("#pegs").get_attribute("value").strip())]
            check_valid(dom_placements(driver), oc["vertices"], oc["faces"], pegs, weights)
            expect("t=" in page.el("#share").get_attribute("value"), "the link does not carry the changed tiles")
            page.shot(os.path.join(args.shots, "tiles.png"))
            page.el("#tiles-reset").click()
            expect(page.text("#tiles-count").find("changed") < 0, "the solid's own tiles are still 'changed'")
        check("14 the tiles panel: see, edit, add, remove", tiles_panel)

        def count_seed():
            driver.get("about:blank")
            driver.get(base + "#k=3soku&v=icosahedron&pegs=%s&b=auto" % ",".join(map(str, SEED_PEGS)))
            wait_for(lambda: page.status() == "sat", 60, "the seed solved")
            t0 = time.time()
            page.el("#count-btn").click()
            wait_for(lambda: page.el("#count-progress").is_displayed(), 5, "the count's progress")
            wait_for(lambda: "faces placed" in page.text("#count-progress-text"), 30, "progress figures")
            expect(page.el("#count-stop").is_displayed(), "no Stop beside the count")
            driver.execute_script("document.getElementById('count-progress').scrollIntoView({block: 'center'})")
            page.shot(os.path.join(args.shots, "count-progress.png"))
            wait_for(lambda: page.el("#count").get_attribute("data-status") not in ("running", None, ""), 130, "the seed's count")
            secs = time.time() - t0
            st = page.el("#count").get_attribute("data-status")
            expect(st == "counted", "the seed's count: %s %r %r" % (st, page.text("#count"), page.text("#count-msg")))
            n = int(page.el("#count").get_attribute("data-count"))
            expect(n > 1, "the seed has %d solutions" % n)
            expect(not page.el("#count-progress").is_displayed(), "the progress stays after the count")
            ctx["count_s"] = secs
            ctx["count"] = n
            driver.execute_script("document.getElementById('count').scrollIntoView({block: 'center'})")
            page.shot(os.path.join(args.shots, "count.png"))
            driver.execute_script("window.scrollTo(0, 0)")
        check("15 Count on IcoSoKu within the page's limits", count_seed)

        def phone():
            driver.set_window_size(390, 844)
            try:
                driver.get("about:blank")
                driver.get(base + "#k=3soku&v=icosahedron&pegs=%s&b=auto" % ",".join(map(str, SEED_PEGS)))
                wait_for(lambda: page.status() == "sat", 60, "the seed solved on a phone")
                wait_for(lambda: page.el("#net svg"), 10, "the net on a phone")
                net = page.el("#net")
                driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", net)
                w0 = driver.execute_script("return arguments[0].scrollWidth", net)
                page.el("#net-zoom-in").click()
                page.el("#net-zoom-in").click()
                sw, cw = driver.execute_script("return [arguments[0].scrollWidth, arguments[0].clientWidth]", net)
                expect(sw > 1.8 * cw and sw > 1.8 * w0, "zoomed net: %d wide in a %d box (%d before)" % (sw, cw, w0))
                x0 = driver.execute_script("return arguments[0].scrollLeft", net)
                ActionChains(driver).move_to_element(net).click_and_hold().move_by_offset(-80, 0).release().perform()
                x1 = driver.execute_script("return arguments[0].scrollLeft", net)
                expect(x1 > x0 + 40, "dragging did not pan the net (%d -> %d)" % (x0, x1))
                page.shot(os.path.join(args.shots, "phone-net.png"))
                page.el("#net-fit").click()
                expect(driver.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth + 1", net), "Fit leaves the net wider than its box")
                vw = driver.execute_script("return document.documentElement.scrollWidth")
                expect(vw <= 390, "the page is %d px wide on a 390 px phone" % vw)
            finally:
                driver.set_window_size(1280, 900)
        check("16 on a phone: the net zooms and pans", phone)

        # What the page shows of an answer, read in one script (one moment of the page).
        shown_js = (
            "const $ = (id) => document.getElementById(id);"
            "const txt = (id) => $(id).textContent.trim();"
            "return {status: $('status').dataset.status, said: txt('status'),"
            " texts: ['backend-used', 'reason', 'unique-result', 'solution-index', 'count'].map((id) => [id, txt(id)]),"
            " next: $('next-solution').disabled, download: $('download-solution').disabled, compare: !$('compare').hidden,"
            " hash: location.hash, share: $('share').value,"
            " steps: document.querySelectorAll('#placements li').length, tiles: $('view').dataset.tiles || null,"
            " net: document.querySelectorAll('#net svg g.tile').length, netShown: !$('net-box').hidden,"
            " grid: Array.from(document.querySelectorAll('#grid td'), (td) => td.dataset.value)};")

        def answer_cleared(what):
            """After an edit: no verdict, no answer anywhere (solid, net, steps, grid, list), and
            a link that is the edited puzzle's and nothing else."""
            g = driver.execute_script(shown_js)
            expect(g["status"] == "edited" and "Solved" not in g["said"], "%s: the status after an edit is %s %r" % (what, g["status"], g["said"]))
            for css, said in g["texts"]:
                expect(said == "", "%s: #%s still says %r" % (what, css, said))
            expect(g["next"], "%s: Next solution is still enabled" % what)
            expect(g["download"], "%s: the old solution can still be downloaded" % what)
            expect(not g["compare"], "%s: the comparison of the old puzzle is still shown" % what)
            expect(g["share"].endswith(g["hash"]), "%s: the Link box %r is not the address %r" % (what, g["share"], g["hash"]))
            keys = [kv.split("=", 1)[0] for kv in g["hash"].lstrip("#").split("&") if kv]
            expect(set(keys) <= {"k", "v", "pegs", "t", "g", "b"}, "%s: the link carries %s" % (what, keys))
            expect(not any(g["grid"]), "%s: the grid keeps the old values %s" % (what, g["grid"]))
            return g

        OLD_PEGS = [3, 7, 1, 12, 5, 9, 11, 2, 8, 6, 10, 4]
        NEW_PEGS = [4, 7, 1, 12, 5, 9, 11, 2, 8, 6, 10, 3]

        def link(pegs):
            return "#k=3soku&v=icosahedron&pegs=%s&b=auto" % ",".join(map(str, pegs))

        def open_solved(pegs):
            driver.get("about:blank")
            driver.get(base + link(pegs))
            wait_for(lambda: page.status() == "sat" and page.net_tiles("true") == len(faces)
                     and all(li.text.startswith("Put tile") for li in driver.find_elements(By.CSS_SELECTOR, "#placements li")),
                     60, "the link solved, with its net and steps")
            expect(page.el("#view").get_attribute("data-tiles") == str(len(faces)),
                   "the solved solid shows %r tiles" % page.el("#view").get_attribute("data-tiles"))

        def cleared_3soku(what, pegs=None):
            g = answer_cleared(what)
            if pegs is not None:
                expect(g["hash"] == link(pegs), "%s: the address is %r, not the edited puzzle's %r" % (what, g["hash"], link(pegs)))
            expect(g["steps"] == 0, "%s: the steps keep %d tiles" % (what, g["steps"]))
            expect(g["tiles"] == "0", "%s: the solid shows %r tiles" % (what, g["tiles"]))
            expect(g["net"] == 0 and not g["netShown"], "%s: the net keeps %d tiles" % (what, g["net"]))

        def edit_pegs():
            open_solved(OLD_PEGS)
            # Typing new pegs takes the answer off at once, and nothing comes back later.
            page.type_into("#pegs", " ".join(map(str, NEW_PEGS)))
            cleared_3soku("new pegs typed", NEW_PEGS)
            time.sleep(0.4)  # the server's check of the pegs answers after 250 ms
            cleared_3soku("new pegs, a moment later", NEW_PEGS)
            page.shot(os.path.join(args.shots, "edited-3soku.png"))
            # An edit while Solve runs: the reply, for the pegs before the edit, is not shown.
            driver.execute_script(
                "document.getElementById('solve').click();"
                "const p = document.getElementById('pegs'); p.value = arguments[0];"
                "p.dispatchEvent(new Event('input', {bubbles: true}));", " ".join(map(str, OLD_PEGS)))
            time.sleep(0.6)  # the seed's answer takes a few ms
            cleared_3soku("pegs edited while solving", OLD_PEGS)
        check("17 edited pegs take the answer off at once", edit_pegs)

        def edit_solid_and_tiles():
            open_solved(OLD_PEGS)
            # Another solid: the answer goes at once, before the solid has loaded.
            got = driver.execute_script(
                "const s = document.getElementById('variant'); s.value = 'octahedron';"
                "s.dispatchEvent(new Event('change'));"
                "return [document.getElementById('status').dataset.status, document.querySelectorAll('#placements li').length];")
            expect(got == ["edited", 0], "at the change of solid: status and steps %s" % got)
            wait_for(lambda: len(page.vertices()) == 6, 10, "the octahedron")
            cleared_3soku("another solid")
            # A changed tile.
            page.solve()
            expect(page.status() == "sat", "the octahedron: %s" % page.status())
            page.el("#tiles-box summary").click()
            inp = driver.find_elements(By.CSS_SELECTOR, "#tiles-list li")[0].find_elements(By.TAG_NAME, "input")[0]
            inp.send_keys(Keys.CONTROL, "a")
            inp.send_keys(str(int(inp.get_attribute("value") or 0) + 1))
            inp.send_keys(Keys.TAB)
            cleared_3soku("a changed tile")
            page.el("#tiles-reset").click()
            page.el("#tiles-box summary").click()
        check("18 another solid or a changed tile takes it off", edit_solid_and_tiles)

        def mine_one_verdict():
            # My puzzle: one verdict on the screen, the panel's, and it is the edited pegs'.
            open_solved(OLD_PEGS)
            page.el("#mine").click()
            wait_for(lambda: page.el("#mine-status").get_attribute("data-state") not in ("running", ""), 30, "My puzzle's verdict")
            expect(page.status() != "sat" and "Solved" not in page.text("#status"),
                   "My puzzle says %r and the solve %r" % (page.text("#mine-status"), page.text("#status")))
            expect(page.el("#view").get_attribute("data-tiles") == "0", "My puzzle with no tiles placed shows the solve's tiles")
            state = driver.execute_script(
                "const p = document.getElementById('pegs'); p.value = arguments[0];"
                "p.dispatchEvent(new Event('input', {bubbles: true}));"
                "return document.getElementById('mine-status').dataset.state;", " ".join(map(str, NEW_PEGS)))
            expect(state in ("running", ""), "the verdict on the old pegs stays after the edit: %r" % state)
            wait_for(lambda: page.el("#mine-status").get_attribute("data-state") not in ("running", ""), 30, "My puzzle's verdict on the new pegs")
            mine_said = page.text("#mine-status")
            page.el("#solve").click()
            wait_for(lambda: page.el("#mine-status").get_attribute("data-state") not in ("running", ""), 30, "My puzzle's verdict after Solve")
            expect(page.status() != "sat" and "Solved" not in page.text("#status") and not dom_placements(driver),
                   "My puzzle says %r and the solve %r" % (page.text("#mine-status"), page.text("#status")))
            driver.execute_script("document.getElementById('status').scrollIntoView({block: 'end'})")
            page.shot(os.path.join(args.shots, "edited-mine.png"))
            driver.execute_script("window.scrollTo(0, 0)")
            print("     My puzzle on %s: %s" % (NEW_PEGS, mine_said), flush=True)
            page.el("#mine").click()
        check("19 My puzzle: one verdict, on the pegs shown", mine_one_verdict)

        def edit_grids():
            # The grids: an edited text and another sample are edits too.
            driver.get("about:blank")
            driver.get(base)
            page.wait_ready()
            page.el("#tab-kakuro").click()
            Select(page.el("#sample")).select_by_index(1)
            page.solve()
            expect(page.status() == "sat", "kakuro: %s" % page.status())
            edited_text = "kakuro 3 3\nX   4\\  6\\\n\\4  .   .\n\\6  .   .\n"
            page.type_into("#grid-text", edited_text)
            g = answer_cleared("an edited Kakuro")
            expect(parse_qs(g["hash"].lstrip("#")).get("g") == [edited_text], "the link's grid %r" % parse_qs(g["hash"].lstrip("#")).get("g"))
            expect(g["grid"], "no Kakuro grid drawn")
            page.shot(os.path.join(args.shots, "edited-kakuro.png"))
            page.el("#tab-trickytriple").click()
            Select(page.el("#sample")).select_by_index(1)
            page.solve()
            expect(page.status() == "sat", "tricky triple: %s" % page.status())
            Select(page.el("#sample")).select_by_index(2)
            expect(answer_cleared("another Tricky Triple sample")["grid"], "no Tricky Triple grid drawn")
        check("20 an edited grid takes the answer off", edit_grids)
    except Exception:  # noqa: BLE001
        failed.append("setup")
        traceback.print_exc()
    finally:
        if driver is not None:
            try:
                driver.quit()
            except Exception:  # noqa: BLE001
                pass
        if server is not None:
            server.stop()
            if server.stderr_lines and failed:
                sys.stdout.write("server stderr:\n" + "".join(server.stderr_lines[-20:]))

    if "load_ms" in ctx:
        print("load-to-solved-ms: %d" % round(ctx["load_ms"]))
    if "count_s" in ctx:
        print("count-seed: %d solutions in %.1f s (click to result)" % (ctx["count"], ctx["count_s"]))
    print("screenshots in " + args.shots)
    print("%d passed, %d failed" % (len(passed), len(failed)))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
