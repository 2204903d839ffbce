#!/usr/bin/env bash
# Figures of the Linux packages (not run in CI): each package's size and installed size, the
# installed app's cold start to its first answered command, and its idle memory with a folder open.
#
#   scripts/bench-package.sh [--debug] [RUNS]
#
# Builds the packages with scripts/package.sh (release by default: the size that ships), installs
# the .deb with apt-get (root or sudo), launches the INSTALLED /usr/bin/folio-desktop RUNS times
# (default 5) under one Xvfb, each time with a fresh HOME and a small folder, then purges it.
#
# Cold start: from just before exec to the moment the app answers the UI's first command
# (`status_get`, sent when the page has loaded; the app prints it with FOLIO_STARTUP_TRACE=1), and,
# in runs of their own, to the moment its window is mapped (polled with xwininfo every 20 ms:
# polling the X server while timing the answer slowed the start it measured by ~0.5 s on two
# cores). The first run after the install is printed apart from the median of the others (a page
# cache still warm from the install; caches are not dropped, that would slow every other process
# on the machine).
# Idle memory: 5 s after the first answer, PSS (and RSS) summed over the app and every process it
# started (WebKit's web and network processes), from /proc/<pid>/smaps_rollup, and split by where
# it lies (Folio's own, WebKitGTK's libraries, the GL stack, other libraries).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=()
[ "${1:-}" = "--debug" ] && { mode=(--debug); shift; }
runs=${1:-5}
sudo_cmd=()
[ "$(id -u)" = 0 ] || sudo_cmd=(sudo)
for tool in apt-get dpkg-deb xvfb-run xwininfo; do
  command -v "$tool" >/dev/null || { echo "bench-package: $tool is missing — hint: bash scripts/install.sh" >&2; exit 1; }
done
if dpkg-query -W -f='${Status}' folio 2>/dev/null | grep -q 'ok installed'; then
  echo "bench-package: a 'folio' package is installed already; this would replace and remove it — hint: apt-get remove folio" >&2
  exit 1
fi

mapfile -t built < <(bash scripts/package.sh "${mode[@]}")
deb=${built[0]} rpm=${built[1]}
work=$(mktemp -d)
cleanup() {
  if dpkg-query -W -f='${Status}' folio 2>/dev/null | grep -q 'ok installed'; then
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get remove --purge -y -qq folio >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

mib() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
deb_size=$(stat -c %s "$deb")
rpm_size=$(stat -c %s "$rpm")
deb_installed=$(( $(dpkg-deb -f "$deb" Installed-Size) * 1024 ))
rpm_installed=$(command -v rpm >/dev/null && rpm -qp --nosignature --qf '%{SIZE}' "$rpm" 2>/dev/null || echo 0)
desktop_bytes=$(dpkg-deb --fsys-tarfile "$deb" | tar -tvf - --wildcards '*usr/bin/folio-desktop' | awk '{ print $3 }')
folio_bytes=$(dpkg-deb --fsys-tarfile "$deb" | tar -tvf - --wildcards '*usr/bin/folio' | awk '{ print $3 }')
pdfium_bytes=$(dpkg-deb --fsys-tarfile "$deb" | tar -tvf - --wildcards '*usr/lib/Folio/libpdfium.so' | awk '{ print $3 }')

DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$(realpath "$deb")" >/dev/null

cat >"$work/inner.sh" <<'SH'
#!/usr/bin/env bash
# Inside one Xvfb: RUNS launches of the installed app timed to its first answered command (the
# log polled every 10 ms; memory read 5 s later), then RUNS more timed to its window being
# mapped (xwininfo polled every 20 ms). Apart, because polling the X server every few
# milliseconds on two cores slows the very start it measures. One line per run on stdout:
#   answer <answer_ms> <pss_kib> <rss_kib> <processes> <own_kib> <webkit_kib> <gl_kib> <libs_kib>
#   window <window_ms>
set -u
work=$1 runs=$2
tree() { echo "$1"; for c in $(pgrep -P "$1"); do tree "$c"; done; }
launch() {
  home="$work/home$1"; folder="$work/folder$1"
  mkdir -p "$home" "$folder"
  printf 'region,sales\nnorth,10\nsouth,12\n' >"$folder/sales.csv"
  log="$work/app$1.log"
  start=$(date +%s%N)
  HOME="$home" FOLIO_STARTUP_TRACE=1 /usr/bin/folio-desktop "$folder" >"$log" 2>&1 &
  pid=$!
}
for i in $(seq "$runs"); do
  launch "a$i"
  for _ in $(seq 3000); do
    grep -q 'first command answered' "$log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  answered=$(grep -o 'epoch_ms=[0-9]*' "$log" | cut -d= -f2)
  if [ -z "$answered" ]; then echo "FAILED run $i: $(cat "$log")"; kill "$pid" 2>/dev/null; continue; fi
  sleep 5
  pss=0 rss=0 n=0 own=0 webkit=0 gl=0 libs=0
  for p in $(tree "$pid"); do
    read -r a b < <(awk '/^Pss:/ { p = $2 } /^Rss:/ { r = $2 } END { print p + 0, r + 0 }' "/proc/$p/smaps_rollup" 2>/dev/null || echo "0 0")
    pss=$((pss + a)); rss=$((rss + b)); n=$((n + 1))
    # Where the PSS lies: Folio's own (its binary, PDFium, heap and anonymous memory — in the web
    # process that is the page and WebKit's layers), WebKitGTK's libraries (WebKit,
    # JavaScriptCore), the GL stack (Mesa, LLVM) and every other library.
    read -r o w g l < <(awk '
      /^[0-9a-f]+-[0-9a-f]+ / { name = $6 }
      /^Pss:/ {
        if (name ~ /webkit2gtk|javascriptcoregtk/) w += $2
        else if (name ~ /libLLVM|\/dri\/|libGL|libEGL|libgbm|libglapi|libz3/) g += $2
        else if (name ~ /^\/usr\/lib\/x86_64-linux-gnu\/|^\/lib/ && name !~ /Folio/) l += $2
        else o += $2
      }
      END { print o + 0, w + 0, g + 0, l + 0 }' "/proc/$p/smaps" 2>/dev/null || echo "0 0 0 0")
    own=$((own + o)); webkit=$((webkit + w)); gl=$((gl + g)); libs=$((libs + l))
  done
  echo "answer $(( answered - start / 1000000 )) $pss $rss $n $own $webkit $gl $libs"
  kill "$pid"; wait "$pid" 2>/dev/null
done
for i in $(seq "$runs"); do
  launch "w$i"
  window=""
  for _ in $(seq 1500); do
    if xwininfo -root -tree 2>/dev/null | grep -q '"Folio"'; then
      window=$(( ($(date +%s%N) - start) / 1000000 )); break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.02
  done
  [ -n "$window" ] || echo "FAILED window run $i: $(cat "$log")"
  echo "window ${window:-0}"
  kill "$pid"; wait "$pid" 2>/dev/null
done
SH
chmod +x "$work/inner.sh"
xvfb-run -a -s "-screen 0 1280x800x24" "$work/inner.sh" "$work" "$runs" >"$work/runs" || true
if grep -q FAILED "$work/runs"; then cat "$work/runs" >&2; exit 1; fi

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
grep '^answer ' "$work/runs" | cut -d' ' -f2- >"$work/answers"
grep '^window ' "$work/runs" | cut -d' ' -f2 >"$work/windows"
first=$(head -1 "$work/answers")
rest=$(tail -n +2 "$work/answers")
profile=release; [ "${#mode[@]}" -eq 0 ] || profile="debug (the test build)"
col_mb() { awk -v c="$1" '{ print $c }' "$work/answers" | median | awk '{ printf "%.0f", $1 / 1024 }'; }
echo "Folio packages, $profile, $(date -u +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg):"
echo "  .deb $(basename "$deb"): $(mib "$deb_size"), installed $(mib "$deb_installed") (folio-desktop $(mib "$desktop_bytes"), folio $(mib "$folio_bytes"), PDFium $(mib "$pdfium_bytes"))"
echo "  .rpm $(basename "$rpm"): $(mib "$rpm_size"), installed $(mib "$rpm_installed")"
echo "  cold start to the first answered command: first run after install $(cut -d' ' -f1 <<<"$first") ms; median of the next $((runs - 1)): $(cut -d' ' -f1 <<<"$rest" | median) ms (min $(cut -d' ' -f1 <<<"$rest" | sort -n | head -1), max $(cut -d' ' -f1 <<<"$rest" | sort -n | tail -1))"
echo "  window mapped (runs of their own): median $(median <"$work/windows") ms"
echo "  idle with a folder open, 5 s after the first answer, all $(cut -d' ' -f4 <<<"$first") processes: median PSS $(col_mb 2) MB (RSS $(col_mb 3) MB)"
echo "  of that PSS (medians): Folio's own (binary, PDFium, heap, anonymous; the web process's page and layers) $(col_mb 5) MB; WebKitGTK's libraries $(col_mb 6) MB; the GL stack (Mesa, LLVM) $(col_mb 7) MB; other system libraries $(col_mb 8) MB"
echo "  runs (answer answer_ms pss_kib rss_kib processes own_kib webkit_kib gl_kib libs_kib | window window_ms):"
sed 's/^/    /' "$work/runs"
