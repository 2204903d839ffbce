#!/usr/bin/env bash
# Installs what is missing, builds Folio, and runs it.
#   scripts/folio.sh [FOLDER]        the desktop app, on FOLDER when given
#   scripts/folio.sh COMMAND …       the headless `folio` command (status, commit, ask, … ; --help)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --quiet
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/folio/target}"
if [ "$#" -eq 0 ] || { [ "$#" -eq 1 ] && [ -d "$1" ]; }; then
  if [ "$(uname -s)" = Linux ] && [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "folio: no display to open the window on — hint: run it in a desktop session, or use the headless command: scripts/folio.sh status ${1:-FOLDER}" >&2
    exit 1
  fi
  # The dev profile optimises every dependency (root Cargo.toml) and is the build the tests use,
  # so the first start after ./scripts/test.sh does not compile Tauri a second time.
  cargo build --quiet -p folio-desktop
  exec "$CARGO_TARGET_DIR/debug/folio-desktop" "$@"
fi
cargo build --release --quiet -p folio-cli
exec "$CARGO_TARGET_DIR/release/folio" "$@"
