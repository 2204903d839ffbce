#!/usr/bin/env bash
# The packages, installed rather than just built (scripts/test.sh runs this after the e2e test).
#
#   src-tauri/packaging/installed-test.sh [DEB RPM]
#
# Builds the .deb and .rpm with `scripts/package.sh --debug` (the test build's binaries, so nothing
# is compiled again) unless given, then:
#   .deb  checks its control fields and file list, installs it with apt-get, launches the INSTALLED
#         app under Xvfb with a fresh HOME and waits for its window and for the UI's first answered
#         command, runs the installed `folio doctor` (fresh HOME, no PDFium variables) and checks
#         that PDFium comes from the package's resources, then purges the package and checks that
#         none of its files is left — only the person's own state directory (in that fresh HOME).
#   .rpm  checks its metadata, its dependency list and its file list with `rpm -qp`.
# A failure names what was wrong and exits 1; the package is removed on every exit, so /usr is as
# it was. Without apt-get/dpkg (not Debian-like) it prints why and skips (exit 0).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

skip() { echo "installed-test: skipped: $*"; exit 0; }
fail() { echo "installed-test: FAILED: $*" >&2; exit 1; }
ok() { echo "installed-test: ok: $*"; }

command -v apt-get >/dev/null && command -v dpkg >/dev/null \
  || skip "this machine has no apt-get/dpkg, so the .deb cannot be installed here (CI has them)"
sudo_cmd=()
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || skip "installing a package needs root, and neither root nor sudo is available"
  sudo_cmd=(sudo -n)
fi
for tool in xvfb-run xwininfo rpm strip; do
  command -v "$tool" >/dev/null || fail "$tool is missing — hint: bash scripts/install.sh installs it"
done

pkg=folio
if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
  fail "a '$pkg' package is already installed; this test would replace it and then remove it — hint: ${sudo_cmd[*]} apt-get remove $pkg, then run again"
fi

work=$(mktemp -d)
app_pid=""
cleanup() {
  [ -z "$app_pid" ] || kill "$app_pid" 2>/dev/null || true
  if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get remove --purge -y -qq "$pkg" >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if [ $# -ge 2 ]; then
  deb=$1 rpm=$2
else
  t0=$(date +%s%N)
  mapfile -t built < <(bash scripts/package.sh --debug)
  deb=${built[0]:-} rpm=${built[1]:-}
  ok "scripts/package.sh --debug built $(basename "$deb") and $(basename "$rpm") in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
fi
[ -f "$deb" ] && [ -f "$rpm" ] || fail "scripts/package.sh gave no .deb and .rpm (got '$deb' and '$rpm')"
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml)

# What both packages must hold: path -> why.
expected_files=(
  /usr/bin/folio-desktop
  /usr/bin/folio
  /usr/lib/Folio/libpdfium.so
  /usr/lib/Folio/LICENSES-pdfium.txt
  /usr/share/applications/Folio.desktop
  /usr/share/icons/hicolor/scalable/apps/folio-desktop.svg
)
for size in 16 24 32 48 64 128 256 512; do
  expected_files+=("/usr/share/icons/hicolor/${size}x${size}/apps/folio-desktop.png")
done
deb_depends=(libwebkit2gtk-4.1-0 libgtk-3-0 gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-libav)
deb_recommends=(chromium-headless-shell ffmpeg libreoffice-writer libreoffice-calc libreoffice-impress)
rpm_requires=(webkit2gtk4.1 gtk3 gstreamer1-plugins-base gstreamer1-plugins-good)
rpm_recommends=(gstreamer1-libav chromium-headless ffmpeg libreoffice-writer libreoffice-calc libreoffice-impress)

# Does the comma-separated dependency field $1 name package $2 (alone or in an alternative)?
names() { tr ',|' '\n\n' <<<"$1" | sed -E 's/\(.*\)//; s/^ +//; s/ +$//' | grep -qxF "$2"; }

# ---- the .deb, as a file ----
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = "$pkg" ] || fail "$deb: Package is '$(field Package)', expected '$pkg'"
[ "$(field Version)" = "$version" ] || fail "$deb: Version is '$(field Version)', expected the workspace version $version"
for d in "${deb_depends[@]}"; do names "$(field Depends)" "$d" || fail "$deb: Depends lacks $d (it is: $(field Depends))"; done
for d in "${deb_recommends[@]}"; do names "$(field Recommends)" "$d" || fail "$deb: Recommends lacks $d (it is: $(field Recommends))"; done
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed -E 's|^\.?/?|/|; s|/$||' >"$work/deb-files"
for f in "${expected_files[@]}"; do grep -qxF "$f" "$work/deb-files" || fail "$deb does not hold $f"; done
dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*usr/share/applications/Folio.desktop' >"$work/Folio.desktop"
for line in 'Exec=folio-desktop %f' 'MimeType=inode/directory;' 'Actions=open-folder;' '[Desktop Action open-folder]' 'Name=Open folder in Folio' 'Icon=folio-desktop'; do
  grep -qxF "$line" "$work/Folio.desktop" || fail "the desktop entry lacks the line '$line':"$'\n'"$(cat "$work/Folio.desktop")"
done
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$work/Folio.desktop" || fail "desktop-file-validate rejects the desktop entry (above)"
fi
ok "$(basename "$deb"): $(du -k "$deb" | cut -f1) KiB, version $version, depends and recommends declared, ${#expected_files[@]} required files, desktop entry opens folders"

# ---- the .rpm, as a file ----
rpmq() { rpm -qp --nosignature "$@" "$rpm" 2>/dev/null; }
[ "$(rpmq --qf '%{NAME}')" = "$pkg" ] || fail "$rpm: Name is '$(rpmq --qf '%{NAME}')', expected '$pkg'"
[ "$(rpmq --qf '%{VERSION}')" = "$version" ] || fail "$rpm: Version is '$(rpmq --qf '%{VERSION}')', expected $version"
[ "$(rpmq --qf '%{LICENSE}')" = "MIT OR Apache-2.0" ] || fail "$rpm: License is '$(rpmq --qf '%{LICENSE}')'"
[ -n "$(rpmq --qf '%{SUMMARY}')" ] || fail "$rpm has no Summary"
rpmq -R >"$work/rpm-requires"
for d in "${rpm_requires[@]}"; do grep -q "^$d\b" "$work/rpm-requires" || fail "$rpm: Requires lacks $d (it is: $(tr '\n' ' ' <"$work/rpm-requires"))"; done
rpmq --recommends >"$work/rpm-recommends"
for d in "${rpm_recommends[@]}"; do grep -q "^$d\b" "$work/rpm-recommends" || fail "$rpm: Recommends lacks $d (it is: $(tr '\n' ' ' <"$work/rpm-recommends"))"; done
rpmq -l >"$work/rpm-files"
for f in "${expected_files[@]}"; do grep -qxF "$f" "$work/rpm-files" || fail "$rpm does not hold $f"; done
ok "$(basename "$rpm"): $(du -k "$rpm" | cut -f1) KiB, name, version, licence and summary, ${#rpm_requires[@]} requires, ${#rpm_recommends[@]} recommends, ${#expected_files[@]} required files"

# ---- the .deb, installed ----
# Without recommends: LibreOffice's GUI and Chromium are the person's choice, not the test's.
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$(realpath "$deb")" >"$work/apt.log" 2>&1 \
  || { cat "$work/apt.log" >&2; fail "apt-get install of $deb failed (above)"; }
dpkg -L "$pkg" >"$work/installed" || fail "dpkg -L $pkg lists nothing after the install"
for f in "${expected_files[@]}"; do [ -e "$f" ] || fail "installed, but $f is not there"; done
[ "$(command -v folio)" = /usr/bin/folio ] || fail "the installed folio is not the one on PATH (that is $(command -v folio || echo nothing))"
ok "apt-get installed $pkg ($(grep -c . "$work/installed") paths)"

# A person's first run: a fresh HOME, no PDFium or state variables, a folder to open.
home="$work/home"
folder="$work/My folder"
mkdir -p "$home" "$folder"
printf 'region,sales\nnorth,10\n' >"$folder/sales.csv"
clean_env=(env -u FOLIO_PDFIUM_PATH -u FOLIO_PDFIUM_CACHE -u FOLIO_STATE_DIR -u XDG_DATA_HOME -u XDG_CACHE_HOME
  -u XDG_CONFIG_HOME -u FOLIO_E2E HOME="$home" PATH=/usr/bin:/bin)

# The installed app under Xvfb: its window must map and the UI's first command must be answered.
cat >"$work/launch.sh" <<'SH'
#!/usr/bin/env bash
# Inside xvfb-run: starts the installed app, waits for its window and its first answer.
set -u
log=$1 folder=$2
FOLIO_STARTUP_TRACE=1 /usr/bin/folio-desktop "$folder" >"$log" 2>&1 &
pid=$!
echo "$pid" >"$log.pid"
start=$(date +%s%N)
window=""
for _ in $(seq 1 1000); do
  kill -0 "$pid" 2>/dev/null || { echo "EXITED"; exit 1; }
  if [ -z "$window" ] && xwininfo -root -tree 2>/dev/null | grep -q '"Folio"'; then
    window=$(( ($(date +%s%N) - start) / 1000000 ))
  fi
  if [ -n "$window" ] && grep -q 'first command answered' "$log"; then
    echo "WINDOW_MS=$window"
    kill "$pid"; wait "$pid" 2>/dev/null
    exit 0
  fi
  sleep 0.1
done
echo "TIMEOUT window=${window:-none}"
kill "$pid"
exit 1
SH
chmod +x "$work/launch.sh"
result=$("${clean_env[@]}" timeout 240 xvfb-run -a -s "-screen 0 1280x800x24" "$work/launch.sh" "$work/app.log" "$folder" || true)
case "$result" in
  WINDOW_MS=*) ;;
  EXITED*) fail "the installed /usr/bin/folio-desktop exited before its window opened; its output:"$'\n'"$(cat "$work/app.log")" ;;
  *) fail "the installed app's window did not open, or its UI answered no command, within 150 s ($result); its output:"$'\n'"$(cat "$work/app.log")" ;;
esac
window_ms=${result#WINDOW_MS=}
ok "the installed app opened its window 'Folio' in ${window_ms} ms and answered the UI's first command ($(grep -o 'run_ms=[0-9]*' "$work/app.log"))"
state="$home/.local/share/folio"
[ -d "$state" ] || fail "the app opened a folder but wrote no state under the fresh HOME ($state is missing)"

# The installed `folio doctor`: PDFium must come from the package, not from a cache.
"${clean_env[@]}" /usr/bin/folio doctor --json >"$work/doctor.json" 2>"$work/doctor.err" || true
pdfium=$(python3 - "$work/doctor.json" <<'PY'
import json, sys
try:
    rows = json.load(open(sys.argv[1]))["capabilities"]
except (ValueError, KeyError) as e:
    sys.exit(f"no doctor report ({e})")
row = next((r for r in rows if r.get("name") == "pdfium"), None)
if row is None:
    sys.exit("no pdfium row")
import os
found = os.path.normpath(str(row.get("detail", "")).split(" ")[0])
print(("ok " if row.get("ok") else "red ") + found + " " + json.dumps(row))
PY
) || fail "the installed folio doctor gave no pdfium row: $(cat "$work/doctor.err")"
case "$pdfium" in
  "ok /usr/lib/Folio/libpdfium.so "*) ;;
  *) fail "the installed folio doctor did not find PDFium in the package's resources (/usr/lib/Folio/libpdfium.so): $pdfium" ;;
esac
[ ! -e "$home/.cache/folio/pdfium" ] || fail "the doctor run left a PDFium cache in the fresh HOME"
ok "the installed folio doctor finds PDFium at /usr/lib/Folio/libpdfium.so (fresh HOME, no PDFium variables)"

# ---- removed: nothing of the package is left but the person's state ----
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get remove --purge -y -qq "$pkg" >"$work/apt.log" 2>&1 \
  || { cat "$work/apt.log" >&2; fail "apt-get remove --purge $pkg failed (above)"; }
if dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'installed'; then
  fail "dpkg still knows $pkg after the purge: $(dpkg-query -W -f='${Status}' "$pkg")"
fi
left=()
while IFS= read -r path; do
  # Directories the package shared with others (/usr, /usr/share/icons/...) stay; its files and
  # its own directories must go.
  if [ -f "$path" ] || [ -L "$path" ]; then left+=("$path"); fi
done <"$work/installed"
[ -e /usr/lib/Folio ] && left+=(/usr/lib/Folio)
[ "${#left[@]}" -eq 0 ] || fail "after the purge these are still there: ${left[*]}"
[ -d "$state" ] || fail "the purge removed the person's state directory $state (it must stay)"
ok "purged: none of its $(grep -c . "$work/installed") paths is left; the person's state ($state) stays"

if [ -n "${FOLIO_RELIABILITY_DIR:-}" ]; then
  mkdir -p "$FOLIO_RELIABILITY_DIR"
  python3 - "$FOLIO_RELIABILITY_DIR/package.json" "$deb" "$rpm" "$window_ms" "$(field Installed-Size)" <<'PY'
import json, os, sys
out, deb, rpm, window_ms, installed_kib = sys.argv[1:6]
json.dump({"area": "package", "profile": "debug (the test build, stripped)",
           "deb_bytes": os.path.getsize(deb), "rpm_bytes": os.path.getsize(rpm),
           "deb_installed_kib": int(installed_kib), "window_ms": int(window_ms),
           "checks": ["deb fields", "rpm fields", "install", "window", "first answer", "doctor pdfium", "purge"]},
          open(out, "w"))
PY
fi
echo "installed-test: passed"
