#!/usr/bin/env bash
# Regenerates crates/folio-fonts/fonts/: the DejaVu Sans faces Folio bundles for the documents,
# charts and decks it writes (a PDF report in Greek or Cyrillic must not depend on the fonts of
# the machine that made it). Pinned by version and by the sha512 integrity npm publishes for the
# `dejavu-fonts-ttf` tarball; the licence is kept beside the fonts.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
VERSION="2.37.3"
INTEGRITY="sha512-f1hd7jJbeQa1VWcw+K2KrTXS50zTMaHpVC4XIKJpNcDeYR5ajMtj/iLlQDYNvLOKamUB3ARVVCf79lNwNVztSQ=="

command -v npm >/dev/null 2>&1 || { echo "vendor-fonts: npm is missing — hint: apt-get install npm" >&2; exit 1; }
command -v openssl >/dev/null 2>&1 || { echo "vendor-fonts: openssl is missing — hint: apt-get install openssl" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tarball="$(cd "$work" && npm pack --silent "dejavu-fonts-ttf@$VERSION" | tail -n 1)"
actual="sha512-$(openssl dgst -sha512 -binary "$work/$tarball" | openssl base64 -A)"
if [ "$actual" != "$INTEGRITY" ]; then
  echo "vendor-fonts: dejavu-fonts-ttf@$VERSION has integrity $actual, but the script pins $INTEGRITY — hint: if the new version is intended, update the pin from 'npm view dejavu-fonts-ttf@$VERSION dist.integrity'" >&2
  exit 1
fi
tar -xzf "$work/$tarball" -C "$work"
dest="$root/crates/folio-fonts/fonts"
mkdir -p "$dest"
for face in DejaVuSans DejaVuSans-Bold DejaVuSans-Oblique DejaVuSansMono; do
  cp "$work/package/ttf/$face.ttf" "$dest/$face.ttf"
done
cp "$work/package/LICENSE" "$dest/LICENSE"
printf '%s\n' "$VERSION" > "$dest/VERSION"
echo "vendor-fonts: DejaVu $VERSION -> ${dest#"$root"/}"
