// SPDX-License-Identifier: MIT
// Memory nodes on Linux: the node folders of sysfs, buffers bound to one node (mbind), and where
// a buffer's pages are (move_pages, /proc/self/pagemap).
#include "host_numa.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "host.h"
#include "machine/hmat.h"
#include "machine/numa_table.h"

#define NODE_DIR "/devices/system/node"
#define LINUX_NODES_MAX 1024 /* node numbers considered */
#define LINUX_CPUS_MAX 8192  /* CPU numbers one node's cpulist may name (Linux: NR_CPUS) */
#define MPOL_BIND 2          /* <linux/mempolicy.h>: allocate only from the given nodes */
#define MPOL_MF_STRICT (1u << 0)
#define MPOL_MF_MOVE (1u << 1)
#define PAGE_BYTES 4096ULL
#define PLACEMENT_SAMPLES 64                       /* pages whose node move_pages reports */
#define HMAT_PATH "/sys/firmware/acpi/tables/HMAT" /* the firmware's table (root may read it) */
#define HMAT_FILE_MAX (1u << 20)                   /* a table larger than this is not read */

/* The whole of a small file into buf, NUL-terminated; false when it cannot be read. */
static bool read_text(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
    return true;
}

int host_parse_cpulist(const char *s, int *cpus, unsigned cap)
{
    unsigned n = 0;
    while (*s && *s != '\n') {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || a < 0)
            return -1;
        s = end;
        if (*s == '-') {
            b = strtol(s + 1, &end, 10);
            if (end == s + 1 || b < a)
                return -1;
            s = end;
        }
        for (long c = a; c <= b && n < cap; c++)
            cpus[n++] = (int)c;
        if (*s == ',')
            s++;
        else if (*s && *s != '\n')
            return -1;
    }
    return (int)n;
}

/* "Node 0 MemTotal:  123 kB" lines: the value of key in bytes (0 when absent). */
static uint64_t meminfo_bytes(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    unsigned long long kib = 0;
    if (p && sscanf(p + strlen(key), " %llu", &kib) == 1)
        return kib * 1024;
    return 0;
}

/* The node numbers under dir, ascending; how many (at most cap). */
static unsigned node_numbers(const char *dir, uint32_t *ids, unsigned cap)
{
    DIR *d = opendir(dir);
    unsigned n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char *end;
        if (strncmp(e->d_name, "node", 4) != 0 || !e->d_name[4])
            continue;
        unsigned long v = strtoul(e->d_name + 4, &end, 10);
        if (*end || v >= LINUX_NODES_MAX)
            continue;
        unsigned k = n < cap ? n++ : cap; /* insertion, ascending; the highest fall off */
        while (k > 0 && ids[k - 1] > v) {
            if (k < cap)
                ids[k] = ids[k - 1];
            k--;
        }
        if (k < cap)
            ids[k] = (uint32_t)v;
    }
    if (d)
        closedir(d);
    return n;
}

/* One node's processors (cpus[0..ncpus) from its cpulist), memory and distance row; false
   when its distance row is not whole. */
static bool read_node(const char *dir, struct plat_numa *t, unsigned i, const int *cpus,
                      unsigned ncpus)
{
    struct plat_node *nd = &t->node[i];
    char path[512], text[4096];
    nd->ncpus = ncpus;
    for (unsigned k = 0; k < ncpus; k++) {
        nd->cpu[k] = cpus[k];
        nd->apic_id[k] = (uint32_t)cpus[k];
    }
    snprintf(path, sizeof(path), "%s/node%u/meminfo", dir, nd->domain);
    if (read_text(path, text, sizeof(text))) {
        nd->mem_bytes = meminfo_bytes(text, "MemTotal:");
        nd->free_bytes = meminfo_bytes(text, "MemFree:");
    }
    snprintf(path, sizeof(path), "%s/node%u/distance", dir, nd->domain);
    if (!read_text(path, text, sizeof(text)))
        return false;
    char *p = text;
    for (unsigned k = 0; k < t->nnodes; k++) {
        char *end;
        unsigned long d = strtoul(p, &end, 10);
        if (end == p || d > 255)
            return false;
        t->distance[i * t->nnodes + k] = (uint8_t)d;
        p = end;
    }
    return true;
}

/* Node domain's CPU numbers into cpus (LINUX_CPUS_MAX of room): how many. */
static unsigned node_cpus(const char *dir, uint32_t domain, int *cpus)
{
    char path[512], text[16384];
    snprintf(path, sizeof(path), "%s/node%u/cpulist", dir, domain);
    int n =
        read_text(path, text, sizeof(text)) ? host_parse_cpulist(text, cpus, LINUX_CPUS_MAX) : 0;
    return n > 0 ? (unsigned)n : 0;
}

/* The table for the n nodes ids, sized from their cpulists; false when memory is short. */
static bool read_nodes(const char *dir, const uint32_t *ids, unsigned n, struct plat_numa *t)
{
    int *cpus = malloc((size_t)n * LINUX_CPUS_MAX * sizeof(int));
    unsigned *counts = calloc(2 * (size_t)n + 1, sizeof(unsigned));
    bool ok = cpus && counts;
    for (unsigned i = 0; ok && i < n; i++)
        counts[i] = node_cpus(dir, ids[i], cpus + (size_t)i * LINUX_CPUS_MAX);
    ok = ok && numa_table_alloc(t, n, counts, counts + n); /* Linux lists no ranges */
    bool whole = true;
    for (unsigned i = 0; ok && i < n; i++) {
        t->node[i].domain = ids[i];
        whole = read_node(dir, t, i, cpus + (size_t)i * LINUX_CPUS_MAX, counts[i]) && whole;
    }
    t->slit = ok && whole;
    if (ok && !whole) {
        memset(t->distance, 0, (size_t)n * n);
        snprintf(t->note, sizeof(t->note), "a node's distance row is missing or short");
    }
    free(cpus);
    free(counts);
    return ok;
}

unsigned host_numa_read(const char *sysfs, struct plat_numa *t, char *why, size_t why_cap)
{
    char dir[256];
    static uint32_t ids[LINUX_NODES_MAX];
    memset(t, 0, sizeof(*t));
    snprintf(dir, sizeof(dir), "%s" NODE_DIR, sysfs);
    unsigned n = node_numbers(dir, ids, LINUX_NODES_MAX);
    if (n == 0) {
        snprintf(why, why_cap, "%s lists no nodeN folder (a kernel without NUMA)", dir);
        return 0;
    }
    if (!read_nodes(dir, ids, n, t)) {
        snprintf(why, why_cap, "no memory for %u nodes' table", n);
        return 0;
    }
    snprintf(t->source, sizeof(t->source), "/sys%s", NODE_DIR);
    return n;
}

unsigned plat_numa(struct plat_numa *t, char *why, size_t why_cap)
{
    static struct plat_cpu cpus[PLAT_CPUS_MAX];
    char mp_why[160];
    unsigned n = host_numa_read("/sys", t, why, why_cap);
    unsigned ncpus = plat_cpus(cpus, PLAT_CPUS_MAX, mp_why, sizeof(mp_why));
    for (unsigned i = 0; i < n; i++) {
        struct plat_node *nd = &t->node[i];
        for (unsigned k = 0; k < nd->ncpus; k++) {
            bool usable = false; /* online, and not lost */
            for (unsigned c = 0; c < ncpus; c++)
                usable |= (int)cpus[c].id == nd->cpu[k] && !cpus[c].lost;
            if (!usable)
                nd->cpu[k] = -1;
        }
    }
    return n;
}

uint64_t host_phys_addr(const void *virt)
{
    int fd = open("/proc/self/pagemap", O_RDONLY);
    if (fd < 0)
        return 0;
    uint64_t entry = 0;
    long page = sysconf(_SC_PAGESIZE);
    off_t off = (off_t)((uintptr_t)virt / (uintptr_t)page * sizeof(entry));
    ssize_t n = pread(fd, &entry, sizeof(entry), off);
    close(fd);
    uint64_t pfn = entry & ((1ULL << 55) - 1);
    if (n != sizeof(entry) || !(entry >> 63) || !pfn)
        return 0;
    return pfn * (uint64_t)page + (uintptr_t)virt % (uintptr_t)page;
}

/* The nodes of up to PLACEMENT_SAMPLES pages spread over b (move_pages); how many (0: none). */
static unsigned sample_nodes(const struct plat_buffer *b, int *status)
{
    void *pages[PLACEMENT_SAMPLES];
    uint64_t npages = b->size_bytes / PAGE_BYTES;
    unsigned n = npages < PLACEMENT_SAMPLES ? (unsigned)npages : PLACEMENT_SAMPLES;
    for (unsigned i = 0; i < n; i++)
        pages[i] = b->virt + (npages * i / n) * PAGE_BYTES;
    if (syscall(SYS_move_pages, 0, (unsigned long)n, pages, NULL, status, 0) != 0)
        return 0;
    return n;
}

/* Where the sampled pages of b are: how many of `samples` are on the node (move_pages). */
static unsigned pages_on_node(const struct plat_buffer *b, uint32_t node, unsigned *samples)
{
    int status[PLACEMENT_SAMPLES];
    unsigned on = 0;
    *samples = sample_nodes(b, status);
    for (unsigned i = 0; i < *samples; i++)
        on += status[i] == (int)node;
    return on;
}

void host_buffer_node(struct plat_buffer *b)
{
    struct plat_numa t;
    char why[160];
    int status[PLACEMENT_SAMPLES];
    b->node_known = false;
    b->node_note[0] = 0;
    unsigned nodes = host_numa_read("/sys", &t, why, sizeof(why));
    unsigned samples = nodes ? sample_nodes(b, status) : 0, same = 0;
    if (!samples || status[0] < 0) { /* a negative status: an errno, the page's node unknown */
        node_table_free(&t);
        return;
    }
    for (unsigned i = 0; i < samples; i++)
        same += status[i] == status[0];
    for (unsigned i = 0; i < nodes && same == samples && !b->node_known; i++)
        if (t.node[i].domain == (uint32_t)status[0]) {
            b->node_known = true;
            b->node = i;
        }
    node_table_free(&t);
    if (b->node_known)
        return;
    if (same == samples)
        snprintf(b->node_note, sizeof(b->node_note),
                 "placed by Linux in node %d, beyond the nodes chase lists", status[0]);
    else
        snprintf(b->node_note, sizeof(b->node_note),
                 "placed by Linux: %u of %u sampled pages in node %d, the rest in other nodes or "
                 "not placed yet",
                 same, samples, status[0]);
}

/* mmap size bytes aligned to align; NULL on failure. */
static uint8_t *map_aligned(uint64_t size, uint64_t align)
{
    uint8_t *raw =
        mmap(NULL, size + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)(((uintptr_t)raw + align - 1) / align * align);
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (raw + size + align > p + size)
        munmap(p + size, (size_t)(raw + size + align - (p + size)));
    return p;
}

int plat_node_buffer_alloc(unsigned node, uint64_t size_bytes, uint64_t align_bytes,
                           struct plat_buffer *b, char *why, size_t why_cap)
{
    struct plat_numa t;
    memset(b, 0, sizeof(*b));
    unsigned nodes = host_numa_read("/sys", &t, why, why_cap);
    uint32_t linux_node = node < nodes ? t.node[node].domain : 0;
    node_table_free(&t);
    if (node >= nodes) {
        snprintf(why, why_cap, "no memory node %u (Linux lists %u)", node, nodes);
        return -1;
    }
    uint64_t align = align_bytes < PAGE_BYTES ? PAGE_BYTES : align_bytes;
    uint64_t size = (size_bytes + align - 1) / align * align;
    uint8_t *p = map_aligned(size, align);
    if (!p) {
        snprintf(why, why_cap, "mmap of %llu bytes failed: %s", (unsigned long long)size,
                 strerror(errno));
        return -1;
    }
    unsigned long mask[LINUX_NODES_MAX / (8 * sizeof(unsigned long))] = {0};
    mask[linux_node / (8 * sizeof(unsigned long))] |= 1UL << (linux_node % (8 * sizeof(long)));
    madvise(p, size, MADV_HUGEPAGE);
    if (syscall(SYS_mbind, p, size, MPOL_BIND, mask, (unsigned long)LINUX_NODES_MAX,
                MPOL_MF_STRICT | MPOL_MF_MOVE) != 0) {
        snprintf(why, why_cap, "mbind(MPOL_BIND) to node %u failed: %s", linux_node,
                 strerror(errno));
        munmap(p, size);
        return -1;
    }
    memset(p, 0, size); /* fault every page in now, on the node */
    *b = (struct plat_buffer){.virt = p,
                              .phys = host_phys_addr(p), /* 0 without CAP_SYS_ADMIN */
                              .size_bytes = size,
                              .align_bytes = align,
                              .page_bytes = PAGE_BYTES,
                              .page_source = "mmap, transparent huge pages asked (madvise)"};
    unsigned samples, on = pages_on_node(b, linux_node, &samples);
    static char placement[LINUX_NODES_MAX][96]; /* one per node: the strings outlive the call */
    snprintf(placement[linux_node], sizeof(placement[linux_node]),
             "mbind(MPOL_BIND) to node %u: %u of %u sampled pages there", linux_node, on, samples);
    b->placement = placement[linux_node];
    return 0;
}

void plat_node_buffer_free(struct plat_buffer *b)
{
    if (b->virt)
        munmap(b->virt, b->size_bytes);
    b->virt = NULL;
}

/* The HMAT as Linux shows the firmware's (readable by root), read once. */
const struct hmat *plat_hmat(char *why, size_t why_cap)
{
    static bool read;
    static bool ok;
    static char reason[200];
    static struct hmat h;
    if (!read) {
        read = true;
        uint8_t *buf = malloc(HMAT_FILE_MAX);
        FILE *f = buf ? fopen(HMAT_PATH, "rb") : NULL;
        size_t n = f ? fread(buf, 1, HMAT_FILE_MAX, f) : 0;
        if (!f)
            snprintf(reason, sizeof(reason), "%s cannot be read: %s", HMAT_PATH,
                     buf ? strerror(errno) : "no memory");
        else
            ok = hmat_read(buf, n, &h, reason, sizeof(reason));
        if (f)
            fclose(f);
        free(buf);
    }
    if (!ok)
        snprintf(why, why_cap, "%s", reason);
    return ok ? &h : NULL;
}
