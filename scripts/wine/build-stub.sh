#!/usr/bin/env bash
# Builds the stub bcryptprimitives.dll (bcryptprimitives.c, ProcessPrng over RtlGenRandom) with
# mingw into the Wine cache, once per source change. Prints the directory holding it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${FOLIO_WINE_CACHE:-$HOME/.cache/folio/wine}"
src="$here/bcryptprimitives.c"
sum=$(sha256sum "$src" | cut -c1-16)
dir="$cache/dll-$sum"
if [ ! -f "$dir/bcryptprimitives.dll" ]; then
  command -v x86_64-w64-mingw32-gcc >/dev/null || {
    echo "build-stub.sh: x86_64-w64-mingw32-gcc is missing — hint: apt-get install gcc-mingw-w64-x86-64 (scripts/install.sh does)" >&2
    exit 1
  }
  mkdir -p "$dir"
  x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dir/bcryptprimitives.dll.part" "$src" -ladvapi32
  mv "$dir/bcryptprimitives.dll.part" "$dir/bcryptprimitives.dll"
fi
echo "$dir"
