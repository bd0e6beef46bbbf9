"""The documentation against the program it describes: README.md, every docs/*.md and
tests/fuzz/README.md (the documentation files, DOCS below).

usage: check_readme.py CHECK HARDGUARD SOURCE_DIR

CHECK is one of:

  examples   Every code block marked `<!-- readme-test: COMMAND -->` (on the line before it, blank
             lines allowed in between) in any of DOCS is the output of COMMAND: bash runs it in
             SOURCE_DIR with the built hardguard first on PATH, and its stdout must match the
             block. `(exit N)` at the end of the marker is the exit status COMMAND must have
             (default 0). In the block, a line that is only `...` stands for any number of lines,
             and `...` within a line for any text on that line; the program's version is written as
             the version in CMakeLists.txt. Unmarked blocks are not checked.
  options    One set of options in three places: the options table of docs/usage.md (its rows
             starting "| `-"), the entries under OPTIONS in the man page (docs/hardguard.1) and
             the "options:" section of `hardguard --help`.
  kinds      The JSON contract's comment on "kind" (in the file of DOCS with a "JSON output"
             heading) names every site kind `hardguard --list-rules` lists, plus `unknown` and
             `marker`, and no other.
  version    The version in CMakeLists.txt's project() is what `hardguard --version` prints, and
             every version of hardguard DOCS name (a release tag `vX.Y.Z` as in `rev:` and
             `--branch`, `hardguard X.Y.Z`, the package `hardguard_X.Y.Z_<arch>.deb`, JSON's
             `"version": "X.Y.Z"`) is that version.
  pins       Every place a snippet of DOCS (in a code block) pins hardguard — pre-commit's `rev:`,
             a workflow's `uses: hardguard/hardguard@REF`, a clone's `--branch REF` or
             `git ... checkout REF` — pins a release tag `vX.Y.Z` of this version that exists or a full
             40-hex commit that is one of this repository's, an ancestor of HEAD, holding what the
             snippet uses (.pre-commit-hooks.yaml, action.yml, CMakeLists.txt) (a shallow clone
             cannot tell: then only the form is checked, and said). The snippets themselves are
             run by tests/precommit/test_hook.sh, tests/readme/check_ci_examples.py and
             tests/action/ as they pin.
"""

import difflib
import glob
import os
import re
import subprocess
import sys
import tempfile

MARKER = re.compile(r"^<!--\s*readme-test:\s*(.*?)\s*-->\s*$")
FAILURES = []


def fail(what):
    print("FAIL " + what)
    FAILURES.append(what)


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


def cmake_version(src):
    with open(os.path.join(src, "CMakeLists.txt")) as f:
        m = re.search(r"project\(\s*hardguard\s+VERSION\s+([0-9][0-9.]*)", f.read())
    if not m:
        raise SystemExit("CMakeLists.txt: no project(hardguard VERSION ...)")
    return m.group(1)


def doc_files(src):
    """The documentation files, relative to src: README.md, docs/*.md, tests/fuzz/README.md."""
    docs = ["README.md"] + sorted(os.path.relpath(p, src) for p in glob.glob(os.path.join(src, "docs", "*.md")))
    if os.path.exists(os.path.join(src, "tests", "fuzz", "README.md")):
        docs.append(os.path.join("tests", "fuzz", "README.md"))
    return docs


def read_lines(src, doc):
    with open(os.path.join(src, doc)) as f:
        return f.read().splitlines()


def help_options(hg):
    """The option words of --help's "options:" section."""
    lines = run([hg, "--help"]).stdout.splitlines()
    start = lines.index("options:") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return {m.group(1) for line in lines[start:end] for m in re.finditer(r"(?:^|[ ,/])(--?[A-Za-z][-A-Za-z]*)", line)}


def code_block(lines, i):
    """The code block starting at or after line i (blank lines skipped): its text and its end."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i < len(lines) and lines[i].startswith("```"):
        end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
        return lines[i + 1:end], end + 1
    block = []
    while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
        block.append(lines[i][4:])
        i += 1
    if not block:
        return None, i
    while block and not block[-1].strip():
        block.pop()
    return block, i


def pattern(block):
    """A regex for the output a block shows: `...` alone on a line is any lines, within one any text."""
    parts = []
    for line in block:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(r"[^\n]*?".join(re.escape(p) for p in line.rstrip().split("...")) + r"\n")
    return re.compile("".join(parts))


def examples(hg, src, version):
    binary_version = run([hg, "--version"]).stdout.split()[-1]
    counts = {}
    with tempfile.TemporaryDirectory(prefix="hg-readme-") as tmp:
        os.symlink(hg, os.path.join(tmp, "hardguard"))
        env = {**os.environ, "PATH": tmp + os.pathsep + os.environ["PATH"], "NO_COLOR": "1"}
        for doc in doc_files(src):
            lines = read_lines(src, doc)
            for i, line in enumerate(lines):
                m = MARKER.match(line)
                if not m:
                    continue
                counts[doc] = counts.get(doc, 0) + 1
                command, want_exit = m.group(1), 0
                e = re.search(r"\s*\(exit (\d+)\)$", command)
                if e:
                    command, want_exit = command[:e.start()], int(e.group(1))
                block, _ = code_block(lines, i + 1)
                where = f"{doc}:{i + 1}: {command}"
                if block is None:
                    fail(f"{where}: no code block after the marker")
                    continue
                r = run(["bash", "-c", command], cwd=src, env=env)
                # Trailing blanks are not kept by editors; the version is the one the docs state.
                actual = "".join(l.rstrip() + "\n" for l in r.stdout.replace(binary_version, version).splitlines())
                if r.returncode != want_exit:
                    fail(f"{where}: exit status {r.returncode}, the documentation says {want_exit}\n{r.stderr}")
                if not pattern(block).fullmatch(actual):
                    diff = difflib.unified_diff(block, actual.splitlines(), doc, "actual", lineterm="")
                    fail(f"{where}: the output is not what the documentation shows ('...' elides):\n" + "\n".join(diff))
                else:
                    print(f"ok   {where}")
    total = sum(counts.values())
    if total == 0:
        fail("no <!-- readme-test: ... --> marker in " + ", ".join(doc_files(src)))
    print(f"examples: {total} marked blocks in {len(counts)} files ("
          + ", ".join(f"{d} {n}" for d, n in counts.items()) + ")")


def table_options(src, doc):
    """The option words of the first cell of each row of doc's options table ("| `-...` | ... |")."""
    # The first cell of each row: "`--format FORMAT`", "`-j N`, `--jobs N`", "`--color auto\\|always`".
    cells = [re.split(r"(?<!\\)\|", l)[1] for l in read_lines(src, doc) if l.startswith("| `-")]
    return {m.group(1) for c in cells for m in re.finditer(r"(?:^|[\s`,/])(--?[A-Za-z][-A-Za-z]*)", c)}


def man_options(src, page):
    """The option words of the tag line after each .TP under .SH OPTIONS, roff's \\- read as -."""
    words, on, tag = set(), False, False
    for l in read_lines(src, page):
        if l.startswith(".SH "):
            on = l.split()[1] == "OPTIONS"
            continue
        if on and tag:
            tag = False
            text = re.sub(r"\\f[BIRP]", "", l.replace("\\-", "-"))
            words |= {m.group(1) for m in re.finditer(r'(?:^|[ ,"])(--?[A-Za-z][-A-Za-z]*)', text)}
        elif on and l.startswith(".TP"):
            tag = True
    return words


def options(hg, src):
    places = {"hardguard --help": help_options(hg),
              "the options table of docs/usage.md": table_options(src, os.path.join("docs", "usage.md")),
              "OPTIONS of the man page docs/hardguard.1": man_options(src, os.path.join("docs", "hardguard.1"))}
    every = set().union(*places.values())
    for where, found in places.items():
        if not found:
            fail(f"no options found in {where}")
        for o in sorted(every - found):
            others = [w for w, f in places.items() if o in f]
            fail(f"{o} is in {' and '.join(others)} but not in {where}")
    if not FAILURES:
        print(f"ok   --help, docs/usage.md's table and the man page name the same {len(every)} options")


def kinds(hg, src):
    doc = next((d for d in doc_files(src) if any(re.match(r"^#+ JSON output", l) for l in read_lines(src, d))), None)
    if doc is None:
        fail("no documentation file has a JSON output heading")
        return
    lines = read_lines(src, doc)
    start = next(i for i, l in enumerate(lines) if re.match(r"^#+ JSON output", l))
    i = next(j for j in range(start, len(lines)) if '"kind":' in lines[j])
    comment = [lines[i].split("//", 1)[1]]
    # The comment goes on while the next lines are comments alone.
    for l in lines[i + 1:]:
        if not l.strip().startswith("//"):
            break
        comment.append(l.split("//", 1)[1])
    documented = {seg.split()[0] for seg in " ".join(comment).split("|") if seg.split()}
    out = run([hg, "--list-rules"]).stdout.splitlines()
    k = out.index("site kinds:") + 1
    known = set()
    while k < len(out) and out[k].startswith("  "):
        known.add(out[k].strip())
        k += 1
    known |= {"unknown", "marker"}
    for kind in sorted(known - documented):
        fail(f"{doc}:{i + 1}: the JSON contract's kinds omit {kind} (hardguard --list-rules lists it)")
    for kind in sorted(documented - known):
        fail(f"{doc}:{i + 1}: the JSON contract lists kind {kind}, which hardguard does not have")
    if not FAILURES:
        print(f"ok   the JSON contract ({doc}) names the {len(known)} kinds")


def version(hg, src, want):
    got = run([hg, "--version"]).stdout.strip()
    if got != f"hardguard {want}":
        fail(f"hardguard --version prints {got!r}, CMakeLists.txt says {want}")
    named = release_pins = 0
    per_doc = {}
    for doc in doc_files(src):
        for n, line in enumerate(read_lines(src, doc), 1):
            for m in re.finditer(r"\bv(\d+\.\d+\.\d+)\b|\bhardguard[ _](\d+\.\d+\.\d+)|\"version\": \"(\d+\.\d+\.\d+)\"", line):
                named += 1
                per_doc[doc] = per_doc.get(doc, 0) + 1
                release_pins += bool(re.search(r"(?:\brev:\s*|--branch\s+)v", line))
                if (m.group(1) or m.group(2) or m.group(3)) != want:
                    fail(f"{doc}:{n}: names {m.group(0)}, but this is hardguard {want} (release tag v{want})")
    if not FAILURES:
        print(f"ok   the documentation names hardguard {want} {named} times ({release_pins} release pins; "
              + ", ".join(f"{d} {n}" for d, n in per_doc.items())
              + "), as CMakeLists.txt and --version do")


PIN = re.compile(r"(^\s*rev:\s*|hardguard/hardguard@|--branch\s+|\bcheckout\s+(?:-q\s+)?)([^\s#]+)")


def needs(how):
    """The file a pinned commit must hold for the snippet to work: pre-commit reads the hook
    manifest, a workflow's uses: the action, a clone builds the sources."""
    if how.lstrip().startswith("rev:"):
        return ".pre-commit-hooks.yaml"
    return "action.yml" if how.endswith("@") else "CMakeLists.txt"


def code_lines(lines):
    """The lines of DOCS' code blocks (fenced, or indented by four spaces after a blank line)."""
    fenced = False
    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced or line.startswith("    "):
            yield n, line


def pins(src, want):
    git = lambda *a: run(["git", "-C", src, *a])
    shallow = git("rev-parse", "--is-shallow-repository").stdout.strip()
    if shallow not in ("true", "false"):
        fail(f"{src} is not a git repository: the pinned commits cannot be checked")
        return
    n_commits = n_tags = 0
    for doc in doc_files(src):
        for n, line in code_lines(read_lines(src, doc)):
            if "hardguard" not in line and "rev:" not in line:
                continue
            for m in PIN.finditer(line):
                ref = m.group(2).strip("\"'")
                if re.fullmatch(r"v\d+\.\d+\.\d+", ref):
                    n_tags += 1
                    if ref != f"v{want}":
                        fail(f"{doc}:{n}: pins {ref}, but this is hardguard {want} (release tag v{want})")
                    elif git("rev-parse", "-q", "--verify", f"refs/tags/{ref}^{{commit}}").returncode != 0:
                        fail(f"{doc}:{n}: pins the tag {ref}, which this repository does not have: the snippet "
                             "cannot run (pin a commit until the release is tagged)")
                elif re.fullmatch(r"[0-9a-f]{40}", ref):
                    n_commits += 1
                    if shallow == "true":
                        continue
                    if git("cat-file", "-e", ref + "^{commit}").returncode != 0:
                        fail(f"{doc}:{n}: pins commit {ref}, which this repository does not have")
                    elif git("merge-base", "--is-ancestor", ref, "HEAD").returncode != 0:
                        fail(f"{doc}:{n}: pins commit {ref}, which is not an ancestor of HEAD")
                    elif git("cat-file", "-e", f"{ref}:{needs(m.group(1))}").returncode != 0:
                        fail(f"{doc}:{n}: pins commit {ref}, which has no {needs(m.group(1))}: the snippet cannot work")
                else:
                    fail(f"{doc}:{n}: pins hardguard by {ref!r}: neither a release tag v{want} nor a 40-hex commit "
                         "(a branch is no pin; there is no release tag yet)")
    if n_commits + n_tags == 0:
        fail("the documentation's snippets pin no hardguard (rev:, uses: hardguard/hardguard@, --branch, checkout)")
    if not FAILURES:
        print(f"ok   the documentation's snippets pin hardguard {n_commits} times by a commit of this repository"
              + (" (a shallow clone: their form only)" if shallow == "true" else "")
              + f" and {n_tags} times by the release tag v{want}")


def main():
    check, hg, src = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    want = cmake_version(src)
    if check == "examples":
        examples(hg, src, want)
    elif check == "options":
        options(hg, src)
    elif check == "kinds":
        kinds(hg, src)
    elif check == "version":
        version(hg, src, want)
    elif check == "pins":
        pins(src, want)
    else:
        raise SystemExit(__doc__)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
