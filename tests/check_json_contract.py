"""The JSON output against its contract, tests/json-contract.schema.json (JSON Schema 2020-12).

usage: check_json_contract.py HARDGUARD SOURCE_DIR

Runs `hardguard --format json` on every fixture directory (fixtures/<surface>/<kind>/<case> and
fixtures/fix/<case>, not fixtures/cli) and on generated cases for the parts no fixture prints (a
baseline with accepted, new and stale entries, --write-baseline, --diff with and without --strict,
an unreadable path, a file name that is not UTF-8), and validates each document against the
schema. Then what the schema cannot say: the summary counts what the lists hold, kinds,
requirement and forbidden ids come from the rules and the policy, each effective list is the
policy's requirements in order and then forbidden options, a site's end is after its start, sites
of a file are in order. The schema's rule enum must be the catalogue of --list-rules, and every
value of its verdict, via, status, suppression, error kind and level enums (and a baselined site,
an accepted one, a stale entry) must be seen at least once, so that it describes what is printed,
not what might be. Last, deliberately broken copies of a real document
must each be rejected: the schema can fail.
"""

import copy
import json
import os
import subprocess
import sys
import tempfile

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "json-contract.schema.json")


def run(hg, args, cwd):
    return subprocess.run([hg, *args], cwd=cwd, capture_output=True, stdin=subprocess.DEVNULL)


def list_rules(hg):
    """The sections of `hardguard --list-rules`: {"rules": [...], "site kinds": [...], ...}, first words."""
    out = subprocess.run([hg, "--list-rules"], capture_output=True, text=True, check=True).stdout
    sections, current = {}, None
    for line in out.splitlines():
        if line and not line.startswith(" "):
            current = sections.setdefault(line.rstrip(":"), [])
        elif line.strip() and current is not None:
            current.append(line.split()[0])
    return sections


def fixture_dirs(fixtures):
    """Every golden case, <surface>/<kind>/<case>, then every --fix case, fix/<case> (its trees
    before and after); not the CLI cases (fixtures/cli), which are command lines."""
    def subdirs(*parts):
        d = os.path.join(fixtures, *parts)
        return [n for n in sorted(os.listdir(d)) if os.path.isdir(os.path.join(d, n))]
    golden = [f"{s}/{k}/{c}" for s in subdirs() if s not in ("cli", "fix") for k in subdirs(s) for c in subdirs(s, k)]
    return golden + [f"fix/{c}" for c in subdirs("fix")]


class Checker:
    def __init__(self, hg, source):
        self.hg = hg
        with open(SCHEMA) as f:
            self.schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(self.schema)
        self.validator = jsonschema.Draft202012Validator(self.schema)
        self.catalogue = list_rules(hg)
        with open(os.path.join(source, "rules", "policy.yml")) as f:
            policy = yaml.safe_load(f)
        self.requirements = self.catalogue["requirements"]
        self.forbidden = set((policy.get("forbid") or {}).keys())
        self.kinds = set(self.catalogue["site kinds"]) | {"unknown", "marker"}
        self.seen = {k: set() for k in ("verdict", "via", "status", "suppression", "baselined", "error", "level",
                                         "stale")}
        self.first_failing = None
        self.passed = 0
        self.failed = 0

    def problems_of(self, doc):
        """What is wrong with one document: the schema's errors, then the cross-checks."""
        problems = [f"schema: /{'/'.join(map(str, e.absolute_path))}: {e.message}"
                    for e in sorted(self.validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]
        if problems:
            return problems
        sites, summary = doc["sites"], doc["summary"]
        count = lambda pred: sum(1 for s in sites if pred(s))  # noqa: E731
        want = {"sites": len(sites), "failing": count(lambda s: s["verdict"] == "fail" and not s.get("baselined")),
                "suppressed": count(lambda s: s["verdict"] == "suppressed"),
                "allowed": count(lambda s: s["verdict"] == "allowed"),
                "baselined": count(lambda s: s.get("baselined")),
                "unreadable": sum(1 for e in doc["errors"] if e["kind"] == "unreadable")}
        for key, n in want.items():
            if summary[key] != n:
                problems.append(f"summary.{key} is {summary[key]}, the lists hold {n}")
        if "baseline" in doc and doc["baseline"]["accepted"] != summary["baselined"]:
            problems.append(f"baseline.accepted {doc['baseline']['accepted']} != summary.baselined")
        if "gate_relaxed" in doc and summary["gate_relaxed"] != len(doc["gate_relaxed"]):
            problems.append(f"summary.gate_relaxed {summary['gate_relaxed']} != {len(doc['gate_relaxed'])} entries")
        prev = None
        for i, s in enumerate(sites):
            where = f"sites[{i}] ({s['path']}:{s['line']}:{s['column']})"
            if s["kind"] not in self.kinds:
                problems.append(f"{where}: kind {s['kind']!r} is not a site kind of --list-rules")
            if (s["end_line"], s["end_column"]) <= (s["line"], s["column"]):
                problems.append(f"{where}: ends at {s['end_line']}:{s['end_column']}, not after its start")
            if prev and prev["path"] == s["path"] and (prev["line"], prev["column"]) > (s["line"], s["column"]):
                problems.append(f"{where}: comes after {prev['line']}:{prev['column']} of the same file")
            prev = s
            order = {r: n for n, r in enumerate(self.requirements)}
            if any(m not in order for m in s["missing"]) or s["missing"] != sorted(s["missing"], key=order.get):
                problems.append(f"{where}: missing {s['missing']} are not requirements in the policy's order")
            reqs = [e["id"] for e in s["effective"] if e["type"] == "requirement"]
            forb = [e["id"] for e in s["effective"] if e["type"] == "forbidden"]
            if reqs and reqs != self.requirements:
                problems.append(f"{where}: effective requirements {reqs} are not the policy's {self.requirements}")
            if [e["type"] for e in s["effective"]] != ["requirement"] * len(reqs) + ["forbidden"] * len(forb):
                problems.append(f"{where}: effective lists a forbidden option before a requirement")
            if not set(forb) <= self.forbidden:
                problems.append(f"{where}: forbidden {sorted(set(forb) - self.forbidden)} not in the policy's forbid:")
        return problems

    def observe(self, doc):
        for s in doc["sites"]:
            self.seen["verdict"].add(s["verdict"])
            self.seen["via"].add(s["via"])
            self.seen["status"].update(e["status"] for e in s["effective"])
            self.seen["suppression"].add(s.get("suppression"))
            self.seen["baselined"].add(s.get("baselined"))
            if self.first_failing is None and s["verdict"] == "fail" and s["effective"]:
                self.first_failing = doc
        self.seen["error"].update(e["kind"] for e in doc["errors"])
        self.seen["level"].update(e["level"] for e in doc.get("gate_relaxed", []))
        self.seen["stale"].add(bool(doc.get("baseline", {}).get("stale")))

    def case(self, name, cwd, args=(".",), expect_exit=None, expect=()):
        """Runs `hardguard --format json ARGS` in `cwd`; `expect` names top-level keys it must print."""
        r = run(self.hg, ["--format", "json", *args], cwd)
        problems = []
        if expect_exit is not None and r.returncode != expect_exit:
            problems.append(f"exit {r.returncode}, expected {expect_exit}: {r.stderr.decode(errors='replace')}")
        try:
            doc = json.loads(r.stdout)
        except ValueError as e:
            problems.append(f"not JSON: {e}; stderr: {r.stderr.decode(errors='replace')}")
        else:
            problems += self.problems_of(doc)
            problems += [f"no {key!r} in the output" for key in expect if key not in doc]
            if not problems:
                self.observe(doc)
        self.report(name, problems)

    def report(self, name, problems):
        if problems:
            self.failed += 1
            print(f"FAIL {name}")
            for p in problems:
                print(f"  {p}")
        else:
            self.passed += 1


def git(cwd, *args):
    subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "user.name=t", "-c", "user.email=t@example.com",
                    *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"})


def write(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


RUN = "import docker\nc = docker.from_env()\n"


def generated_cases(c, tmp):
    # A baseline: accepted and new sites, and an entry that matches nothing any more (stale).
    base = os.path.join(tmp, "baseline")
    write(os.path.join(base, "a.py"), RUN + "c.containers.run('old')\nc.containers.run('fixed')\n")
    c.case("write-baseline", base, ["--write-baseline", "baseline.txt", "."], expect_exit=0, expect=["baseline"])
    write(os.path.join(base, "a.py"), RUN + "c.containers.run('old')\nc.containers.run('new')\n")
    c.case("baseline", base, ["--baseline", "baseline.txt", "."], expect_exit=1, expect=["baseline"])

    # --diff: a change that relaxes the gate (an exclude, a marker) is a gate_relaxed entry, a
    # warning, or an error with --strict.
    gate = os.path.join(tmp, "gate")
    write(os.path.join(gate, "svc", "a.py"), RUN + "c.containers.run('a')\n")
    git(gate, "init", "-q")
    git(gate, "add", "-A")
    git(gate, "commit", "-qm", "base")
    write(os.path.join(gate, ".hardguard.yml"), 'exclude: ["svc/b.py"]\n')
    write(os.path.join(gate, "svc", "c.py"), "import docker  # hardguard: ignore[unhardened-site] -- a new marker\n")
    c.case("diff", gate, ["--diff", "HEAD", "."], expect_exit=1, expect=["gate_relaxed", "relaxations"])
    c.case("diff-strict", gate, ["--strict", "--diff", "HEAD", "."], expect_exit=1, expect=["gate_relaxed"])

    # A path that cannot be read, beside one that does not parse: exit 2.
    bad = os.path.join(tmp, "bad")
    write(os.path.join(bad, "broken.py"), RUN + "c.containers.run('x',\n")
    c.case("unreadable", bad, [".", "missing.py"], expect_exit=2)

    # A file name and source that are not UTF-8 still give strings.
    odd = os.path.join(os.fsencode(tmp), b"odd", b"we%ird \xff.py")
    write(odd, RUN.encode() + b"c.containers.run('\xff', network_mode=mode)  # caf\xc3\xa9 \xe2\x82\n")
    c.case("not-utf8", os.path.join(tmp, "odd"), expect_exit=1)


def mutations(doc):
    """Broken copies of a document with a failing site: (what is wrong, the copy)."""
    i = next(n for n, s in enumerate(doc["sites"]) if s["verdict"] == "fail" and s["effective"])

    def edit(what, f):
        d = copy.deepcopy(doc)
        f(d, d["sites"][i])
        return what, d

    return [
        edit("an unknown top-level field", lambda d, s: d.update(extra=1)),
        edit("an unknown site field", lambda d, s: s.update(severity="high")),
        edit("no summary", lambda d, s: d.pop("summary")),
        edit("a site without its column", lambda d, s: s.pop("column")),
        edit("a verdict outside the enum", lambda d, s: s.update(verdict="maybe")),
        edit("a rule id outside the catalogue", lambda d, s: s["rules"].append("made-up-rule")),
        edit("a failing site with no rule", lambda d, s: s.update(rules=[])),
        edit("a line of 0", lambda d, s: s.update(line=0)),
        edit("a line as a string", lambda d, s: s.update(line="3")),
        edit("a kind that is not kebab-case", lambda d, s: s.update(kind="SDK_run")),
        edit("a suppression without a justification", lambda d, s: s.update(suppression="allowed")),
        edit("a suppressed verdict without its suppression", lambda d, s: s.update(verdict="suppressed")),
        edit("an effect status outside the enum", lambda d, s: s["effective"][0].update(status="fine")),
        edit("a forbidden type with a requirement's status",
             lambda d, s: s["effective"][0].update(type="forbidden", status="satisfied")),
        edit("an origin without its line",
             lambda d, s: s["effective"][0].update(origin={"path": "a.py", "via": None})),
        edit("a syntax error without its line",
             lambda d, s: d["errors"].append({"path": "a.py", "kind": "syntax", "message": "m"})),
        edit("a summary count below 0", lambda d, s: d["summary"].update(files=-1)),
        edit("a baselined site in a run without a baseline", lambda d, s: s.update(baselined=True)),
        edit("summary.sites that is not the number of sites", lambda d, s: d["summary"].update(sites=10 ** 6)),
    ]


def main():
    hg, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    c = Checker(hg, source)
    fixtures = os.path.join(source, "fixtures")
    for name in fixture_dirs(fixtures):
        c.case(f"fixtures/{name}", os.path.join(fixtures, name))
    with tempfile.TemporaryDirectory(prefix="hg-json-") as tmp:
        generated_cases(c, tmp)

    # The schema keeps up with the program: its rule enum is the catalogue (gate-relaxed is not a
    # site's rule), and each value of its closed enums is printed by some case.
    problems = []
    enum = c.schema["$defs"]["rule"]["enum"]
    catalogue = [r for r in c.catalogue["rules"] if r != "gate-relaxed"]
    if enum != catalogue:
        problems.append(f"the schema's rules {enum} are not --list-rules' {catalogue}")
    props = c.schema["$defs"]["site"]["properties"]
    enums = {"verdict": props["verdict"]["enum"], "via": props["via"]["enum"],
             "status": c.schema["$defs"]["effect"]["properties"]["status"]["enum"],
             "suppression": props["suppression"]["enum"], "baselined": [True, False], "stale": [True],
             "error": c.schema["$defs"]["error"]["properties"]["kind"]["enum"],
             "level": c.schema["properties"]["gate_relaxed"]["items"]["properties"]["level"]["enum"]}
    for key, values in enums.items():
        unseen = sorted(set(values) - c.seen[key])
        if unseen:
            problems.append(f"no case prints {key} {unseen}: add one, or take them out of the schema")
    c.report("schema against the catalogue and the cases", problems)

    # Negative controls: each broken copy of a real document is rejected.
    if c.first_failing is None:
        c.report("negative controls", ["no case printed a failing site to break"])
    else:
        kept = [what for what, d in mutations(c.first_failing) if not c.problems_of(d)]
        c.report("negative controls", [f"accepted a document with {what}" for what in kept])
    print(f"json contract: {c.passed} passed, {c.failed} failed")
    return 1 if c.failed or not c.passed else 0


if __name__ == "__main__":
    sys.exit(main())
