// SPDX-License-Identifier: MIT
// The banner: what chase found on this machine, printed before anything runs.
#include "run/banner.h"

#include "arch/cpu.h"
#include "config/config.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "machine/hmat.h"
#include "platform.h"

#ifndef CHASE_VERSION
#define CHASE_VERSION "unknown"
#endif

/* The memory types the buffer's placement rests on. */
static void memtypes_print(const struct memtype_regs *t)
{
    if (!t->read) {
#if defined(__aarch64__)
        con_printf("  memtypes   not on this architecture (MTRRs and PAT are x86's)\n");
#else
        con_printf("  memtypes   not read (MTRRs and PAT need ring 0): the buffer's type is "
                   "unknown\n");
#endif
        return;
    }
    con_printf("  memtypes   MTRRs %s, default %s, %u variable, fixed %s; PAT entry 0 %s; "
               "caches %s\n",
               (t->mtrr_def_type & MTRR_DEF_E) ? "on" : "OFF (all UC)",
               memtype_name((unsigned)(t->mtrr_def_type & MTRR_DEF_TYPE_MASK)), t->nvar,
               (t->mtrr_def_type & MTRR_DEF_FE) ? "on" : "off",
               memtype_name(memtype_pat_entry(t, 0)),
               (t->cr0 & CR0_CD) ? "DISABLED (CR0.CD set)" : "on (CR0.CD clear)");
}

/* Prefetch control, SMT and boost: what changes latency besides the caches. */
static void facts_print(const struct cpu_facts *f)
{
    if (!f->read)
        return;
    if (f->prefetch.msr && f->prefetch_read)
        con_printf("  prefetch   control MSR 0x%x = 0x%llx (%s)\n", f->prefetch.msr,
                   (unsigned long long)f->prefetch_value,
                   (f->prefetch_value & f->prefetch.disable_bits) ? "some prefetchers off"
                                                                  : "prefetchers on");
    else if (f->prefetch.msr)
        con_printf("  prefetch   control MSR 0x%x not readable here\n", f->prefetch.msr);
    else
        con_printf("  prefetch   %s\n", f->prefetch.doc);
    if (f->threads_per_core)
        con_printf("  smt        %u thread%s per core (%s)\n", f->threads_per_core,
                   f->threads_per_core > 1 ? "s" : "", f->smt_source);
#if defined(__aarch64__)
    if (!f->boost_supported)
        con_printf("  boost      not on this architecture (CPUID is x86's)\n");
#else
    if (!f->boost_supported)
        con_printf("  boost      not reported by CPUID\n");
#endif
    else
        con_printf("  boost      supported%s\n", f->boost_disabled < 0 ? ", state not readable"
                                                 : f->boost_disabled   ? ", disabled"
                                                                       : ", enabled");
}

/* The firmware's HMAT, when it has one: each pair's advertised figures, memory-side caches. */
static void print_hmat(void)
{
    char why[200], size[24];
    const struct hmat *h = plat_hmat(why, sizeof(why));
    if (!h)
        return;
    con_printf("  hmat       advertised (initiator -> target domain): latency ns, bandwidth MB/s "
               "(access, read, write; - not given)\n");
    if (!h->units_known)
        con_printf("  hmat       revision %u (ACPI 6.2): figures as given, not in 6.3's units\n",
                   h->revision);
    for (unsigned i = 0; i < h->npairs; i++) {
        const struct hmat_pair *p = &h->pair[i];
        char f[HMAT_DATA_TYPES][24];
        for (unsigned d = 0; d < HMAT_DATA_TYPES; d++)
            if (!(p->have & 1u << d))
                ksnprintf(f[d], sizeof(f[d]), "-");
            else if (d <= HMAT_WRITE_LATENCY)
                ksnprintf(f[d], sizeof(f[d]), "%.1f", (double)p->value[d] / 1000.0);
            else
                ksnprintf(f[d], sizeof(f[d]), "%llu", (unsigned long long)p->value[d]);
        con_printf("  hmat       %u -> %u%s: latency %s / %s / %s, bandwidth %s / %s / %s\n",
                   p->initiator, p->target, p->hierarchy ? " (memory-side cache)" : "", f[0], f[1],
                   f[2], f[3], f[4], f[5]);
    }
    for (unsigned i = 0; i < h->ncaches; i++) {
        const struct hmat_cache *c = &h->cache[i];
        fmt_size(size, sizeof(size), (double)c->size_bytes);
        con_printf("  hmat       memory-side cache of domain %u: %s, level %u of %u, %s, %s, "
                   "%u-byte lines\n",
                   c->mem_domain, size, c->level, c->total_levels,
                   hmat_cache_associativity(c->associativity), hmat_cache_policy(c->write_policy),
                   c->line_bytes);
    }
}

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
        fmt_size(size, sizeof(size), (double)k->size_bytes);
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
#if defined(__aarch64__)
    con_printf("  tsc        the generic timer's CNTVCT_EL0 (constant rate by architecture), read "
               "as %s; rdtscp not on this architecture\n",
               ARCH_COUNTER_READ_TEXT);
#else
    con_printf("  tsc        invariant %s, rdtscp %s\n", c->invariant_tsc ? "yes" : "NO",
               c->has_rdtscp ? "yes" : "no (fenced rdtsc)");
#endif
    if (c->hypervisor)
        con_printf("  hypervisor yes (%s): timings are those of a virtual machine\n",
                   c->hypervisor_vendor);
    else
        con_printf("  hypervisor no\n");
    fmt_size(size, sizeof(size), (double)m->memory_total_bytes);
    con_printf("  memory     %s usable", size);
    if (m->buffer_limit_bytes) {
        fmt_size(size, sizeof(size), (double)m->buffer_limit_bytes);
        con_printf("; the chase buffer can be at most %s, and default sizes stop there", size);
    }
    con_printf("\n");
    memtypes_print(&m->memtype);
    facts_print(&m->facts);
    banner_identity_print(m);
    if (kstrcmp(m->platform, "sim") != 0) /* chase-sim: no firmware's tables */
        print_hmat();
}

/* The memory nodes of the buffer and page tables, and why the buffer's moved if it did. */
static void print_nodes(const struct plat_buffer *b)
{
    if (!b->node_known)
        return;
    con_printf("  node       buffer in memory node %u", b->node);
    if (b->table_node_known) /* chase's own page tables (chase-host has none) */
        con_printf(", page tables in node %u", b->table_node);
    con_printf("\n");
    if (b->node_note[0])
        con_printf("  node note  %s\n", b->node_note);
}

void banner_print_buffer(const struct plat_buffer *b, bool has_1g_pages)
{
    char size[24], page_text[24];
    fmt_size(size, sizeof(size), (double)b->size_bytes);
    fmt_size(page_text, sizeof(page_text), (double)b->page_bytes);
    con_printf("  buffer     %s at physical 0x%llx, %s pages (%s), memory type %s\n", size,
               (unsigned long long)b->phys, page_text, b->page_source,
               b->mem_type ? b->mem_type : "unknown");
    if (b->placement)
        con_printf("  placement  %s\n", b->placement);
    print_nodes(b);
    if (b->table_pages) {
        char top[24];
        fmt_size(top, sizeof(top), (double)b->identity_top);
        con_printf("  paging     own tables: %llu pages, identity map of [0, %s), %s elsewhere\n",
                   (unsigned long long)b->table_pages, top,
                   has_1g_pages ? "1G pages" : "2M pages (no 1 GiB pages on this CPU)");
    }
}
