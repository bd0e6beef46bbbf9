#!/usr/bin/env bash
# The hex SHA-512 CMake checks and the npm integrity string recorded beside it are one digest.
set -u
file=$1
hex=$(sed -n 's/.*HG_GRAMMAR_[A-Z]*_SHA512 *"\([0-9a-f]*\)".*/\1/p' "$file")
integrity=$(sed -n 's/.*HG_GRAMMAR_[A-Z]*_INTEGRITY *"sha512-\([^"]*\)".*/\1/p' "$file")
[ ${#hex} = 128 ] || { echo "no 128-digit SHA512 in $file"; exit 1; }
got=$(printf "$(printf %s "$hex" | sed "s/../\\\\x&/g")" | base64 -w0)
[ "$got" = "$integrity" ] || { echo "SHA512 $hex is sha512-$got, but the integrity recorded is sha512-$integrity"; exit 1; }
# docs/install.md names the pin (package@version) and its offline tarball option
# (-DHG_GRAMMAR_TARBALL_<NAME>), so that a build without the registry knows every tarball it needs.
docs=$(dirname "$file")/../docs/install.md
name=$(basename "$file" .cmake)
name=${name#tree-sitter-}
NAME=$(tr '[:lower:]' '[:upper:]' <<<"$name")
pkg=$(sed -n 's/.*HG_GRAMMAR_[A-Z]*_PACKAGE *"\([^"]*\)".*/\1/p' "$file")
ver=$(sed -n 's/.*HG_GRAMMAR_[A-Z]*_VERSION *"\([^"]*\)".*/\1/p' "$file")
grep -qF "$pkg@$ver" "$docs" || { echo "docs/install.md does not name $pkg@$ver"; exit 1; }
grep -qF -- "-DHG_GRAMMAR_TARBALL_$NAME=" "$docs" || { echo "docs/install.md does not name -DHG_GRAMMAR_TARBALL_$NAME"; exit 1; }
