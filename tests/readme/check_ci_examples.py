"""The documentation's GitHub Actions and GitLab CI jobs, run as far as they can be offline.

usage: check_ci_examples.py HARDGUARD SOURCE_DIR|DOC...

Reads the yaml blocks that follow the markers naming this script ("github-actions",
"gitlab-ci") in the documentation files (with SOURCE_DIR: README.md, docs/*.md and
tests/fuzz/README.md), every one of them, and runs each job's hardguard steps — not the install steps, which fetch hardguard
over the network — exactly as written, with the freshly built hardguard first on PATH, in a
throwaway git repository: a base commit with one legacy unhardened site, and a change that adds
another and tries to switch the gate off for it (its .hardguard.yml excludes the new file). It
checks what each job is meant to do: the code-scanning job reads the policy from the base
(--config-from), writes SARIF that the 2.1.0 schema accepts, with both sites, and fails; its upload
step uploads that file even then; the pull-request job annotates only the changed file, shows the
new exclude as a gate-relaxed warning, and fails; the GitLab job keeps the SARIF as an artifact
and gates on the merge request's changes by the target branch's policy (or on the whole tree by
its own policy outside merge requests).

The blocks after a marker naming "action-uses" (the README's step, docs/ci.md's workflow) use the
GitHub Action; tests/action/check_action.py runs its steps. Here each such block, and every other
yaml block of the documentation with a `uses: hardguard/hardguard@REF` step, is held to the action
it names: REF is a 40-hex commit that this repository has, an ancestor of HEAD (in a shallow clone,
the form only), and every `with:` key is an input of action.yml; a marked block checks out the
repository before the action, and a complete workflow grants `security-events: write` to the job
that uploads (upload-sarif not false). Broken copies of the marked blocks must each be refused.
"""

import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
FAILURES = []
PASSED = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    (PASSED if ok else FAILURES).append(what)


def doc_files(args):
    """The documentation files: those given, or a source directory's README.md, docs/*.md and
    tests/fuzz/README.md."""
    if len(args) == 1 and os.path.isdir(args[0]):
        src = args[0]
        docs = [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
        fuzz = os.path.join(src, "tests", "fuzz", "README.md")
        return docs + ([fuzz] if os.path.exists(fuzz) else [])
    return args


def blocks(docs, tag):
    """Each ```yaml block after a marker comment naming this script and `tag`: (where, document)."""
    found = []
    for doc in docs:
        lines = open(doc).read().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("<!--") and "check_ci_examples.py" in line and tag in line:
                start = next(j for j in range(i, len(lines)) if lines[j].startswith("```yaml")) + 1
                end = next(j for j in range(start, len(lines)) if lines[j].startswith("```"))
                found.append((f"{os.path.relpath(doc)}:{i + 1}", yaml.safe_load("\n".join(lines[start:end]))))
    return found


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def make_repo(tmp):
    repo = os.path.join(tmp, "repo")
    os.makedirs(os.path.join(repo, "svc"))
    git(repo, "init", "-q")
    bad = 'import docker\ndocker.from_env().containers.run("alpine")\n'
    with open(os.path.join(repo, "svc", "legacy.py"), "w") as f:
        f.write(bad)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "base")
    base = git(repo, "rev-parse", "HEAD")
    with open(os.path.join(repo, "svc", "new.py"), "w") as f:
        f.write(bad)
    # The change also tries to exempt its own file from the gate.
    with open(os.path.join(repo, ".hardguard.yml"), "w") as f:
        f.write('exclude: ["svc/new.py"]\n')
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "change")
    return repo, base


def run_step(script, repo, env, shell):
    return subprocess.run(shell + [script], cwd=repo, env=env, capture_output=True, text=True)


def github(workflow, repo, base, env, validator):
    jobs = workflow["jobs"]
    exprs = {"github.event.pull_request.base.sha": base,
             "github.event.pull_request.base.sha || github.sha": base}

    def expand(script):
        def sub(m):
            key = m.group(1).strip()
            check(key in exprs, f"github: expression ${{{{ {key} }}}} has a value in the test")
            return exprs.get(key, "")
        return re.sub(r"\$\{\{(.*?)\}\}", sub, script)

    # GitHub runs `run:` with `bash -e {0}` when no shell is given.
    shell = ["bash", "--noprofile", "--norc", "-e", "-c"]
    scanning = jobs.get("code-scanning", {})
    check(scanning.get("permissions", {}).get("security-events") == "write",
          "github: the code-scanning job may upload (security-events: write)")
    steps = scanning.get("steps", [])
    runs = [s for s in steps if "run" in s and "hardguard" in s["run"] and "install" not in s.get("name", "").lower()]
    check(len(runs) == 1, "github: the code-scanning job has one hardguard step")
    for s in runs:
        r = run_step(expand(s["run"]), repo, env, shell)
        check(r.returncode == 1, f"github: {s['name']!r} fails on unhardened sites (exit {r.returncode}) {r.stderr}")
        out = re.search(r">\s*(\S+)", s["run"]).group(1)
        with open(os.path.join(repo, out)) as f:
            doc = json.load(f)
        errors = list(validator.iter_errors(doc))
        check(not errors, f"github: {out} is valid SARIF 2.1.0 {[e.message for e in errors[:3]]}")
        uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"])
        check(uris == ["svc/legacy.py"] * 2 + ["svc/new.py"] * 2, f"github: SARIF names files from the root: {uris}")
        upload = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
        check(len(upload) == 1 and upload[0].get("with", {}).get("sarif_file") == out,
              f"github: upload-sarif uploads {out}")
        check(upload and "always()" in str(upload[0].get("if", "")), "github: the upload runs when hardguard failed")
    pr = jobs.get("pull-request", {})
    check("pull_request" in str(pr.get("if", "")), "github: the annotating job runs on pull requests")
    checkout = [s for s in pr.get("steps", []) if s.get("uses", "").startswith("actions/checkout@")]
    check(checkout and checkout[0].get("with", {}).get("fetch-depth") == 0,
          "github: the pull-request job fetches history for --diff")
    runs = [s for s in pr.get("steps", []) if "run" in s and "hardguard" in s["run"]
            and "install" not in s.get("name", "").lower()]
    check(len(runs) == 1, "github: the pull-request job has one hardguard step")
    for s in runs:
        r = run_step(expand(s["run"]), repo, env, shell)
        errors = [l for l in r.stdout.splitlines() if l.startswith("::error ")]
        check(r.returncode == 1, f"github: {s['name']!r} fails on the changed file (exit {r.returncode}) {r.stderr}")
        check(len(errors) == 2 and all(l.startswith("::error file=svc/new.py,line=2,col=1,") for l in errors),
              f"github: only the changed file is annotated, by the base's policy: {errors}")
        warnings = [l for l in r.stdout.splitlines() if l.startswith("::warning ")]
        check(len(warnings) == 1 and warnings[0].startswith("::warning file=.hardguard.yml,line=1,col=1,")
              and "gate-relaxed" in warnings[0] and "svc/new.py" in warnings[0],
              f"github: the change's new exclude is a gate-relaxed warning: {warnings}")


def gitlab(pipeline, repo, base, env, validator):
    job = pipeline.get("hardguard", {})
    check(job.get("variables", {}).get("GIT_DEPTH") in (0, "0"), "gitlab: the job fetches history for --diff")
    check(job.get("artifacts", {}).get("when") == "always", "gitlab: the artifact is kept when the job fails")
    paths = job.get("artifacts", {}).get("paths", [])
    script = "\n".join(job.get("script", []))
    # GitLab's shell stops at the first failing line.
    shell = ["bash", "-e", "-o", "pipefail", "-c"]
    # In a merge request the target branch's policy judges (the change's exclude does not count);
    # outside one, the tree's own.
    for name, extra, want, results in (
            ("merge request", {"CI_MERGE_REQUEST_DIFF_BASE_SHA": base}, ["svc/new.py"], 4),
            ("branch pipeline", {}, ["svc/legacy.py"], 2)):
        for p in paths:
            if os.path.exists(os.path.join(repo, p)):
                os.remove(os.path.join(repo, p))
        r = run_step(script, repo, {**env, **extra}, shell)
        judged = sorted({l.split(":")[0] for l in r.stdout.splitlines() if ": error[" in l})
        check(r.returncode == 1 and judged == want,
              f"gitlab ({name}): the job fails on {want}: exit {r.returncode}, judged {judged} {r.stderr}")
        for p in paths:
            try:
                with open(os.path.join(repo, p)) as f:
                    doc = json.load(f)
            except (OSError, ValueError) as e:
                check(False, f"gitlab ({name}): artifact {p}: {e}")
                continue
            errors = list(validator.iter_errors(doc))
            check(not errors and len(doc["runs"][0]["results"]) == results,
                  f"gitlab ({name}): artifact {p} is SARIF 2.1.0 for the whole tree ({results} results)")


SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
ACTION = "hardguard/hardguard@"


def action_steps(doc):
    """(job or None, step) for each step of a yaml document — a list of steps or a workflow — that
    uses hardguard's action."""
    if isinstance(doc, list):
        return [(None, s) for s in doc if isinstance(s, dict) and str(s.get("uses", "")).startswith(ACTION)]
    found = []
    for job in ((doc or {}).get("jobs") or {}).values() if isinstance(doc, dict) else []:
        for s in (job or {}).get("steps") or []:
            if isinstance(s, dict) and str(s.get("uses", "")).startswith(ACTION):
                found.append((job, s))
    return found


def shallow():
    r = subprocess.run(["git", "-C", SOURCE, "rev-parse", "--is-shallow-repository"], capture_output=True, text=True)
    return None if r.returncode else r.stdout.strip() == "true"


def action_problems(doc, inputs, marked):
    """What is wrong with the action steps of one yaml document (a list of messages)."""
    problems = []
    steps = action_steps(doc)
    if marked and not steps:
        problems.append(f"no step uses {ACTION}REF")
    for job, step in steps:
        ref = step["uses"][len(ACTION):]
        if not re.fullmatch(r"[0-9a-f]{40}", ref):
            problems.append(f"{step['uses']}: the ref is not a 40-hex commit (there is no release tag yet)")
        elif shallow() is None:
            problems.append(f"{SOURCE} is not a git repository: cannot tell whether it has commit {ref}")
        elif not shallow():
            git = lambda *a: subprocess.run(["git", "-C", SOURCE, *a], capture_output=True).returncode
            if git("cat-file", "-e", ref + "^{commit}"):
                problems.append(f"{step['uses']}: this repository has no commit {ref}")
            elif git("merge-base", "--is-ancestor", ref, "HEAD"):
                problems.append(f"{step['uses']}: commit {ref} is not in the history of HEAD")
        for key in (step.get("with") or {}):
            if key not in inputs:
                problems.append(f"{step['uses']}: with: {key} is not an input of action.yml ({', '.join(inputs)})")
        if not marked:
            continue
        steps_around = doc if job is None else job.get("steps", [])
        before = steps_around[:steps_around.index(step)]
        if not any(str(s.get("uses", "")).startswith("actions/checkout@") for s in before if isinstance(s, dict)):
            problems.append("no actions/checkout step before the action")
        upload = str((step.get("with") or {}).get("upload-sarif", inputs.get("upload-sarif", {}).get("default")))
        if job is not None and upload != "false":
            perms = {**(doc.get("permissions") or {}), **(job.get("permissions") or {})}
            if perms.get("security-events") != "write":
                problems.append("the job uploads SARIF but is not granted security-events: write")
    return problems


def action_uses(docs):
    """The documentation's steps that use the action, against action.yml; then broken copies."""
    with open(os.path.join(SOURCE, "action.yml")) as f:
        inputs = yaml.safe_load(f).get("inputs") or {}
    marked = blocks(docs, "action-uses")
    check(marked, f"action-uses: {len(marked)} yaml blocks marked for check_ci_examples.py in {len(docs)} documentation files")
    others = []
    for doc in docs:
        lines = open(doc).read().splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("```yaml"):
                continue
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            text = "\n".join(lines[i + 1:end])
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            is_marked = k >= 0 and lines[k].startswith("<!--") and "check_ci_examples.py" in lines[k] \
                and "action-uses" in lines[k]
            if ACTION in text and not is_marked:
                others.append((f"{os.path.relpath(doc)}:{i + 1}", yaml.safe_load(text)))
    for where, doc in marked:
        problems = action_problems(doc, inputs, True)
        check(not problems, f"action-uses: {where}: the step pins a commit of this repository and passes only "
                            f"inputs of action.yml {problems}")
    for where, doc in others:
        problems = action_problems(doc, inputs, False)
        check(not problems, f"action-uses: {where} (unmarked): the step pins a commit of this repository and passes "
                            f"only inputs of action.yml {problems}")
    # Negative controls: each fault in a copy of a marked block is refused.
    if not marked:
        return len(others)
    sample = marked[0][1]

    def broken(change):
        d = copy.deepcopy(sample)
        change(action_steps(d)[0][1], d)
        return d

    faults = [
        ("a tag that does not exist yet", lambda s, d: s.update(uses=ACTION + "v0.1.0")),
        ("an abbreviated commit", lambda s, d: s.update(uses=s["uses"][:len(ACTION) + 12])),
        ("a commit this repository does not have", lambda s, d: s.update(uses=ACTION + "0" * 40)),
        ("a with: key that is no input", lambda s, d: s.update({"with": {"no-such-input": "x"}})),
        ("no checkout before the action",
         lambda s, d: (d if isinstance(d, list) else next(iter(d["jobs"].values()))["steps"]).pop(0)),
    ]
    if shallow():
        faults = [f for f in faults if "does not have" not in f[0]]
    for what, change in faults:
        check(bool(action_problems(broken(change), inputs, True)), f"action-uses: a copy with {what} is refused")
    workflow = next((d for _, d in marked if isinstance(d, dict) and d.get("jobs")), None)
    if workflow is not None:
        d = copy.deepcopy(workflow)
        d.pop("permissions", None)
        for job in d["jobs"].values():
            job.pop("permissions", None)
        check(bool(action_problems(d, inputs, True)), "action-uses: a workflow without security-events: write is refused")
    return len(marked) + len(others)


def main():
    hg, docs = os.path.abspath(sys.argv[1]), doc_files([os.path.abspath(a) for a in sys.argv[2:]])
    with open(os.path.join(HERE, "..", "sarif", "sarif-schema-2.1.0.json")) as f:
        validator = jsonschema.Draft4Validator(json.load(f))
    with tempfile.TemporaryDirectory(prefix="hg-ci-") as tmp:
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(hg, os.path.join(bindir, "hardguard"))
        env = {**os.environ, "PATH": bindir + os.pathsep + os.environ["PATH"], "GIT_CONFIG_GLOBAL": os.devnull,
               "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
               "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com"}
        env.pop("CI_MERGE_REQUEST_DIFF_BASE_SHA", None)
        os.environ.update({k: env[k] for k in ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME",
                                                "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL")})
        tested = []
        for tag, run_jobs in (("github-actions", github), ("gitlab-ci", gitlab)):
            found = blocks(docs, tag)
            check(found, f"{tag}: {len(found)} yaml blocks marked for check_ci_examples.py in {len(docs)} documentation files")
            for n, (where, doc) in enumerate(found):
                print(f"== {where} ({tag})")
                # A fresh repository for each example: what one job leaves cannot help the next.
                repo, base = make_repo(os.path.join(tmp, f"{tag}-{n}"))
                run_jobs(doc, repo, base, env, validator)
                tested.append(where)
        n_action = action_uses(docs)
    print(f"CI examples: {len(tested)} blocks ({', '.join(tested)}) and {n_action} using the action; "
          f"{len(PASSED)} checks passed, {len(FAILURES)} failed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
