/* A bare one-sided verbs latency loop for bench/verbs-shapes.sh (and
 * bench/verbs-split.sh --bare): the
 * fewest lines that time an RDMA READ or fetch_add round trip over an
 * rdma_cm connection, with perftest's resource sizes by default, so the
 * split can tell a cost of cmdbench's from one any program pays.
 *
 * Usage, as perftest's tools are run by verbs-split.sh:
 *   one_sided_loop --op read|fetch_add [-s BYTES] -n ITERS -p PORT [ADDRESS]
 * without ADDRESS it serves one client and exits; -R and -F are accepted
 * and ignored (rdma_cm is the only way it connects). The client prints
 *   one_sided_loop: op OP iterations N median_us M mean_us A
 * on stdout.
 *
 * Each resource can be set to cmdbench's verbs-lat value instead, to find
 * which (if any) makes the kernel's part of the post slower:
 *   BARE_SEND_WR   send queue entries (default 1; verbs-lat 128)
 *   BARE_RECV_WR   receive queue entries (default 1; verbs-lat 111)
 *   BARE_CQE       completion queue entries (default 1; verbs-lat 255)
 *   BARE_INLINE    max inline data asked for (default 0)
 *   BARE_MR        registered bytes (default 8192; verbs-lat: the size)
 *   BARE_CHANNEL   1: the CQ has a completion channel (default 0; verbs-lat 1)
 *   BARE_RD        READ/atomic depth both ways (default: the device's)
 *   BARE_SPIN      1: the server busy-polls until the client leaves, as
 *                  perftest's does; 0: it sleeps (as verbs-lat's) (default 1)
 * and the client's process shape to cmdbench's:
 *   BARE_THREAD    1: the client times its loop on a second thread while
 *                  the first waits for it in poll(), waking every 250 ms,
 *                  as cmdbench's test thread and watchdog; 2: the same, the
 *                  first thread waiting in pthread_join(); 3: the loop on
 *                  the first thread, a second one asleep in pause();
 *                  4: one thread, and a child process asleep that shares
 *                  its file descriptor table but not its memory; 5: a
 *                  second thread asleep that shares its memory but not
 *                  its file descriptor table; 6: one thread, after a
 *                  second one was started and joined, so the C library
 *                  runs as in a threaded process (default 0: one thread)
 *   BARE_PIN       1: the client is pinned to the CPU it starts on, and
 *                  BARE_THREAD=3's sleeper with it; 2: the same, but the
 *                  sleeper on another CPU (default 0: not pinned)
 *   BARE_TOUCH     bytes of memory the client writes, one per 64, after
 *                  each round trip, outside the timed span: a loop with a
 *                  bigger footprint, as a framework's (default 0)
 * and its clock:
 *   BARE_TSC       1: one time-stamp counter read per round trip, a round
 *                  trip ending where the next begins, as perftest's loop,
 *                  so BARE_TOUCH's writes fall inside the timed span
 *                  (default 0: two clock_gettime() reads, around the post
 *                  and the poll only) */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <rdma/rdma_cma.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

struct remote {
    uint64_t addr;
    uint32_t rkey;
};

struct side {
    struct rdma_event_channel *events;
    struct rdma_cm_id *listener, *id;
    struct ibv_pd *pd;
    struct ibv_comp_channel *channel;
    struct ibv_cq *cq;
    struct ibv_mr *mr;
    void *buf;
};

static void die(const char *what) {
    fprintf(stderr, "one_sided_loop: %s: %s\n", what, strerror(errno));
    exit(1);
}

static long knob(const char *name, long fallback) {
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

/* next_event: the next rdma_cm event, which must be WANT */
static struct rdma_cm_event *next_event(struct side *s, enum rdma_cm_event_type want) {
    struct rdma_cm_event *ev = NULL;
    if (rdma_get_cm_event(s->events, &ev) != 0) die("rdma_get_cm_event");
    if (ev->event != want) {
        fprintf(stderr, "one_sided_loop: got %s, want %s\n", rdma_event_str(ev->event),
                rdma_event_str(want));
        exit(1);
    }
    return ev;
}

/* resources: PD, CQ, MR and QP on ID, sized by the knobs */
static void resources(struct side *s, struct rdma_cm_id *id, size_t size) {
    s->pd = ibv_alloc_pd(id->verbs);
    if (!s->pd) die("ibv_alloc_pd");
    if (knob("BARE_CHANNEL", 0)) {
        s->channel = ibv_create_comp_channel(id->verbs);
        if (!s->channel) die("ibv_create_comp_channel");
    }
    s->cq = ibv_create_cq(id->verbs, (int)knob("BARE_CQE", 1), NULL, s->channel, 0);
    if (!s->cq) die("ibv_create_cq");
    size_t bytes = (size_t)knob("BARE_MR", 8192);
    if (bytes < size) bytes = size;
    if (posix_memalign(&s->buf, 4096, bytes) != 0) die("posix_memalign");
    memset(s->buf, 0, bytes);
    s->mr = ibv_reg_mr(s->pd, s->buf, bytes,
                       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE |
                           IBV_ACCESS_REMOTE_ATOMIC);
    if (!s->mr) die("ibv_reg_mr");
    struct ibv_qp_init_attr attr = {0};
    attr.send_cq = attr.recv_cq = s->cq;
    attr.qp_type = IBV_QPT_RC;
    attr.cap.max_send_wr = (uint32_t)knob("BARE_SEND_WR", 1);
    attr.cap.max_recv_wr = (uint32_t)knob("BARE_RECV_WR", 1);
    attr.cap.max_send_sge = attr.cap.max_recv_sge = 1;
    attr.cap.max_inline_data = (uint32_t)knob("BARE_INLINE", 0);
    if (rdma_create_qp(id, s->pd, &attr) != 0) die("rdma_create_qp");
}

static struct rdma_conn_param conn_param(struct rdma_cm_id *id) {
    struct ibv_device_attr dev;
    if (ibv_query_device(id->verbs, &dev) != 0) die("ibv_query_device");
    const long rd = knob("BARE_RD", dev.max_qp_rd_atom);
    struct rdma_conn_param p = {0};
    p.responder_resources = p.initiator_depth = (uint8_t)(rd > 255 ? 255 : rd);
    p.retry_count = 7;
    p.rnr_retry_count = 7;
    return p;
}

static int serve(struct side *s, const char *port, size_t size) {
    struct sockaddr_in any = {0};
    any.sin_family = AF_INET;
    any.sin_port = htons((uint16_t)atoi(port));
    if (rdma_create_id(s->events, &s->listener, NULL, RDMA_PS_TCP) != 0) die("rdma_create_id");
    if (rdma_bind_addr(s->listener, (struct sockaddr *)&any) != 0) die("rdma_bind_addr");
    if (rdma_listen(s->listener, 1) != 0) die("rdma_listen");
    struct rdma_cm_event *ev = next_event(s, RDMA_CM_EVENT_CONNECT_REQUEST);
    s->id = ev->id;
    rdma_ack_cm_event(ev);
    resources(s, s->id, size);
    struct remote r = {(uint64_t)(uintptr_t)s->buf, s->mr->rkey};
    struct rdma_conn_param p = conn_param(s->id);
    p.private_data = &r;
    p.private_data_len = sizeof r;
    if (rdma_accept(s->id, &p) != 0) die("rdma_accept");
    rdma_ack_cm_event(next_event(s, RDMA_CM_EVENT_ESTABLISHED));
    if (knob("BARE_SPIN", 1)) {
        /* busy-poll the event channel, as perftest's passive side keeps a CPU */
        const int flags = fcntl(s->events->fd, F_GETFL);
        if (fcntl(s->events->fd, F_SETFL, flags | O_NONBLOCK) != 0) die("fcntl");
        struct rdma_cm_event *last = NULL;
        while (rdma_get_cm_event(s->events, &last) != 0)
            if (errno != EAGAIN) die("rdma_get_cm_event");
        rdma_ack_cm_event(last);
    } else {
        rdma_ack_cm_event(next_event(s, RDMA_CM_EVENT_DISCONNECTED));
    }
    return 0;
}

static int cmp_u64(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* What the timed loop needs, and what it says: status 0 once it printed its
 * figures; done_pipe[1], when open, hears a byte when it ends. */
struct loop_args {
    struct side *s;
    struct remote r;
    int is_read;
    size_t size;
    long iters;
    int status;
    int done_pipe[2];
};

static void *timed_loop(void *arg);

// BARE_PIN: 1 pins the client to the CPU it runs on (a thread it starts
// inherits that); 2 the same, but BARE_THREAD=3's sleeper moves to another.
static void pin_here(long pin) {
    if (pin <= 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(sched_getcpu(), &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) die("sched_setaffinity");
}

// BARE_THREAD=3's thread; `arg` the CPU it moves to, or -1 to stay.
static void *sleeper(void *arg) {
    const int cpu = (int)(intptr_t)arg;
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) die("sched_setaffinity");
    }
    for (;;)
        pause();
    return arg;
}

static void *returns(void *arg) {
    return arg;
}

// BARE_THREAD=4 and 5: a task asleep beside the loop, made with clone()
// to share either the descriptor table or the memory, not both. It makes
// raw system calls only: clone() gave it no thread-local storage of its
// own, and the C library's wrappers would use the first thread's.
static int sleep_forever(void *arg) {
    syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL); // a child: not left behind
    for (;;)
        syscall(SYS_pause);
    return arg != NULL;
}

static pid_t start_sleeper_task(int flags) {
    enum { kStack = 64 * 1024 };
    char *stack = malloc(kStack);
    if (!stack) die("malloc");
    pid_t pid = clone(sleep_forever, stack + kStack, flags, NULL);
    if (pid < 0) die("clone");
    return pid;
}

static int client(struct side *s, const char *address, const char *port, int is_read, size_t size,
                  long iters) {
    struct addrinfo hints = {0}, *dst = NULL;
    hints.ai_family = AF_INET;
    if (getaddrinfo(address, port, &hints, &dst) != 0) {
        fprintf(stderr, "one_sided_loop: cannot resolve %s\n", address);
        return 1;
    }
    if (rdma_create_id(s->events, &s->id, NULL, RDMA_PS_TCP) != 0) die("rdma_create_id");
    if (rdma_resolve_addr(s->id, NULL, dst->ai_addr, 2000) != 0) die("rdma_resolve_addr");
    freeaddrinfo(dst);
    rdma_ack_cm_event(next_event(s, RDMA_CM_EVENT_ADDR_RESOLVED));
    if (rdma_resolve_route(s->id, 2000) != 0) die("rdma_resolve_route");
    rdma_ack_cm_event(next_event(s, RDMA_CM_EVENT_ROUTE_RESOLVED));
    resources(s, s->id, size);
    struct rdma_conn_param p = conn_param(s->id);
    if (rdma_connect(s->id, &p) != 0) die("rdma_connect");
    struct rdma_cm_event *ev = next_event(s, RDMA_CM_EVENT_ESTABLISHED);
    struct remote r;
    if (ev->param.conn.private_data_len < sizeof r) {
        fprintf(stderr, "one_sided_loop: the server sent no buffer\n");
        return 1;
    }
    memcpy(&r, ev->param.conn.private_data, sizeof r);
    rdma_ack_cm_event(ev);
    struct loop_args a = {s, r, is_read, size, iters, 1, {-1, -1}};
    const long shape = knob("BARE_THREAD", 0);
    pthread_t t;
    if (shape == 1 || shape == 2) {
        if (shape == 1 && pipe(a.done_pipe) != 0) die("pipe");
        if (pthread_create(&t, NULL, timed_loop, &a) != 0) die("pthread_create");
        struct pollfd done = {a.done_pipe[0], POLLIN, 0};
        while (shape == 1 && poll(&done, 1, 250) == 0) {
        }
        pthread_join(t, NULL);
    } else {
        const long pin = knob("BARE_PIN", 0);
        pin_here(pin);
        const int sleeper_cpu = pin == 2 ? (sched_getcpu() == 0 ? 1 : 0) : -1;
        if (shape == 3 && pthread_create(&t, NULL, sleeper, (void *)(intptr_t)sleeper_cpu) != 0)
            die("pthread_create");
        if (shape == 6) {
            if (pthread_create(&t, NULL, returns, NULL) != 0) die("pthread_create");
            pthread_join(t, NULL);
        }
        pid_t child = 0;
        if (shape == 4) child = start_sleeper_task(CLONE_FILES | SIGCHLD);
        if (shape == 5)
            start_sleeper_task(CLONE_VM | CLONE_FS | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM);
        timed_loop(&a);
        if (child > 0) kill(child, SIGKILL);
    }
    if (a.status == 0) rdma_disconnect(s->id);
    return a.status;
}

static void *timed_loop(void *arg) {
    struct loop_args *a = arg;
    struct side *s = a->s;
    const struct remote r = a->r;
    const int is_read = a->is_read;
    const size_t size = a->size;
    const long iters = a->iters;

    uint64_t *samples = malloc((size_t)iters * sizeof *samples);
    if (!samples) die("malloc");
    struct ibv_sge sge = {(uint64_t)(uintptr_t)s->buf, (uint32_t)size, s->mr->lkey};
    struct ibv_send_wr wr = {0}, *bad = NULL;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.send_flags = IBV_SEND_SIGNALED;
    if (is_read) {
        wr.opcode = IBV_WR_RDMA_READ;
        wr.wr.rdma.remote_addr = r.addr;
        wr.wr.rdma.rkey = r.rkey;
    } else {
        wr.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD;
        wr.wr.atomic.remote_addr = r.addr;
        wr.wr.atomic.rkey = r.rkey;
        wr.wr.atomic.compare_add = 1;
    }
    const size_t touch = (size_t)knob("BARE_TOUCH", 0);
    uint8_t *scratch = touch ? calloc(touch, 1) : NULL;
    if (touch && !scratch) die("calloc");
    const int tsc = knob("BARE_TSC", 0) == 1;
    const uint64_t tsc_start = __rdtsc(), ns_start = now_ns();
    uint64_t last = tsc_start;
    long i = 0; /* round trips done */
    for (; i < iters; ++i) {
        for (size_t b = 0; b < touch; b += 64)
            scratch[b] += 1;
        const uint64_t t0 = tsc ? 0 : now_ns();
        wr.wr_id = (uint64_t)i;
        if (ibv_post_send(s->id->qp, &wr, &bad) != 0) die("ibv_post_send");
        struct ibv_wc wc;
        int n;
        while ((n = ibv_poll_cq(s->cq, 1, &wc)) == 0) {
        }
        if (n < 0 || wc.status != IBV_WC_SUCCESS) {
            fprintf(stderr, "one_sided_loop: completion %ld: %s\n", i,
                    n < 0 ? "poll failed" : ibv_wc_status_str(wc.status));
            break;
        }
        if (tsc) {
            const uint64_t t = __rdtsc();
            samples[i] = t - last;
            last = t;
        } else {
            samples[i] = now_ns() - t0;
        }
    }
    /* counter ticks to ns at the rate the counter ran over the loop */
    const double ns_per_sample =
        tsc ? (double)(now_ns() - ns_start) / (double)(__rdtsc() - tsc_start) : 1.0;
    if (i == iters) {
        double sum = 0;
        for (long k = 0; k < iters; ++k)
            sum += (double)samples[k] * ns_per_sample;
        qsort(samples, (size_t)iters, sizeof *samples, cmp_u64);
        printf("one_sided_loop: op %s iterations %ld median_us %.2f mean_us %.2f\n",
               is_read ? "read" : "fetch_add", iters,
               (double)samples[iters / 2] * ns_per_sample / 1e3, sum / (double)iters / 1e3);
        a->status = 0;
    }
    free(samples);
    free(scratch);
    if (a->done_pipe[1] >= 0 && write(a->done_pipe[1], "", 1) != 1) die("write");
    return NULL;
}

int main(int argc, char **argv) {
    const char *op = "read", *port = "18515", *address = NULL;
    size_t size = 8;
    long iters = 1000;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (strcmp(a, "-R") == 0 || strcmp(a, "-F") == 0) continue;
        if (strcmp(a, "--op") == 0 && has_value)
            op = argv[++i];
        else if (strcmp(a, "-s") == 0 && has_value)
            size = (size_t)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "-n") == 0 && has_value)
            iters = strtol(argv[++i], NULL, 10);
        else if (strcmp(a, "-p") == 0 && has_value)
            port = argv[++i];
        else if (a[0] != '-' && !address)
            address = a;
        else {
            fprintf(stderr, "usage: one_sided_loop --op read|fetch_add [-s BYTES] -n ITERS "
                            "-p PORT [ADDRESS]\n");
            return 2;
        }
    }
    const int is_read = strcmp(op, "read") == 0;
    if ((!is_read && strcmp(op, "fetch_add") != 0) || size < 1 || size > 65536 || iters < 1 ||
        iters > 100000000) {
        fprintf(stderr, "one_sided_loop: --op read|fetch_add, -s in [1, 65536], -n in [1, 1e8]\n");
        return 2;
    }
    if (!is_read) size = 8;
    struct side s = {0};
    s.events = rdma_create_event_channel();
    if (!s.events) die("rdma_create_event_channel");
    return address ? client(&s, address, port, is_read, size, iters) : serve(&s, port, size);
}
