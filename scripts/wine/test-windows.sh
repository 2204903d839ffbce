#!/usr/bin/env bash
# The Windows step of scripts/test.sh: the engine crates' tests, built for x86_64-pc-windows-gnu on
# this machine and run under Wine (scripts/wine/run.sh is cargo's runner for that target, set in
# .cargo/config.toml). Prints the counts in one line; any failure, or no test at all, fails it.
#
# The crate set is what cross-compiles and passes under Wine within the CI budget (a cold build of
# these adds minutes, not tens of minutes; see README, Testing). Crates whose tests need
# LibreOffice, Chromium, ffmpeg or tesseract stay Linux-only and are named in the output.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/folio/target}"
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
crates=(folio-vfs folio-budget folio-kinds folio-boundary folio-store folio-script)
linux_only="folio-render folio-motion folio-media folio-ocr folio-docs folio-slides folio-sheets folio-diff (LibreOffice/Chromium/ffmpeg/tesseract); folio-env folio-host folio-cli and the rest not yet run under Wine"
args=()
for c in "${crates[@]}"; do args+=(-p "$c"); done
log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
timeout 2400 cargo test --target x86_64-pc-windows-gnu "${args[@]}" --no-fail-fast 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
secs=$(( $(date +%s) - start ))
read -r passed failed ignored < <(awk '/^test result:/ {
  for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^ignored/) g += $i }
} END { print p + 0, f + 0, g + 0 }' "$log")
echo "Windows (Wine): $passed passed, $failed failed, $ignored skipped (need LibreOffice/Chromium/ffmpeg/tesseract) — ${crates[*]}, ${secs} s"
echo "Windows (Wine): Linux-only: $linux_only"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$passed" -eq 0 ]; then
  echo "test.sh: the Windows (Wine) step failed (cargo exit $status, $failed failed, $passed passed) — hint: cargo test --target x86_64-pc-windows-gnu -p <crate> reruns one crate under Wine" >&2
  exit 1
fi
