"""The HTML report (--format html) on a generated tree that holds hostile names and reasons.

usage: check_html.py structure|browser HARDGUARD

  structure  the page is well-formed HTML5 as python3's html.parser reads it: every element
             closed in order, void elements never closed, exactly one <html>, <head> and <body>;
             the only <style> and <script> are hardguard's own and the Content-Security-Policy
             names their SHA-256; nothing from the tree became an element or an event handler;
             the bytes are the same for -j 1 and -j 4; a tree with more sites than the page
             quotes lists every site and stops quoting at the page's limit.
  browser    Debian's chromium, headless, loads the page from a file: the screenshot is
             1200x900, not blank, and shows the inline style; the DOM after load has one site row
             per site of --format json, the filters the page's own script reveals, and no element
             or attribute made by the hostile text (which tries to set data-pwned on <body>); the
             console reports no Content-Security-Policy violation; clicking a Line heading
             twice sorts that file's sites by line, descending.
             Exits 77 (skipped) when chromium is not installed.

Prints one "ok ..." line per check and "FAIL ..." for each failure; exits 1 on any failure.
"""
import base64
import hashlib
import html.parser
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
HOSTILE_NAME = "<img src=x onerror=alert(1)>.py"
failures = 0


def check(ok, what):
    global failures
    print(("ok   " if ok else "FAIL ") + what)
    failures += not ok


def make_tree(root):
    """A small project: a builder module, sites that pass through it, a failing site, a suppression
    whose reason closes the script element, a file named like an element, a name that is not UTF-8."""
    os.makedirs(os.path.join(root, "sandbox"))
    os.makedirs(os.path.join(root, "app"))
    with open(os.path.join(root, "sandbox", "hardening.py"), "w") as f:
        f.write('def hardening_kwargs():\n    return dict(\n        security_opt=["no-new-privileges"],\n'
                '        cap_drop=["ALL"],\n        network_mode="none",\n        read_only=True,\n'
                '        mem_limit="256m",\n        nano_cpus=10**9,\n        pids_limit=64,\n    )\n')
    with open(os.path.join(root, "app", "jobs.py"), "w") as f:
        f.write("import docker\nfrom sandbox.hardening import hardening_kwargs\n\nclient = docker.from_env()\n"
                'client.containers.run("alpine", **hardening_kwargs())\n'
                'client.containers.create("alpine", detach=True)\n'
                'client.containers.run("alpine")  # hardguard: ignore[builder-not-applied] -- '
                "</script><script>document.body.dataset.pwned=1</script>\n")
    with open(os.path.join(root, "app", HOSTILE_NAME), "w") as f:
        f.write('import docker\ndocker.from_env().containers.run("x")  # "<u onmouseover=alert(1)>"\n')
    with open(os.path.join(root.encode(), b"app", b"latin\xe9 <q>.py"), "w") as f:
        f.write("import docker\ndocker.from_env()\n")
    with open(os.path.join(root, ".hardguard.yml"), "w") as f:
        f.write("builders:\n  - module: sandbox.hardening\n    callables: [hardening_kwargs]\n")


def run(hg, root, *args):
    return subprocess.run([hg, *args, "."], cwd=root, stdout=subprocess.PIPE, check=False).stdout


class Walk(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.counts, self.handlers, self.texts = [], [], {}, [], {}
        self.current = []

    def handle_starttag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        self.handlers += [(tag, k) for k, _ in attrs if k.startswith("on")]
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
            if tag in ("style", "script"):
                self.current = []

    def handle_startendtag(self, tag, attrs):
        self.counts[tag] = self.counts.get(tag, 0) + 1
        self.handlers += [(tag, k) for k, _ in attrs if k.startswith("on")]

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append(f"</{tag}> closes a void element at {self.getpos()}")
        elif not self.stack or self.stack[-1][0] != tag:
            self.errors.append(f"</{tag}> at {self.getpos()} does not close {self.stack[-1] if self.stack else 'anything'}")
        else:
            self.stack.pop()
            if tag in ("style", "script"):
                self.texts.setdefault(tag, []).append("".join(self.current))

    def handle_data(self, data):
        self.current.append(data)


def csp_source(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def structure(hg, root):
    page = run(hg, root, "--format", "html", "-j", "1")
    check(page == run(hg, root, "--format", "html", "-j", "4"), "the page is the same bytes for -j 1 and -j 4")
    text = page.decode("utf-8")  # raises if the page is not UTF-8
    check(text.startswith("<!DOCTYPE html>\n"), "the page starts with the HTML5 doctype")
    w = Walk()
    w.feed(text)
    w.close()
    for e in w.errors:
        check(False, e)
    check(not w.errors, "every element is closed in order, no void element is closed")
    check(not w.stack, f"no element is left open (open: {w.stack})")
    for tag in ("html", "head", "body", "style", "script"):
        check(w.counts.get(tag) == 1, f"exactly one <{tag}> (found {w.counts.get(tag, 0)})")
    check("img" not in w.counts and "u" not in w.counts and "q" not in w.counts, "no element from the tree's text (<img>, <u>, <q>)")
    check(not w.handlers, f"no event-handler attribute ({w.handlers})")
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', text)
    check(csp is not None, "a Content-Security-Policy meta tag")
    if csp:
        policy = csp.group(1)
        check(policy.startswith("default-src 'none';"), "the policy allows nothing by default")
        for tag in ("style", "script"):
            body = w.texts.get(tag, [""])[0]
            check(f"{tag}-src {csp_source(body)};" in policy, f"the policy names the inline {tag} by its SHA-256")
        check("unsafe" not in policy, "no 'unsafe-*' source in the policy")
    check("&lt;img src=x onerror=alert(1)&gt;.py" in text, "the hostile file name is shown as text")
    check("&lt;/script&gt;&lt;script&gt;document.body.dataset.pwned=1&lt;/script&gt;" in text,
          "the reason holding </script> is shown as text")
    check("latin\ufffd &lt;q&gt;.py" in text, "a name that is not UTF-8 is shown with U+FFFD")
    check(not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text), "no URL is referenced (but the SVG namespace)")


def bounded(hg, root):
    """A file with more sites than the page quotes: every site has its row, the excerpts stop at
    the page's limit with one note, and the page stays well-formed."""
    many = os.path.join(root, "many")
    os.makedirs(many)
    with open(os.path.join(many, "many.py"), "w") as f:
        f.write("import docker\n" + "".join(f"c{i} = docker.from_env()\n" for i in range(2100)))
    text = run(hg, many, "--format", "html").decode("utf-8")
    check(text.count('<tr class="site-row"') == 2100, "2,100 sites: 2,100 rows")
    check(text.count("<figure") == 2000, f"excerpts stop at 2,000 a page (found {text.count('<figure')})")
    check(text.count("No more excerpts on this page") == 1, "one note says where the excerpts stop")
    w = Walk()
    w.feed(text)
    w.close()
    check(not w.errors and not w.stack, "the capped page is well-formed")
    empty = os.path.join(root, "empty")
    os.makedirs(empty)
    text = run(hg, empty, "--format", "html").decode("utf-8")
    w = Walk()
    w.feed(text)
    w.close()
    check(not w.errors and not w.stack and "<p>No sites found.</p>" in text and "<svg" not in text,
          "a tree without sites: a well-formed page that says so, without a chart")


def png_pixels(path):
    """Width, height and RGB rows of a non-interlaced 8-bit RGB or RGBA PNG, as chromium writes."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, f"unexpected PNG format {depth} {ctype}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev, stride = zlib.decompress(idat), [], bytearray(w * bpp), w * bpp
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1: line[i] = (line[i] + a) & 255
            elif ft == 2: line[i] = (line[i] + b) & 255
            elif ft == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def browser(hg, root):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("skipped: chromium is not installed (apt-get install chromium; .ci/test installs it when it can)")
        sys.exit(77)
    page = os.path.join(root, "audit.html")
    with open(page, "wb") as f:
        f.write(run(hg, root, "--format", "html"))
    sites = len(json.loads(run(hg, root, "--format", "json"))["sites"])
    url = "file://" + page
    base = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--disable-extensions",
            f"--user-data-dir={os.path.join(root, 'profile')}", "--window-size=1200,900"]
    shot = os.path.join(root, "shot.png")
    r = subprocess.run(base + [f"--screenshot={shot}", url], capture_output=True, timeout=120, check=False)
    check(r.returncode == 0 and os.path.exists(shot), f"chromium took a screenshot (exit {r.returncode})")
    if os.path.exists(shot):
        w, h, rows = png_pixels(shot)
        check((w, h) == (1200, 900), f"the screenshot is 1200x900 (got {w}x{h})")
        colours = {}
        for row in rows:
            for p in row:
                colours[p] = colours.get(p, 0) + 1
        white = colours.get((255, 255, 255), 0)
        check(len(colours) > 20 and white < w * h * 0.98, f"the screenshot is not blank ({len(colours)} colours)")
        # #f3f3f3 is only in the inline style (table heads, the filters), never in the SVG.
        check(colours.get((243, 243, 243), 0) > 500, "the inline style applied (its #f3f3f3 backgrounds are drawn)")
    # With the console logged to stderr, a resource the policy refuses shows up there.
    r = subprocess.run(base + ["--enable-logging=stderr", "--v=1", "--dump-dom", url], capture_output=True,
                       timeout=120, check=False)
    dom = r.stdout.decode("utf-8", "replace")
    check(r.returncode == 0 and "</html>" in dom, f"chromium dumped the DOM (exit {r.returncode})")
    refused = [l for l in r.stderr.decode("utf-8", "replace").splitlines() if "Content Security Policy" in l]
    check(not refused, f"the policy refused nothing on the page ({refused[:1]})")
    rows_found = len(re.findall(r'<tr class="site-row"', dom))
    check(rows_found == sites and sites > 0, f"one site row per site ({rows_found} rows, {sites} sites)")
    check(re.search(r'<form id="filters"(?![^>]*hidden)', dom) is not None,
          "the page's own script ran (the policy admits it): the filters are shown")
    check("pwned" not in re.sub(r"document\.body\.dataset\.pwned=1", "", dom),
          "no script from the tree's text ran (no data-pwned on <body>)")
    w = Walk()
    w.feed(dom)
    check("img" not in w.counts and "u" not in w.counts and "q" not in w.counts, "the hostile names made no element in the DOM")
    check(w.counts.get("script") == 1, f"one <script> in the DOM (found {w.counts.get('script', 0)})")
    check("&lt;img src=x onerror=alert(1)&gt;.py" in dom, "the hostile file name is in the DOM as text")
    sorted_by_script(base, page)


# Clicks the Line heading of the file table with the most sites twice and records the order of its sites, from a copy of the
# page whose policy also admits this driver (by its hash, as the page's own script is admitted).
DRIVER = ("var t=Array.prototype.reduce.call(document.querySelectorAll('table.sites'),function(a,b){"
          "return b.tBodies.length>a.tBodies.length?b:a}),th=t.querySelector('th');th.click();th.click();"
          "document.body.dataset.order=Array.prototype.map.call(t.tBodies,function(b){return b.id}).join(',');")


def sorted_by_script(base, page):
    text = open(page, encoding="utf-8").read()
    tables = [re.findall(r'<tbody class="site"[^>]* id="(s\d+)"', t)
              for t in text.split('<section class="file">')[1:]]
    ids = max(tables, key=len)  # the first of the largest, as the driver picks it; its lines differ
    driven = text.replace("script-src ", f"script-src {csp_source(DRIVER)} ", 1)
    driven = driven.replace("</body>", f"<script>{DRIVER}</script>\n</body>")
    copy = page + ".driven.html"
    with open(copy, "w", encoding="utf-8") as f:
        f.write(driven)
    r = subprocess.run(base + ["--dump-dom", "file://" + copy], capture_output=True, timeout=120, check=False)
    got = re.search(r'<body data-order="([^"]*)"', r.stdout.decode("utf-8", "replace"))
    want = ",".join(reversed(ids))
    check(len(ids) > 1 and got is not None and got.group(1) == want,
          f"two clicks on Line sort a file's sites by line, descending ({got.group(1) if got else None}, want {want})")


def main():
    mode, hg = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as root:
        make_tree(root)
        if mode == "structure":
            structure(hg, root)
            bounded(hg, root)
        else:
            browser(hg, root)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
