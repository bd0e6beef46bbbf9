"""A wildcard parent in the Python rules stands for exactly one node type.

The rules write `(_ object: ... attribute: ...)` for an attribute and `(_ function: ...)` for a
call wherever such a node is not a pattern's root: libtree-sitter 0.20.7 analyses every parent
step of a concrete type when it compiles a query (~10 M instructions each for `call` and
`attribute`) and skips wildcard ones. That is the same pattern only while no other node type of
the pinned grammar has the wildcard's first field; this test reads the grammar's node-types.json
and fails the day one does. A run over a few small files also compiles the Python surface's
`wildcards` (surface.c: "type field:" pairs) as wildcards: each field must stay its type's alone
(this test reads the pairs from surface.c).

    check_wildcard_fields.py RULES_DIR GRAMMAR_DIR     (BUILD/_grammar/python: the fetched tarball)
"""
import collections
import json
import pathlib
import re
import sys
import tarfile

rules = pathlib.Path(sys.argv[1])
tarballs = sorted(pathlib.Path(sys.argv[2]).glob("*.tgz"))
if len(tarballs) != 1:
    sys.exit(f"expected one grammar tarball in {sys.argv[2]}, found {len(tarballs)}")
tarball = tarballs[0]
with tarfile.open(tarball) as tar:
    member = next(m for m in tar.getmembers() if m.name.endswith("src/node-types.json"))
    types = json.load(tar.extractfile(member))
owners = collections.defaultdict(set)
for t in types:
    for field in t.get("fields") or {}:
        owners[field].add(t["type"])

failures, seen = [], 0
for path in sorted((rules / "python").rglob("*.scm")):
    text = "\n".join(line.split(";;")[0] for line in path.read_text().splitlines())
    for m in re.finditer(r"\(_\s+([a-z_]+):", text):
        seen += 1
        field = m.group(1)
        if len(owners.get(field, ())) != 1:
            line = text.count("\n", 0, m.start()) + 1
            failures.append(f"{path}:{line}: (_ {field}: ...) may be any of {sorted(owners.get(field, ()))}")
if not seen:
    failures.append("no wildcard parent with a field in the rules: this test checks nothing")
# The Python surface's row: whichever file under src/surfaces/ defines PYTHON_WILDCARDS.
src_root = pathlib.Path(__file__).resolve().parent.parent / "src" / "surfaces"
surface_c = next((f for f in sorted(src_root.rglob("*.c")) if "PYTHON_WILDCARDS[]" in f.read_text()),
                 src_root / "surface.c")
table = re.search(r"PYTHON_WILDCARDS\[\] = \{([^}]*)\}", surface_c.read_text())
pairs = re.findall(r'"([a-z_]+) ([a-z_]+):"', table.group(1)) if table else []
if not pairs:
    failures.append(f"{surface_c}: no PYTHON_WILDCARDS read: this test checks nothing of them")
for node, field in pairs:
    if owners.get(field) != {node}:
        failures.append(f"surface.c lets ({node} {field}: ...) compile as (_ {field}: ...), but {field} belongs to "
                        f"{sorted(owners.get(field, ()))}")
for f in failures:
    print(f)
sys.exit(1 if failures else 0)
