#!/usr/bin/env bash
# Regenerates the pure-JavaScript libraries folio-script vendors under crates/folio-script/vendor/.
#
# Each library is pinned by version and by the sha512 integrity npm publishes for its tarball
# (`npm view <pkg>@<version> dist.integrity`). The script packs the pinned version from the npm
# registry into a temporary directory, refuses to continue when the tarball's digest differs from
# the pinned one, and copies the ESM build, its type declarations and its licence. To move to a new
# version, change both pins together and rerun; review the diff of the vendored file before
# committing it.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"

FFLATE_VERSION="0.8.3"
FFLATE_INTEGRITY="sha512-tbZNuJrLwGUp3zshBtdy4W+ORxZuIh8a5ilyIEQDC5rY1f3U20JMry0Ll3WBzU58EZKsEuJFXhb5gwv8CsPvgA=="

command -v npm >/dev/null 2>&1 || { echo "vendor-js: npm is missing — hint: apt-get install npm (or install Node.js 18+)" >&2; exit 1; }
command -v openssl >/dev/null 2>&1 || { echo "vendor-js: openssl is missing — hint: apt-get install openssl" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# fetch <package> <version> <integrity>: packs the tarball into $work and checks its digest.
fetch() {
  local pkg="$1" version="$2" integrity="$3" tarball actual
  tarball="$(cd "$work" && npm pack --silent "$pkg@$version" | tail -n 1)"
  actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | openssl base64 -A)"
  if [ "$actual" != "$integrity" ]; then
    echo "vendor-js: $pkg@$version has integrity $actual, but the script pins $integrity — hint: if the new version is intended, update the pin from 'npm view $pkg@$version dist.integrity'" >&2
    exit 1
  fi
  mkdir -p "$work/$pkg"
  tar -xzf "$work/$tarball" -C "$work/$pkg"
}

fetch fflate "$FFLATE_VERSION" "$FFLATE_INTEGRITY"
dest="$root/crates/folio-script/vendor/fflate"
mkdir -p "$dest"
cp "$work/fflate/package/esm/browser.js" "$dest/browser.js"
cp "$work/fflate/package/esm/browser.d.ts" "$dest/browser.d.ts"
cp "$work/fflate/package/LICENSE" "$dest/LICENSE"
printf '%s\n' "$FFLATE_VERSION" > "$dest/VERSION"
echo "vendor-js: fflate $FFLATE_VERSION -> ${dest#"$root"/}"
