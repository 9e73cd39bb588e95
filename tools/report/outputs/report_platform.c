// SPDX-License-Identifier: MIT
// The memory functions kernel/strbuf.c needs, for chase-report on a Linux host (libc).
#include <stdlib.h>

#include "platform.h"

void *plat_alloc(size_t n)
{
    return calloc(1, n ? n : 1);
}

void plat_free(void *p)
{
    free(p);
}
