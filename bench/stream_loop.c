/* The floor for one-way streaming on this machine: the same socket calls as
 * cmdbench's "throughput" test over tcp, with nothing around them (no plugin
 * table, no clock reads in the loop, no host). bench/run.sh compares
 * cmdbench's one-way rate with it, because no reference tool streams one way
 * with rstream's settings: rstream's bandwidth is a burst each way in turn
 * (see bench/README.md), and iperf3 sleeps in select().
 *
 *   stream_loop SIZE SECONDS BUFFER MODE
 *
 * SIZE bytes per send; the sender streams for SECONDS; BUFFER is SO_SNDBUF
 * and SO_RCVBUF on both ends (0 = the kernel's autotuning); MODE "b" blocks
 * with MSG_WAITALL, "nb" busy-polls with MSG_DONTWAIT (cmdbench's
 * blocking=true and its default). Both ends set TCP_NODELAY. A forked child
 * sends on 127.0.0.1; the parent receives and, like cmdbench, times from the
 * first byte to the end of the stream. Prints "gbps <decimal Gb/s>". */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void die(const char *what) {
    perror(what);
    exit(1);
}

static void set_options(int fd, int buffer) {
    const int one = 1;
    if (buffer > 0 && (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buffer, sizeof buffer) != 0 ||
                       setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buffer, sizeof buffer) != 0))
        die("setsockopt SO_SNDBUF/SO_RCVBUF");
    if (setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one) != 0)
        die("setsockopt TCP_NODELAY");
}

static void send_for(int fd, const char *buf, size_t size, double seconds, int flags) {
    const double end = now_s() + seconds;
    do {
        size_t done = 0;
        while (done < size) {
            ssize_t n = send(fd, buf + done, size - done, flags);
            if (n > 0)
                done += (size_t)n;
            else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
                die("send");
        }
    } while (now_s() < end);
}

/* Reads to EOF; each read up to the next send boundary, as cmdbench does. */
static double receive_all(int fd, char *buf, size_t size, int flags) {
    uint64_t bytes = 0;
    ssize_t n;
    while ((n = recv(fd, buf, 1, 0)) < 0)
        if (errno != EINTR) die("recv");
    const double first = now_s();
    while (n > 0) {
        bytes += (uint64_t)n;
        while ((n = recv(fd, buf, size - (size_t)(bytes % size), flags)) < 0)
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) die("recv");
    }
    const double seconds = now_s() - first;
    return (double)bytes * 8 / seconds / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5 || (strcmp(argv[4], "b") != 0 && strcmp(argv[4], "nb") != 0)) {
        fprintf(stderr, "usage: stream_loop SIZE SECONDS BUFFER b|nb\n");
        return 2;
    }
    const size_t size = strtoul(argv[1], NULL, 0);
    const double seconds = strtod(argv[2], NULL);
    const int buffer = atoi(argv[3]);
    const int flags = strcmp(argv[4], "b") == 0 ? MSG_WAITALL : MSG_DONTWAIT;
    if (size == 0 || seconds <= 0) {
        fprintf(stderr, "stream_loop: SIZE and SECONDS must be positive\n");
        return 2;
    }
    char *buf = malloc(size);
    if (!buf) die("malloc");
    memset(buf, 0x5a, size);

    /* Options on the listener, so the accepted socket has them from the SYN
     * on (the window scale is chosen then). */
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0) die("socket");
    set_options(listener, buffer);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof addr;
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) != 0) die("bind");
    if (listen(listener, 1) != 0) die("listen");
    if (getsockname(listener, (struct sockaddr *)&addr, &len) != 0) die("getsockname");

    const pid_t child = fork();
    if (child < 0) die("fork");
    if (child == 0) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) die("socket");
        set_options(fd, buffer);
        if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) die("connect");
        send_for(fd, buf, size, seconds, flags);
        close(fd);
        _exit(0);
    }
    int fd = accept(listener, NULL, NULL);
    if (fd < 0) die("accept");
    set_options(fd, buffer);
    const double gbps = receive_all(fd, buf, size, flags);
    int status = 0;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "stream_loop: the sender failed\n");
        return 1;
    }
    printf("gbps %.3f\n", gbps);
    return 0;
}
