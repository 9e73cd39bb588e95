// SPDX-License-Identifier: MIT
// libFuzzer target: the PPTT reader and its walks over any bytes, under ASan and UBSan.
#include <stddef.h>
#include <stdint.h>

#include "machine/arm_pptt.h"

static struct pptt p;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[200];
    if (!pptt_parse(data, size, &p, why, sizeof(why)))
        return 0;
    struct pptt_cpu_cache list[PPTT_CPU_CACHES_MAX];
    for (unsigned i = 0; i < p.n_nodes; i++)
        (void)pptt_cpu_caches(&p, p.nodes[i].acpi_id, list, PPTT_CPU_CACHES_MAX);
    for (unsigned i = 0; i < p.n_caches; i++) {
        (void)pptt_cache_sharers(&p, p.caches[i].offset);
        (void)pptt_cache_type_of(&p.caches[i]);
    }
    return 0;
}
