#!/usr/bin/env bash
# get-pdfium.sh [--platform P] [--check] [DEST] — puts PDFium (libpdfium.so / libpdfium.dylib /
# pdfium.dll) into DEST, taken from the pinned pypdfium2 wheel on PyPI. Both the wheel and the
# library inside it are checked against pinned sha256 sums, so a changed upload or a truncated
# download fails here, loudly, and never at render time. Idempotent: a library already in DEST with
# the right hash is kept.
#
# --platform P   fetch another platform's library (the release workflow bundles each one on its own
#                runner with this same script): linux-x64, linux-arm64, macos-arm64, macos-x64,
#                windows-x64. Default: this machine's.
# --check        only print P's pinned row (wheel tag, file, both sums) and exit; no network. The
#                workflow linter (scripts/lint-workflows.sh) uses it to prove every platform the
#                release matrix names has a pin here.
#
# DEST defaults to $FOLIO_PDFIUM_CACHE, else ~/.cache/folio/pdfium, which is one of the places
# folio-render's discovery looks (see crates/folio-render/src/discovery.rs).
#
# Pins: pypdfium2 5.15.2 = PDFium 159.0.8149 (pypdfium2_raw/version.json). Every row below was
# verified by downloading the wheel with `pip download --platform <tag>` and hashing both files;
# the wheel sums were checked again on 2026-12-01 against PyPI's JSON API
# (https://pypi.org/pypi/pypdfium2/json, releases["5.15.2"][*].digests.sha256).
#
# | platform     | wheel tag                                    | file in pypdfium2_raw/ |
# |--------------|----------------------------------------------|------------------------|
# | linux-x64    | manylinux_2_17_x86_64.manylinux2014_x86_64   | libpdfium.so           |
# | linux-arm64  | manylinux_2_17_aarch64.manylinux2014_aarch64 | libpdfium.so           |
# | macos-arm64  | macosx_13_0_arm64                            | libpdfium.dylib        |
# | macos-x64    | macosx_13_0_x86_64                           | libpdfium.dylib        |
# | windows-x64  | win_amd64                                    | pdfium.dll             |
# On Windows the script runs under Git Bash (the release workflow's `shell: bash`).
set -euo pipefail

VERSION=5.15.2
platform=""
check=0
dest=""
while [ $# -gt 0 ]; do
  case "$1" in
    --platform) platform=${2:-}; shift 2 || { echo "get-pdfium: --platform needs a value — hint: one of linux-x64 linux-arm64 macos-arm64 macos-x64 windows-x64" >&2; exit 2; } ;;
    --platform=*) platform=${1#--platform=}; shift ;;
    --check) check=1; shift ;;
    -*) echo "get-pdfium: unknown option $1 — hint: get-pdfium.sh [--platform P] [--check] [DEST]" >&2; exit 2 ;;
    *) dest=$1; shift ;;
  esac
done
DEST=${dest:-${FOLIO_PDFIUM_CACHE:-$HOME/.cache/folio/pdfium}}

# This machine's platform, in the names the table above uses.
if [ -z "$platform" ]; then
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) platform=linux-x64 ;;
    Linux-aarch64) platform=linux-arm64 ;;
    Darwin-arm64) platform=macos-arm64 ;;
    Darwin-x86_64) platform=macos-x64 ;;
    MINGW*-x86_64|MSYS*-x86_64|CYGWIN*-x86_64) platform=windows-x64 ;;
    *) echo "get-pdfium: no pinned pypdfium2 wheel for $(uname -s) $(uname -m) — hint: build PDFium yourself and set FOLIO_PDFIUM_PATH to the library" >&2; exit 1 ;;
  esac
fi

case "$platform" in
  linux-x64)
    TAG=manylinux_2_17_x86_64
    WHL_SHA=dc31aea5b0fb9fefc9b537a65f4113980b2c40798445736a7e6565bc85161e37
    LIB=libpdfium.so
    LIB_SHA=c76dc0f7839644bfa7c3e3107a6068df714e339c861bb7d4519907b821d427f9 ;;
  linux-arm64)
    TAG=manylinux_2_17_aarch64
    WHL_SHA=dd46e93c0c3a73f6cea8489baff6d77a5d0759dd53fbbce0aeb49c91830176fc
    LIB=libpdfium.so
    LIB_SHA=4378615ad9710397c96c112611be9018629bbfe38805d91a2663a534b99c28ca ;;
  macos-arm64)
    TAG=macosx_13_0_arm64
    WHL_SHA=e71fe832e94421ac3c28d6a6ed4a9e61f22417089652d339f391c4ffc2a44c35
    LIB=libpdfium.dylib
    LIB_SHA=5574cd4164a1317bc6b2f3168a4f433ca84561aa1b33f570422ce20f199d3765 ;;
  macos-x64)
    TAG=macosx_13_0_x86_64
    WHL_SHA=7f296a298074d76fb7c3d1ecb80d7097a96778bf0ad9c5c48a0170e56e2c6821
    LIB=libpdfium.dylib
    LIB_SHA=967a413d03dde793455ed9f9ecb29b7fec6da846166ecd5b43e0bc3ddb4d9be2 ;;
  windows-x64)
    TAG=win_amd64
    WHL_SHA=74d1bace34fb01c660d0b64344d5a4b7d276942b7c6623c88ab59ea21c5acfbd
    LIB=pdfium.dll
    LIB_SHA=42d87f68957d745ce9377dfb1d8d63691e19082a7ec29ff421d22779d3142b29 ;;
  *)
    echo "get-pdfium: no pinned pypdfium2 wheel for platform '$platform' — hint: one of linux-x64 linux-arm64 macos-arm64 macos-x64 windows-x64, or build PDFium yourself and set FOLIO_PDFIUM_PATH to the library" >&2
    exit 1 ;;
esac

if [ "$check" = 1 ]; then
  printf '%s\tpypdfium2==%s\t%s\t%s\t%s\t%s\n' "$platform" "$VERSION" "$TAG" "$WHL_SHA" "$LIB" "$LIB_SHA"
  exit 0
fi

PY=$(command -v python3 || command -v python || true)
if [ -z "$PY" ] || ! "$PY" -m pip --version >/dev/null 2>&1; then
  echo "get-pdfium: python3 with pip is needed to fetch the pinned wheel — hint: apt-get install python3-pip (macOS: brew install python; Windows: winget install Python.Python.3.12)" >&2
  exit 1
fi

# sha256 of a file, with Python so the same line works on Linux, macOS and Windows shells.
sha256() { "$PY" -c 'import hashlib,sys;print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$1"; }

# The wheel's licence texts (PDFium's and those of the libraries built into it) go beside the
# library as one file, which the packages (scripts/package.sh) ship with it.
LICENSES=LICENSES-pdfium.txt
if [ -f "$DEST/$LIB" ] && [ -f "$DEST/$LICENSES" ] && [ "$(sha256 "$DEST/$LIB")" = "$LIB_SHA" ]; then
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "pypdfium2==$VERSION --hash=sha256:$WHL_SHA" > "$tmp/req.txt"
# --require-hashes makes pip itself refuse a wheel whose hash differs from the pin.
"$PY" -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform "$TAG" --python-version 3.11 --require-hashes -r "$tmp/req.txt" -d "$tmp" || {
  echo "get-pdfium: pip could not fetch pypdfium2==$VERSION for $TAG from PyPI — hint: check the network or proxy, or set FOLIO_PDFIUM_PATH to a PDFium library you already have" >&2
  exit 1
}
mkdir -p "$DEST"
"$PY" - "$tmp" "$DEST" "$LIB" "$LICENSES" <<'PY'
import glob, os, sys, zipfile
tmp, dest, lib, licenses = sys.argv[1:5]
whl = glob.glob(os.path.join(tmp, "pypdfium2-*.whl"))[0]
part = os.path.join(dest, lib + ".part")
with zipfile.ZipFile(whl) as z, open(part, "wb") as out:
    out.write(z.read("pypdfium2_raw/" + lib))
    texts = sorted(n for n in z.namelist() if "/licenses/" in n and not n.endswith("/"))
    with open(os.path.join(dest, licenses), "w", encoding="utf-8") as lic:
        lic.write("PDFium as built by pypdfium2 (libpdfium from its wheel): the licences of PDFium and of the\n")
        lic.write("libraries built into it, as the wheel ships them (%s).\n" % os.path.basename(whl))
        for name in texts:
            lic.write("\n==== %s ====\n\n" % name.split("/licenses/", 1)[1])
            lic.write(z.read(name).decode("utf-8", "replace"))
PY
got=$(sha256 "$DEST/$LIB.part")
if [ "$got" != "$LIB_SHA" ]; then
  rm -f "$DEST/$LIB.part"
  echo "get-pdfium: $LIB from the wheel has sha256 $got, expected $LIB_SHA — hint: the pin in scripts/get-pdfium.sh and the wheel disagree; do not use this library" >&2
  exit 1
fi
mv "$DEST/$LIB.part" "$DEST/$LIB"
echo "get-pdfium: PDFium 159.0.8149 (pypdfium2 $VERSION, $platform) is at $DEST/$LIB"
