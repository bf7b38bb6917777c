/*
 * aioload: the guest's load generator (issue 14 item 3). Statically linked, runs from the busybox initramfs.
 *
 *   aioload DEVICE WORKLOAD SECONDS SEED
 *   WORKLOAD = randread-4k-qd16 | randwrite-4k-qd64 | seqwrite-64k-qd16 | ...   (the agent bench's names)
 *
 * Keeps exactly qd O_DIRECT requests in flight with Linux AIO from one thread (io_submit/io_getevents as raw
 * syscalls: no libaio in the guest), so the depth is not limited by how many threads the emulated CPU can run.
 * Every 4 KiB block a write leaves holds a pattern computed from (seed, block number), so the host can check each
 * block of the image afterwards: all zero (never written) or the pattern.
 * Prints one line "AIOLOAD: ..." with the op count, IOPS, distinct blocks written and the depth the guest kernel
 * saw (its weighted time in queue over the run).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_QD 256
#define BLK 4096

static uint64_t mix(uint64_t x) { /* splitmix64, also written in Java by the host-side check (TinyGuest) */
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/*
 * A 4 KiB block's content: words 0-1 name the block (its number, and mix(seed ^ number)), words 2.. are the body
 * mix(seed + i), the same in every block. The body is computed once per buffer, so a request costs the guest's
 * (emulated) CPU only two words: the time a slot is not in flight stays small and the host sees the workload's
 * depth. A block written to the wrong place, torn, or stale fails the host's check.
 */
static void body(uint64_t *buf, size_t bytes, uint64_t seed) {
    for (size_t b = 0; b < bytes / BLK; b++)
        for (int i = 2; i < BLK / 8; i++) buf[b * (BLK / 8) + i] = mix(seed + (uint64_t) i);
}

static void stamp(uint64_t *buf, size_t bytes, uint64_t seed, uint64_t first_block) {
    for (size_t b = 0; b < bytes / BLK; b++) {
        buf[b * (BLK / 8)] = first_block + b;
        buf[b * (BLK / 8) + 1] = mix(seed ^ (first_block + b));
    }
}

/* The guest kernel's weighted time in queue of the device (ms, /sys/block/DEV/stat field 11): its view of depth. */
static double queue_ms(const char *dev) {
    char path[128];
    const char *name = strrchr(dev, '/');
    snprintf(path, sizeof path, "/sys/block/%s/stat", name ? name + 1 : dev);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    unsigned long long v[11] = {0};
    int n = 0;
    while (n < 11 && fscanf(f, "%llu", &v[n]) == 1) n++;
    fclose(f);
    return n == 11 ? (double) v[10] : -1;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: aioload DEVICE randread|randwrite|seqwrite-SIZEk-qdDEPTH SECONDS SEED\n");
        return 2;
    }
    char kind[32];
    int kb, qd;
    if (sscanf(argv[2], "%31[a-z]-%dk-qd%d", kind, &kb, &qd) != 3 || qd < 1 || qd > MAX_QD || kb < 4 || kb % 4) {
        fprintf(stderr, "aioload: bad workload '%s'\n", argv[2]);
        return 2;
    }
    int write = strstr(kind, "write") != NULL, seq = strncmp(kind, "seq", 3) == 0;
    double seconds = atof(argv[3]);
    uint64_t seed = strtoull(argv[4], NULL, 10);
    size_t bs = (size_t) kb * 1024;

    int fd = open(argv[1], (write ? O_RDWR : O_RDONLY) | O_DIRECT);
    if (fd < 0) { perror("aioload: open"); return 1; }
    uint64_t size = (uint64_t) lseek(fd, 0, SEEK_END);
    uint64_t slots = size / bs;
    if (slots < 2) { fprintf(stderr, "aioload: device too small\n"); return 1; }
    uint8_t *written = calloc(size / BLK, 1);

    aio_context_t ctx = 0;
    if (syscall(SYS_io_setup, qd, &ctx) < 0) { perror("aioload: io_setup"); return 1; }
    static struct iocb cbs[MAX_QD];
    struct iocb *ptrs[MAX_QD];
    void *bufs[MAX_QD];
    uint64_t rnd = mix(seed + 1), next_seq = 0, ops = 0;
    for (int i = 0; i < qd; i++) {
        if (posix_memalign(&bufs[i], BLK, bs)) return 1;
        memset(bufs[i], 0, bs);
        if (write) body(bufs[i], bs, seed);
    }
    double q0 = queue_ms(argv[1]);
    double start = now(), end = start + seconds;

    /* prepares slot i's next request */
#define PREP(i) do { \
        uint64_t slot = seq ? (next_seq++ % slots) : ((rnd = mix(rnd)) % slots); \
        uint64_t off = slot * bs; \
        if (write) { stamp(bufs[i], bs, seed, off / BLK); memset(written + off / BLK, 1, bs / BLK); } \
        memset(&cbs[i], 0, sizeof cbs[i]); \
        cbs[i].aio_fildes = fd; cbs[i].aio_lio_opcode = write ? IOCB_CMD_PWRITE : IOCB_CMD_PREAD; \
        cbs[i].aio_buf = (uint64_t) (uintptr_t) bufs[i]; cbs[i].aio_nbytes = bs; cbs[i].aio_offset = off; \
        cbs[i].aio_data = i; ptrs[i] = &cbs[i]; \
    } while (0)

    for (int i = 0; i < qd; i++) PREP(i);
    if (syscall(SYS_io_submit, ctx, qd, ptrs) != qd) { perror("aioload: io_submit"); return 1; }
    int inflight = qd;
    struct io_event ev[MAX_QD];
    while (inflight > 0) {
        long n = syscall(SYS_io_getevents, ctx, 1, qd, ev, NULL);
        if (n < 0) { perror("aioload: io_getevents"); return 1; }
        int again = 0;
        struct iocb *resubmit[MAX_QD];
        for (long k = 0; k < n; k++) {
            if ((long) ev[k].res != (long) bs) {
                fprintf(stderr, "AIOLOAD: error res=%lld at offset %llu\n", (long long) ev[k].res,
                        (unsigned long long) cbs[ev[k].data].aio_offset);
                return 1;
            }
            ops++;
            inflight--;
            if (now() < end) {
                int i = (int) ev[k].data;
                PREP(i);
                resubmit[again++] = ptrs[i];
            }
        }
        if (again) {
            if (syscall(SYS_io_submit, ctx, again, resubmit) != again) { perror("aioload: io_submit"); return 1; }
            inflight += again;
        }
    }
    double took = now() - start;
    double guest_depth = q0 < 0 ? -1 : (queue_ms(argv[1]) - q0) / (took * 1000);
    uint64_t distinct = 0;
    for (uint64_t b = 0; b < size / BLK; b++) distinct += written[b];
    printf("AIOLOAD: workload=%s ops=%llu seconds=%.2f iops=%.0f bytes=%zu depth=%d distinct4k=%llu guestdepth=%.1f\n",
           argv[2], (unsigned long long) ops, took, ops / took, bs, qd, (unsigned long long) distinct, guest_depth);
    fflush(stdout);
    return 0;
}
