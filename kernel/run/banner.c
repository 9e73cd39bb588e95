// SPDX-License-Identifier: MIT
// The banner: what chase found on this machine, printed before anything runs.
#include "run/banner.h"

#include "config/config.h"
#include "lib/console.h"
#include "lib/fmt.h"

#ifndef CHASE_VERSION
#define CHASE_VERSION "unknown"
#endif

void banner_print(const struct machine *m)
{
    const struct cpu_info *c = &m->cpu;
    char size[24];
    con_printf("chase %s: cache, TLB and memory latency by pointer chasing (%s)\n", CHASE_VERSION,
               m->platform);
    con_printf("  firmware   %s (revision 0x%x)\n", m->firmware_vendor, m->firmware_revision);
    con_printf("  cpu        %s\n", c->brand);
    con_printf("  identity   %s family 0x%x model 0x%x stepping %u\n", c->vendor, c->family,
               c->model, c->stepping);
    con_printf("  caches     (%s)\n", c->cache_source);
    for (unsigned i = 0; i < c->ncaches; i++) {
        const struct cache_info *k = &c->caches[i];
        cfg_format_size(size, sizeof(size), k->size_bytes);
        char ways[16];
        if (k->ways)
            ksnprintf(ways, sizeof(ways), "%u-way", k->ways);
        else
            ksnprintf(ways, sizeof(ways), "full");
        con_printf("    L%u %-11s %8s %7s %3u B lines", k->level, cache_type_name(k->type), size,
                   ways, k->line_bytes);
        if (k->shared_by)
            con_printf(", shared by %u", k->shared_by);
        con_printf("\n");
    }
    con_printf("  tsc        invariant %s, rdtscp %s\n", c->invariant_tsc ? "yes" : "NO",
               c->has_rdtscp ? "yes" : "no (fenced rdtsc)");
    if (c->hypervisor)
        con_printf("  hypervisor yes (%s): timings are those of a virtual machine\n",
                   c->hypervisor_vendor);
    else
        con_printf("  hypervisor no\n");
    cfg_format_size(size, sizeof(size), m->memory_total_bytes);
    con_printf("  memory     %s usable", size);
    if (m->buffer_limit_bytes) {
        cfg_format_size(size, sizeof(size), m->buffer_limit_bytes);
        con_printf("; the chase buffer can be at most %s, and default sizes stop there", size);
    }
    con_printf("\n");
}
