#!/usr/bin/env bash
# scripts/package.sh [--debug] [--out DIR] — builds Folio's Linux packages, a .deb and an .rpm,
# through the npm `@tauri-apps/cli` pinned in ui/package.json (never `cargo install tauri-cli`).
#
# Each package holds the desktop app (/usr/bin/folio-desktop), the `folio` command
# (/usr/bin/folio), PDFium from the pinned pypdfium2 wheel with its licences as the app's
# resources (/usr/lib/Folio/, where folio-render's discovery looks beside /usr/bin), the icons
# (hicolor 16..512 and scalable) and a desktop entry that also opens folders (inode/directory,
# "Open folder in Folio"). Dependencies, recommendations and the desktop entry are declared in
# src-tauri/tauri.conf.json (bundle) and src-tauri/packaging/; this script adds what only exists
# at bundle time (the binaries' and PDFium's paths) as a merged config.
#
#   (default)  release: the app (with tauri's custom-protocol, as `tauri build` would) and the
#              `folio` command in one cargo invocation, with the `dist` profile (release, optimised
#              for size, thin LTO; root Cargo.toml); the .deb and .rpm are xz-compressed.
#   --debug    the test build's binaries, as CI packages them: exactly what `cargo test --workspace`
#              built (same target directory, features and profile), so nothing is compiled again.
#
# The binaries are stripped copies (the target directory is left as it is); the packages land in
# DIR (default $CARGO_TARGET_DIR/package/<profile>/out) and their paths are printed, one a line.
# The version is the workspace's (root Cargo.toml); tauri.conf.json must not carry its own.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

profile=release
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --debug) profile=debug ;;
    --out) out=$2; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) echo "package: unknown argument $1 — hint: scripts/package.sh [--debug] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done

fail() { echo "package: $*" >&2; exit 1; }

export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/folio/target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
# As scripts/test.sh sets it: another value would make `--debug` compile the test build again.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
stage="$CARGO_TARGET_DIR/package/$profile"
out="${out:-$stage/out}"

# One version: the workspace's. Tauri reads the crate's (inherited) version when its config has none.
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml)
[ -n "$version" ] || fail "no version in [workspace.package] of Cargo.toml — hint: add version = \"x.y.z\" there"
if grep -q '^  "version"' src-tauri/tauri.conf.json; then
  fail "src-tauri/tauri.conf.json has its own \"version\"; the packages take the workspace's ($version) — hint: delete that line"
fi

# The binaries, as cargo reports them (never guessed from paths: another selection of packages
# or features would be another tree).
artifacts() {
  python3 -c '
import json, sys
found = {}
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    # A bin target is reported twice by `cargo test`: the program, and its unit-test harness.
    if (m.get("reason") == "compiler-artifact" and "bin" in m["target"]["kind"] and m.get("executable")
            and not m.get("profile", {}).get("test")):
        found[m["target"]["name"]] = m["executable"]
    if m.get("reason") == "build-finished" and not m.get("success"):
        sys.exit("cargo failed")
for name in ("folio-desktop", "folio"):
    if name not in found:
        sys.exit("cargo built no " + name + " binary")
    print(found[name])'
}
if [ "$profile" = debug ]; then
  bins=$(cargo test --workspace --no-run --message-format=json 2>/dev/null | artifacts) \
    || fail "the test build has no folio-desktop or folio binary — hint: cargo test --workspace --no-run shows why"
else
  bins=$(cargo build --profile dist -p folio-desktop -p folio-cli --features folio-desktop/custom-protocol \
    --message-format=json | artifacts) \
    || fail "the release build failed — hint: cargo build --profile dist -p folio-desktop -p folio-cli shows why"
fi
desktop_bin=$(sed -n 1p <<<"$bins")
folio_bin=$(sed -n 2p <<<"$bins")

# The app embeds ui/dist at compile time; a binary built with an empty dist shows a blank window.
asset=$(ls ui/dist/assets/*.js 2>/dev/null | head -1 || true)
[ -n "$asset" ] || fail "ui/dist has no built UI — hint: (cd ui && npm ci && npm run build), then run this again"
grep -qaF "assets/$(basename "$asset")" "$desktop_bin" \
  || fail "$desktop_bin does not embed the UI in ui/dist (no $(basename "$asset")) — hint: rebuild it without FOLIO_SKIP_UI_BUILD"

# The Tauri CLI from ui/node_modules (pinned in ui/package.json and its lockfile).
tauri="$root/ui/node_modules/.bin/tauri"
if [ ! -x "$tauri" ]; then
  (cd ui && npm ci --no-audit --no-fund --silent) || fail "npm ci in ui/ failed — hint: run it there to see why"
fi
[ -x "$tauri" ] || fail "ui/node_modules has no @tauri-apps/cli — hint: cd ui && npm ci"

# PDFium and its licences, from the pinned wheel (scripts/get-pdfium.sh checks both hashes).
pdfium_dir="${FOLIO_PDFIUM_CACHE:-$HOME/.cache/folio/pdfium}"
bash scripts/get-pdfium.sh "$pdfium_dir" >/dev/null || fail "PDFium could not be fetched (above) — the packages carry it"

# Stage: stripped copies under a target directory of their own, where `tauri bundle` looks.
rm -rf "$stage/target" "$out"
mkdir -p "$stage/target/$profile" "$out"
strip -o "$stage/target/$profile/folio-desktop" "$desktop_bin"
strip -o "$stage/target/$profile/folio" "$folio_bin"
cp "$pdfium_dir/libpdfium.so" "$pdfium_dir/LICENSES-pdfium.txt" "$stage/"
python3 - "$stage" "$profile" >"$stage/bundle.json" <<'PY'
import json, sys
stage, profile = sys.argv[1:3]
folio = {"/usr/bin/folio": f"{stage}/target/{profile}/folio"}
rpm = {"files": folio}
if profile == "release":
    # What ships is xz-compressed (the .deb is recompressed below); CI's debug packages keep the
    # bundler's quick gzip.
    rpm["compression"] = {"type": "xz", "level": 9}
print(json.dumps({"bundle": {
    "resources": {f"{stage}/libpdfium.so": "libpdfium.so", f"{stage}/LICENSES-pdfium.txt": "LICENSES-pdfium.txt"},
    "linux": {"deb": {"files": folio}, "rpm": rpm},
}}, indent=2))
PY

flags=(bundle --bundles deb,rpm --config "$stage/bundle.json" --ci)
[ "$profile" = debug ] && flags+=(--debug)
(cd src-tauri && CARGO_TARGET_DIR="$stage/target" "$tauri" "${flags[@]}") >"$stage/bundle.log" 2>&1 \
  || { cat "$stage/bundle.log" >&2; fail "tauri bundle failed (its output is above)"; }

deb=$(ls "$stage/target/$profile/bundle/deb/"*.deb 2>/dev/null | head -1 || true)
rpm=$(ls "$stage/target/$profile/bundle/rpm/"*.rpm 2>/dev/null | head -1 || true)
[ -n "$deb" ] && [ -n "$rpm" ] || { cat "$stage/bundle.log" >&2; fail "tauri bundle wrote no .deb or no .rpm (its output is above)"; }
if [ "$profile" = release ]; then
  # Tauri's bundler writes the .deb's data with gzip; dpkg-deb rebuilds it with xz, which every
  # dpkg since Debian 6 and Ubuntu 10.04 reads. -9 on one thread: its 64 MiB window spans both
  # binaries, which share most of their code (the engine), so the second costs little — 26.4 MB
  # at -6 (threaded, 8 MiB windows) against about 18 MB. A minute and a half, release only.
  rm -rf "$stage/deb-tree"
  dpkg-deb -R "$deb" "$stage/deb-tree"
  dpkg-deb --root-owner-group -Zxz -z9 -Sextreme --threads-max=1 -b "$stage/deb-tree" "$deb.xz" >/dev/null
  mv "$deb.xz" "$deb"
  rm -rf "$stage/deb-tree"
fi
case "$(basename "$deb")" in *"_${version}_"*) ;; *) fail "$(basename "$deb") does not carry the workspace version $version";; esac
cp "$deb" "$rpm" "$out/"
echo "$out/$(basename "$deb")"
echo "$out/$(basename "$rpm")"
