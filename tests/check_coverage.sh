#!/usr/bin/env bash
# Every site kind has a passing and a failing fixture (ast-grep's valid/invalid pair).
set -u
root=$1 status=0
for scm in "$root"/rules/python/*.scm; do
  kind=$(basename "$scm" .scm)
  for verdict in pass fail; do
    if ! compgen -G "$root/fixtures/$kind/$verdict-*" >/dev/null; then
      echo "rules/python/$kind.scm has no fixtures/$kind/$verdict-* case"; status=1
    fi
  done
done
exit $status
