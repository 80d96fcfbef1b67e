/* LD_PRELOAD probe for bench/verbs-split.sh: splits a one-sided verbs
 * latency loop (READ, atomics) into the time spent inside the post and the
 * time spent outside it.
 *
 * A user-space provider such as rxe's rings the doorbell of every
 * ibv_post_send with one write() to the uverbs command file; on rxe the
 * whole READ or atomic then runs inside that system call, and the next
 * write() starts the next round trip. So the gap between two consecutive
 * doorbells is one round trip as the tool's own clock sees it, split into
 * "in write()" (the kernel: the same work for every tool) and "outside"
 * (the tool's loop: polling, its clock, recording the sample).
 *
 * At exit, a process that rang at least 1000 doorbells prints one line:
 *   post_split: pid P doorbells N in_post_us X outside_us Y period_us Z
 * with the medians. Times are TSC ticks converted with the TSC rate the
 * kernel reports (tsc_hz below); only the ratios between tools matter.
 *
 * POST_SPLIT_SWITCHES=1 also counts, per doorbell, the ringing thread's
 * context switches inside the post and outside it, voluntary (it slept)
 * and involuntary (it was preempted), and how often it came back from the
 * post on another CPU; a second line:
 *   post_split: switches in_post_vol A in_post_invol B outside_vol C
 *   outside_invol D migrated_in_post E
 * and a third with the ringing thread's time on a CPU and waiting for one
 * (preempted), and the ksoftirqd threads' time on a CPU, per doorbell:
 *   post_split: cpu_us_per_doorbell on_cpu F runq_wait G ksoftirqd H
 * Each doorbell then costs two getrusage() calls outside the post, so the
 * times of such a run are not comparable with those of a run without.
 *
 * POST_SPLIT_BINS=N also prints the run's course, a line per N doorbells
 * in order, with that stretch's medians:
 *   post_split: bin FIRST in_post_us X outside_us Y */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

enum { kMax = 1 << 21, kFds = 1024 };

static uint64_t *begin_, *end_;
static size_t count_;
static signed char is_uverbs_[kFds]; /* 0 unknown, 1 yes, -1 no */
static ssize_t (*real_write)(int, const void *, size_t);

/* POST_SPLIT_SWITCHES=1 (read at start): switch counts, summed over the
 * doorbells after the first. */
static int switches_;
static long bins_; /* POST_SPLIT_BINS */
static long in_vol_, in_invol_, out_vol_, out_invol_, migrated_;
static struct rusage before_, last_end_;
static int cpu_before_;

/* Where the CPU time went, read from schedstat (nanoseconds on a CPU, and
 * waiting on a run queue: a preempted thread waits there) every 1024th
 * doorbell, for the ringing thread and for the ksoftirqd threads, which
 * run the softirq work a system call raises (rxe's deferred tasks). */
enum { kSoftirqds = 64 };
static int softirqd_pid_[kSoftirqds], softirqds_ = -1;
static uint64_t first_exec_, first_wait_, first_soft_, last_exec_, last_wait_, last_soft_;
static size_t first_at_, last_at_;

static int read_schedstat(const char *path, uint64_t *exec, uint64_t *wait) {
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned long long e = 0, w = 0;
    const int ok = fscanf(f, "%llu %llu", &e, &w) == 2;
    fclose(f);
    *exec = e;
    *wait = w;
    return ok;
}

static void find_softirqds(void) {
    softirqds_ = 0;
    DIR *d = opendir("/proc");
    if (!d) return;
    for (struct dirent *e; (e = readdir(d)) && softirqds_ < kSoftirqds;) {
        char path[64], comm[32] = "";
        const int pid = atoi(e->d_name);
        if (pid <= 0) continue;
        snprintf(path, sizeof path, "/proc/%d/comm", pid);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        if (fgets(comm, sizeof comm, f) && strncmp(comm, "ksoftirqd/", 10) == 0)
            softirqd_pid_[softirqds_++] = pid;
        fclose(f);
    }
    closedir(d);
}

static void cpu_times(void) {
    if (softirqds_ < 0) find_softirqds();
    uint64_t exec, wait, soft = 0, e, w;
    if (!read_schedstat("/proc/thread-self/schedstat", &exec, &wait)) return;
    for (int i = 0; i < softirqds_; ++i) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/schedstat", softirqd_pid_[i]);
        if (read_schedstat(path, &e, &w)) soft += e;
    }
    if (first_at_ == 0) {
        first_exec_ = exec, first_wait_ = wait, first_soft_ = soft, first_at_ = count_;
    } else {
        last_exec_ = exec, last_wait_ = wait, last_soft_ = soft, last_at_ = count_;
    }
}

/* Switch counts and CPU around one doorbell's write(), taken outside its
 * timed span (see the top). */
static void before_post(void) {
    getrusage(RUSAGE_THREAD, &before_);
    cpu_before_ = sched_getcpu();
}

static void after_post(void) {
    const int cpu = sched_getcpu();
    struct rusage after;
    getrusage(RUSAGE_THREAD, &after);
    if (count_ > 0) {
        out_vol_ += before_.ru_nvcsw - last_end_.ru_nvcsw;
        out_invol_ += before_.ru_nivcsw - last_end_.ru_nivcsw;
        in_vol_ += after.ru_nvcsw - before_.ru_nvcsw;
        in_invol_ += after.ru_nivcsw - before_.ru_nivcsw;
        migrated_ += cpu != cpu_before_;
    }
    last_end_ = after;
    if (count_ % 1024 == 1023) cpu_times();
}

static int uverbs_fd(int fd) {
    if (fd < 0 || fd >= kFds) return 0;
    if (is_uverbs_[fd] == 0) {
        char link[64], target[256];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        const ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0) target[n] = 0;
        is_uverbs_[fd] = n > 0 && strstr(target, "/dev/infiniband/uverbs") ? 1 : -1;
    }
    return is_uverbs_[fd] == 1;
}

ssize_t write(int fd, const void *buf, size_t len) {
    if (!real_write) real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
    if (!uverbs_fd(fd)) return real_write(fd, buf, len);
    if (switches_) before_post();
    const uint64_t t0 = __rdtsc();
    const ssize_t r = real_write(fd, buf, len);
    const uint64_t t1 = __rdtsc();
    if (switches_) after_post();
    if (!begin_) {
        begin_ = malloc(kMax * sizeof *begin_);
        end_ = malloc(kMax * sizeof *end_);
    }
    if (begin_ && end_ && count_ < kMax) {
        begin_[count_] = t0;
        end_[count_] = t1;
        ++count_;
    }
    return r;
}

/* Reads POST_SPLIT_SWITCHES; POST_SPLIT_SHIFT_PAGES=N moves what the
 * process maps and allocates from here on (the provider's queues, its
 * buffers, the heap) N pages lower or higher in its address space: same
 * code, other addresses. */
__attribute__((constructor)) static void configure(void) {
    const char *sw = getenv("POST_SPLIT_SWITCHES");
    switches_ = sw && strcmp(sw, "1") == 0;
    const char *b = getenv("POST_SPLIT_BINS");
    bins_ = b ? strtol(b, NULL, 10) : 0;
    if (bins_ < 0 || bins_ > 100000) bins_ = 0; /* each bin's copy lives on the stack */
    const char *s = getenv("POST_SPLIT_SHIFT_PAGES");
    const long n = s ? strtol(s, NULL, 10) : 0;
    if (n <= 0) return;
    const size_t len = (size_t)n * (size_t)sysconf(_SC_PAGESIZE);
    if (mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) ==
            MAP_FAILED ||
        sbrk((intptr_t)len) == (void *)-1)
        fprintf(stderr, "post_split: cannot shift by %ld pages\n", n);
}

static int by_value(const void *a, const void *b) {
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double median_us(uint64_t *v, size_t n, double tsc_hz) {
    qsort(v, n, sizeof *v, by_value);
    return (double)v[n / 2] / tsc_hz * 1e6;
}

/* TSC ticks per second, measured against CLOCK_MONOTONIC over 50 ms. */
static double tsc_hz(void) {
    struct timespec a, b, pause = {0, 50000000};
    clock_gettime(CLOCK_MONOTONIC, &a);
    const uint64_t c0 = __rdtsc();
    nanosleep(&pause, NULL);
    clock_gettime(CLOCK_MONOTONIC, &b);
    const uint64_t c1 = __rdtsc();
    const double secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    return (double)(c1 - c0) / secs;
}

__attribute__((destructor)) static void report(void) {
    if (count_ < 1000) return;
    const size_t n = count_ - 1;
    uint64_t *in = malloc(n * sizeof *in), *out = malloc(n * sizeof *out),
             *period = malloc(n * sizeof *period);
    if (!in || !out || !period) return;
    for (size_t i = 0; i < n; ++i) {
        in[i] = end_[i] - begin_[i];
        out[i] = begin_[i + 1] - end_[i];
        period[i] = begin_[i + 1] - begin_[i];
    }
    const double hz = tsc_hz();
    /* before the whole-run medians sort the arrays */
    for (size_t at = 0; bins_ > 0 && at + (size_t)bins_ <= n; at += (size_t)bins_) {
        uint64_t bin_in[(size_t)bins_], bin_out[(size_t)bins_];
        memcpy(bin_in, in + at, sizeof bin_in);
        memcpy(bin_out, out + at, sizeof bin_out);
        fprintf(stderr, "post_split: bin %zu in_post_us %.2f outside_us %.2f\n", at,
                median_us(bin_in, (size_t)bins_, hz), median_us(bin_out, (size_t)bins_, hz));
    }
    fprintf(stderr,
            "post_split: pid %d doorbells %zu in_post_us %.2f outside_us %.2f period_us %.2f\n",
            (int)getpid(), count_, median_us(in, n, hz), median_us(out, n, hz),
            median_us(period, n, hz));
    if (switches_)
        fprintf(stderr,
                "post_split: switches in_post_vol %.3f in_post_invol %.3f outside_vol %.3f "
                "outside_invol %.3f migrated_in_post %.3f\n",
                (double)in_vol_ / n, (double)in_invol_ / n, (double)out_vol_ / n,
                (double)out_invol_ / n, (double)migrated_ / n);
    if (switches_ && last_at_ > first_at_) {
        const double ops = (double)(last_at_ - first_at_);
        fprintf(stderr,
                "post_split: cpu_us_per_doorbell on_cpu %.2f runq_wait %.2f ksoftirqd %.2f\n",
                (double)(last_exec_ - first_exec_) / ops / 1e3,
                (double)(last_wait_ - first_wait_) / ops / 1e3,
                (double)(last_soft_ - first_soft_) / ops / 1e3);
    }
}
