# rstream -T r and -f gid over rsockets. -T r: a path record that
# rdma_getaddrinfo returns (from the IB ACM service, which the lab does not
# run) must reach the socket as RDMA_ROUTE before connect. A small preloaded
# shim stands in for ACM and adds a deliberately invalid record (flags 0, so
# the kernel refuses it): the connect must then fail with EINVAL exactly as
# Debian's rstream does, which shows that the record was handed over.
# -f gid: AF_IB addresses need an InfiniBand port; on Soft-RoCE the RDMA CM
# refuses them with ENODEV (rstream: "rbind: No such device"): cmdbench must
# fail the same way and say why.
cb="$CMDBENCH_BINARY_DIR/bin/cmdbench"
[ -x "$cb" ] || fail "no $cb: build first and set CMDBENCH_BINARY_DIR"
cat > route_shim.c <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <infiniband/sa.h>
#include <rdma/rdma_cma.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*gai_fn)(const char *, const char *, const struct rdma_addrinfo *,
                      struct rdma_addrinfo **);

int rdma_getaddrinfo(const char *node, const char *service, const struct rdma_addrinfo *hints,
                     struct rdma_addrinfo **res) {
    /* cmdbench loads librdmacm with its plugin, outside the global scope
     * that RTLD_NEXT searches: look it up in the loaded library itself. */
    void *lib = dlopen("librdmacm.so.1", RTLD_LAZY | RTLD_NOLOAD);
    gai_fn real = (gai_fn)dlsym(lib ? lib : RTLD_NEXT, "rdma_getaddrinfo");
    int ret = real(node, service, hints, res);
    if (ret == 0 && !(hints && (hints->ai_flags & RAI_PASSIVE)) && !(*res)->ai_route) {
        (*res)->ai_route = calloc(1, sizeof(struct ibv_path_data));
        (*res)->ai_route_len = sizeof(struct ibv_path_data);
        fprintf(stderr, "route-shim: route added\n");
    }
    return ret;
}
C
cc -shared -fPIC -o route_shim.so route_shim.c -ldl || fail "cannot build the shim"

# client LABEL CMD...: a client run that must fail with exit 255; output in
# LABEL.log. No server is needed: the route is refused before any CM message
# (without it, connecting to a port nobody listens on is refused instead).
client() {
  local label=$1 rc; shift
  timeout 60 "$@" > "$label.log" 2>&1
  rc=$?
  echo "--- $label: exit $rc"; cat "$label.log"
  [ "$rc" = 255 ] || fail "$label: exit $rc, not 255"
}
# rstream reports the refused route from connect itself only when blocking
# (non-blocking, its stale-errno poll failure varies with timing).
LD_PRELOAD=$PWD/route_shim.so client route-debian rstream -T r -T b -s "$addr" -p 7531 -S 64 \
  -C 1
LD_PRELOAD=$PWD/route_shim.so client route-cmdbench "$cb" rstream --timeout 30 -T r -s "$addr" \
  -p 7531 -S 64 -C 1
for who in debian cmdbench; do
  grep -q '^route-shim: route added' "route-$who.log" || fail "$who: the shim was not used"
  grep -Eq '^(async )?rconnect: Invalid argument$' "route-$who.log" ||
    fail "$who: the route did not reach the socket (no EINVAL from connect)"
done

# -f gid with rxe0's GID for $addr (the IPv4-mapped entry).
gid=$(cat "/sys/class/infiniband/$dev/ports/1/gids/1")
bg_server gid-server.log "$cb" rstream --timeout 30 -f gid -b "$gid" -p 7532 -S 64 -C 1
wait_server 30; src=$?
client gid-client "$cb" rstream --timeout 30 -f gid -s "$gid" -p 7532 -S 64 -C 1
echo "--- gid-server: exit $src"; cat gid-server.log
[ "$src" = 255 ] || fail "gid server: exit $src, not 255"
grep -qx 'rbind: No such device' gid-server.log || fail "gid server: not rstream's rbind error"
grep -Eqx '(async )?rconnect: No such device' gid-client.log || fail "gid client: not rstream's rconnect error"
for log in gid-server.log gid-client.log; do
  grep -q '^cmdbench rstream: -f gid: .*InfiniBand ports only' "$log" || fail "$log: no explanation"
done
