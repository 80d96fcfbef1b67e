#!/usr/bin/env bash
# Paired rounds of one one-sided verbs op between perftest, cmdbench and the
# bare loop of bench/one_sided_loop.c in chosen shapes, inside the RDMA lab,
# each round trip split as bench/verbs-split.sh does.
set -uo pipefail

usage() {
    cat <<'EOF'
Usage: tools/rdma-lab -- bench/verbs-shapes.sh [--op read|fetch_add] [--reps N]
           [--iterations N] [--build-dir DIR] [--old-build DIR] [--ref NAME]
           VARIANT...

Runs every VARIANT once per round, --reps rounds, the order reversed every
other round, with bench/post_split.c preloaded into each client, and prints
each run's medians (in_post: the doorbell's write(), the kernel's work;
outside: the rest of the loop; period: one round trip), then per variant the
median of its runs and, for each round, its ratio to perftest's and to
--ref's run of that round: the median of those paired ratios with a 90%
bootstrap interval. Pairing by round takes out most of what moves a whole
boot or a minute of it.

VARIANT is one of:
  perftest       ib_read_lat -s 64, or ib_atomic_lat (always run: the base)
  cmdbench       cmdbench run with verbs-lat, from --build-dir
  cmdbench-old   the same from --old-build (a tree before a change)
  bare           bench/one_sided_loop.c at its defaults (perftest's queue
                 sizes, one thread, a busy-polling server)
  bare-libs      bare with cmdbench's shared libraries preloaded
  NAME=VAR=V,... bare with the given BARE_* settings (see one_sided_loop.c),
                 e.g. queues=BARE_SEND_WR=128,BARE_RECV_WR=111

  --op OP          read (64 B) or fetch_add (default read)
  --reps N         rounds, 1..99 (default 8)
  --iterations N   round trips per run, 1000..1000000 (default 40000)
  --build-dir DIR  cmdbench build tree (default $CMDBENCH_BINARY_DIR, else build)
  --old-build DIR  a second build tree or install prefix (bin/cmdbench and
                   lib/cmdbench/plugins) for cmdbench-old
  --ref NAME       the variant the others are also paired with (default bare)

About 4 s per run under TCG at 40,000 round trips: 5 variants x 14 rounds is
about 5 minutes. Needs cc, perftest and python3.
EOF
}

die() { echo "verbs-shapes.sh: $*" >&2; exit 2; }

op=read reps=8 iters=40000 build=${CMDBENCH_BINARY_DIR:-build} old="" ref=bare variants=()
while [ $# -gt 0 ]; do
    case $1 in
        --op) [ $# -ge 2 ] || die "--op needs a value"; op=$2; shift ;;
        --reps) [[ ${2:-} =~ ^[1-9][0-9]?$ ]] || die "--reps needs a number in [1, 99], got '${2:-}'"
                reps=$2; shift ;;
        --iterations) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] && [ "$2" -ge 1000 ] && [ "$2" -le 1000000 ] ||
                          die "--iterations needs a number in [1000, 1000000], got '${2:-}'"
                      iters=$2; shift ;;
        --build-dir) [ $# -ge 2 ] || die "--build-dir needs a directory"; build=$2; shift ;;
        --old-build) [ $# -ge 2 ] || die "--old-build needs a directory"; old=$2; shift ;;
        --ref) [ $# -ge 2 ] || die "--ref needs a variant"; ref=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        -*) die "unknown option '$1' (--help lists them)" ;;
        *) variants+=("$1") ;;
    esac
    shift
done
case $op in
    read) size=64 tool=(ib_read_lat -s 64) ;;
    fetch_add) size=8 tool=(ib_atomic_lat) ;;
    *) die "--op: read or fetch_add, got '$op'" ;;
esac
[ ${#variants[@]} -gt 0 ] || variants=(bare cmdbench)
runs=(perftest)
for v in "${variants[@]}"; do
    case $v in
        perftest) continue ;;
        cmdbench) [ -x "$build/bin/cmdbench" ] || die "$build/bin/cmdbench not found: build first, or give --build-dir" ;;
        cmdbench-old) [ -x "$old/bin/cmdbench" ] || die "cmdbench-old needs --old-build DIR with bin/cmdbench" ;;
        bare | bare-libs) ;;
        *=BARE_*) [[ ${v%%=*} =~ ^[A-Za-z0-9_-]+$ ]] || die "variant name '${v%%=*}': letters, digits, - and _" ;;
        *) die "unknown variant '$v' (--help lists them)" ;;
    esac
    runs+=("$v")
done
names=" ${runs[*]%%=*} "
[[ $names == *" $ref "* ]] || die "--ref $ref is not among the variants (${names:1:-1})"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=bench/lab_needs.sh
. "$here/lab_needs.sh"
lab_needs verbs-shapes.sh cc python3 "${tool[0]}"
work=$(mktemp -d "${TMPDIR:-/tmp}/verbs-shapes.XXXXXX")
server=""
cleanup() {
    [ -z "$server" ] || kill "$server" 2> /dev/null
    rm -rf "$work"
}
trap cleanup EXIT
cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$work/post_split.so" "$here/post_split.c" -ldl ||
    die "cannot build post_split.c"
cc -O2 -Wall -Wextra -Werror -o "$work/bare" "$here/one_sided_loop.c" -lrdmacm -libverbs -lpthread ||
    die "cannot build one_sided_loop.c"
printf '[[run]]\ntest = "verbs-lat"\nop = "%s"\nsizes = [%s]\niterations = %s\nbind_address = "%s"\n' \
    "$op" "$size" "$iters" "$addr" > "$work/run.toml"
libs=""
[ -x "$build/bin/cmdbench" ] && libs=$(ldd "$build/bin/cmdbench" | awk '$3 ~ /^\// {print $3}' | paste -sd:)

port=$((20000 + RANDOM % 20000)) # apart from an earlier run's ports, still in TIME_WAIT
# record NAME: the client's post_split line as a row "NAME in_post outside period"
record() {
    local row
    row=$(awk '/^post_split: pid/ && $5 >= 1000 {print $7, $9, $11}' "$work/err" | tail -1)
    if [ -z "$row" ]; then
        echo "round $round $1: no figures (the run failed?)" >&2
        return
    fi
    echo "$round $1 $row" >> "$work/rows"
    printf 'round %d %-14s in_post %s us, outside %s us, period %s us\n' "$round" "$1" $row
}
# pair PRELOAD ENV... -- COMMAND...: COMMAND's server, then its client
# against it (with the probe and PRELOAD), both with ENV, as perftest runs
pair() {
    local extra=$1 envs=()
    shift
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    port=$((port + 1))
    env "${envs[@]}" timeout 300 "$@" -R -F -n "$iters" -p $port > /dev/null 2>&1 &
    server=$!
    sleep 1 # perftest serves one client: no probe connection
    env "${envs[@]}" LD_PRELOAD="$work/post_split.so${extra:+:$extra}" \
        timeout 300 "$@" -R -F -n "$iters" -p $port "$addr" > /dev/null 2> "$work/err"
    wait "$server" 2> /dev/null
    server=""
}
: > "$work/rows"
for ((round = 1; round <= reps; round++)); do
    order=("${runs[@]}")
    [ $((round % 2)) = 1 ] || mapfile -t order < <(printf "%s\n" "${runs[@]}" | tac)
    for v in "${order[@]}"; do
        case $v in
            perftest) pair "" X=1 -- "${tool[@]}" ;;
            cmdbench | cmdbench-old)
                bin=$build/bin/cmdbench
                [ "$v" = cmdbench ] || bin=$old/bin/cmdbench
                LD_PRELOAD=$work/post_split.so timeout 300 "$bin" run "$work/run.toml" -q \
                    > /dev/null 2> "$work/err" ;;
            bare) pair "" X=1 -- "$work/bare" --op "$op" -s "$size" ;;
            bare-libs) pair "$libs" X=1 -- "$work/bare" --op "$op" -s "$size" ;;
            *) IFS=, read -r -a settings <<< "${v#*=}"
               pair "" "${settings[@]}" -- "$work/bare" --op "$op" -s "$size" ;;
        esac
        record "${v%%=*}"
    done
done

python3 - "$work/rows" "$ref" <<'EOF'
import random, statistics as st, sys
rows = {}  # variant -> {round: [in_post, outside, period]}
order = []
for line in open(sys.argv[1]):
    rnd, name, *vals = line.split()
    if name not in rows:
        order.append(name)
    rows.setdefault(name, {})[int(rnd)] = [float(v) for v in vals]
if "perftest" not in rows:
    sys.exit("verbs-shapes.sh: perftest gave no figures")
ref = sys.argv[2]
rng = random.Random(1)
print(f"{'median of runs':<16} {'in_post':>8} {'outside':>8} {'period':>8}")
for name in order:
    med = [st.median(r[i] for r in rows[name].values()) for i in range(3)]
    print(f"{name:<16} {med[0]:8.2f} {med[1]:8.2f} {med[2]:8.2f}")
print("paired by round: median of the rounds' ratios (90% bootstrap interval)")
for name in order:
    for base in ("perftest", ref):
        if name == base or base not in rows:
            continue
        rounds = sorted(set(rows[name]) & set(rows[base]))
        if not rounds:
            continue
        cells = []
        for i, col in ((0, "in_post"), (2, "period")):
            r = [rows[name][k][i] / rows[base][k][i] for k in rounds]
            boot = sorted(st.median(rng.choices(r, k=len(r))) for _ in range(2000))
            cells.append(f"{col} {st.median(r):.3f} ({boot[100]:.3f}-{boot[1899]:.3f})")
        print(f"  {name + ' / ' + base:<26} " + "  ".join(cells) + f"  [{len(rounds)} rounds]")
EOF
