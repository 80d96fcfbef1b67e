/*
 * A plugin compiled against a FROZEN header (tests/abi/<major.minor>/), as a
 * third party that built it back then would have. It must keep loading and
 * running in today's host:
 *  - test "abi-probe-<tag>" reports what the host handed it (its ABI
 *    version, the size of its services table and run environment) next to
 *    the sizes this plugin was compiled with;
 *  - transport "tcp-abi-<tag>" is plain TCP, so the stream tests of today
 *    run over a transport table of that older layout.
 * ABI_TAG ("1-0") names them; the build defines it.
 */
#define _GNU_SOURCE
#include <cmdbench/plugin.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <unistd.h>

#define NAME(prefix) prefix ABI_TAG

static int t_socket(int d, int t, int p) {
    return socket(d, t | SOCK_CLOEXEC, p);
}
static int t_bind(int s, const struct sockaddr *a, socklen_t l) {
    return bind(s, a, l);
}
static int t_listen(int s, int b) {
    return listen(s, b);
}
static int t_accept(int s, struct sockaddr *a, socklen_t *l) {
    return accept4(s, a, l, SOCK_CLOEXEC);
}
static int t_connect(int s, const struct sockaddr *a, socklen_t l) {
    return connect(s, a, l);
}
static ssize_t t_send(int s, const void *b, size_t n, int f) {
    return send(s, b, n, f | MSG_NOSIGNAL);
}
static ssize_t t_recv(int s, void *b, size_t n, int f) {
    return recv(s, b, n, f);
}
static int t_poll(struct pollfd *f, nfds_t n, int t) {
    return poll(f, n, t);
}
static int t_setsockopt(int s, int l, int o, const void *v, socklen_t n) {
    return setsockopt(s, l, o, v, n);
}
static int t_getsockopt(int s, int l, int o, void *v, socklen_t *n) {
    return getsockopt(s, l, o, v, n);
}
static int t_fcntl(int s, int c, int a) {
    return fcntl(s, c, a);
}
static int t_getsockname(int s, struct sockaddr *a, socklen_t *l) {
    return getsockname(s, a, l);
}
static int t_shutdown(int s, int h) {
    return shutdown(s, h);
}
static int t_close(int s) {
    return close(s);
}

static const struct cmdbench_transport tcp = {sizeof(struct cmdbench_transport),
                                              NAME("tcp-abi-"),
                                              "TCP built against a frozen ABI header (tests only)",
                                              0,
                                              0,
                                              NULL,
                                              NULL,
                                              NULL,
                                              NULL,
                                              t_socket,
                                              t_bind,
                                              t_listen,
                                              t_accept,
                                              t_connect,
                                              t_send,
                                              t_recv,
                                              t_poll,
                                              t_setsockopt,
                                              t_getsockopt,
                                              t_fcntl,
                                              t_getsockname,
                                              t_shutdown,
                                              t_close};

static const struct cmdbench_param params[] = {
    {sizeof(struct cmdbench_param), "echo", CMDBENCH_PARAM_INT, "7", 0, 100, 0, 0, NULL,
     "reported back as a metric, to check parameters reach an old plugin"},
};

static int run_probe(const struct cmdbench_run_env *env) {
    const struct cmdbench_host *h = env->host;
    if (env->role != CMDBENCH_ROLE_CLIENT) return CMDBENCH_OK;
    int64_t echo = -1;
    if (h->param_int(env->ctx, "echo", &echo) != CMDBENCH_OK) {
        h->set_error(env->ctx, "param echo unavailable");
        return CMDBENCH_ERR;
    }
    cmdbench_row *row = h->row_begin(env->ctx, "abi");
    h->row_metric(row, "host_abi_major", h->abi_major, CMDBENCH_UNIT_PLAIN);
    h->row_metric(row, "host_abi_minor", h->abi_minor, CMDBENCH_UNIT_PLAIN);
    h->row_metric(row, "host_struct_size", h->struct_size, CMDBENCH_UNIT_PLAIN);
    h->row_metric(row, "built_host_size", sizeof(struct cmdbench_host), CMDBENCH_UNIT_PLAIN);
    h->row_metric(row, "env_struct_size", env->struct_size, CMDBENCH_UNIT_PLAIN);
    h->row_metric(row, "built_env_size", sizeof(struct cmdbench_run_env), CMDBENCH_UNIT_PLAIN);
    h->row_metric(row, "built_abi_minor", CMDBENCH_ABI_MINOR, CMDBENCH_UNIT_PLAIN);
    h->row_metric(row, "echo", (double)echo, CMDBENCH_UNIT_PLAIN);
    h->row_end(row);
    return CMDBENCH_OK;
}

static const struct cmdbench_test probe = {sizeof(struct cmdbench_test),
                                           NAME("abi-probe-"),
                                           "reports the host's ABI tables (tests only)",
                                           0,
                                           1,
                                           params,
                                           run_probe};

static const struct cmdbench_transport *const transports[] = {&tcp};
static const struct cmdbench_test *const tests[] = {&probe};
static const struct cmdbench_plugin plugin = {sizeof(struct cmdbench_plugin),
                                              CMDBENCH_ABI_MAJOR,
                                              CMDBENCH_ABI_MINOR,
                                              NAME("abi-probe-"),
                                              "0.0.1",
                                              "built against a frozen plugin ABI header",
                                              1,
                                              transports,
                                              1,
                                              tests};

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}
