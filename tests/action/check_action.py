"""The GitHub Action's steps (action.yml), run here as a runner would run them.

usage: check_action.py HARDGUARD SOURCE_DIR

Copies the action (action.yml, .ci/, and the sources its build and cache key are made of) to a
directory named as the runner names it (_actions/hardguard/hardguard/<ref>, without .git, as the
tarball GitHub downloads), makes throwaway git repositories for pull requests and pushes, and runs
the composite action's steps in order, as GitHub's runner would:

- each step's `env:`, `with:` and `if:` expressions are evaluated: `inputs.X` (the scenario's
  value or the input's default), `github.*` (from the event), `runner.*`, `steps.ID.outputs.N`
  (what earlier steps wrote to $GITHUB_OUTPUT); an expression or condition the test does not know
  fails it. The runner's files ($GITHUB_OUTPUT, $GITHUB_ENV, $GITHUB_PATH, $GITHUB_STEP_SUMMARY)
  and variables (GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_WORKSPACE, GITHUB_ACTION_PATH,
  GITHUB_SHA, GITHUB_REF, RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, ImageOS, ImageVersion...) are set;
- `run:` steps run with `bash --noprofile --norc -eo pipefail`, as `shell: bash` does;
- `uses:` steps are not run: actions/cache is a hit by copying HARDGUARD where the restored
  directory would hold it (or a miss: nothing there), upload-sarif is recorded with its file when
  its `if:` holds.

What each scenario checks: a pull request adding an unhardened containers.run fails (exit-code 1,
the final step exits 1 after the upload step), with a SARIF file the 2.1.0 schema accepts holding a
result at the added line, and annotations (and should the scan step itself fail, the SARIF is still
uploaded); a clean one passes; one adding `exclude: ["**"]` is still judged by its base's policy
(and `strict` makes the relaxation alone fail); with `diff` only the change is judged while the
SARIF keeps the whole tree; a push judges the whole tree by its own policy, a merge queue's group
by its base's; a shallow checkout fetches the base; working-directory, format github and
upload-sarif false; inputs holding shell code are data; the cache key names the runner and the
sources (and only them); the release binary of a tag is downloaded (from a file:// URL here) and
used when its SHA-256 matches, refused for a build from source when it does not (the build is
stubbed: the test cannot reach apt and npm). Last, broken copies of action.yml must fail some of
these checks.
"""

import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
TAG = "v0.1.0"
# The parts of the source tree the action's steps read (the rest of GitHub's tarball is not used).
ACTION_PARTS = ["action.yml", ".ci", "CMakeLists.txt", "src", "rules", "grammars", "tools"]
SITE = 'docker.from_env().containers.run("img")'


class Unsupported(Exception):
    """An expression or condition this test cannot evaluate: extend the test or simplify action.yml."""


def git(repo, *args):
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


# --- the runner --------------------------------------------------------------------------------

def read_commands_file(path):
    """NAME=VALUE lines and NAME<<DELIMITER blocks, as $GITHUB_OUTPUT and $GITHUB_ENV hold them."""
    values = {}
    if not os.path.exists(path):
        return values
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delim = line.split("<<", 1)
            end = lines.index(delim, i + 1)
            values[name] = "\n".join(lines[i + 1:end])
            i = end + 1
            continue
        if "=" in line:
            name, value = line.split("=", 1)
            values[name] = value
        i += 1
    return values


class Run:
    """One run of the action: the steps' records, the action's outputs, what was uploaded."""

    def __init__(self):
        self.steps = {}      # id or name -> {outputs, rc, stdout, stderr, ran, if}
        self.order = []
        self.outputs = {}
        self.uploads = []    # the upload-sarif steps that ran: their with:
        self.upload_steps = []
        self.cache = None    # the cache step's with:
        self.failed = None   # the first step that failed
        self.path = []       # what the steps added to PATH ($GITHUB_PATH), first first
        self.summary = ""    # $GITHUB_STEP_SUMMARY

    def log(self):
        return "\n".join(f"--- {k} (rc {v.get('rc')})\n{v.get('stdout', '')}{v.get('stderr', '')}"
                         for k, v in self.steps.items() if v.get("ran"))


def run_action(action, sc):
    """Runs action (a parsed action.yml) for scenario sc: a dict with the keys set by scenario()."""
    run = Run()
    tmp = sc["runner_temp"]
    files = {n: os.path.join(sc["home"], n) for n in ("env", "path", "summary")}
    for f in files.values():
        open(f, "w").close()
    if sc.get("unwritable_summary"):
        # A step summary that cannot be written: the scan step fails after its outputs.
        os.remove(files["summary"])
        os.mkdir(files["summary"])
    inputs = {k: str(v.get("default", "")) for k, v in (action.get("inputs") or {}).items()}
    for k, v in sc["inputs"].items():
        if k not in inputs:
            raise Unsupported(f"the scenario sets input {k}, which action.yml does not declare")
        inputs[k] = v
    event = sc["event"]
    github = {"action_ref": sc["action_ref"], "action_path": sc["action_path"], "event_name": sc["event_name"],
              "sha": sc["sha"], "ref": sc["ref"], "workspace": sc["workspace"], "repository": "octo/app",
              "event": event}
    runner = {"temp": tmp, "os": "Linux", "arch": sc["runner_arch"]}
    steps_ctx = {}

    def lookup(ref):
        ref = ref.strip()
        parts = ref.split(".")
        if parts[0] == "inputs" and len(parts) == 2:
            if parts[1] not in inputs:
                raise Unsupported(f"inputs.{parts[1]} is not declared")
            return inputs[parts[1]]
        if parts[0] == "steps" and len(parts) == 4 and parts[2] == "outputs":
            return steps_ctx.get(parts[1], {}).get(parts[3], "")
        if parts[0] == "runner" and len(parts) == 2 and parts[1] in runner:
            return runner[parts[1]]
        if parts[0] == "github" and len(parts) >= 2:
            v = github
            for p in parts[1:]:
                v = v.get(p) if isinstance(v, dict) else None
            return "" if v is None else v if isinstance(v, str) else json.dumps(v)
        raise Unsupported(f"expression {ref!r}")

    def expand(value):
        value = str(value)
        return EXPR.sub(lambda m: lookup(m.group(1)), value)

    def condition(text, failed):
        """A step's if: — terms joined by &&: always(), success(), failure(), REF, REF == 'x', REF != 'x'."""
        if text is None:
            return not failed
        text = str(text).strip()
        m = re.fullmatch(r"\$\{\{(.*)\}\}", text, re.S)
        if m:
            text = m.group(1).strip()
        result, status_fn = True, False
        for term in [t.strip() for t in text.split("&&")]:
            if term == "always()":
                status_fn = True
            elif term == "success()":
                status_fn, result = True, result and not failed
            elif term == "failure()":
                status_fn, result = True, result and bool(failed)
            elif (c := re.fullmatch(r"([\w.-]+)\s*(==|!=)\s*'([^']*)'", term)):
                # GitHub compares strings ignoring case.
                equal = str(lookup(c.group(1))).lower() == c.group(3).lower()
                result = result and (equal if c.group(2) == "==" else not equal)
            elif re.fullmatch(r"[\w.-]+", term):
                result = result and bool(lookup(term))
            else:
                raise Unsupported(f"condition {text!r}")
        # Without a status function, success() is implied.
        return result and (status_fn or not failed)

    path_dirs = []
    for i, step in enumerate(action["runs"]["steps"]):
        key = step.get("id") or step.get("name") or f"step{i}"
        rec = run.steps[key] = {"ran": False, "outputs": {}}
        run.order.append(key)
        if not condition(step.get("if"), run.failed):
            continue
        rec["ran"] = True
        if "uses" in step:
            uses = step["uses"].split("@")[0]
            with_ = {k: expand(v) for k, v in (step.get("with") or {}).items()}
            rec["with"] = with_
            if uses == "actions/cache":
                run.cache = with_
                outputs = {"cache-hit": ""}
                if sc["cache"] is not None:
                    # What the restore would bring back: the directory, with the binary where the
                    # install step looks for it (prepare's output hardguard).
                    binary = steps_ctx.get("prepare", {}).get("hardguard", "")
                    if not binary.startswith(with_["path"].rstrip("/") + "/"):
                        raise Unsupported(f"the binary {binary!r} is not under the cached path {with_['path']!r}")
                    os.makedirs(os.path.dirname(binary), exist_ok=True)
                    shutil.copy(sc["cache"], binary)
                    outputs["cache-hit"] = "true"
            elif uses == "github/codeql-action/upload-sarif":
                run.uploads.append(with_)
                run.upload_steps.append(key)
                outputs = {}
            else:
                raise Unsupported(f"uses: {step['uses']}")
            rec["outputs"] = outputs
            if step.get("id"):
                steps_ctx[step["id"]] = outputs
            continue
        if step.get("shell") != "bash":
            raise Unsupported(f"shell {step.get('shell')!r}")
        out_file = os.path.join(sc["home"], f"output-{i}")
        open(out_file, "w").close()
        env = dict(sc["env"])
        env.update(read_commands_file(files["env"]))
        env["PATH"] = os.pathsep.join(path_dirs + [sc["env"]["PATH"]])
        env.update({"GITHUB_OUTPUT": out_file, "GITHUB_ENV": files["env"], "GITHUB_PATH": files["path"],
                    "GITHUB_STEP_SUMMARY": files["summary"]})
        env.update({k: expand(v) for k, v in (step.get("env") or {}).items()})
        cwd = sc["workspace"]
        if step.get("working-directory"):
            cwd = os.path.join(cwd, expand(step["working-directory"]))
        script = os.path.join(sc["home"], f"step-{i}.sh")
        # The runner splices ${{ }} into the script's text before bash reads it.
        write(script, expand(step["run"]))
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=cwd, env=env,
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        outputs = read_commands_file(out_file)
        rec.update(rc=r.returncode, stdout=r.stdout, stderr=r.stderr, outputs=outputs)
        if step.get("id"):
            steps_ctx[step["id"]] = outputs
        with open(files["path"]) as f:
            path_dirs = [l for l in f.read().splitlines() if l][::-1]
        if r.returncode != 0 and not run.failed:
            run.failed = key
    run.outputs = {k: expand(v.get("value", "")) for k, v in (action.get("outputs") or {}).items()}
    run.path = path_dirs
    run.summary = "" if os.path.isdir(files["summary"]) else open(files["summary"]).read()
    return run


# --- the scenarios -----------------------------------------------------------------------------

class World:
    """The temporary directory, the action's copy, the built binary, the SARIF schema."""

    def __init__(self, hg, src, tmp):
        self.hg, self.src, self.tmp = hg, src, tmp
        self.action_path = os.path.join(tmp, "_actions", "hardguard", "hardguard", TAG)
        copy_action(src, self.action_path)
        with open(os.path.join(HERE, "..", "sarif", "sarif-schema-2.1.0.json")) as f:
            self.sarif = jsonschema.Draft4Validator(json.load(f))
        self.n = 0
        self.arch = subprocess.run(["uname", "-m"], capture_output=True, text=True, check=True).stdout.strip()
        # A release as GitHub serves it: <tag>/hardguard-linux-<arch> and its .sha256.
        self.release = os.path.join(tmp, "releases")
        asset = os.path.join(self.release, TAG, f"hardguard-linux-{self.arch}")
        os.makedirs(os.path.dirname(asset))
        shutil.copy(hg, asset)
        digest = hashlib.sha256(open(asset, "rb").read()).hexdigest()
        write(asset + ".sha256", f"{digest}  hardguard-linux-{self.arch}\n")
        # The same release with a wrong checksum.
        self.bad_release = os.path.join(tmp, "releases-bad")
        shutil.copytree(self.release, self.bad_release)
        write(os.path.join(self.bad_release, TAG, f"hardguard-linux-{self.arch}.sha256"),
              f"{'0' * 64}  hardguard-linux-{self.arch}\n")
        # The build, which needs apt and npm, replaced by a script that says it ran and installs HARDGUARD.
        self.build_stub = os.path.join(tmp, "build-stub.sh")
        self.build_marker = os.path.join(tmp, "build-ran")
        write(self.build_stub, "set -eu\n"
              f"echo built >> {sh_quote(self.build_marker)}\n"
              'mkdir -p "$HG_DIR/bin"\n'
              f'cp {sh_quote(hg)} "$HG_DIR/bin/hardguard"\n')

    def scenario(self, repo, head, base=None, event_name="pull_request", inputs=None, cache="hit",
                 action_ref=None, release=None, workspace=None, action_path=None):
        self.n += 1
        home = os.path.join(self.tmp, f"run-{self.n}")
        runner_temp = os.path.join(home, "temp")
        os.makedirs(runner_temp)
        if event_name in ("pull_request", "pull_request_target"):
            event = {"action": "synchronize", "number": 7,
                     "pull_request": {"number": 7, "base": {"sha": base, "ref": "main"},
                                      "head": {"sha": head, "ref": "feature"}}}
            ref = "refs/pull/7/merge"
        elif event_name == "merge_group":
            event = {"action": "checks_requested",
                     "merge_group": {"base_sha": base, "head_sha": head, "base_ref": "refs/heads/main",
                                     "head_ref": "refs/heads/gh-readonly-queue/main/pr-7-" + (base or "")}}
            ref = event["merge_group"]["head_ref"]
        else:
            event = {"ref": "refs/heads/main", "before": base or "0" * 40, "after": head}
            ref = "refs/heads/main"
        event_path = os.path.join(home, "event.json")
        write(event_path, json.dumps(event))
        action_path = action_path or self.action_path
        if os.path.exists(self.build_marker):
            os.remove(self.build_marker)
        env = {"PATH": os.environ["PATH"], "HOME": home, "LANG": "C.UTF-8", "CI": "true",
               "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event_name, "GITHUB_EVENT_PATH": event_path,
               "GITHUB_WORKSPACE": workspace or repo, "GITHUB_ACTION_PATH": action_path, "GITHUB_SHA": head,
               "GITHUB_REF": ref, "GITHUB_REPOSITORY": "octo/app", "GITHUB_ACTION": "__hardguard_hardguard",
               # Empty, as some runners leave it in a composite action's steps; action.yml passes
               # github.action_ref through env: instead.
               "GITHUB_ACTION_REF": "", "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64", "RUNNER_TEMP": runner_temp,
               "ImageOS": "ubuntu24", "ImageVersion": "20250101.1.0",
               "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
               "HG_BUILD_SCRIPT": self.build_stub}
        inputs = dict(inputs or {})
        if release:
            inputs.setdefault("release-url", "file://" + release)
        return {"home": home, "runner_temp": runner_temp, "workspace": workspace or repo, "event": event,
                "event_name": event_name, "sha": head, "ref": ref, "inputs": inputs,
                "action_ref": head if action_ref is None else action_ref, "action_path": action_path,
                "runner_arch": "X64", "cache": self.hg if cache == "hit" else cache, "env": env}

    def built(self):
        return os.path.exists(self.build_marker)


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def copy_action(src, dest):
    os.makedirs(dest)
    for part in ACTION_PARTS:
        p = os.path.join(src, part)
        if os.path.isdir(p):
            shutil.copytree(p, os.path.join(dest, part))
        elif os.path.exists(p):
            shutil.copy(p, os.path.join(dest, part))


def make_repo(root, name, base_files, head_files):
    """A git repository with a base commit and a head commit on top: (path, base sha, head sha)."""
    repo = os.path.join(root, name)
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    for files in (base_files, head_files):
        for path, text in files.items():
            if text is None:
                os.remove(os.path.join(repo, path))
            else:
                write(os.path.join(repo, path), text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "--allow-empty", "-m", "commit")
        if files is base_files:
            base = git(repo, "rev-parse", "HEAD")
    return repo, base, git(repo, "rev-parse", "HEAD")


UTIL = "def add(a, b):\n    return a + b\n"
SANDBOX = f"import docker\n\n\ndef run_job():\n    return {SITE}\n"   # the site is on line 5, column 12
CLEAN = "def sub(a, b):\n    return a - b\n"


class Checks:
    def __init__(self):
        self.problems = []

    def __call__(self, ok, what):
        if not ok:
            self.problems.append(what)
        return ok


def annotations(run, kind):
    return [l for l in out(run, "scan").splitlines() if l.startswith(f"::{kind} ")]


def out(run, sid):
    """What step sid printed (stdout, then stderr; GitHub's log has both), or "" when it did not run."""
    s = run.steps.get(sid, {})
    return s.get("stdout", "") + s.get("stderr", "")


def source(run):
    """How the install step got hardguard (its output source)."""
    return run.steps.get("install", {}).get("outputs", {}).get("source")


def sarif_results(w, run, check):
    path = run.outputs.get("sarif", "")
    if not check(path and os.path.isfile(path), f"the sarif output names a file ({path!r})"):
        return []
    try:
        doc = json.load(open(path))
    except ValueError as e:
        check(False, f"{path} is JSON: {e}")
        return []
    errors = list(w.sarif.iter_errors(doc))
    check(not errors, f"the SARIF is valid 2.1.0: {[e.message[:100] for e in errors[:2]]}")
    return [(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
             r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in doc["runs"][0].get("results", [])]


def gate(run, check, code):
    """The action's exit-code is `code`, and it ends the way GitHub would end it."""
    check(run.outputs.get("exit-code") == str(code),
          f"exit-code is {code} (got {run.outputs.get('exit-code')!r}; the step failing first: {run.failed})")
    result = run.steps.get("result", {})
    check(result.get("ran") and result.get("rc") == code,
          f"the final step runs and exits {code} (ran {result.get('ran')}, rc {result.get('rc')})")
    failing = [k for k in run.order if run.steps[k].get("ran") and run.steps[k].get("rc", 0) != 0]
    check(failing == ([] if code == 0 else ["result"]),
          f"only the final step fails, and only when hardguard did: {failing}")
    if run.upload_steps and "result" in run.order:
        check(run.order.index("result") > max(run.order.index(k) for k in run.upload_steps),
              "the SARIF is uploaded before the step that fails the job")


def sc_failing_pr(w, root, action, check):
    repo, base, head = make_repo(root, "failing-pr", {"app/util.py": UTIL}, {"app/sandbox.py": SANDBOX})
    run = run_action(action, w.scenario(repo, head, base))
    gate(run, check, 1)
    results = sarif_results(w, run, check)
    check(("unhardened-site", "app/sandbox.py", 5) in results,
          f"the SARIF has an unhardened-site result at app/sandbox.py:5: {results}")
    errors = annotations(run, "error")
    check(errors and all(l.startswith("::error file=app/sandbox.py,line=5,") for l in errors),
          f"the added site is annotated: {errors}")
    check(f"--config-from {base}" in out(run, "scan") and f"--diff {base}" in out(run, "scan"),
          "the gate reads the base's policy and judges the change (--config-from, --diff)")
    check(len(run.uploads) == 1 and run.uploads[0].get("sarif_file") == run.outputs.get("sarif"),
          f"upload-sarif runs with the SARIF file: {run.uploads}")
    prepared = run.steps.get("prepare", {}).get("outputs", {})
    check(run.cache and run.cache.get("key") == prepared.get("key") and run.cache.get("path") == prepared.get("dir"),
          f"actions/cache restores prepare's directory under its key: {run.cache} {prepared}")
    check(source(run) == "cache" and not w.built(),
          f"a cache hit is used, nothing built: {source(run)}")
    bindir = os.path.dirname(prepared.get("hardguard", "/"))
    check(run.path[:1] == [bindir], f"hardguard's directory is put on PATH for later steps: {run.path}")
    check("a site fails" in run.summary, f"the step summary says so: {run.summary!r}")
    return run


def sc_scan_step_fails(w, root, action, check):
    """The SARIF is uploaded even when the step that wrote it failed (if: always())."""
    repo, base, head = make_repo(root, "scan-fails", {"app/util.py": UTIL}, {"app/sandbox.py": SANDBOX})
    sc = w.scenario(repo, head, base)
    sc["unwritable_summary"] = True
    run = run_action(action, sc)
    check(run.failed == "scan" and run.outputs.get("sarif"),
          f"the scan step fails after writing its outputs: failed {run.failed}, {run.outputs}")
    check(len(run.uploads) == 1 and run.uploads[0].get("sarif_file") == run.outputs.get("sarif"),
          f"the SARIF is uploaded all the same: {run.uploads}")
    check(not run.steps.get("result", {}).get("ran"), "the final step does not run: the job has failed already")


def sc_clean_pr(w, root, action, check):
    repo, base, head = make_repo(root, "clean-pr", {"app/util.py": UTIL}, {"app/more.py": CLEAN})
    run = run_action(action, w.scenario(repo, head, base))
    gate(run, check, 0)
    check(sarif_results(w, run, check) == [], "the SARIF has no result")
    check(len(run.uploads) == 1, "a clean SARIF is uploaded too (it closes fixed alerts)")


def sc_relaxing_pr(w, root, action, check):
    repo, base, head = make_repo(root, "relaxing-pr", {"app/util.py": UTIL},
                                 {"app/sandbox.py": SANDBOX, ".hardguard.yml": 'exclude: ["**"]\n'})
    run = run_action(action, w.scenario(repo, head, base))
    gate(run, check, 1)
    check(("unhardened-site", "app/sandbox.py", 5) in sarif_results(w, run, check),
          "the SARIF, by the base's policy, still has the excluded file's site")
    warnings = annotations(run, "warning")
    check(any(l.startswith("::warning file=.hardguard.yml,line=1,") and "gate-relaxed" in l for l in warnings),
          f"the new exclude is a gate-relaxed warning: {warnings}")
    # The exclude alone: a warning, which strict turns into a failure.
    repo, base, head = make_repo(root, "relaxing-only", {"app/util.py": UTIL},
                                 {".hardguard.yml": 'exclude: ["**"]\n'})
    run = run_action(action, w.scenario(repo, head, base))
    gate(run, check, 0)
    run = run_action(action, w.scenario(repo, head, base, inputs={"strict": "true"}))
    gate(run, check, 1)
    check("--strict" in out(run, "scan"), "strict: true passes --strict")


def sc_legacy(w, root, action, check):
    repo, base, head = make_repo(root, "legacy", {"app/legacy.py": SANDBOX}, {"app/more.py": CLEAN})
    run = run_action(action, w.scenario(repo, head, base))
    gate(run, check, 0)
    check(("unhardened-site", "app/legacy.py", 5) in sarif_results(w, run, check),
          "with diff, the change alone is judged, and the SARIF is still of the whole tree")
    run = run_action(action, w.scenario(repo, head, base, inputs={"diff": "false"}))
    gate(run, check, 1)
    check("--diff" not in out(run, "scan"), "diff: false judges the whole tree")


def sc_push(w, root, action, check):
    repo, base, head = make_repo(root, "push", {"app/util.py": UTIL},
                                 {"app/sandbox.py": SANDBOX, ".hardguard.yml": 'exclude: ["app/sandbox.py"]\n'})
    run = run_action(action, w.scenario(repo, head, base, event_name="push"))
    gate(run, check, 0)
    check("--config-from" not in out(run, "scan") and "--diff" not in out(run, "scan"),
          "a push judges the whole tree by its own policy")
    check(sarif_results(w, run, check) == [], "a push's SARIF follows the pushed policy")
    run = run_action(action, w.scenario(repo, head, base, event_name="merge_group"))
    gate(run, check, 1)
    check(f"--config-from {base}" in out(run, "scan") and f"--diff {base}" in out(run, "scan"),
          "in a merge queue, the queued change is judged by its base's policy (merge_group.base_sha)")
    run = run_action(action, w.scenario(repo, head, base, event_name="push", inputs={"diff": "true"}))
    check(run.outputs.get("exit-code") == "2" and run.failed == "scan",
          f"diff: true outside a pull request stops the action (exit-code 2): {run.outputs} {run.failed}")


def sc_shallow(w, root, action, check):
    full, base, head = make_repo(root, "shallow-origin", {"app/util.py": UTIL}, {"app/sandbox.py": SANDBOX})
    repo = os.path.join(root, "shallow")
    git(root, "clone", "-q", "--depth", "1", "file://" + full, repo)
    run = run_action(action, w.scenario(repo, head, base))
    check("fetching the base commit" in out(run, "scan"), "a shallow checkout fetches the base")
    gate(run, check, 1)


def sc_options(w, root, action, check):
    repo, base, head = make_repo(root, "options/repo", {"app/util.py": UTIL}, {"app/sandbox.py": SANDBOX})
    ws = os.path.dirname(repo)
    run = run_action(action, w.scenario(repo, head, base, workspace=ws, inputs={"working-directory": "repo"}))
    gate(run, check, 1)
    check(("unhardened-site", "app/sandbox.py", 5) in sarif_results(w, run, check),
          "working-directory: the checkout in a subdirectory is judged")
    run = run_action(action, w.scenario(repo, head, base, inputs={"format": "github"}))
    gate(run, check, 1)
    check(run.outputs.get("sarif") == "" and run.uploads == [], "format github: no SARIF, no upload")
    check(annotations(run, "error"), "format github: annotations")
    run = run_action(action, w.scenario(repo, head, base, inputs={"upload-sarif": "false"}))
    gate(run, check, 1)
    check(run.outputs.get("sarif") and run.uploads == [], "upload-sarif false: the SARIF is written, not uploaded")
    run = run_action(action, w.scenario(repo, head, base, inputs={"paths": "app/util.py\n  app/sandbox.py  \n",
                                                                  "args": "--baseline\tnone.txt --quiet"}))
    check("-- app/util.py app/sandbox.py" in out(run, "scan")
          and "--baseline none.txt --quiet --" in out(run, "scan"),
          f"paths are one a line, args words: {out(run, 'scan')[:300]!r}")
    check(run.outputs.get("exit-code") == "2", "a --baseline file that does not exist: could not check")


def sc_injection(w, root, action, check):
    repo, base, head = make_repo(root, "injection", {"app/util.py": UTIL}, {"app/sandbox.py": SANDBOX})
    evil = {"paths": "a; touch pwned-paths", "args": "$(touch pwned-args) `touch pwned-tick` ; touch pwned-semi",
            "format": "sarif'; touch pwned-format; '"}
    for name, value in evil.items():
        run = run_action(action, w.scenario(repo, head, base, inputs={name: value}))
        pwned = [f for d in (repo, w.tmp, root) for f in os.listdir(d) if f.startswith("pwned")]
        check(not pwned, f"input {name}={value!r} is data, not shell code: {pwned}")
        check(run.outputs.get("exit-code") == "2", f"input {name}={value!r}: hardguard could not check (exit 2): "
                                                   f"{run.outputs}")


def sc_cache_key(w, root, action, check):
    def key(action_path, **env):
        repo, base, head = make_repo(root, f"key-{w.n}", {"a.py": UTIL}, {})
        sc = w.scenario(repo, head, base, action_path=action_path)
        sc["env"].update(env)
        run = run_action({"runs": {"steps": [s for s in action["runs"]["steps"] if s.get("id") == "prepare"]}}, sc)
        return run.steps.get("prepare", {}).get("outputs", {}).get("key", "")

    k = key(w.action_path)
    check(re.fullmatch(r"[A-Za-z0-9._-]+", k or "-") and len(k) <= 512 and all(
        p in k for p in ("Linux", "X64", "ubuntu24", "20250101.1.0")), f"the key names the runner and image: {k!r}")
    check(key(w.action_path) == k, "the key is the same for the same sources")
    check(key(w.action_path, ImageVersion="20250202.1.0") != k, "another image version is another key")
    moved = os.path.join(root, "key-copy", TAG)
    copy_action(w.src, moved)
    check(key(moved) == k, "the key does not depend on where the action is (a content hash)")
    write(os.path.join(moved, "README.md"), "docs are not built\n")
    check(key(moved) == k, "a file the build does not read does not change the key")
    with open(os.path.join(moved, "src", "main.c"), "a") as f:
        f.write("/* changed */\n")
    check(key(moved) != k, "a change to src/ is another key")


def sc_release(w, root, action, check):
    if not shutil.which("curl"):
        # The action downloads with curl, which GitHub's runners have; this machine has none.
        print("skip release: no curl on PATH (apt-get install curl), so the download cannot be tried")
        return "skipped"
    repo, base, head = make_repo(root, "release", {"app/util.py": UTIL}, {"app/sandbox.py": SANDBOX})
    asset = os.path.join(w.release, TAG, f"hardguard-linux-{w.arch}")
    run = run_action(action, w.scenario(repo, head, base, cache=None, action_ref=TAG, release=w.release))
    installed = run.steps.get("prepare", {}).get("outputs", {}).get("hardguard", "")
    check(source(run) == "release" and not w.built(),
          f"at a release tag, on a cache miss, the release binary is used, not a build: "
          f"{source(run)} built={w.built()}\n{run.log()}")
    check(os.path.isfile(installed) and open(installed, "rb").read() == open(asset, "rb").read(),
          "the release binary is installed where the cache saves it")
    gate(run, check, 1)
    # The runner left github.action_ref empty: the directory's name (the ref) says the tag.
    run = run_action(action, w.scenario(repo, head, base, cache=None, action_ref="", release=w.release))
    check(source(run) == "release",
          f"without github.action_ref, the action directory's name is the tag: {out(run, 'install')}")
    # A wrong checksum is refused, with a warning, for a build from source.
    run = run_action(action, w.scenario(repo, head, base, cache=None, action_ref=TAG, release=w.bad_release))
    check(source(run) == "build" and w.built(),
          f"a release binary whose SHA-256 does not match is refused, hardguard built instead: "
          f"{source(run)} built={w.built()}")
    check("SHA-256" in out(run, "install") and "::warning" in out(run, "install"),
          "the refusal is a warning")
    gate(run, check, 1)
    # No release binary (a tag without assets), and a commit ref: built.
    run = run_action(action, w.scenario(repo, head, base, cache=None, action_ref="v9.9.9", release=w.release))
    check(source(run) == "build" and w.built(), "a tag without a binary: built")
    run = run_action(action, w.scenario(repo, head, base, cache=None, release=w.release))
    check(source(run) == "build" and "release" not in out(run, "install"),
          "at a commit, no download is tried: built")
    # A restored build that does not run (another image's libraries) is built again.
    broken = os.path.join(root, "broken-hardguard")
    write(broken, "#!/bin/sh\nexit 127\n")
    os.chmod(broken, 0o755)
    run = run_action(action, w.scenario(repo, head, base, cache=broken))
    check(source(run) == "build" and w.built(),
          f"a cached build that does not run is built again: {source(run)}")
    gate(run, check, 1)


SCENARIOS = [sc_failing_pr, sc_scan_step_fails, sc_clean_pr, sc_relaxing_pr, sc_legacy, sc_push, sc_shallow, sc_options,
             sc_injection, sc_cache_key, sc_release]


def mutations(action):
    """Broken copies of action.yml, each with the scenario that must then fail."""
    def m(what, scenario, change):
        d = copy.deepcopy(action)
        change(d)
        return what, scenario, d

    def steps(d):
        return d["runs"]["steps"]

    def by_id(d, sid):
        return next(s for s in steps(d) if s.get("id") == sid)

    return [
        m("no final step: the job passes on a failing pull request", sc_failing_pr,
          lambda d: steps(d).remove(by_id(d, "result"))),
        m("the final step before the upload", sc_failing_pr,
          lambda d: steps(d).insert(2, steps(d).pop(steps(d).index(by_id(d, "result"))))),
        m("upload-sarif ignored", sc_options,
          lambda d: next(s for s in steps(d) if "upload-sarif" in s.get("uses", "")).update(
              {"if": "always() && steps.scan.outputs.sarif != ''"})),
        m("an input spliced into run: (script injection)", sc_injection,
          lambda d: by_id(d, "scan").update(run='bash "$GITHUB_ACTION_PATH/.ci/action/run.sh" ${{ inputs.paths }}')),
        m("the upload without always()", sc_scan_step_fails,
          lambda d: next(s for s in steps(d) if "upload-sarif" in s.get("uses", "")).update(
              {"if": "steps.scan.outputs.upload == 'true'"})),
        m("diff off by default", sc_legacy, lambda d: d["inputs"]["diff"].update(default="false")),
        m("the inputs' paths ignored", sc_options, lambda d: by_id(d, "scan")["env"].pop("HG_PATHS")),
        m("the cache step not restoring where the binary is", sc_failing_pr,
          lambda d: by_id(d, "cache")["with"].update(path="${{ runner.temp }}/elsewhere")),
        m("the cache's hit not passed on", sc_failing_pr, lambda d: by_id(d, "install")["env"].pop("HG_CACHE_HIT")),
        m("the release URL input not passed (the release scenario points it at a directory that does not exist)",
          sc_release, lambda d: by_id(d, "install")["env"].update(HG_RELEASE_URL="file:///nonexistent")),
    ]


def main():
    hg, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    with open(os.path.join(src, "action.yml")) as f:
        action = yaml.safe_load(f)
    failures = 0
    for k in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        os.environ[k] = "t"
    for k in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        os.environ[k] = "t@example.com"
    os.environ.update(GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1")
    with tempfile.TemporaryDirectory(prefix="hg-action-") as tmp:
        w = World(hg, src, tmp)
        for sc in SCENARIOS:
            check = Checks()
            outcome = None
            try:
                outcome = sc(w, os.path.join(tmp, sc.__name__), action, check)
            except Unsupported as e:
                check(False, f"the test cannot run action.yml: {e}")
            name = sc.__name__[3:].replace("_", " ")
            for p in check.problems:
                print(f"FAIL {name}: {p}")
            if not check.problems and outcome != "skipped":
                print(f"ok   {name}")
            failures += len(check.problems)
        for what, sc, broken in mutations(action):
            if sc is sc_release and not shutil.which("curl"):
                continue
            check = Checks()
            try:
                sc(w, os.path.join(tmp, f"broken-{w.n}-{sc.__name__}"), broken, check)
            except Unsupported as e:
                check(False, str(e))
            if check.problems:
                first = " ".join(check.problems[0].split())[:120]
                print(f"ok   a broken action.yml fails {sc.__name__[3:]}: {what} ({first})")
            else:
                print(f"FAIL a broken action.yml passes {sc.__name__[3:]}: {what}")
                failures += 1
    print(f"action steps: {len(SCENARIOS)} scenarios, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
