#!/usr/bin/env bash
# The pre-commit hook with the real pre-commit (Debian's package), in throwaway git repositories:
# the .pre-commit-config.yaml is the documentation's example (each one: every documentation file
# holding a marker `<!-- tests/precommit/test_hook.sh runs this configuration -->` is tested on its
# own, with its `... too: local` variant when it has one), its `repo:` pointed at a local git repository
# holding this tree's .pre-commit-hooks.yaml at the commit the example's `rev:` pins (or tagged
# with its tag; then also pinned by a commit SHA, and by the release tag when it pins a commit); the freshly built hardguard is first on PATH. A commit adding an unhardened containers.run is refused with the
# finding shown; staged content is what counts; excluded and unstaged files are not judged; after
# the fix the commit goes through and the hook says nothing.
#
# usage: test_hook.sh HARDGUARD SOURCE_DIR [DOC...]
#   DOC defaults to the documentation files: README.md, docs/*.md and tests/fuzz/README.md.
set -euo pipefail
hg=$(realpath "$1") src=$(realpath "$2")
main_marker='^<!-- tests/precommit/test_hook.sh runs this configuration -->'
local_marker='^<!-- tests/precommit/test_hook.sh runs this configuration too: local -->'

# Without HG_HOOK_DOC: run the whole test once per documentation file that shows a configuration.
if [ -z "${HG_HOOK_DOC:-}" ]; then
  if [ $# -gt 2 ]; then docs=("${@:3}"); else
    docs=("$src/README.md" "$src"/docs/*.md)
    [ -f "$src/tests/fuzz/README.md" ] && docs+=("$src/tests/fuzz/README.md")
  fi
  status=0 configs=0 tested=()
  for doc in "${docs[@]}"; do
    mains=$(grep -c "$main_marker" "$doc" || true) locals=$(grep -c "$local_marker" "$doc" || true)
    [ "$mains" -gt 0 ] || [ "$locals" -gt 0 ] || continue
    rel=${doc#"$src"/}
    # One configuration of each sort per file: the test reads the first after each marker.
    [ "$mains" -le 1 ] && [ "$locals" -le 1 ] || { echo "FAIL: $rel shows more than one configuration of a sort"; status=1; }
    [ "$mains" -ge 1 ] || { echo "FAIL: $rel shows a local configuration without the hook repository's"; status=1; continue; }
    echo "=== $rel"
    HG_HOOK_DOC=$doc bash "$0" "$hg" "$src" || status=1
    configs=$((configs + mains + locals))
    tested+=("$rel")
  done
  [ $configs -gt 0 ] || { echo "FAIL: no documentation file shows a configuration marked for this script"; exit 1; }
  echo "pre-commit hook: $configs configurations tested (${tested[*]})"
  exit $status
fi
readme=$(realpath "$HG_HOOK_DOC")
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (apt-get install pre-commit)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home PRE_COMMIT_HOME=$tmp/cache GIT_CONFIG_GLOBAL=$tmp/gitconfig GIT_CONFIG_NOSYSTEM=1 \
  GIT_AUTHOR_NAME=test GIT_AUTHOR_EMAIL=test@example.com GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
mkdir -p "$HOME" "$tmp/bin"
git config --global init.defaultBranch main
ln -s "$hg" "$tmp/bin/hardguard"
export PATH=$tmp/bin:$PATH
fail() { echo "FAIL: $*"; [ -f "$tmp/out" ] && sed 's/^/  | /' "$tmp/out"; exit 1; }
steps=0
step() { steps=$((steps + 1)); echo "== $*"; }

# The documentation's .pre-commit-config.yaml: the first yaml block after the marker naming this script.
config=$(awk -v m="$main_marker" '$0 ~ m {on=1} on && /^```yaml/ {b=1; next} b && /^```/ {exit} b {print}' "$readme")
[ -n "$config" ] || fail "no yaml block after the marker naming tests/precommit/test_hook.sh in $readme"
rev=$(sed -n 's/^ *rev: *\([^ #]*\).*/\1/p' <<<"$config")
[ -n "$rev" ] || fail "the documentation's pre-commit config has no rev:"

# The hook repository, as users reference it.
git init -q "$tmp/hook-repo"
cp "$src/.pre-commit-hooks.yaml" "$tmp/hook-repo/"
git -C "$tmp/hook-repo" add .pre-commit-hooks.yaml
git -C "$tmp/hook-repo" commit -qm "hardguard hook"
# The example pins a commit (40 hex digits: this repository has no release tag yet) or a tag: the
# hook repository's commit stands for the one pinned, or is tagged with the example's tag.
if [[ $rev =~ ^[0-9a-f]{40}$ ]]; then
  pinned=commit
  config=$(sed "s|^\( *rev: *\)$rev|\1$(git -C "$tmp/hook-repo" rev-parse HEAD)|" <<<"$config")
else
  pinned=tag
  git -C "$tmp/hook-repo" tag "$rev"
fi
pre-commit validate-manifest "$tmp/hook-repo/.pre-commit-hooks.yaml" >/dev/null || fail "invalid .pre-commit-hooks.yaml"

# The project that uses it.
proj=$tmp/project
git init -q "$proj"
cd "$proj"
sed "s|^\( *- *repo: *\).*|\1$tmp/hook-repo|" <<<"$config" >.pre-commit-config.yaml
pre-commit validate-config .pre-commit-config.yaml >/dev/null || fail "invalid .pre-commit-config.yaml from $readme"
mkdir -p app sandbox tests
cat >.hardguard.yml <<'YML'
builders:
  - module: sandbox.container_hardening
    callables: [hardening_kwargs]
exclude: ["tests/**"]
YML
cat >sandbox/container_hardening.py <<'PY'
def hardening_kwargs():
    return {"security_opt": ["no-new-privileges"], "cap_drop": ["ALL"], "network_mode": "none",
            "read_only": True, "mem_limit": "512m", "nano_cpus": 10**9, "pids_limit": 64}
PY
git add -A
git commit -qm "project"
pre-commit install >/dev/null

step "a commit adding an unhardened containers.run is refused, with the finding shown"
cat >app/runner.py <<'PY'
import docker
from sandbox.container_hardening import hardening_kwargs


def run(image):
    return docker.from_env().containers.run(image, "make test")
PY
printf 'import docker\ndocker.from_env().containers.run("alpine")\n' >tests/test_fixture.py  # excluded
printf 'import docker\ndocker.from_env().containers.run("alpine")\n' >scratch.py  # never staged
git add app/runner.py tests/test_fixture.py
if git commit -m "add runner" >"$tmp/out" 2>&1; then fail "the commit went through"; fi
grep -q 'hardguard (container hardening)\.*Failed' "$tmp/out" || fail "the hook did not fail"
grep -q '^app/runner.py:6:12: error\[builder-not-applied\]' "$tmp/out" || fail "the finding is not shown"
grep -q '= fix: apply `\*\*hardening_kwargs()`' "$tmp/out" || fail "the fix is not shown"
grep -q 'test_fixture.py\|scratch.py' "$tmp/out" && fail "an excluded or unstaged file was judged"
grep -q '^hardguard: ' "$tmp/out" && fail "the hook printed a summary line (it runs with --quiet)"
[ "$(git rev-list --count HEAD)" = 1 ] || fail "a commit was made"

step "what counts is the staged content, not the work tree"
sed -i 's/"make test")/"make test", **hardening_kwargs())/' app/runner.py
if git commit -m "add runner" >"$tmp/out" 2>&1; then fail "the commit went through with the fix unstaged"; fi
grep -q '^app/runner.py:6:12: error\[builder-not-applied\]' "$tmp/out" || fail "the staged finding is not shown"

step "after the fix the commit goes through, and the hook is silent"
git add app/runner.py
git commit -m "add runner" >"$tmp/out" 2>&1 || fail "the fixed commit was refused"
grep -q 'hardguard (container hardening)\.*Passed' "$tmp/out" || fail "the hook did not run"
[ "$(git rev-list --count HEAD)" = 2 ] || fail "no commit was made"
pre-commit run hardguard --verbose --files app/runner.py >"$tmp/out" 2>&1 || fail "the hook failed on a clean file"
# Nothing but pre-commit's own lines: the hook's output is empty.
grep -v '^hardguard (container hardening)\.*Passed$\|^- hook id: hardguard$\|^- duration: \|^$' "$tmp/out" &&
  fail "the hook printed something for clean files"

step "a staged shell script, Makefile and workflow are judged; other YAML is not"
mkdir -p scripts .github/workflows
printf '#!/bin/sh\ndocker run --rm alpine true\n' >scripts/smoke.sh
printf 'smoke:\n\tdocker run --privileged alpine true\n' >Makefile
printf 'on: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - run: docker run alpine true\n' >.github/workflows/ci.yml
printf 'note: docker run --privileged alpine\n' >notes.yml
git add scripts/smoke.sh Makefile .github/workflows/ci.yml notes.yml
if git commit -m scripts >"$tmp/out" 2>&1; then fail "unhardened shell, make and CI sites went through"; fi
grep -q '^scripts/smoke.sh:2:1: error\[unhardened-site\]' "$tmp/out" || fail "the shell script's finding is not shown"
grep -q '^Makefile:2:2: error\[weakening-option\]' "$tmp/out" || fail "the Makefile's finding is not shown"
grep -q '^.github/workflows/ci.yml:6:14: error\[unhardened-site\]' "$tmp/out" || fail "the workflow's finding is not shown"
grep -q 'notes.yml' "$tmp/out" && fail "a YAML file no surface reads was judged"
git rm -q --cached scripts/smoke.sh Makefile .github/workflows/ci.yml notes.yml
rm -rf scripts Makefile .github notes.yml

step "a commit without files hardguard reads skips the hook"
echo "docs" >README.txt
git add README.txt
git commit -m docs >"$tmp/out" 2>&1 || fail "a commit without files hardguard reads was refused"
grep -q 'hardguard (container hardening)\.*(no files to check)Skipped' "$tmp/out" || fail "the hook was not skipped"

step "the files' own .hardguard.yml applies when the hook runs from the repository root"
mkdir -p svc
cat >svc/worker.py <<'PY'
import docker
from sandbox.container_hardening import hardening_kwargs

docker.from_env().containers.create("alpine", **hardening_kwargs())
PY
git add svc/worker.py
git commit -m worker >"$tmp/out" 2>&1 || fail "a site applying the configured builder was refused"
# The other pin of docs/usage.md's "Which rev:": a commit SHA when the example names a tag, the
# release tag (v and CMakeLists.txt's version) when it names a commit.
version=$(sed -n 's/^project(hardguard VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
git -C "$tmp/hook-repo" commit -q --allow-empty -m "after the pin"
if [ $pinned = tag ]; then
  step "a copy of hardguard without the release tag, pinned by its full commit SHA (docs/usage.md: Which rev:)"
  new=$(git -C "$tmp/hook-repo" rev-parse HEAD)
  git -C "$tmp/hook-repo" tag --points-at "$new" | grep -q . && fail "the commit to pin is tagged"
else
  step "a release, pinned by its tag v$version (docs/usage.md: Which rev:)"
  new=v$version
  git -C "$tmp/hook-repo" tag "$new"
fi
sed -i "s|^\( *rev: *\)[^ #]*|\1$new|" .pre-commit-config.yaml
grep -q "rev: $new\b" .pre-commit-config.yaml || fail "rev: was not replaced by $new"
printf 'import docker\ndocker.from_env().containers.run("alpine")\n' >app/pinned.py
if pre-commit run hardguard --files app/pinned.py >"$tmp/out" 2>&1; then fail "the hook pinned by $new passed a bad file"; fi
grep -q '^app/pinned.py:2:1: error\[unhardened-site\]' "$tmp/out" || fail "the hook pinned by $new did not show the finding"
grep -q 'mutable reference' "$tmp/out" && fail "pre-commit takes $new for a mutable reference"
rm app/pinned.py
git checkout -q .pre-commit-config.yaml

if ! grep -q "$local_marker" "$readme"; then
  echo "pre-commit hook: $steps steps passed (${readme#"$src"/} shows no repo: local variant)"
  exit 0
fi
step "the documentation's repo: local variant refuses the same bad file"
local_config=$(awk -v m="$local_marker" '$0 ~ m {on=1} on && /^```yaml/ {b=1; next} b && /^```/ {exit} b {print}' "$readme")
[ -n "$local_config" ] || fail "no yaml block after the marker for the local hook in $readme"
printf '%s\n' "$local_config" >.pre-commit-config.yaml
pre-commit validate-config .pre-commit-config.yaml >/dev/null || fail "invalid local .pre-commit-config.yaml from $readme"
git add .pre-commit-config.yaml
git commit -qm "local hook" >/dev/null 2>&1 || fail "committing the local configuration was refused"
printf 'import docker\ndocker.from_env().containers.run("alpine")\n' >app/bad.py
git add app/bad.py
if git commit -m bad >"$tmp/out" 2>&1; then fail "the local hook let an unhardened site through"; fi
grep -q '^app/bad.py:2:1: error\[unhardened-site\]' "$tmp/out" || fail "the local hook did not show the finding"
echo "pre-commit hook: $steps steps passed"
