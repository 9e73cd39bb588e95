// SPDX-License-Identifier: MIT
// The chase buffer on Linux: hugetlbfs 1G or 2M pages when reserved, else THP, else 4K.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host.h"
#include "run.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)

#define SZ_2M (2ULL << 20)
#define SZ_1G (1ULL << 30)

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

static void *map_huge(uint64_t size, int flag)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE | flag, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* Bytes of the mapping at p backed by transparent huge pages (from /proc/self/smaps). */
static uint64_t thp_bytes(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[256];
    uint64_t found = 0;
    int inside = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            continue;
        }
        unsigned long kb;
        if (inside && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
            found = (uint64_t)kb * 1024;
    }
    fclose(f);
    return found;
}

int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct run_buffer *b, char *why,
                      size_t why_cap)
{
    memset(b, 0, sizeof(*b));
    uint64_t size = round_up(size_bytes, SZ_2M);
    uint64_t size_1g = round_up(size_bytes, SZ_1G);
    /* Huge pages are naturally aligned, which covers align_bytes up to their size. */
    if ((b->virt = map_huge(size_1g, MAP_HUGE_1GB))) {
        b->size_bytes = size_1g;
        b->page_bytes = SZ_1G;
        b->page_source = "hugetlbfs 1G";
    } else if ((b->virt = map_huge(size, MAP_HUGE_2MB))) {
        b->size_bytes = size;
        b->page_bytes = SZ_2M;
        b->page_source = "hugetlbfs 2M";
    } else {
        uint64_t align = align_bytes > SZ_2M ? align_bytes : SZ_2M;
        uint64_t span = size + align;
        uint8_t *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) {
            snprintf(why, why_cap, "mmap of %llu bytes failed", (unsigned long long)span);
            return -1;
        }
        uint8_t *p = (uint8_t *)round_up((uintptr_t)raw, align);
        if (p > raw)
            munmap(raw, (size_t)(p - raw));
        if (p + size < raw + span)
            munmap(p + size, (size_t)(raw + span - (p + size)));
        madvise(p, size, MADV_HUGEPAGE);
        memset(p, 0, size); /* fault every page in now, not inside a timed window */
        b->virt = p;
        b->size_bytes = size;
        uint64_t thp = thp_bytes(p);
        if (thp >= size / 2) {
            b->page_bytes = SZ_2M;
            b->page_source = thp >= size ? "transparent huge pages" : "transparent huge pages (partly)";
        } else {
            b->page_bytes = 4096;
            b->page_source = "4K pages (no huge pages available)";
        }
    }
    b->phys = host_phys_addr(b->virt);
    return 0;
}

void plat_buffer_free(struct run_buffer *b)
{
    if (b->virt)
        munmap(b->virt, b->size_bytes);
    b->virt = NULL;
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

void host_memory(uint64_t *total, uint64_t *available)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long kb;
    *total = *available = 0;
    if (!f)
        return;
    while (fgets(line, sizeof(line), f)) {
        if (sscanf(line, "MemTotal: %lu kB", &kb) == 1)
            *total = (uint64_t)kb * 1024;
        else if (sscanf(line, "MemAvailable: %lu kB", &kb) == 1)
            *available = (uint64_t)kb * 1024;
    }
    fclose(f);
}
