/*
 * A transport built against the frozen ABI 1.1 header that leaves its recv
 * hook NULL: before 1.2 every socket hook is required, so the host must
 * refuse the plugin and name the hook.
 */
#include <cmdbench/plugin.h>
#include <stddef.h>
#include <unistd.h>

static int t_socket(int d, int t, int p) {
    return socket(d, t, p);
}
static int t_bind(int s, const struct sockaddr *a, socklen_t l) {
    return bind(s, a, l);
}
static int t_listen(int s, int b) {
    return listen(s, b);
}
static int t_accept(int s, struct sockaddr *a, socklen_t *l) {
    return accept(s, a, l);
}
static int t_connect(int s, const struct sockaddr *a, socklen_t l) {
    return connect(s, a, l);
}
static ssize_t t_send(int s, const void *b, size_t n, int f) {
    return send(s, b, n, f);
}
static int t_poll(struct pollfd *f, nfds_t n, int t) {
    return poll(f, n, t);
}
static int t_setsockopt(int s, int l, int n, const void *v, socklen_t len) {
    return setsockopt(s, l, n, v, len);
}
static int t_getsockopt(int s, int l, int n, void *v, socklen_t *len) {
    return getsockopt(s, l, n, v, len);
}
static int t_fcntl(int s, int c, int a) {
    (void)s;
    (void)c;
    (void)a;
    return 0;
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

static const struct cmdbench_transport lacks_recv = {sizeof(struct cmdbench_transport),
                                                     "lacks-recv",
                                                     "a transport without its recv hook",
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
                                                     NULL, /* recv */
                                                     t_poll,
                                                     t_setsockopt,
                                                     t_getsockopt,
                                                     t_fcntl,
                                                     t_getsockname,
                                                     t_shutdown,
                                                     t_close,
                                                     NULL};

static const struct cmdbench_transport *const transports[] = {&lacks_recv};

static const struct cmdbench_plugin plugin = {sizeof(struct cmdbench_plugin),
                                              CMDBENCH_ABI_MAJOR,
                                              CMDBENCH_ABI_MINOR,
                                              "missing-hook",
                                              "0.1.0",
                                              "a 1.1 transport without recv (tests)",
                                              1,
                                              transports,
                                              0,
                                              NULL};

CMDBENCH_PLUGIN_ENTRY {
    return &plugin;
}
