"""action.yml against the GitHub Actions metadata schema, and its references against each other.

usage: check_schema.py SOURCE_DIR

Validates SOURCE_DIR/action.yml with python3-jsonschema against SchemaStore's github-action.json
(tests/action/github-action.schema.json, Draft 7, as it declares; tests/action/README.md says
where it comes from), then checks what the schema cannot:

- every `inputs.X` the file refers to (in a ${{ }} expression or an `if:`) is a declared input,
  and every declared input is referred to;
- every `steps.ID.outputs.N` names a step with that id that runs before the step referring to it
  (or any step, from `outputs:`), and an output that step sets: one of actions/cache's, or one its
  script writes with hg_output (.ci/action/lib.sh);
- every declared output's value is such a reference;
- no `run:` holds a ${{ }} expression (the runner splices it into the script's text: an input
  holding shell code would run) — inputs go through `env:`; each `run:` calls a script of
  .ci/action/ that exists and that `bash -n` parses;
- every `uses:` names a released version (@vN or a 40-hex commit).

Last, deliberately broken copies of action.yml (one fault each) must each be refused, so that every
check above can fail.
"""

import copy
import json
import os
import re
import subprocess
import sys

import jsonschema
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
INPUT_REF = re.compile(r"\binputs\.([A-Za-z_][A-Za-z0-9_-]*)")
STEP_REF = re.compile(r"\bsteps\.([A-Za-z_][A-Za-z0-9_-]*)\.outputs\.([A-Za-z_][A-Za-z0-9_-]*)")
SCRIPT = re.compile(r'^bash "\$GITHUB_ACTION_PATH/(\.ci/action/[A-Za-z0-9_.-]+\.sh)"$')
SCRIPT_IN = re.compile(r'\$GITHUB_ACTION_PATH/(\.ci/action/[A-Za-z0-9_.-]+\.sh)')
SETS_OUTPUT = re.compile(r"\bhg_output\s+([A-Za-z_][A-Za-z0-9_-]*)\s")
# What actions/cache@v4 sets (its action.yml's outputs).
USES_OUTPUTS = {"actions/cache": {"cache-hit", "cache-primary-key", "cache-matched-key"}}


def expressions(value, in_if=False):
    """The expression texts in a string: each ${{ }}, or the whole of an if: without one."""
    found = [m.group(1) for m in EXPR.finditer(value)]
    if in_if and not found:
        found = [value]
    return found


def walk(node, where=()):
    """(path, key, string) for every string value under node."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from walk(v, where + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, where + (i,))
    elif isinstance(node, str):
        yield where, where[-1] if where else None, node


def script_outputs(src, step):
    """The outputs a run: step's script sets (hg_output NAME in it or lib.sh), or None."""
    m = SCRIPT_IN.search(str(step.get("run", "")))
    if not m:
        return None
    names = set()
    for path in (m.group(1), ".ci/action/lib.sh"):
        try:
            with open(os.path.join(src, path)) as f:
                names |= set(SETS_OUTPUT.findall(f.read()))
        except OSError:
            pass
    return names


def schema_message(error):
    """One line for a schema error: where, and what (for a oneOf/anyOf, the deepest error of its
    branches: the one inside the branch that got furthest)."""
    where = "/".join(map(str, error.absolute_path)) or "(top)"

    def leaves(e):
        return [x for c in e.context for x in leaves(c)] if e.context else [e]

    if error.context:
        deepest = max(leaves(error), key=lambda e: len(e.absolute_path))
        inner = "/".join(map(str, deepest.absolute_path)) or where
        return f"schema: {inner}: {deepest.message[:160]} (in the {error.validator} at {where})"
    return f"schema: {where}: {error.message[:200]}"


def problems(doc, src, validator):
    """Everything wrong with one action.yml document (a list of messages)."""
    out = [schema_message(e) for e in validator.iter_errors(doc)]
    if not isinstance(doc, dict):
        return out or ["not a mapping"]
    declared = doc.get("inputs") or {}
    steps = ((doc.get("runs") or {}).get("steps")) or []
    ids = {}
    for i, s in enumerate(steps):
        if isinstance(s, dict) and "id" in s:
            if s["id"] in ids:
                out.append(f"step id {s['id']!r} is used twice")
            ids[s["id"]] = i

    def sets(step_id):
        step = steps[ids[step_id]]
        if "uses" in step:
            return USES_OUTPUTS.get(str(step["uses"]).split("@")[0], set())
        return script_outputs(src, step) or set()

    used = set()
    for where, key, value in walk(doc):
        here = "/".join(map(str, where))
        for expr in expressions(value, in_if=(key == "if")):
            for name in INPUT_REF.findall(expr):
                used.add(name)
                if name not in declared:
                    out.append(f"{here}: inputs.{name} is not a declared input")
            for sid, name in STEP_REF.findall(expr):
                if sid not in ids:
                    out.append(f"{here}: steps.{sid}: no step has that id")
                    continue
                if len(where) > 2 and where[:2] == ("runs", "steps") and ids[sid] >= where[2]:
                    out.append(f"{here}: steps.{sid} does not run before this step")
                if name not in sets(sid):
                    out.append(f"{here}: step {sid} does not set output {name}")
    for name in declared:
        if name not in used:
            out.append(f"input {name} is declared but never used")
    for name, o in (doc.get("outputs") or {}).items():
        refs = STEP_REF.findall(str((o or {}).get("value", "")))
        if not refs:
            out.append(f"outputs/{name}: its value names no step's output")
    for i, s in enumerate(steps):
        if not isinstance(s, dict):
            continue
        if "run" in s:
            run = str(s["run"])
            if "${{" in run:
                out.append(f"runs/steps/{i}: run: holds a ${{{{ }}}} expression (pass it through env:)")
            m = SCRIPT.match(run.strip())
            if not m:
                out.append(f"runs/steps/{i}: run: is not one script of .ci/action/: {run!r}")
            elif not os.path.isfile(os.path.join(src, m.group(1))):
                out.append(f"runs/steps/{i}: {m.group(1)} does not exist")
            else:
                r = subprocess.run(["bash", "-n", os.path.join(src, m.group(1))], capture_output=True, text=True)
                if r.returncode != 0:
                    out.append(f"runs/steps/{i}: bash -n {m.group(1)}: {r.stderr.strip()}")
        if "uses" in s and not re.search(r"@(v\d+|[0-9a-f]{40})$", str(s["uses"])):
            out.append(f"runs/steps/{i}: uses {s['uses']!r} is not pinned to a release (@vN) or a commit")
    return out


def step(doc, sid):
    return next(s for s in doc["runs"]["steps"] if s.get("id") == sid)


def mutations(doc):
    """Broken copies of action.yml, one fault each: (what is wrong, the copy)."""
    def m(what, change, expect):
        d = copy.deepcopy(doc)
        change(d)
        return what, d, expect

    first = next(iter(doc["inputs"]))
    return [
        m("an input without a description", lambda d: d["inputs"][first].pop("description"),
          "'description' is a required property"),
        m("a boolean default (the schema wants a string)", lambda d: d["inputs"][first].update(default=True),
          "is not of type 'string'"),
        m("a run: step without shell:", lambda d: step(d, "scan").pop("shell"), "schema: runs"),
        m("an unknown key in a step", lambda d: step(d, "scan").update({"timeout": 5}), "schema: runs"),
        m("runs.using node12 with steps", lambda d: d["runs"].update(using="node12"), "schema: "),
        m("a reference to an undeclared input",
          lambda d: step(d, "scan")["env"].update(HG_EXTRA="${{ inputs.no-such-input }}"),
          "inputs.no-such-input is not a declared input"),
        m("an undeclared input in an if: (no ${{ }})",
          lambda d: step(d, "result").update({"if": "inputs.nope == 'x'"}), "inputs.nope is not a declared input"),
        m("a declared input nothing uses",
          lambda d: d["inputs"].update({"unused": {"description": "x", "default": ""}}),
          "input unused is declared but never used"),
        m("an output naming a step that does not exist",
          lambda d: d["outputs"]["sarif"].update(value="${{ steps.nosuch.outputs.sarif }}"),
          "steps.nosuch: no step has that id"),
        m("an output with no step reference", lambda d: d["outputs"]["sarif"].update(value="sarif"),
          "outputs/sarif: its value names no step's output"),
        m("a step output its script never sets",
          lambda d: step(d, "result")["env"].update(HG_EXIT_CODE="${{ steps.scan.outputs.exitcode }}"),
          "step scan does not set output exitcode"),
        m("a step reading the output of a later step",
          lambda d: step(d, "install")["env"].update(HG_X="${{ steps.scan.outputs.sarif }}"),
          "steps.scan does not run before this step"),
        m("an input spliced into run: (script injection)",
          lambda d: step(d, "scan").update(run='bash "$GITHUB_ACTION_PATH/.ci/action/run.sh" ${{ inputs.paths }}'),
          "run: holds a ${{ }} expression"),
        m("a run: script that does not exist",
          lambda d: step(d, "scan").update(run='bash "$GITHUB_ACTION_PATH/.ci/action/no-such.sh"'),
          ".ci/action/no-such.sh does not exist"),
        m("an unpinned uses:", lambda d: step(d, "cache").update(uses="actions/cache@main"),
          "is not pinned to a release"),
        m("two steps with one id", lambda d: step(d, "result").update(id="scan"), "step id 'scan' is used twice"),
    ]


def main():
    src = os.path.abspath(sys.argv[1])
    with open(os.path.join(HERE, "github-action.schema.json")) as f:
        schema = json.load(f)
    validator = jsonschema.Draft7Validator(schema)
    with open(os.path.join(src, "action.yml")) as f:
        doc = yaml.safe_load(f)
    failures = 0
    found = problems(doc, src, validator)
    for p in found:
        print(f"FAIL action.yml: {p}")
    failures += len(found)
    if not found:
        print(f"ok   action.yml: valid against SchemaStore's github-action.json; {len(doc['inputs'])} inputs, "
              f"{len(doc['outputs'])} outputs and {len(doc['runs']['steps'])} steps refer to each other consistently")
    try:
        broken = mutations(doc)
    except (KeyError, StopIteration, IndexError, TypeError) as e:
        print(f"FAIL the broken copies cannot be made from this action.yml ({e!r}): update mutations()")
        return 1
    for what, d, expect in broken:
        got = [p for p in problems(d, src, validator) if expect in p]
        if got:
            print(f"ok   refused: {what} ({got[0][:160]})")
        else:
            print(f"FAIL not refused: {what} (no problem saying {expect!r})")
            failures += 1
    print(f"action.yml: {len(broken)} broken copies tried, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
