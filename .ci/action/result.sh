#!/usr/bin/env bash
# Step "result" of action.yml, after the SARIF upload: the job fails when hardguard's exit status
# (HG_EXIT_CODE, step "scan"'s output exit-code) is not 0, with that status.
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

code=${HG_EXIT_CODE:-}
[[ $code =~ ^[0-9]+$ ]] || hg_die "hardguard did not run (no exit status)"
case $code in
  0) hg_note "passed" ;;
  1) echo "hardguard: a site fails (exit 1); its findings are above (annotations with format sarif or github)" ;;
  *) echo "hardguard: could not check (exit $code); the log above says why" ;;
esac
exit "$code"
