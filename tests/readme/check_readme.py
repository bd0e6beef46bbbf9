"""The README against the program it describes.

usage: check_readme.py CHECK HARDGUARD SOURCE_DIR

CHECK is one of:

  examples   Every code block marked `<!-- readme-test: COMMAND -->` (on the line before it, blank
             lines allowed in between) is the output of COMMAND: bash runs it in SOURCE_DIR with
             the built hardguard first on PATH, and its stdout must match the block. `(exit N)` at
             the end of the marker is the exit status COMMAND must have (default 0). In the block,
             a line that is only `...` stands for any number of lines, and `...` within a line for
             any text on that line; the program's version is written as the version in
             CMakeLists.txt. Unmarked blocks are not checked.
  options    The options table under "## Usage" names every option `hardguard --help` lists, and no
             other.
  kinds      The JSON contract's comment on "kind" names every site kind `hardguard --list-rules`
             lists, plus `unknown` and `marker`, and no other.
  version    The version in CMakeLists.txt's project() is what `hardguard --version` prints, and
             every version of hardguard the README names (a release tag `vX.Y.Z` as in `rev:` and
             `--branch`, `hardguard X.Y.Z`, the package `hardguard_X.Y.Z_<arch>.deb`, JSON's
             `"version": "X.Y.Z"`) is that version.
"""

import difflib
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
    lines = open(os.path.join(src, "README.md")).read().splitlines()
    binary_version = run([hg, "--version"]).stdout.split()[-1]
    n = 0
    with tempfile.TemporaryDirectory(prefix="hg-readme-") as tmp:
        os.symlink(hg, os.path.join(tmp, "hardguard"))
        env = {**os.environ, "PATH": tmp + os.pathsep + os.environ["PATH"], "NO_COLOR": "1"}
        for i, line in enumerate(lines):
            m = MARKER.match(line)
            if not m:
                continue
            n += 1
            command, want_exit = m.group(1), 0
            e = re.search(r"\s*\(exit (\d+)\)$", command)
            if e:
                command, want_exit = command[:e.start()], int(e.group(1))
            block, _ = code_block(lines, i + 1)
            where = f"README.md:{i + 1}: {command}"
            if block is None:
                fail(f"{where}: no code block after the marker")
                continue
            r = run(["bash", "-c", command], cwd=src, env=env)
            # Trailing blanks are not kept by editors; the version is the one the README states.
            actual = "".join(l.rstrip() + "\n" for l in r.stdout.replace(binary_version, version).splitlines())
            if r.returncode != want_exit:
                fail(f"{where}: exit status {r.returncode}, the README says {want_exit}\n{r.stderr}")
            if not pattern(block).fullmatch(actual):
                diff = difflib.unified_diff(block, actual.splitlines(), "README.md", "actual", lineterm="")
                fail(f"{where}: the output is not what the README shows ('...' elides):\n" + "\n".join(diff))
            else:
                print(f"ok   {where}")
    if n == 0:
        fail("README.md has no <!-- readme-test: ... --> marker")


def options(hg, src):
    text = open(os.path.join(src, "README.md")).read()
    usage = text[text.index("\n## Usage"):]
    usage = usage[:usage.index("\n## ", 1)]
    # The first cell of each row: "`--format FORMAT`", "`-j N`, `--jobs N`", "`--color auto\\|always`".
    cells = [re.split(r"(?<!\\)\|", l)[1] for l in usage.splitlines() if l.startswith("| `-")]
    documented = {m.group(1) for c in cells for m in re.finditer(r"(?:^|[\s`,/])(--?[A-Za-z][-A-Za-z]*)", c)}
    listed = help_options(hg)
    for o in sorted(listed - documented):
        fail(f"README.md: {o} is in hardguard --help but not in the options table under ## Usage")
    for o in sorted(documented - listed):
        fail(f"README.md: the options table lists {o}, which hardguard --help does not")
    if not FAILURES:
        print(f"ok   the options table lists the {len(listed)} options of --help")


def kinds(hg, src):
    lines = open(os.path.join(src, "README.md")).read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("## JSON output"))
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
        fail(f"README.md:{i + 1}: the JSON contract's kinds omit {kind} (hardguard --list-rules lists it)")
    for kind in sorted(documented - known):
        fail(f"README.md:{i + 1}: the JSON contract lists kind {kind}, which hardguard does not have")
    if not FAILURES:
        print(f"ok   the JSON contract names the {len(known)} kinds")


def version(hg, src, want):
    got = run([hg, "--version"]).stdout.strip()
    if got != f"hardguard {want}":
        fail(f"hardguard --version prints {got!r}, CMakeLists.txt says {want}")
    lines = open(os.path.join(src, "README.md")).read().splitlines()
    named = pins = 0
    for n, line in enumerate(lines, 1):
        for m in re.finditer(r"\bv(\d+\.\d+\.\d+)\b|\bhardguard[ _](\d+\.\d+\.\d+)|\"version\": \"(\d+\.\d+\.\d+)\"", line):
            named += 1
            pins += bool(re.search(r"(?:\brev:\s*|--branch\s+)v", line))
            if (m.group(1) or m.group(2) or m.group(3)) != want:
                fail(f"README.md:{n}: names {m.group(0)}, but this is hardguard {want} (release tag v{want})")
    if pins == 0:
        fail("README.md pins no release (rev: vX.Y.Z, --branch vX.Y.Z)")
    if not FAILURES:
        print(f"ok   the README names hardguard {want} {named} times ({pins} release pins), as CMakeLists.txt and --version do")


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
    else:
        raise SystemExit(__doc__)
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
