#!/usr/bin/env bash
# How `cmdbench compare`'s CPU time and peak memory grow with each dimension
# of the results files it reads: runs, rows a run, metrics a row (declared and
# undeclared), histograms a row, expectation keys, the number of files, and
# the runs of a matrix document (each its own name in the shared section).
# Each case doubles one dimension (SCALES, default 1 2 4 8 times its base)
# with the others small; linear code doubles too, a quadratic step
# quadruples. See bench/README.md.
#   bench/compare_scale.sh
#   CASES="metrics rows" SCALES="1 2 4" FORMATS=json bench/compare_scale.sh
# Environment: CMDBENCH_BINARY_DIR (default build), CASES, SCALES, FORMATS
# (table json html; html is --report), TIMEOUT (default 300: seconds per
# compare; a compare killed at it reads "timeout").
# Prints one line per (case, format, N): the file's bytes, exit status, user +
# system CPU seconds, peak RSS, output bytes, and the growth exponent of CPU
# and RSS from the line before (1 linear, 2 quadratic), flagged "<< SUPERLINEAR"
# above 1.5 once the figures are large enough to time (CPU >= 0.2 s, RSS >=
# 64 MB). Ends with the flagged lines, if any. Exit status 0 (a measurement),
# 2 when there is no cmdbench binary or python3.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/.." && pwd)
bindir=${CMDBENCH_BINARY_DIR:-$src/build}
bin=$bindir/bin/cmdbench
cases=${CASES:-runs rows metrics undeclared hists expect files matrix}
scales=${SCALES:-1 2 4 8}
formats=${FORMATS:-table json}
limit=${TIMEOUT:-300}

[ -x "$bin" ] || { echo "no cmdbench at $bin (build it, or set CMDBENCH_BINARY_DIR)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# generate CASE K PATH: the file of CASE at K times its base size; prints N,
# the dimension's value. Arguments: runs rows metrics hists expect.
generate() {
    local k=$2 args n
    case $1 in
    runs) n=$((2000 * k)); args="$n 2 2 1 2" ;;
    rows) n=$((10000 * k)); args="2 $n 2 1 2" ;;
    metrics) n=$((20000 * k)); args="2 1 $n 0 0" ;;
    undeclared) n=$((20000 * k)); args="2 1 $n 0 0 --undeclared" ;;
    hists) n=$((10000 * k)); args="2 1 1 $n 0" ;;
    expect) n=$((60000 * k)); args="$((1000 * k)) 1 2 0 60" ;; # N: keys in all runs
    files) n=$((2 * k)); args="1000 2 2 1 2" ;;
    matrix) n=$((2000 * k)); args="$n 2 2 1 2 --matrix" ;; # each pair its own run name
    esac
    # shellcheck disable=SC2086 # args is a list of words
    python3 "$here/results_file.py" $args "$3" || return 1
    echo "$n"
}

# exponent OLD NEW OLD_N NEW_N FLOOR: log(NEW/OLD) / log(NEW_N/OLD_N), or "-"
# when OLD is below FLOOR (too small to time) or either is not a number.
exponent() {
    awk -v a="$1" -v b="$2" -v m="$3" -v n="$4" -v floor="$5" 'BEGIN {
        if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || a + 0 < floor || b + 0 <= 0) { print "-"; exit }
        printf "%.2f", log(b / a) / log(n / m) }'
}

flag() { # exponents...: the flag of a line
    for e in "$@"; do
        awk -v e="$e" 'BEGIN { exit !(e != "-" && e + 0 > 1.5) }' && { echo "<< SUPERLINEAR"; return; }
    done
}

flagged=""
printf '%-10s %-5s %7s %10s %4s %8s %8s %10s %6s %6s\n' \
    case format N bytes exit cpu_s rss_MB out_bytes cpu_e rss_e
for c in $cases; do
    for fmt in $formats; do
        prev_n="" prev_cpu="" prev_rss="" prev_rc=""
        for k in $scales; do
            f=$tmp/$c-$k.json
            n=$(generate "$c" "$k" "$f") || { echo "cannot generate $c x$k" >&2; continue; }
            bytes=$(stat -c %s "$f")
            inputs=("$f")
            [ "$c" = files ] && for ((i = 1; i < n; i++)); do inputs+=("$f"); done
            out=(--format "$fmt")
            [ "$fmt" = html ] && out=(--report "$tmp/out.html")
            rm -f "$tmp/out.html"
            timeout "$limit" /usr/bin/time -f '%U %S %M' -o "$tmp/time" "$bin" compare \
                "${inputs[@]}" "${out[@]}" >"$tmp/out" 2>"$tmp/err"
            rc=$?
            if [ "$rc" = 124 ]; then
                cpu=timeout rss=-
            else
                read -r user sys rss_kb < <(tail -n 1 "$tmp/time")
                cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
                rss=$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')
            fi
            out_bytes=$(stat -c %s "$tmp/out")
            [ "$fmt" = html ] && out_bytes=$(stat -c %s "$tmp/out.html" 2>/dev/null || echo 0)
            cpu_e=- rss_e=-
            # Only between two comparisons that went through (0, or 3: an
            # expectation did not hold); a refused file stops early.
            if [ -n "$prev_n" ] && [ "$rc" = "$prev_rc" ] && { [ "$rc" = 0 ] || [ "$rc" = 3 ]; }; then
                cpu_e=$(exponent "$prev_cpu" "$cpu" "$prev_n" "$n" 0.2)
                rss_e=$(exponent "$prev_rss" "$rss" "$prev_n" "$n" 64)
            fi
            line=$(printf '%-10s %-5s %7s %10s %4s %8s %8s %10s %6s %6s %s' "$c" "$fmt" "$n" \
                "$bytes" "$rc" "$cpu" "$rss" "$out_bytes" "$cpu_e" "$rss_e" "$(flag "$cpu_e" "$rss_e")")
            echo "$line"
            case $line in *SUPERLINEAR*) flagged+="$line"$'\n' ;; esac
            [ "$rc" != 0 ] && [ "$rc" != 3 ] && sed "s|$tmp/||g" "$tmp/err" | head -n 1 | cut -c1-160
            prev_n=$n prev_cpu=$cpu prev_rss=$rss prev_rc=$rc
            rm -f "$f"
        done
    done
done
if [ -n "$flagged" ]; then
    printf '\ngrowth clearly worse than linear (exponent above 1.5):\n%s' "$flagged"
else
    echo "no growth clearly worse than linear"
fi
