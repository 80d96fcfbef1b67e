# `cmdbench ib_*` (the perftest front ends): each of the eight tools as
# server and client in this guest, with -R (rdma_cm) and a few iterations:
# both sides exit 0; the client prints perftest's column line and one line
# for the size, the server prints the client's line as perftest's servers
# do, the client's -o results file holds the run, ok, with its row, and its
# --report page names it.
need_cmdbench
port=18515
for tool in ib_send_lat ib_write_lat ib_read_lat ib_atomic_lat \
            ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw; do
  args=(-R -n 50 -p "$port")
  case $tool in *_bw) [ "$tool" = ib_atomic_bw ] || args+=(-s 4096) ;; esac
  bg_server "$tool.server" "$cb" "$tool" "${args[@]}" --timeout 60
  wait_listen "$port" 60 || { cat "$tool.server"; fail "$tool: the server does not listen"; }
  "$cb" "$tool" "${args[@]}" --timeout 60 -o "$tool.json" --report "$tool.html" "$addr" \
    > "$tool.client" 2>&1
  rc=$?
  wait_server 30; src=$?
  echo "=== $tool client (exit $rc)"; cat "$tool.client"
  echo "=== $tool server (exit $src)"; cat "$tool.server"
  [ "$rc" = 0 ] || fail "$tool: the client exited $rc"
  [ "$src" = 0 ] || fail "$tool: the server exited $src"
  grep -q '^ #bytes' "$tool.client" || fail "$tool: no column line"
  line=$(grep -E '^ [0-9]+ ' "$tool.client") || fail "$tool: no result line"
  grep -qF -- "$line" "$tool.server" || fail "$tool: the server did not print the client's line"
  check_results "$tool.json" "$tool" <<'PY' || fail "$tool: results file"
run = runs[sys.argv[2]]
assert run["status"] == "ok", run
assert len(run["rows"]) == 1, run["rows"]
PY
  grep -q "$tool" "$tool.html" || fail "$tool: the --report page does not name the run"
  port=$((port + 1))
done
