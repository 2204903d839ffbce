#!/usr/bin/env bash
# cargo's runner for x86_64-pc-windows-gnu (.cargo/config.toml): runs a Windows executable under
# Wine with a private WINEPREFIX in the cache and the stub bcryptprimitives.dll on its DLL path.
# `cargo test --target x86_64-pc-windows-gnu -p folio-vfs` runs the tests through it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command -v wine >/dev/null || {
  echo "wine runner: wine is missing — hint: apt-get install wine wine64 (scripts/install.sh does)" >&2
  exit 1
}
cache="${FOLIO_WINE_CACHE:-$HOME/.cache/folio/wine}"
dll=$(bash "$here/build-stub.sh")
export WINEPREFIX="${FOLIO_WINEPREFIX:-$cache/prefix}"
export WINEARCH=win64
export WINEDEBUG="${WINEDEBUG:--all}"
# No Mono or Gecko prompts: nothing here needs .NET or the HTML engine.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
# Wine adds WINEPATH to the Windows PATH, which is on the DLL search path. Z: is the Unix root.
export WINEPATH="Z:${dll//\//\\}"
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$(dirname "$WINEPREFIX")"
  # One prefix, made once: two runners starting together wait for each other.
  # shellcheck disable=SC2016 # expanded by the inner shell, from the exported WINEPREFIX
  flock "$cache/prefix.lock" bash -c '[ -f "$WINEPREFIX/system.reg" ] || wineboot -i >/dev/null 2>&1; wineserver -w'
fi
exec wine "$@"
