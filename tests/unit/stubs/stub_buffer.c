// SPDX-License-Identifier: MIT
// Explicit stubs for the chase buffer (plat_buffer_*), backed by libc, for unit tests.
#include <stdlib.h>
#include <string.h>

#include "platform.h"

int plat_buffer_alloc(uint64_t size_bytes, uint64_t align_bytes, struct plat_buffer *b, char *why,
                      size_t why_cap)
{
    memset(b, 0, sizeof(*b));
    b->virt =
        aligned_alloc(align_bytes, (size_bytes + align_bytes - 1) / align_bytes * align_bytes);
    if (!b->virt) {
        strncpy(why, "aligned_alloc failed", why_cap);
        return -1;
    }
    b->size_bytes = size_bytes;
    b->page_bytes = 4096;
    b->page_source = "test stub";
    return 0;
}

void plat_buffer_free(struct plat_buffer *b)
{
    free(b->virt);
    b->virt = NULL;
}

int plat_buffer_set_pages(struct plat_buffer *b, uint64_t page_bytes, char *why, size_t why_cap)
{
    (void)why;
    (void)why_cap;
    b->page_bytes = page_bytes;
    return 0;
}
