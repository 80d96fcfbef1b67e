# rstream's default suite over rsockets, `cmdbench rstream` client against
# Debian's rstream server, the two tables compared row by row (names, sizes,
# counts, totals, widths). About 5 minutes under TCG, so it runs only when
# CMDBENCH_LAB_FULL=1 (like 90-rstream-full); otherwise SKIP, saying why.
#   CMDBENCH_LAB_FULL=1 tools/rdma-lab --timeout 1800 -- tests/lab/guest-suite.sh '4*'
[ "${CMDBENCH_LAB_FULL:-0}" = 1 ] || { echo "set CMDBENCH_LAB_FULL=1 to run"; exit 77; }
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
bg_server server.log rstream -b "$addr" -p 7491
sleep 1
retry 5 timeout 1200 "$cb" rstream --timeout 1200 -s "$addr" -p 7491 > client.log 2>&1
rc=$?
wait_server 120; src=$?
echo "--- cmdbench client (exit $rc)"; cat client.log
echo "--- rstream server (exit $src)"; cat server.log
[ "$rc" = 0 ] || fail "cmdbench rstream client failed"
[ "$src" = 0 ] || fail "rstream server failed"
[ "$(wc -l < client.log)" = 9 ] || fail "client: expected a header and 8 rows"
[ "$(wc -l < server.log)" = 9 ] || fail "server: expected a header and 8 rows"
[ "$(head -1 client.log)" = "$(head -1 server.log)" ] || fail "headers differ"
paste -d'|' <(awk '{print $1, $2, $3, $4, $5, length($0)}' client.log) \
            <(awk '{print $1, $2, $3, $4, $5, length($0)}' server.log) |
  awk -F'|' '$1 != $2 { print "differs: " $1 " vs " $2; bad = 1 } END { exit bad }' ||
  fail "tables differ in names, sizes, counts, totals or widths"
