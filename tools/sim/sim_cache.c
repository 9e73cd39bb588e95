// SPDX-License-Identifier: MIT
// One set-associative cache (or TLB) of chase-sim: its rows' memory and its slice hash masks.
#include "sim_cache.h"

#include <stdlib.h>
#include <sys/mman.h>

/* Intel's slice hash bits for 2, 4 and 8 slices: parity of the physical address under each. */
static const uint64_t intel_slice_mask[3] = {0x1b5f575440ULL, 0x2eb5faa880ULL, 0x3cccc93100ULL};

/*
 * A large block is mapped on its own, 2 MiB aligned and rounded, and asked for transparent
 * huge pages: the model's random accesses to it would otherwise miss the host's TLB on
 * nearly every load. A small one is allocated aligned to the host's cache lines.
 */
#define BLOCK_HUGE_MIN (64u << 10)
#define BLOCK_HUGE_ALIGN (2u << 20)
#define HOST_LINE_BYTES 64

static void *block_alloc(size_t bytes, bool *mapped)
{
    *mapped = false;
    if (bytes < BLOCK_HUGE_MIN)
        return aligned_alloc(HOST_LINE_BYTES, sim_align_up(bytes, HOST_LINE_BYTES));
    size_t size = sim_align_up(bytes, BLOCK_HUGE_ALIGN), span = size + BLOCK_HUGE_ALIGN;
    uint8_t *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)sim_align_up((uintptr_t)raw, BLOCK_HUGE_ALIGN);
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + size < raw + span)
        munmap(p + size, (size_t)(raw + span - (p + size)));
    madvise(p, size, MADV_HUGEPAGE);
    *mapped = true;
    return p;
}

int sim_cache_alloc_rows(struct sim_cache *c, size_t state_bytes)
{
    c->state_at = (unsigned)sim_align_up(c->ways, 4) * sizeof(uint32_t);
    size_t row = c->state_at + state_bytes;
    if (c->ways <= 16 && row < HOST_LINE_BYTES)
        row = HOST_LINE_BYTES;
    c->row_bytes = sim_align_up(row, 16);
    size_t at_role = sim_align_up(c->sets * c->row_bytes, HOST_LINE_BYTES);
    c->block_bytes = at_role + c->sets;
    uint8_t *block = block_alloc(c->block_bytes, &c->block_mapped);
    if (!block)
        return -1;
    c->block = block;
    c->rows = block;
    c->role = block + at_role;
    return 0;
}

void sim_cache_free(struct sim_cache *c)
{
    if (c->block_mapped)
        munmap(c->block, sim_align_up(c->block_bytes, BLOCK_HUGE_ALIGN));
    else
        free(c->block);
    c->block = NULL;
    c->rows = c->role = NULL;
}

void sim_cache_set_line_shift(struct sim_cache *c, unsigned line_shift)
{
    c->p.line_shift = line_shift;
    c->line_shift = line_shift;
    /*
     * Intel: bits of the byte address below the line are 0, so the masks apply to the line
     * number (2, 4 or 8 slices: 1, 2 or 3 bits). XOR: the slice is the XOR of the line
     * number's slice_bits-wide fields above the set index, so its bit b is the parity of
     * every slice_bits-th bit from set_bits + b.
     */
    for (unsigned b = 0; b < 6; b++) {
        c->slice_mask[b] = 0;
        if (b >= c->slice_bits)
            continue;
        if (c->p.hash == SIM_HASH_INTEL)
            c->slice_mask[b] = intel_slice_mask[b] >> line_shift;
        else
            for (unsigned at = c->set_bits + b; at < 64; at += c->slice_bits)
                c->slice_mask[b] |= 1ULL << at;
    }
}
