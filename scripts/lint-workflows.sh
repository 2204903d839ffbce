#!/usr/bin/env bash
# lint-workflows.sh — the release workflow cannot run on this machine, so the test command checks
# it here, in about a second:
#   1. actionlint (with shellcheck on every `run:` script) passes on .github/workflows/*.yml;
#   2. actionlint REFUSES tests/workflows/broken.yml and names each of its four planted mistakes,
#      so a linter that stopped checking fails this script instead of passing silently;
#   3. the workflow's platform steps match what runs here: every `pdfium:` platform of its matrix
#      has a pin in scripts/get-pdfium.sh (the same script, `--check`, no network), the matrix
#      names every installer issue 15 lists, the Tauri CLI it runs is the one ui/package.json
#      pins, and the updater's public key in tauri.conf.json is a minisign public key — while no
#      minisign SECRET key is anywhere in the tree.
# actionlint comes from scripts/install.sh (pinned wheel, cached outside the clone).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "lint-workflows: $*" >&2; exit 1; }
actionlint="${FOLIO_TOOLS_CACHE:-$HOME/.cache/folio/tools}/actionlint-1.17.0/actionlint"
[ -x "$actionlint" ] || fail "actionlint is not installed at $actionlint — hint: bash scripts/install.sh"
command -v shellcheck >/dev/null 2>&1 || fail "shellcheck is missing, so the run: scripts would go unchecked — hint: bash scripts/install.sh (apt-get install shellcheck)"

# 1. The real workflows are clean.
"$actionlint" -color=false -shellcheck=shellcheck .github/workflows/*.yml \
  || fail "actionlint found the problems above in .github/workflows — fix them (each line names its rule)"

# 2. The broken fixture is refused, each mistake by its rule.
set +e
out=$("$actionlint" -color=false -shellcheck=shellcheck tests/workflows/broken.yml 2>&1)
rc=$?
set -e
[ "$rc" -ne 0 ] || fail "actionlint passed tests/workflows/broken.yml, which has four planted mistakes — the linter is not checking"
for want in \
  'broken.yml:19:[0-9]*: property "pdfum" is not defined.*\[expression\]' \
  'broken.yml:21:[0-9]*: context "secrets" is not allowed here.*\[expression\]' \
  'broken.yml:24:[0-9]*: .*SC2086.*\[shellcheck\]' \
  'broken.yml:26:[0-9]*: unexpected key "uses".*\[syntax-check\]'; do
  grep -Eq "$want" <<<"$out" || fail "actionlint no longer reports /$want/ on tests/workflows/broken.yml; its output was:
$out"
done

# 3. The workflow's platform steps mirror this machine's.
wf=.github/workflows/release.yml
platforms=$(sed -n 's/^ *pdfium: *\([a-z0-9-]*\) *$/\1/p' "$wf")
[ "$(wc -w <<<"$platforms")" -eq 4 ] || fail "$wf's matrix should name 4 PDFium platforms, found: $platforms"
for p in $platforms; do
  bash scripts/get-pdfium.sh --platform "$p" --check >/dev/null \
    || fail "$wf bundles PDFium for '$p', which scripts/get-pdfium.sh has no pin for — hint: add its wheel and library sha256 there"
done
grep -q 'bash scripts/get-pdfium.sh --platform "${{ matrix.pdfium }}"' "$wf" \
  || fail "$wf no longer fetches PDFium with scripts/get-pdfium.sh --platform — the matrix would bundle a library nobody checked"
for bundle in app dmg nsis msi deb rpm appimage; do
  grep -Eq "^ *bundles: .*\b$bundle\b" "$wf" || fail "$wf builds no '$bundle' bundle — issue 15 lists .app, .dmg, NSIS, MSI, .deb, .rpm and AppImage"
done
for target in aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-msvc x86_64-unknown-linux-gnu; do
  grep -Eq "^ *target: $target *$" "$wf" || fail "$wf has no $target row"
done
cli=$(sed -n 's/^ *TAURI_CLI_VERSION: *"\([^"]*\)".*/\1/p' "$wf")
[ -n "$cli" ] || fail "$wf sets no TAURI_CLI_VERSION"
ui_cli=$(sed -n 's/^ *"@tauri-apps\/cli": *"\([^"]*\)".*/\1/p' ui/package.json)
[ -z "$ui_cli" ] || [ "$ui_cli" = "$cli" ] \
  || fail "$wf runs @tauri-apps/cli $cli but ui/package.json pins $ui_cli — hint: set TAURI_CLI_VERSION to $ui_cli"
python3 - <<'PY' || fail "src-tauri/tauri.conf.json: plugins.updater.pubkey is not a minisign public key (see the line above)"
import base64, json, sys
conf = json.load(open("src-tauri/tauri.conf.json"))
key = base64.b64decode(conf["plugins"]["updater"]["pubkey"]).decode()
lines = key.strip().splitlines()
if len(lines) != 2 or not lines[0].startswith("untrusted comment: minisign public key") or len(base64.b64decode(lines[1])) != 42:
    print("the decoded key is not an untrusted-comment line and a 42-byte Ed25519 key line", file=sys.stderr)
    sys.exit(1)
PY
# A minisign secret key as text, or base64-wrapped as `tauri signer generate` writes it.
secret_key=(-e 'encrypted secret key' -e 'dW50cnVzdGVkIGNvbW1lbnQ6IHJzaWduIGVuY3J5cHRlZCBzZWNyZXQga2V5'
  -e 'dW50cnVzdGVkIGNvbW1lbnQ6IG1pbmlzaWduIGVuY3J5cHRlZCBzZWNyZXQga2V5')
if leaked=$(git grep -Il "${secret_key[@]}" -- . ':!scripts/lint-workflows.sh'); then
  fail "a minisign secret key is committed in: $leaked — remove it; the private key belongs only in the TAURI_SIGNING_PRIVATE_KEY secret"
fi
echo "lint-workflows: $wf passes actionlint, the broken fixture is refused on all 4 counts, and its PDFium platforms ($(tr '\n' ' ' <<<"$platforms" | sed 's/ $//')) are pinned"
