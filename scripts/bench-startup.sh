#!/usr/bin/env bash
# Start-up cost of the `folio` command: `folio run FOLDER /scripts/t.js` on a trivial script, in a
# fresh temporary folder and state root. Prints p50 wall and CPU (user+sys) over N runs.
#
#   scripts/bench-startup.sh [FOLIO_BINARY] [RUNS]
#
# FOLIO_BINARY defaults to target/release/folio (build it with `cargo build --release -p folio-cli`);
# RUNS defaults to 20. The first run (which fills the doctor cache) is a warm-up and not counted.
set -euo pipefail

bin="${1:-${CARGO_TARGET_DIR:-target}/release/folio}"
runs="${2:-20}"
[[ -x "$bin" ]] || { echo "bench-startup: $bin is not an executable — build it with cargo build --release -p folio-cli, or pass its path" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/folder"
export FOLIO_STATE_DIR="$work/state"
printf '%s\n' '{"verb":"write_file","args":{"path":"/scripts/t.js","content":"/** Returns one. */\nexport default async function main() {\n  return 1;\n}\n"}}' \
    | "$bin" verbs "$work/folder" >/dev/null
"$bin" commit "$work/folder" >/dev/null
"$bin" run "$work/folder" /scripts/t.js >/dev/null

# One line per run: wall seconds, user seconds, system seconds.
for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %U %S' -a -o "$work/times" "$bin" run "$work/folder" /scripts/t.js >/dev/null 2>&1
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wall="$(awk '{ print $1 * 1000 }' "$work/times" | median)"
cpu="$(awk '{ print ($2 + $3) * 1000 }' "$work/times" | median)"
echo "folio run, trivial script, $runs runs: p50 wall ${wall} ms, p50 CPU (user+sys) ${cpu} ms  [$bin] (/usr/bin/time: 10 ms resolution)"

# hyperfine, when installed, measures to the tenth of a millisecond.
if command -v hyperfine >/dev/null && command -v python3 >/dev/null; then
    hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/hf.json" "$bin run $work/folder /scripts/t.js" >/dev/null 2>&1
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))["results"][0]; print("hyperfine: p50 wall %.1f ms, mean CPU user %.1f + sys %.1f ms" % (r["median"] * 1000, r["user"] * 1000, r["system"] * 1000))' "$work/hf.json"
fi
