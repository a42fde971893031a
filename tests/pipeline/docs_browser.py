#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The timer_pipeline authors
"""Open every page of the built HTML in a real browser and check what a
reader gets: Debian's chromium, headless, through chromium-driver and
python3-selenium (as root: --no-sandbox).

    docs_browser.py HTML_DIR HEADER SHOTS_DIR

From each page's DOM, after it has loaded:
  images   every <img> has loaded (complete, naturalWidth and
           naturalHeight above 0)
  links    every link inside the site points at a page that exists and,
           with a #fragment, at an element of that page with that id (or
           an <a name>), as the browser parsed it
  api      the API reference (HTML_DIR/api/timer__adapter_8h.html) has an
           entry, linked to its documentation, for every public function
           HEADER declares (timer_adapter_*)
Writes full-page screenshots of the primer and the walkthrough into
SHOTS_DIR (primer.png, walkthrough.png).

Prints "ok"/"FAIL" lines and "RESULT browser: N passed, N failed".
"""

import glob
import os
import re
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

SHOTS = ("primer", "walkthrough")

# Per page: its images, its internal links, the ids it defines.
PAGE_JS = r"""
const imgs = Array.from(document.images).map(i => [i.currentSrc || i.src,
    i.complete, i.naturalWidth, i.naturalHeight, i.alt || ""]);
const links = Array.from(document.querySelectorAll("a[href]")).map(
    a => a.href);
const ids = Array.from(document.querySelectorAll("[id]")).map(e => e.id)
    .concat(Array.from(document.querySelectorAll("a[name]")).map(
        e => e.getAttribute("name")));
return [document.readyState, imgs, links, ids];
"""


# The API page: the member list's names and the documented members' titles.
API_JS = r"""
return [Array.from(document.querySelectorAll("td.memItemRight a.el")).map(
            e => [e.textContent.trim(), e.getAttribute("href") || ""]),
        Array.from(document.querySelectorAll("h2.memtitle")).map(
            e => e.textContent.replace(/[^\w]/g, " ").trim()
                 .split(/\s+/).pop())];
"""


def public_functions(header):
    """Names of the functions the header declares (not macros or types)."""
    text = open(header).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return sorted(set(re.findall(r"^[^#\n(]*?\b(timer_adapter_\w+)\s*\(",
                                 text, flags=re.M)))


def browser():
    opts = Options()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu",
              "--disable-dev-shm-usage", "--window-size=1200,900",
              "--allow-file-access-from-files"):
        opts.add_argument(a)
    opts.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                            options=opts)


def main(argv):
    html, header, shots = (os.path.abspath(a) for a in argv[1:4])
    passed = failed = 0

    def check(ok, what, why=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print("ok   " + what)
        else:
            failed += 1
            print("FAIL %s%s" % (what, ": " + why if why else ""))

    pages = sorted(glob.glob(os.path.join(html, "**", "*.html"),
                             recursive=True))
    check(len(pages) > 1, "%d pages built" % len(pages))
    seen, links, api_dom = {}, [], None
    t0 = time.time()
    drv = browser()
    try:
        for path in pages:
            rel = os.path.relpath(path, html)
            drv.get("file://" + path)
            state, imgs, hrefs, ids = drv.execute_script(PAGE_JS)
            for _ in range(50):
                if state == "complete" and all(i[1] for i in imgs):
                    break
                time.sleep(0.1)
                state, imgs, hrefs, ids = drv.execute_script(PAGE_JS)
            seen[path] = set(ids)
            if rel == os.path.join("api", "timer__adapter_8h.html"):
                api_dom = drv.execute_script(API_JS)
            bad = [i for i in imgs if not (i[1] and i[2] > 0 and i[3] > 0)]
            check(not bad, "%s: %d images loaded" % (rel, len(imgs)),
                  "not loaded: %s" % ", ".join(i[0] for i in bad))
            links += [(rel, h) for h in hrefs]
            name = os.path.splitext(rel)[0]
            if name in SHOTS:
                height = drv.execute_script(
                    "return document.documentElement.scrollHeight")
                drv.set_window_size(1200, min(max(height, 900), 16000))
                os.makedirs(shots, exist_ok=True)
                drv.save_screenshot(os.path.join(shots, name + ".png"))
                drv.set_window_size(1200, 900)
                check(os.path.getsize(os.path.join(shots, name + ".png")) > 0,
                      "screenshot %s/%s.png" % (shots, name))
    finally:
        drv.quit()
    # Internal links: a file:// URL inside HTML_DIR.
    broken = []
    n_int = 0
    for rel, href in links:
        u = urllib.parse.urlparse(href)
        if u.scheme != "file":
            continue
        target = urllib.parse.unquote(u.path)
        if not target.startswith(html + os.sep):
            broken.append("%s -> %s (outside the site)" % (rel, href))
            continue
        n_int += 1
        if not os.path.isfile(target):
            broken.append("%s -> %s (no such page)" % (rel, href))
        elif u.fragment and target in seen and \
                urllib.parse.unquote(u.fragment) not in seen[target]:
            broken.append("%s -> %s (no such anchor)" % (rel, href))
    check(n_int > 0 and not broken, "%d internal links resolve (page and "
          "anchor)" % n_int, "\n       ".join(broken[:20]))
    # The API reference: an entry per public function, linked to its
    # documentation on a page that exists.
    api = os.path.join(html, "api", "timer__adapter_8h.html")
    funcs = public_functions(header)
    check(len(funcs) > 0, "%d public functions in %s" % (
        len(funcs), os.path.basename(header)))
    names, docs = api_dom if api_dom else ([], [])
    listed = {n for n, _ in names}
    missing = [f for f in funcs if f not in listed or f not in docs]
    check(api_dom is not None, "api: %s opened" % os.path.relpath(api, html))
    check(not missing, "api: an entry and documentation for each of %d "
          "functions" % len(funcs), "missing: " + ", ".join(missing))
    print("TIME %.1f s in the browser" % (time.time() - t0))
    print("RESULT browser: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
