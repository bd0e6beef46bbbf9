#!/usr/bin/env bash
# Runs a test script under a Python 3 that has the modules the tests use (jsonschema, yaml):
# Debian's /usr/bin/python3 first, where .ci/deps.sh installs python3-jsonschema and python3-yaml,
# then whatever python3 is first on PATH.
for py in /usr/bin/python3 python3; do
  if command -v "$py" >/dev/null 2>&1 && "$py" -c 'import jsonschema, yaml' 2>/dev/null; then
    exec "$py" "$@"
  fi
done
echo "no python3 with the jsonschema and yaml modules: apt-get install python3-jsonschema python3-yaml" >&2
exit 1
