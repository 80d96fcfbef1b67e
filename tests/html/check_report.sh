#!/usr/bin/env bash
# Renders the HTML comparison report in headless Chromium and checks that it
# loads cleanly and shows what it should:
#
#   check_report.sh RENDER_REPORT WORKDIR CHARTS TABLES
#
# RENDER_REPORT writes the page; CHARTS and TABLES are how many
# <svg class="chart"> and <table class="data"> the DOM must hold. Also takes a
# 1280x4000 screenshot (WORKDIR/report.png) and checks it is not blank and
# shows the series colours. Chromium missing is a failure, never a skip.
set -euo pipefail
render=$1 work=$2 want_charts=$3 want_tables=$4
here=$(cd "$(dirname "$0")" && pwd)

fail() { echo "FAIL: $*" >&2; exit 1; }

command -v chromium >/dev/null ||
  fail "chromium not found: install Debian's 'chromium' package (tools/install-deps.sh)"

rm -rf "$work"
mkdir -p "$work"

# A fresh profile per run keeps $HOME untouched and parallel runs apart; no
# background networking, so the log holds only what the page did.
chrome() {
  timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
    --user-data-dir="$work/profile" --disable-background-networking --disable-component-update \
    --enable-logging=stderr --v=0 "$@"
}

# Chromium's stderr. A line is a problem when it is a console message (the
# page has no script, so any console message is an error or a load that the
# page's Content-Security-Policy blocked), a network or file error, or an
# ERROR/FATAL log line -- unless it is on this allow-list of harmless noise
# from Chromium running as root in a container:
noise=(
  ':ERROR:dbus/'          # no D-Bus system or session bus (bus.cc, object_proxy.cc)
  ':ERROR:(gpu|ui/gl|components/viz|content/browser/gpu|media/gpu)/'  # no GPU (--disable-gpu)
)
# Not matched at all, so not listed: WARNING lines (no D-Bus screensaver, no
# DRM device, sandbox threads) and the Debian launcher's own
# "/usr/bin/chromium: 9: [: ...: unexpected operator" from /etc/chromium.d/dev-shm.
problem_re='CONSOLE|net::ERR_|Failed to load|Not allowed to load|:ERROR:|:FATAL:'
problems() {
  local allowed
  allowed=$(IFS='|'; echo "${noise[*]}")
  grep -E "$problem_re" "$1" | grep -vE "$allowed" || true
}

# 1. The filter must see a blocked load, or a clean log below proves nothing.
cat > "$work/bad.html" <<'EOF'
<!DOCTYPE html><html><head><meta charset="utf-8"/>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"/>
<title>bad</title></head><body><img src="missing.png" alt=""/></body></html>
EOF
chrome --dump-dom "file://$work/bad.html" > "$work/bad.dom" 2> "$work/bad.log" ||
  fail "chromium failed on a trivial page (log: $work/bad.log)"
[ -n "$(problems "$work/bad.log")" ] ||
  fail "the log filter did not see the blocked image of bad.html (log: $work/bad.log)"

# 2. The report's DOM: every chart and table there, nothing on the log.
"$render" "$work/report.html"
url="file://$work/report.html"
chrome --dump-dom "$url" > "$work/dom.html" 2> "$work/dom.log" ||
  fail "chromium --dump-dom exited $? (log: $work/dom.log)"
bad=$(problems "$work/dom.log")
[ -z "$bad" ] || fail "chromium reported problems loading the report:"$'\n'"$bad"
occurrences() { { grep -o "$1" "$2" || true; } | wc -l; }
charts=$(occurrences '<svg class="chart"' "$work/dom.html")
[ "$charts" -eq "$want_charts" ] || fail "$charts charts in the DOM, expected $want_charts"
captions=$(occurrences '<figcaption>' "$work/dom.html")
[ "$captions" -eq "$want_charts" ] || fail "$captions figure captions, expected $want_charts"
tables=$(occurrences '<table class="data"' "$work/dom.html")
[ "$tables" -eq "$want_tables" ] || fail "$tables data tables in the DOM, expected $want_tables"
grep -q '<table class="context"' "$work/dom.html" || fail "no context table in the DOM"

# 3. What a person sees: a screenshot with the charts' series colours.
chrome --window-size=1280,4000 --screenshot="$work/report.png" "$url" > /dev/null \
  2> "$work/shot.log" || fail "chromium --screenshot exited $? (log: $work/shot.log)"
bad=$(problems "$work/shot.log")
[ -z "$bad" ] || fail "chromium reported problems rendering the report:"$'\n'"$bad"
[ -s "$work/report.png" ] || fail "no screenshot written (log: $work/shot.log)"
python3 "$here/png_check.py" "$work/report.png" 1280 0072b2 d55e00 ||
  fail "the screenshot $work/report.png does not show the charts"

echo "ok: $charts charts and $tables tables, no errors; screenshot $work/report.png"
