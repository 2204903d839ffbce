#!/usr/bin/env bash
# Runs the whole test suite exactly as CI does: formatting, lints (no unwrap/expect outside tests),
# then every test of every crate. Installs what is missing first.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh --quiet
# Build output lives outside the clone so a fresh clone reuses it; a new machine builds it once.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/folio/target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
cargo fmt --all --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --no-fail-fast
