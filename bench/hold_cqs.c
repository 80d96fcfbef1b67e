/* Helper for bench/verbs-split.sh --hold-cqs: creates N completion queues
 * on an RDMA device and holds them until it is killed.
 *
 * Soft-RoCE (rxe) allocates each queue from the kernel's vmalloc area, and
 * later allocations (the measured tools' queues) are placed after the ones
 * still held. So N moves where the kernel puts the measured QP's objects,
 * and nothing else: the holder does no work while it waits.
 *
 * Usage: hold_cqs N [DEVICE]   (DEVICE: a name as in ibv_devices; default
 * the first). Prints "holding N" on stdout once the queues exist. */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kEntries = 16 }; /* small: one or two pages each */

static struct ibv_device *find_device(struct ibv_device **list, int n, const char *name) {
    for (int i = 0; i < n; ++i)
        if (!name || strcmp(ibv_get_device_name(list[i]), name) == 0) return list[i];
    return NULL;
}

int main(int argc, char **argv) {
    char *end = NULL;
    const long n = argc >= 2 ? strtol(argv[1], &end, 10) : -1;
    if (argc < 2 || argc > 3 || *end || n < 0 || n > 10000) {
        fprintf(stderr, "usage: hold_cqs N [DEVICE]   (N in [0, 10000])\n");
        return 2;
    }
    int count = 0;
    struct ibv_device **list = ibv_get_device_list(&count);
    struct ibv_device *dev = list ? find_device(list, count, argc == 3 ? argv[2] : NULL) : NULL;
    if (!dev) {
        fprintf(stderr, "hold_cqs: no RDMA device %s\n", argc == 3 ? argv[2] : "at all");
        return 1;
    }
    struct ibv_context *ctx = ibv_open_device(dev);
    if (!ctx) {
        perror("hold_cqs: ibv_open_device");
        return 1;
    }
    for (long i = 0; i < n; ++i) {
        if (!ibv_create_cq(ctx, kEntries, NULL, NULL, 0)) {
            perror("hold_cqs: ibv_create_cq");
            return 1;
        }
    }
    printf("holding %ld\n", n);
    fflush(stdout);
    pause(); /* until killed; the kernel frees the queues then */
    return 0;
}
