"""SARIF output against the official 2.1.0 schema and what GitHub code scanning relies on.

usage: check_sarif.py HARDGUARD SOURCE_DIR

Runs `hardguard --format sarif` on every fixture directory (fixtures/<surface>/<kind>/<case> and
fixtures/fix/<case>, not fixtures/cli) and on generated cases, validates each document against tests/sarif/
sarif-schema-2.1.0.json, and checks it against the JSON output of the same run.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse

import jsonschema

HERE = os.path.dirname(os.path.abspath(__file__))
FINGERPRINT = re.compile(r"^[0-9a-f]{16}:[1-9][0-9]*$")


def run(hg, args, cwd):
    return subprocess.run([hg, *args], cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL)


def catalogue(hg):
    """The rule ids `hardguard --list-rules` prints, in order."""
    out = subprocess.run([hg, "--list-rules"], capture_output=True, text=True, check=True).stdout
    section = out.split("rules:\n", 1)[1].split("site kinds:", 1)[0]
    return [line.split()[0] for line in section.splitlines() if line.strip()]


def check_document(doc, sites, problems, rule_ids):
    """GitHub's expectations beyond the schema; `sites` is the JSON output's site list."""
    def bad(msg):
        problems.append(msg)

    if doc.get("version") != "2.1.0" or len(doc.get("runs", [])) != 1:
        return bad("expected version 2.1.0 and exactly one run")
    run_ = doc["runs"][0]
    driver = run_["tool"]["driver"]
    for key in ("name", "version", "informationUri", "rules"):
        if not driver.get(key):
            bad(f"tool.driver.{key} missing")
    rules = driver.get("rules", [])
    ids = [r["id"] for r in rules]
    if ids != rule_ids:
        bad(f"tool.driver.rules {ids} is not the catalogue {rule_ids}")
    for r in rules:
        for path in (("name",), ("shortDescription", "text"), ("fullDescription", "text"), ("help", "text"),
                     ("help", "markdown"), ("defaultConfiguration", "level")):
            v = r
            for k in path:
                v = v.get(k) if isinstance(v, dict) else None
            if not v:
                bad(f"rule {r['id']}: {'.'.join(path)} missing")
    if run_.get("columnKind") != "unicodeCodePoints":
        bad("columnKind must be unicodeCodePoints (columns count characters)")
    results = run_.get("results", [])
    # gate-relaxed results (--diff) are about the gate's own files, not sites: a whole line (or file)
    # of the config, a source file's marker or the baseline, each with its own fingerprint.
    gate = [r for r in results if r.get("ruleId") == "gate-relaxed"]
    results = [r for r in results if r.get("ruleId") != "gate-relaxed"]
    for i, res in enumerate(gate):
        where = f"gate-relaxed result {i}"
        idx = res.get("ruleIndex")
        if idx is None or idx >= len(rules) or rules[idx]["id"] != "gate-relaxed":
            bad(f"{where}: ruleIndex {idx} does not name gate-relaxed")
        if res.get("level") not in ("warning", "error") or not res.get("message", {}).get("text"):
            bad(f"{where}: level {res.get('level')}, message {res.get('message')}")
        locs = res.get("locations", [])
        art = locs[0]["physicalLocation"]["artifactLocation"] if len(locs) == 1 else {}
        if art.get("uriBaseId") != "%SRCROOT%" or art.get("uri", "/").startswith("/"):
            bad(f"{where}: location {locs}")
        if locs and locs[0]["physicalLocation"].get("region", {"startLine": 1}).get("startLine", 0) < 1:
            bad(f"{where}: region {locs[0]['physicalLocation']['region']}")
        if not FINGERPRINT.match(res.get("partialFingerprints", {}).get("hardguardGate/v1", "")):
            bad(f"{where}: partial fingerprint {res.get('partialFingerprints')}")
    seen = set()
    for i, res in enumerate(results):
        where = f"results[{i}]"
        idx = res.get("ruleIndex")
        if idx is None or idx >= len(rules) or rules[idx]["id"] != res.get("ruleId"):
            bad(f"{where}: ruleIndex {idx} does not name ruleId {res.get('ruleId')}")
        if res.get("level") not in ("error", "warning", "note"):
            bad(f"{where}: level {res.get('level')}")
        if not res.get("message", {}).get("text"):
            bad(f"{where}: empty message")
        locs = res.get("locations", [])
        if len(locs) != 1:
            bad(f"{where}: expected one location")
            continue
        phys = locs[0]["physicalLocation"]
        art = phys["artifactLocation"]
        uri = art["uri"]
        if uri.startswith("file://"):
            if "uriBaseId" in art:
                bad(f"{where}: an absolute file URI has no base")
        elif uri.startswith("/") or re.match(r"^[a-z][a-z0-9+.-]*:", uri) or art.get("uriBaseId") != "%SRCROOT%":
            bad(f"{where}: uri {uri!r} must be relative to %SRCROOT%")
        if re.search(r"[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]", uri):
            bad(f"{where}: uri {uri!r} is not percent-encoded")
        reg = phys.get("region", {})
        sl, sc, el, ec = (reg.get(k) for k in ("startLine", "startColumn", "endLine", "endColumn"))
        if not (sl and sc and el and ec and sl >= 1 and sc >= 1 and (el, ec) > (sl, sc)):
            bad(f"{where}: region {reg}")
        fp = res.get("partialFingerprints", {}).get("hardguardSite/v1", "")
        if not FINGERPRINT.match(fp):
            bad(f"{where}: partial fingerprint {fp!r}")
        if fp in seen:
            bad(f"{where}: fingerprint {fp} repeated")
        seen.add(fp)
    # Results are exactly the sites that fail a rule (suppressed ones included), in order.
    failing = [s for s in sites if s["rules"]]
    if len(failing) != len(results):
        return bad(f"{len(results)} results, but {len(failing)} sites fail a rule in the JSON output")
    for i, (site, res) in enumerate(zip(failing, results)):
        region = res["locations"][0]["physicalLocation"]["region"]
        uri = urllib.parse.unquote(res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                                   errors="replace")
        path = site["path"].lstrip("./") if site["path"].startswith("./") else site["path"]
        if (res["ruleId"], region["startLine"], region["startColumn"], region["endLine"], region["endColumn"]) != (
                site["rules"][0], site["line"], site["column"], site["end_line"], site["end_column"]):
            bad(f"results[{i}] does not match site {site['path']}:{site['line']}:{site['column']}")
        if not uri.endswith(path.split("/")[-1]) and "\ufffd" not in path:
            bad(f"results[{i}]: uri {uri!r} is not the site's file {site['path']!r}")
        suppressed = site.get("suppression") == "suppressed"
        sups = res.get("suppressions", [])
        if suppressed != bool(sups):
            bad(f"results[{i}]: suppressed={suppressed} but suppressions={sups}")
        if sups and (sups[0].get("kind") != "inSource" or sups[0].get("justification") != site.get("justification")):
            bad(f"results[{i}]: suppression {sups[0]} does not carry the justification {site.get('justification')!r}")
        if "baselined" in site:
            want = "unchanged" if site["baselined"] else "new"
            if not suppressed and res.get("baselineState") != want:
                bad(f"results[{i}]: baselineState {res.get('baselineState')!r}, expected {want!r}")


class Checker:
    def __init__(self, hg):
        self.hg = hg
        with open(os.path.join(HERE, "sarif-schema-2.1.0.json")) as f:
            self.validator = jsonschema.Draft4Validator(json.load(f))
        self.rule_ids = catalogue(hg)
        self.passed = 0
        self.failed = 0

    def case(self, name, cwd, args=(), expect_exit=None, also=None):
        """Runs hardguard with `args` in `cwd` as SARIF and as JSON; `also(doc)` adds checks."""
        problems = []
        sarif = run(self.hg, ["--format", "sarif", *args], cwd)
        as_json = run(self.hg, ["--format", "json", *args], cwd)
        if sarif.returncode != as_json.returncode:
            problems.append(f"exit {sarif.returncode} with sarif, {as_json.returncode} with json")
        if expect_exit is not None and sarif.returncode != expect_exit:
            problems.append(f"exit {sarif.returncode}, expected {expect_exit}: {sarif.stderr.decode(errors='replace')}")
        try:
            doc = json.loads(sarif.stdout)
            sites = json.loads(as_json.stdout)["sites"]
        except ValueError as e:
            problems.append(f"not JSON: {e}; stderr: {sarif.stderr.decode(errors='replace')}")
        else:
            for err in sorted(self.validator.iter_errors(doc), key=lambda e: list(e.absolute_path)):
                problems.append(f"schema: /{'/'.join(map(str, err.absolute_path))}: {err.message}")
            check_document(doc, sites, problems, self.rule_ids)
            if also:
                also(doc, problems)
        if problems:
            self.failed += 1
            print(f"FAIL {name}")
            for p in problems:
                print(f"  {p}")
        else:
            self.passed += 1
        return sarif


def git(cwd, *args):
    subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
                        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})


def write(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def generated_cases(c, tmp):
    repo = os.path.join(tmp, "repo")
    os.makedirs(repo)
    git(repo, "init", "-q")
    write(os.path.join(repo, ".hardguard.yml"),
          "builders:\n  - module: sandbox.container_hardening\n    callables: [hardening_kwargs]\n")
    # The builder is the project's own (a builder from outside the project is a config error).
    write(os.path.join(repo, "sandbox", "container_hardening.py"), "def hardening_kwargs():\n    return {}\n")

    # File names and source that are not UTF-8, and characters URIs must escape.
    odd = os.path.join(os.fsencode(repo), b"sub dir", b"we%ird, na:me #1 \xff.py")
    write(odd, b"import docker\n# \xfe comment\nc = docker.from_env()\n"
               b"c.containers.run('\xff\xfe', network_mode=mode)  # caf\xc3\xa9 \xe2\x82\n")
    c.case("not-utf8", repo, ["."], expect_exit=1)

    # Suppressions carry their justification; allowed sites pass and are not results.
    write(os.path.join(repo, "sup", "s.py"),
          'import subprocess\nsubprocess.run(["docker", "run", image])  '
          '# hardguard: ignore[unhardened-site] -- a "quoted" reason, with commas: and colons\n')
    c.case("suppressed", os.path.join(repo, "sup"), ["."], expect_exit=0)

    # Identical sites on several lines get distinct fingerprints (":1", ":2").
    write(os.path.join(repo, "dup", "d.py"),
          "import docker\nc = docker.from_env()\nc.containers.run('a')\nc.containers.run('a')\n"
          "c.containers.run('a')\n")

    def distinct(doc, problems):
        fps = [r["partialFingerprints"]["hardguardSite/v1"] for r in doc["runs"][0]["results"]]
        if len({f.split(":")[0] for f in fps[1:]}) != 1 or [f.split(":")[1] for f in fps[1:]] != ["1", "2", "3"]:
            problems.append(f"fingerprints of identical sites: {fps}")
    c.case("identical-sites", os.path.join(repo, "dup"), ["."], expect_exit=1, also=distinct)

    # A baseline: accepted (unchanged) and new results, and a stale entry as a notification.
    base = os.path.join(repo, "base")
    write(os.path.join(base, "a.py"), "import docker\nc = docker.from_env()\nc.containers.run('old')\n"
                                      "c.containers.run('fixed')\n")
    r = run(c.hg, ["-q", "--write-baseline", "baseline.txt", "."], base)
    if r.returncode != 0:
        print(f"FAIL baseline: --write-baseline exited {r.returncode}: {r.stderr.decode()}")
        c.failed += 1
    write(os.path.join(base, "a.py"), "import docker\nc = docker.from_env()\nc.containers.run('old')\n"
                                      "c.containers.run('new')\n")

    def baseline_states(doc, problems):
        states = [r.get("baselineState") for r in doc["runs"][0]["results"]]
        notes = doc["runs"][0]["invocations"][0].get("toolExecutionNotifications", [])
        if sorted(states) != ["new", "unchanged", "unchanged"]:
            problems.append(f"baseline states {states}")
        if len(notes) != 1 or "stale" not in notes[0]["message"]["text"]:
            problems.append(f"stale entry notification: {notes}")
    c.case("baseline", base, ["--baseline", "baseline.txt", "."], expect_exit=1, also=baseline_states)

    # Unreadable and unparsable files are notifications; the run did not succeed.
    bad = os.path.join(repo, "bad")
    write(os.path.join(bad, "broken.py"), "import docker\ndocker.from_env().containers.run('x',\n")

    def not_successful(doc, problems):
        inv = doc["runs"][0]["invocations"][0]
        levels = sorted(n["level"] for n in inv.get("toolExecutionNotifications", []))
        if inv["executionSuccessful"] or levels != ["error", "warning"]:
            problems.append(f"invocation {inv}")
    c.case("unreadable", bad, [".", "missing.py"], expect_exit=2, also=not_successful)

    # A file outside the repository (whose root comes from the first path): an absolute file URI.
    write(os.path.join(repo, "clean", "ok.py"), "print('no containers')\n")
    outside = os.path.join(tmp, "outside.py")
    write(outside, "import docker\ndocker.from_env()\n")

    def absolute(doc, problems):
        uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]]
        if uris != ["file://" + urllib.parse.quote(os.path.realpath(outside))]:
            problems.append(f"uris {uris}")
    c.case("outside-root", repo, ["clean", outside], expect_exit=1, also=absolute)

    # --diff: what a change relaxes in the gate is a gate-relaxed result, level warning (error with
    # --strict), on the config line, the marker's line and the baseline line.
    gate = os.path.join(tmp, "gate")
    write(os.path.join(gate, "svc", "a.py"), "import docker\ndocker.from_env().containers.run('a')\n")
    git(gate, "init", "-q")
    r = run(c.hg, ["-q", "--write-baseline", "baseline.txt", "."], gate)
    git(gate, "add", "-A")
    git(gate, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base")
    write(os.path.join(gate, ".hardguard.yml"), 'exclude: ["svc/b.py"]\n')
    write(os.path.join(gate, "svc", "c.py"), "import docker  # hardguard: ignore[unhardened-site] -- a new marker\n")
    with open(os.path.join(gate, "baseline.txt"), "a") as f:
        f.write("svc/c.py\tunhardened-site\tsdk-run\tx()\n")
    with open(os.path.join(gate, "baseline.txt")) as f:
        added_line = len(f.read().splitlines())

    def gate_results(level):
        def check(doc, problems):
            got = sorted((r["level"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                          r["locations"][0]["physicalLocation"].get("region", {}).get("startLine"))
                         for r in doc["runs"][0]["results"] if r["ruleId"] == "gate-relaxed")
            want = [(level, ".hardguard.yml", 1), (level, "baseline.txt", added_line), (level, "svc/c.py", 1)]
            if got != want:
                problems.append(f"gate-relaxed results {got}, expected {want}")
        return check
    c.case("gate-relaxed", gate, ["--diff", "HEAD", "--baseline", "baseline.txt", "."], expect_exit=1,
           also=gate_results("warning"))
    c.case("gate-relaxed-strict", gate, ["--strict", "--diff", "HEAD", "--baseline", "baseline.txt", "."],
           expect_exit=1, also=gate_results("error"))


def fixture_dirs(fixtures):
    """Every golden case, <surface>/<kind>/<case>, then every --fix case, fix/<case> (its trees
    before and after); not the CLI cases (fixtures/cli), which are command lines."""
    def subdirs(*parts):
        d = os.path.join(fixtures, *parts)
        return [n for n in sorted(os.listdir(d)) if os.path.isdir(os.path.join(d, n))]
    golden = [f"{s}/{k}/{c}" for s in subdirs() if s not in ("cli", "fix") for k in subdirs(s) for c in subdirs(s, k)]
    return golden + [f"fix/{c}" for c in subdirs("fix")]


def has_fixes(doc, problems):
    fixes = [r["fixes"] for r in doc["runs"][0]["results"] if "fixes" in r]
    if len(fixes) != 1:
        problems.append(f"expected one result with fixes, got {len(fixes)}")
        return
    changes = fixes[0][0]["artifactChanges"][0]
    if changes["artifactLocation"].get("uri") != "app/jobs.py" or len(changes["replacements"]) != 3:
        problems.append(f"unexpected fix: {changes}")


def main():
    hg, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    c = Checker(hg)
    fixtures = os.path.join(source, "fixtures")
    for name in fixture_dirs(fixtures):
        c.case(f"fixtures/{name}", os.path.join(fixtures, name), ["."])
    tmp = tempfile.mkdtemp(prefix="hg-sarif-")
    try:
        generated_cases(c, tmp)
        # --fix --show-fixes: the fix of each fixable result as artifactChanges/replacements.
        fixable = os.path.join(tmp, "fixable")
        shutil.copytree(os.path.join(fixtures, "fix", "keyword-clash", "input"), fixable)
        run(hg, ["init", "."], fixable)  # the builder the fix case gets from its runner
        c.case("fixes", fixable, ["--fix", "--show-fixes", "."], expect_exit=1, also=has_fixes)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"sarif: {c.passed} passed, {c.failed} failed")
    return 1 if c.failed or not c.passed else 0


if __name__ == "__main__":
    sys.exit(main())
