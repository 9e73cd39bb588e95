// SPDX-License-Identifier: MIT
// The chase buffer of chase-sim: host memory standing in for a physically contiguous buffer.
#include "sim_buffer.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define SZ_2M (2ULL << 20)

static struct plat_buffer current;
static uint64_t default_page_bytes = 1ULL << 30;

static uint64_t round_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

void sim_buffer_set_default_page(uint64_t page_bytes)
{
    default_page_bytes = page_bytes;
}

const struct plat_buffer *sim_buffer_current(void)
{
    return &current;
}

/*
 * The simulated machine sees the buffer at SIM_PHYS_BASE, contiguous like chase.efi's.
 * Host pages are only touched where the chain builders write, so a large plan costs
 * only what it uses; huge pages are asked for to keep the host's own TLB misses down.
 */
int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct plat_buffer *b, char *why,
                      size_t why_cap)
{
    memset(b, 0, sizeof(*b));
    uint64_t align = align_bytes > SZ_2M ? align_bytes : SZ_2M;
    uint64_t size = round_up(size_bytes ? size_bytes : 1, SZ_2M);
    uint64_t span = size + align;
    uint8_t *raw = mmap(NULL, span, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
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
    b->virt = p;
    b->size_bytes = size;
    b->phys = SIM_PHYS_BASE;
    b->page_bytes = default_page_bytes;
    b->page_source = "simulated";
    current = *b;
    return 0;
}

/* The model's TLBs follow the new page size at the next point; the memory stays as it is. */
int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    if (page_bytes < 4096 || page_bytes > (1ULL << 30) || (page_bytes & (page_bytes - 1))) {
        snprintf(why, why_cap, "%llu-byte pages are not 4K, 2M or 1G",
                 (unsigned long long)page_bytes);
        return -1;
    }
    b->page_bytes = page_bytes;
    b->page_source = "simulated";
    if (b->virt == current.virt)
        current = *b;
    return 0;
}

void plat_buffer_free(struct plat_buffer *b)
{
    if (b->virt)
        munmap(b->virt, b->size_bytes);
    b->virt = NULL;
    memset(&current, 0, sizeof(current));
}
