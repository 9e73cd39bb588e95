// SPDX-License-Identifier: MIT
// The chase buffer on Linux: hugetlbfs 1G or 2M pages when reserved, else THP, else 4K.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host.h"
#include "host_numa.h"
#include "platform.h"

#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define MAP_HUGE_2MB (21 << MAP_HUGE_SHIFT)
#define MAP_HUGE_1GB (30 << MAP_HUGE_SHIFT)

#define SZ_4K 4096ULL
#define SZ_2M (2ULL << 20)
#define SZ_1G (1ULL << 30)

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

/*
 * Huge pages at a virtual address aligned to align (the kernel aligns only to the page):
 * reserve size + align of address space, map the pages at the aligned spot inside it.
 */
static void *map_huge(uint64_t size, uint64_t align, uint64_t page, int flag)
{
    uint64_t al = align > page ? align : page;
    uint8_t *raw =
        mmap(NULL, size + al, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *at = (uint8_t *)round_up((uintptr_t)raw, al);
    void *p =
        mmap(at, size, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_POPULATE | MAP_FIXED | flag, -1, 0);
    if (at > raw)
        munmap(raw, (size_t)(at - raw));
    if (at + size < raw + size + al)
        munmap(at + size, (size_t)(raw + size + al - (at + size)));
    if (p == MAP_FAILED) {
        munmap(at, size);
        return NULL;
    }
    return p;
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

/* Anonymous memory aligned to align, with THP asked for (or refused), touched in full. */
static uint8_t *map_plain(uint64_t size, uint64_t align, int advice)
{
    uint64_t span = size + align;
    uint8_t *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)round_up((uintptr_t)raw, align);
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + size < raw + span)
        munmap(p + size, (size_t)(raw + span - (p + size)));
    madvise(p, size, advice);
    memset(p, 0, size); /* fault every page in now, not inside a timed region */
    return p;
}

/* Map size bytes with pages of `page` bytes exactly; 0, or -1 with a reason. */
static int map_exact(struct plat_buffer *b, uint64_t size, uint64_t align, uint64_t page, char *why,
                     size_t why_cap)
{
    memset(b, 0, sizeof(*b));
    if (page == SZ_1G || page == SZ_2M) {
        uint64_t sz = round_up(size, page);
        if ((b->virt = map_huge(sz, align, page, page == SZ_1G ? MAP_HUGE_1GB : MAP_HUGE_2MB))) {
            b->size_bytes = sz;
            b->page_bytes = page;
            b->page_source = page == SZ_1G ? "hugetlbfs 1G" : "hugetlbfs 2M";
            return 0;
        }
    }
    if (page == SZ_1G) {
        snprintf(why, why_cap,
                 "no 1 GiB huge pages are reserved (see "
                 "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages)");
        return -1;
    }
    uint64_t sz = round_up(size, SZ_2M);
    uint64_t al = align > SZ_2M ? align : SZ_2M;
    b->virt = map_plain(sz, al, page == SZ_4K ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
    if (!b->virt) {
        snprintf(why, why_cap, "mmap of %llu bytes failed", (unsigned long long)sz);
        return -1;
    }
    b->size_bytes = sz;
    uint64_t thp = page == SZ_4K ? 0 : thp_bytes(b->virt);
    if (page == SZ_4K) {
        b->page_bytes = SZ_4K;
        b->page_source = "4K pages (MADV_NOHUGEPAGE)";
    } else if (thp >= sz) {
        b->page_bytes = SZ_2M;
        b->page_source = "transparent huge pages";
    } else {
        munmap(b->virt, sz);
        b->virt = NULL;
        snprintf(why, why_cap,
                 "no 2 MiB pages: hugetlbfs has none reserved and transparent "
                 "huge pages covered %llu of %llu bytes",
                 (unsigned long long)thp, (unsigned long long)sz);
        return -1;
    }
    return 0;
}

#define PAGEMAP_PFN_MASK ((1ULL << 55) - 1)
#define PAGEMAP_PRESENT (1ULL << 63)
#define PAGEMAP_CHUNK 4096

/* Start listed run number k (when it is among the listed ones) at frame pfn. */
static void list_run(struct plat_buffer *b, uint64_t k, uint64_t pfn)
{
    if (k >= PLAT_BUFFER_RUNS_LISTED)
        return;
    b->runs[k] = (struct plat_phys_run){.phys = pfn * SZ_4K, .bytes = 0};
    b->runs_listed = (unsigned)k + 1;
}

/*
 * How physically contiguous the buffer is, from /proc/self/pagemap: the runs of 4 KiB pages
 * whose frames follow one another. Not known when the PFNs are hidden (no CAP_SYS_ADMIN).
 */
static void measure_contiguity(struct plat_buffer *b)
{
    static uint64_t entries[PAGEMAP_CHUNK];
    uint64_t pages = b->size_bytes / SZ_4K, follows = 0, runs = 0, prev = 0;
    int fd = open("/proc/self/pagemap", O_RDONLY);
    b->contiguity_known = false;
    b->runs_listed = 0;
    b->placement = "by Linux; /proc/self/pagemap gives no frame numbers here (needs CAP_SYS_ADMIN)";
    if (fd < 0)
        return;
    off_t first = (off_t)((uintptr_t)b->virt / SZ_4K * sizeof(uint64_t));
    for (uint64_t done = 0; done < pages;) {
        uint64_t n = pages - done < PAGEMAP_CHUNK ? pages - done : PAGEMAP_CHUNK;
        ssize_t got =
            pread(fd, entries, n * sizeof(uint64_t), first + (off_t)(done * sizeof(uint64_t)));
        if (got != (ssize_t)(n * sizeof(uint64_t)))
            goto out;
        for (uint64_t i = 0; i < n; i++) {
            uint64_t pfn = entries[i] & PAGEMAP_PFN_MASK;
            if (!(entries[i] & PAGEMAP_PRESENT) || !pfn)
                goto out;
            if (done + i > 0 && pfn == prev + 1)
                follows++;
            else
                list_run(b, runs++, pfn);
            if (runs <= PLAT_BUFFER_RUNS_LISTED)
                b->runs[runs - 1].bytes += SZ_4K;
            prev = pfn;
        }
        done += n;
    }
    b->contiguity_known = true;
    b->contiguous_runs = runs;
    b->contiguous_share = pages > 1 ? (double)follows / (double)(pages - 1) : 1.0;
    b->placement = "by Linux; physical layout read from /proc/self/pagemap";
out:
    if (!b->contiguity_known)
        b->runs_listed = 0; /* a partial list would mislead */
    close(fd);
}

int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct plat_buffer *b, char *why,
                      size_t why_cap)
{
    static const uint64_t preference[] = {SZ_1G, SZ_2M, SZ_4K};
    for (size_t i = 0; i < sizeof(preference) / sizeof(preference[0]); i++) {
        if (map_exact(b, size_bytes, align_bytes, preference[i], why, why_cap) == 0) {
            b->phys = host_phys_addr(b->virt);
            measure_contiguity(b);
            host_buffer_node(b);
            return 0;
        }
    }
    return -1;
}

int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    if (b->page_bytes == page_bytes)
        return 0;
    struct plat_buffer fresh;
    uint64_t align = b->align_bytes ? b->align_bytes : b->size_bytes >= SZ_2M ? SZ_2M : SZ_4K;
    if (map_exact(&fresh, b->size_bytes, align, page_bytes, why, why_cap) != 0)
        return -1;
    plat_buffer_free(b);
    fresh.phys = host_phys_addr(fresh.virt);
    fresh.align_bytes = b->align_bytes;
    measure_contiguity(&fresh);
    host_buffer_node(&fresh);
    *b = fresh;
    return 0;
}

void plat_buffer_free(struct plat_buffer *b)
{
    if (b->virt)
        munmap(b->virt, b->size_bytes);
    b->virt = NULL;
}
