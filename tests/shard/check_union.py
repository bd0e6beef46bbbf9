"""--shard K/N: the union of the N shards' reports is the report of one run (docs/ci.md).

usage: check_union.py HARDGUARD ROOT [TREE...]

For each TREE (default: ROOT/fixtures), and for N in 2, 3 and 7, runs `hardguard --format json`
over the tree once whole and once per shard, and checks that
  - every site, file error, gate-relaxed warning and stale baseline entry is in exactly one shard,
    and the shards together hold exactly the whole run's (compared as multisets of their JSON);
  - the counts of the summary add up (files, sites, failing, unreadable, baselined ...);
  - the whole run's exit status is the worst of the shards' (2 over 1 over 0);
  - SARIF names each shard in runs[0].automationDetails.id, and the SARIF results add up too.
The GitHub matrix of docs/ci.md (the YAML block after the marker naming this script) is run too:
each matrix value's `--shard` arguments, as the job gives them to the action, over the fixtures.
Then the same over a generated git repository with --diff, --baseline (a stale entry for a file
that is gone) and a change that relaxes the gate, where every kind of entry occurs. Prints one
"ok ..." or "FAIL ..." line per check; exit 1 when one failed.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import Counter

HG = os.path.abspath(sys.argv[1])
ROOT = os.path.abspath(sys.argv[2])
TREES = sys.argv[3:] or [os.path.join(ROOT, "fixtures")]
SUMMED = ("files", "parsed", "sites", "failing", "unreadable", "suppressed", "allowed", "baselined", "gate_relaxed")
failed = 0


def check(ok, what):
    global failed
    print(("ok " if ok else "FAIL ") + what)
    failed += not ok


def run(args, cwd):
    p = subprocess.run([HG, "-q", "-j", "2"] + args, cwd=cwd, capture_output=True, text=True)
    if p.returncode not in (0, 1, 2):
        raise SystemExit(f"FAIL hardguard {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout


def entries(doc):
    """Everything a run reports about files, as one multiset of JSON texts."""
    out = Counter()
    for key in ("sites", "errors", "gate_relaxed"):
        for e in doc.get(key, []):
            out[key + " " + json.dumps(e, sort_keys=True)] += 1
    for e in (doc.get("baseline") or {}).get("stale", []):
        out["stale " + json.dumps(e, sort_keys=True)] += 1
    return out


def worst(codes):
    return 2 if 2 in codes else 1 if 1 in codes else 0


def compare(name, cwd, args, n):
    code, text = run(["--format", "json"] + args, cwd)
    whole = json.loads(text)
    union, codes, totals, seen_twice = Counter(), [], Counter(), 0
    for k in range(1, n + 1):
        c, t = run(["--format", "json", "--shard", f"{k}/{n}"] + args, cwd)
        doc = json.loads(t)
        mine = entries(doc)
        seen_twice += sum((union & mine).values())
        union += mine
        codes.append(c)
        for key in SUMMED:
            totals[key] += doc["summary"].get(key, 0)
    want = entries(whole)
    check(seen_twice == 0, f"{name} N={n}: no entry is reported by two shards")
    missing, extra = want - union, union - want
    check(not missing and not extra,
          f"{name} N={n}: the shards' union is the whole run ({sum(want.values())} entries)"
          + (f"; missing {list(missing)[:2]}" if missing else "") + (f"; extra {list(extra)[:2]}" if extra else ""))
    sums = {key: (totals[key], whole["summary"].get(key, 0)) for key in SUMMED}
    bad = {k: v for k, v in sums.items() if v[0] != v[1]}
    check(not bad, f"{name} N={n}: the summaries add up" + (f" (shards, whole: {bad})" if bad else ""))
    check(worst(codes) == code, f"{name} N={n}: exit status {code} is the worst of the shards' {codes}")
    return whole


def sarif_compare(name, cwd, args, n):
    _, text = run(["--format", "sarif"] + args, cwd)
    whole = json.loads(text)["runs"][0]
    check("automationDetails" not in whole, f"{name}: an unsharded SARIF run has no automationDetails")
    results = Counter()
    for k in range(1, n + 1):
        _, t = run(["--format", "sarif", "--shard", f"{k}/{n}"] + args, cwd)
        r = json.loads(t)["runs"][0]
        want_id = f"hardguard/shard-{k}-of-{n}/"
        got = r.get("automationDetails", {}).get("id")
        check(got == want_id, f"{name}: SARIF of shard {k}/{n} has automationDetails.id {want_id!r} (got {got!r})")
        for res in r["results"]:
            results[json.dumps(res, sort_keys=True)] += 1
    want = Counter(json.dumps(res, sort_keys=True) for res in whole["results"])
    check(results == want, f"{name} N={n}: the shards' SARIF results are the whole run's ({sum(want.values())})")


def git(cwd, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   capture_output=True)


def generated(tmp):
    """A repository where a run reports every kind of entry: failing and passing sites, a syntax
    error, an unreadable file, baselined and stale entries, and the change's gate relaxations."""
    repo = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(repo, "pkg"))
    bad = 'import docker\n\n\ndef run{i}():\n    return docker.from_env().containers.run("img{i}", "true")\n'
    for i in range(24):
        with open(os.path.join(repo, "pkg", f"m{i}.py"), "w") as f:
            f.write(bad.format(i=i))
    with open(os.path.join(repo, "gone.py"), "w") as f:
        f.write(bad.format(i=99))
    with open(os.path.join(repo, ".hardguard.yml"), "w") as f:
        f.write("exclude: []\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    # The baseline of the base, then the change.
    subprocess.run([HG, "-q", "--write-baseline", "baseline.txt", "."], cwd=repo, check=True, capture_output=True)
    os.remove(os.path.join(repo, "gone.py"))
    for i in range(0, 24, 3):
        with open(os.path.join(repo, "pkg", f"m{i}.py"), "a") as f:
            f.write(f'\n\ndef more{i}():\n    return docker.from_env().containers.run("x", "true")  # hardguard: ignore[unhardened-site] -- test {i}\n')
    with open(os.path.join(repo, "pkg", "m1.py"), "a") as f:
        f.write("\ndef broken(:\n")
    with open(os.path.join(repo, ".hardguard.yml"), "w") as f:
        f.write('exclude: ["vendor/**"]\nallow:\n  - paths: [pkg/m2.py]\n    requirements: [network-none]\n'
                '    reason: a test\n')
    # A line over 1 MiB is not parsed: the file is unreadable (exit 2).
    with open(os.path.join(repo, "pkg", "huge.py"), "w") as f:
        f.write("import docker\nx = '" + "a" * (1 << 20) + "'\n")
    return repo


def docs_matrix():
    """The shards job of docs/ci.md: each matrix value's arguments, as the action word-splits them."""
    text = open(os.path.join(ROOT, "docs", "ci.md")).read()
    m = re.search(r"<!-- tests/shard/check_union.py runs this job's hardguard step for each shard: shards -->\n"
                  r"```yaml\n(.*?)```", text, re.S)
    check(m is not None, "docs/ci.md: the shards job is marked for this test")
    if not m:
        return
    import yaml
    job = yaml.safe_load(m.group(1))["jobs"]["hardguard"]
    shards = job["strategy"]["matrix"]["shard"]
    step = next(st for st in job["steps"] if "hardguard/hardguard@" in st.get("uses", ""))
    argv = [shlex.split(step["with"]["args"].replace("${{ matrix.shard }}", str(k))) for k in shards]
    n = len(shards)
    check(shards == list(range(1, n + 1)) and all(a == ["--shard", f"{k}/{n}"] for k, a in zip(shards, argv)),
          f"docs/ci.md: the matrix's {n} values give --shard 1/{n} .. {n}/{n} ({argv})")
    tree = os.path.join(ROOT, "fixtures")
    code, text = run(["--format", "sarif", tree], ROOT)
    want = Counter(json.dumps(r, sort_keys=True) for r in json.loads(text)["runs"][0]["results"])
    got, codes = Counter(), []
    for a in argv:
        c, t = run(["--format", "sarif"] + a + [tree], ROOT)
        codes.append(c)
        got += Counter(json.dumps(r, sort_keys=True) for r in json.loads(t)["runs"][0]["results"])
    check(got == want and worst(codes) == code,
          f"docs/ci.md: the matrix's {n} jobs report the fixtures' {sum(want.values())} results, failing as one run does")


def main():
    docs_matrix()
    for tree in TREES:
        name = os.path.relpath(tree, ROOT) if tree.startswith(ROOT) else tree
        for n in (2, 3, 7):
            compare(name, ROOT, [tree], n)
        sarif_compare(name, ROOT, [tree], 3)
    with tempfile.TemporaryDirectory() as tmp:
        repo = generated(tmp)
        args = ["--diff", "HEAD", "--baseline", "baseline.txt", "."]
        whole = None
        for n in (2, 5):
            whole = compare("generated repository (--diff, --baseline)", repo, args, n)
        kinds = {"sites", "errors", "gate_relaxed"} & {k for k in whole if whole.get(k)}
        stale = (whole.get("baseline") or {}).get("stale", [])
        check(kinds == {"sites", "errors", "gate_relaxed"} and stale,
              f"generated repository: its whole run has sites, errors, gate_relaxed and stale entries ({sorted(kinds)}, {len(stale)} stale)")
    # Bad values are usage errors (exit 2), not a silent whole run.
    for bad in ("0/2", "3/2", "1/0", "a/b", "1/2/3", "1", "-1/2", "1/99999", ""):
        p = subprocess.run([HG, "--shard", bad, os.path.join(ROOT, "fixtures", "python")], capture_output=True, text=True)
        check(p.returncode == 2 and "--shard expects K/N" in p.stderr, f"--shard {bad!r} is a usage error")
    return 1 if failed else 0


sys.exit(main())
