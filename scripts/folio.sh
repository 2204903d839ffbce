#!/usr/bin/env bash
# Installs what is missing, builds Folio, and runs it with the given arguments.
# Until the desktop app lands, Folio is the headless `folio` command: `scripts/folio.sh --help`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --quiet
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/folio/target}"
cargo build --release --quiet -p folio-cli
exec "$CARGO_TARGET_DIR/release/folio" "${@:---help}"
