#!/usr/bin/env bash
# Step "scan" of action.yml: runs hardguard and records its exit status (this step itself passes,
# so that the SARIF is uploaded first; step "result" then fails the job with that status).
#
# On a pull request (and in a merge queue) the base commit comes from the event
# ($GITHUB_EVENT_PATH: pull_request.base.sha, merge_group.base_sha); the policy is read from it
# (--config-from), and with diff (default on there) only the files changed since it are judged
# (--diff). The gate is one run whose exit status is the action's:
#   format sarif   the SARIF of the whole tree goes to a file for code scanning (a run of its own,
#                  with --config-from but never --diff: code scanning takes a run that leaves a file
#                  out as the alerts in it being fixed); the gate run writes github annotations;
#   otherwise      the gate run writes that format to the log, and there is no SARIF.
#
# env: HG_BINARY, HG_PATHS (one path a line), HG_FORMAT, HG_DIFF (auto, true, false), HG_STRICT,
#      HG_ARGS (words split on white space, not quotes), HG_WORKING_DIRECTORY, HG_UPLOAD_SARIF,
#      GITHUB_EVENT_NAME, GITHUB_EVENT_PATH, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP
# outputs: exit-code, sarif (the SARIF file's path, empty when there is none), upload (true when
#          there is a SARIF file and upload-sarif is true)
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Should this script stop before hardguard has judged (hg_die), the status is 2: could not check.
recorded=false
trap '[ "$recorded" = true ] || hg_output exit-code 2' EXIT

hg=${HG_BINARY:?HG_BINARY is not set}
format=${HG_FORMAT:-sarif}
strict="" upload="" diff=""
hg_bool strict strict "${HG_STRICT:-false}"
hg_bool upload upload-sarif "${HG_UPLOAD_SARIF:-true}"
case ${HG_DIFF:-auto} in
  auto) diff=auto ;;
  *) hg_bool diff diff "$HG_DIFF" ;;
esac

paths=()
while IFS= read -r line; do
  line=${line#"${line%%[![:space:]]*}"}
  line=${line%"${line##*[![:space:]]}"}
  [ -n "$line" ] && paths+=("$line")
done <<<"${HG_PATHS:-}"
[ ${#paths[@]} -gt 0 ] || paths=(.)
extra=()
read -r -d '' -a extra <<<"${HG_ARGS:-}" || true

cd -- "${HG_WORKING_DIRECTORY:-.}" || hg_die "working-directory '${HG_WORKING_DIRECTORY:-}' is not a directory"

# event_value EXPRESSION: a field of the event's JSON payload (empty when absent).
event_value() {
  [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -r "$GITHUB_EVENT_PATH" ] || return 0
  python3 - "$GITHUB_EVENT_PATH" "$1" <<'PY'
import json, sys
value = json.load(open(sys.argv[1], encoding="utf-8"))
for key in sys.argv[2].split("."):
    value = value.get(key) if isinstance(value, dict) else None
print(value if isinstance(value, str) else "")
PY
}

base=""
case ${GITHUB_EVENT_NAME:-} in
  pull_request | pull_request_target) base=$(event_value pull_request.base.sha) ;;
  merge_group) base=$(event_value merge_group.base_sha) ;;
esac
if [ -n "$base" ]; then
  [[ $base =~ ^[0-9a-f]{40}([0-9a-f]{24})?$ ]] || hg_die "the event's base commit '$base' is not a commit id"
  # A shallow checkout (actions/checkout's default fetch-depth: 1) lacks the base: fetch it.
  if ! git rev-parse --quiet --verify "$base^{commit}" >/dev/null 2>&1; then
    hg_note "fetching the base commit $base"
    depth=()
    if [ "$(git rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then depth=(--depth=1); fi
    git fetch --quiet --no-tags "${depth[@]}" origin "$base" ||
      hg_die "the base commit $base is not in the checkout and could not be fetched: check out with fetch-depth: 0"
  fi
elif [ "${GITHUB_EVENT_NAME:-}" = pull_request ] || [ "${GITHUB_EVENT_NAME:-}" = pull_request_target ]; then
  hg_die "a ${GITHUB_EVENT_NAME} event without pull_request.base.sha in $GITHUB_EVENT_PATH"
fi
if [ "$diff" = auto ]; then
  if [ -n "$base" ]; then diff=true; else diff=false; fi
elif [ "$diff" = true ] && [ -z "$base" ]; then
  hg_die "diff: true needs a base commit, which only pull_request and merge_group events have (this is ${GITHUB_EVENT_NAME:-no event})"
fi

common=()
[ -n "$base" ] && common+=(--config-from "$base")
[ "$strict" = true ] && common+=(--strict)
gate=("${common[@]}")
[ "$diff" = true ] && gate+=(--diff "$base")

# hardguard ARGS...: runs it (the command line shown first, on stderr), its status in $status.
status=0
hardguard() {
  {
    printf '+ hardguard'
    printf ' %q' "$@"
    printf '\n'
  } >&2
  set +e
  "$hg" "$@"
  status=$?
  set -e
}

sarif=""
if [ "$format" = sarif ]; then
  sarif=$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/hardguard-XXXXXX.sarif")
  hardguard --format sarif "${common[@]}" "${extra[@]}" -- "${paths[@]}" >"$sarif"
  sarif_status=$status
  if [ ! -s "$sarif" ]; then
    hg_warn "hardguard wrote no SARIF (exit $sarif_status): nothing to upload"
    sarif=""
  elif [ "$sarif_status" -ge 2 ]; then
    hg_warn "the SARIF run could not check everything (exit $sarif_status): its toolExecutionNotifications say what"
  fi
  gate_format=github
else
  gate_format=$format
fi
hardguard --format "$gate_format" "${gate[@]}" "${extra[@]}" -- "${paths[@]}"

hg_output exit-code "$status"
recorded=true
hg_output sarif "$sarif"
[ -n "$sarif" ] || upload=false
hg_output upload "$upload"

case $status in
  0) verdict="clean" ;;
  1) verdict="a site fails" ;;
  *) verdict="could not check" ;;
esac
if [ "$diff" = true ]; then
  judged="the files changed since \`$base\`, by the policy of that commit"
elif [ -n "$base" ]; then
  judged="the whole tree, by the policy of \`$base\`"
else
  judged="the whole tree, by its own policy"
fi
hg_note "exit $status ($verdict): $judged"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### hardguard: $verdict (exit $status)"
    echo
    echo "Judged: $judged."
    if [ "$upload" = true ]; then echo "The SARIF of the whole tree is uploaded to code scanning."; fi
  } >>"$GITHUB_STEP_SUMMARY"
fi
