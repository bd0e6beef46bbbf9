# Sourced by the corpus scripts: fetch_debs DIR PACKAGE... downloads each package's .deb into
# DIR/debs unless one is there already (apt-get download: no root needed, nothing installed).
fetch_debs() {
  local dir=$1 p
  shift
  mkdir -p "$dir/debs"
  for p in "$@"; do
    compgen -G "$dir/debs/${p}_*.deb" >/dev/null && continue
    (cd "$dir/debs" && apt-get download "$p" >/dev/null 2>&1) || {
      echo "$(basename "$0"): apt-get download $p failed (run apt-get update first?)" >&2
      exit 2
    }
  done
}
