# `cmdbench ib_*` (the perftest front ends): each of the eight tools as
# server and client in this guest as perftest is started (`-d rxe0`, QPs
# connected over the TCP connection), a few iterations; then -R (rdma_cm),
# UC at a 1 KiB MTU and UD's default size (the MTU): both sides exit 0;
# the client prints perftest's column line and one line for the size, the server prints the client's line as perftest's servers
# do, the client's -o results file holds the run, ok, with its row, and its
# --report page names it.
need_cmdbench
port=18515
for case in ib_send_lat ib_write_lat ib_read_lat ib_atomic_lat \
            ib_send_bw ib_write_bw ib_read_bw ib_atomic_bw \
            ib_send_lat:-R ib_write_bw:-c:UC:-m:1024 ib_send_bw:-c:UD; do
  IFS=: read -r -a extra <<<"$case"
  tool=${extra[0]}; extra=("${extra[@]:1}")
  args=(-d "$dev" -n 50 -p "$port" "${extra[@]}")
  case $case in ib_send_bw | ib_write_bw | ib_read_bw) args+=(-s 4096) ;; esac
  name=$tool$(IFS=; echo "${extra[*]}")
  bg_server "$name.server" "$cb" "$tool" "${args[@]}" --timeout 60
  wait_listen "$port" 60 || { cat "$name.server"; fail "$name: the server does not listen"; }
  "$cb" "$tool" "${args[@]}" --timeout 60 -o "$name.json" --report "$name.html" "$addr" \
    > "$name.client" 2>&1
  rc=$?
  wait_server 30; src=$?
  echo "=== $name client (exit $rc)"; cat "$name.client"
  echo "=== $name server (exit $src)"; cat "$name.server"
  [ "$rc" = 0 ] || fail "$name: the client exited $rc"
  [ "$src" = 0 ] || fail "$name: the server exited $src"
  grep -q '^ #bytes' "$name.client" || fail "$name: no column line"
  line=$(grep -E '^ [0-9]+ ' "$name.client") || fail "$name: no result line"
  grep -qF -- "$line" "$name.server" || fail "$name: the server did not print the client's line"
  mode=exchange; [ "${extra[0]:-}" = -R ] && mode=rdma_cm
  check_results "$name.json" "$tool" "$mode" "$dev" <<'PY' || fail "$name: results file"
run = runs[sys.argv[2]]
assert run["status"] == "ok", run
assert len(run["rows"]) == 1, run["rows"]
settings = run["settings"]
assert settings["connect"] == sys.argv[3], settings
assert settings["device"] == sys.argv[4], settings
assert "qpn" in settings and "path_mtu" in settings, settings
PY
  grep -q "$tool" "$name.html" || fail "$name: the --report page does not name the run"
  port=$((port + 1))
done
