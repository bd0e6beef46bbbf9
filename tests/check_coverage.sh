#!/usr/bin/env bash
# Every site kind of every surface has a passing and a failing fixture (ast-grep's valid/invalid
# pair): fixtures/<surface>/<kind>/.
set -u
root=$1 status=0
for scm in "$root"/rules/*/*.scm; do
  surface=$(basename "$(dirname "$scm")") kind=$(basename "$scm" .scm)
  group=$surface/$kind
  for verdict in pass fail; do
    if ! compgen -G "$root/fixtures/$group/$verdict-*" >/dev/null; then
      echo "rules/$surface/$kind.scm has no fixtures/$group/$verdict-* case"; status=1
    fi
  done
done
exit $status
