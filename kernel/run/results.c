// SPDX-License-Identifier: MIT
// run.json: everything needed to interpret a run's CSV files, rewritten after each experiment.
#include "run/results.h"

#include "arch/cpu.h"
#include "experiments/experiment.h"
#include "procs/mp.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/kstring.h"
#include "machine/arm_id.h"
#include "platform.h"
#include "run/machine_checks.h"
#include "run/ship.h"

#ifndef CHASE_VERSION
#define CHASE_VERSION "unknown"
#endif

void results_config_json(struct json *j, const struct chase_config *cfg)
{
    json_object_begin(j, "config");
    for (size_t i = 0; i < global_key_count; i++)
        cfg_value_json(j, &global_keys[i], &cfg->global);
    for (size_t x = 0; x < experiment_count; x++) {
        const struct cfg_section *e = &experiment_table[x]->cfg;
        json_object_begin(j, e->name);
        for (size_t i = 0; i < e->nkeys; i++)
            cfg_value_json(j, &e->keys[i], cfg_params_const(cfg, x));
        for (size_t i = 0; x < EXPERIMENTS_MAX && i < section_common_key_count; i++)
            cfg_value_json(j, &section_common_keys[i], &cfg->common[x]);
        json_object_end(j);
    }
    json_object_end(j);
}

static void cpu_json(struct json *j, const struct cpu_info *c)
{
    json_object_begin(j, "cpu");
    json_string(j, "vendor", c->vendor);
    json_string(j, "brand", c->brand);
    json_u64(j, "family", c->family);
    json_u64(j, "model", c->model);
    json_u64(j, "stepping", c->stepping);
    json_bool(j, "rdtscp", c->has_rdtscp);
    json_bool(j, "page_1g", c->has_1g_pages);
    json_object_end(j);
    json_string(j, "cache_source", c->cache_source);
    json_array_begin(j, "caches");
    for (unsigned i = 0; i < c->ncaches; i++) {
        const struct cache_info *k = &c->caches[i];
        json_object_begin(j, NULL);
        json_u64(j, "level", k->level);
        json_string(j, "type", cache_type_name(k->type));
        json_u64(j, "size_bytes", k->size_bytes);
        json_u64(j, "ways", k->ways);
        json_u64(j, "line_bytes", k->line_bytes);
        json_u64(j, "sets", k->sets);
        json_u64(j, "shared_by", k->shared_by);
        json_object_end(j);
    }
    json_array_end(j);
}

static void timing_json(struct json *j, const struct timing *t)
{
    json_object_begin(j, "tsc");
    json_u64(j, "hz", t->tsc_hz);
    json_string(j, "method", t->tsc_method);
    json_bool(j, "invariant", t->invariant);
    json_double(j, "spread", t->calib_spread, 6);
    json_array_begin(j, "sources");
    for (unsigned i = 0; i < t->nsources; i++) {
        const struct tsc_source *s = &t->sources[i];
        json_object_begin(j, NULL);
        json_string(j, "method", s->name);
        json_u64(j, "hz", s->hz);
        json_double(j, "spread", s->spread, 6);
        json_array_begin(j, "calibrations_hz");
        for (unsigned k = 0; k < s->ncalib; k++)
            json_u64(j, NULL, s->calib_hz[k]);
        json_array_end(j);
        json_object_end(j);
    }
    json_array_end(j);
    json_u64(j, "cpuid_hz", t->cpuid_hz);
    json_string(j, "cpuid_leaf", t->cpuid_leaf);
    json_double(j, "disagreement", t->disagreement, 6);
#if defined(__aarch64__)
    json_string(j, "end_fence", ARCH_COUNTER_READ_TEXT);
    json_string(j, "adds_end_fence", ARCH_COUNTER_READ_TEXT);
    json_string(j, "adds_end_why",
                "not on this architecture (AArch64 has no LFENCE): every "
                "counter read is ordered with DSB SY and ISB");
#else
    json_string(j, "end_fence", t->rdtscp ? "rdtscp; lfence" : "lfence; rdtsc; lfence");
    json_string(j, "adds_end_fence", timed_end_fence(t->adds_end));
    json_string(j, "adds_end_why", timed_end_why(t->adds_end));
#endif
    json_double(j, "overhead_ticks", t->overhead_ticks, 2);
    json_bool(j, "smi_counting", t->smi_counting);
#if defined(__aarch64__)
    json_string(j, "smi", "not on this architecture (AArch64 has no SMIs or MSR_SMI_COUNT)");
#endif
    json_object_begin(j, "loop_check");
    json_double(j, "l1_ticks_per_load_unroll16", t->l1_ticks_16, 3);
    json_double(j, "l1_ticks_per_load_unroll256", t->l1_ticks_256, 3);
    json_object_end(j);
    json_object_end(j);
    json_object_begin(j, "core_clock");
    json_double(j, "core_per_tsc", t->core_per_tick, 4);
    json_u64(j, "core_hz", (uint64_t)((double)t->tsc_hz * t->core_per_tick));
    json_string(j, "method", t->core_method);
    json_double(j, "aperf_mperf_core_per_tsc", t->aperf_mperf, 4);
    json_string(j, "per_repetition", t->aperf_in_window ? ARCH_CORE_COUNTER : "adds");
    struct window_report w;
    plat_window_report(&w);
    if (w.core_counter)
        json_string(j, "core_counter", w.core_counter);
    json_double(j, "adds_overhead_ticks", t->adds_overhead_ticks, 2);
    json_string(j, "core_cycles", "each repetition's ticks times its own clock (clock column)");
    json_object_end(j);
}

/* What the measurement windows saw: how many, the longest, NMIs, LFENCE and paging. */
static void windows_json(struct json *j, const struct run_record *r)
{
    struct window_report w;
    plat_window_report(&w);
    json_object_begin(j, "windows");
    json_bool(j, "interrupts_off", r->m->ring0);
    json_u64(j, "count", w.windows);
    json_u64(j, "longest_ticks", w.longest_ticks);
    json_double(j, "longest_ms", timing_wall_ns(r->timing, w.longest_ticks) / 1e6, 3);
    json_u64(j, "max_ms", r->cfg ? r->cfg->global.window_max_ms : 0);
    json_string(j, "untimed_walk",
                "each repetition's window first walks the chain untimed: a lap when the "
                "repetition covers one, else as many hops as it times, at most what refills "
                "the TLBs for chains whose pages come in random order");
    json_u64(j, "nmis", w.nmis);
    json_u64(j, "nmi_windows_dropped", w.nmi_windows);
    json_u64(j, "machine_checks", w.machine_checks);
    json_string(j, "lfence", w.lfence);
    json_bool(j, "de_cfg_read", w.de_cfg_read);
#if defined(__aarch64__)
    json_string(j, "de_cfg", "not on this architecture (DE_CFG is an AMD MSR)");
#endif
    if (w.de_cfg_read)
        json_u64(j, "de_cfg_found", w.de_cfg);
    json_string(j, "paging", w.paging);
    if (w.sve)
        json_string(j, "sve", w.sve);
    json_object_end(j);
}

static const char *status_name(enum exp_status s)
{
    switch (s) {
    case EXP_PENDING:
        return "pending";
    case EXP_RUNNING:
        return "running";
    case EXP_OK:
        return "ok";
    case EXP_FAILED:
        return "failed";
    case EXP_SKIPPED:
        return "skipped";
    }
    return "unknown";
}

static void experiments_json(struct json *j, const struct run_record *r)
{
    json_object_begin(j, "experiments");
    for (unsigned i = 0; r->cfg && i < r->cfg->global.n_experiments; i++) {
        unsigned x = r->cfg->global.experiments[i];
        const struct exp_state *s = &r->exps[x];
        char text[200];
        if (s->reason[0])
            ksnprintf(text, sizeof(text), "%s: %s", status_name(s->status), s->reason);
        else
            ksnprintf(text, sizeof(text), "%s", status_name(s->status));
        json_string(j, experiment_table[x]->cfg.name, text);
    }
    json_object_end(j);
}

/* Where each finished experiment's wall time went, as shares of it (run.c's time split). */
static void experiment_time_json(struct json *j, const struct run_record *r)
{
    json_object_begin(j, "experiment_time");
    for (unsigned i = 0; r->cfg && r->timing && i < r->cfg->global.n_experiments; i++) {
        unsigned x = r->cfg->global.experiments[i];
        const struct exp_state *s = &r->exps[x];
        const struct time_split *sp = &s->spent;
        if (!s->wall_ticks)
            continue;
        double wall = (double)s->wall_ticks;
        json_object_begin(j, experiment_table[x]->cfg.name);
        json_double(j, "wall_s", timing_wall_ns(r->timing, s->wall_ticks) / 1e9, 3);
        json_double(j, "timed", sp->timed / wall, 4);
        json_double(j, "build", sp->build / wall, 4);
        json_double(j, "warm", sp->warm / wall, 4);
        json_double(j, "bookkeeping", sp->bookkeeping / wall, 4);
        json_double(j, "output", sp->output / wall, 4);
        json_double(j, "other", sp->other / wall, 4);
        json_object_end(j);
    }
    json_object_end(j);
}

/*
 * The physical alignment the buffer can have: as planned on the firmware (one contiguous
 * piece), at most the page size on Linux (each page lands where Linux puts it).
 */
static uint64_t phys_align(const struct run_record *r)
{
    uint64_t a = r->buffer->align_bytes, page = r->buffer->page_bytes;
    return kstrcmp(r->m->platform, "linux") == 0 && page && page < a ? page : a;
}

/* What a reader must know before trusting the numbers. */
static void warnings_json(struct json *j, const struct run_record *r)
{
    json_array_begin(j, "warnings");
    if (r->timing && !r->timing->invariant)
        json_string(j, NULL, "the TSC is not invariant: timings may drift with the core clock");
    if (r->timing && r->timing->disagreement > TSC_DISAGREEMENT_WARN)
        json_string(j, NULL, "the TSC frequency sources disagree by more than 1%");
    if (r->m->cpu.hypervisor)
        json_string(j, NULL, "measured under a hypervisor: timings are a virtual machine's");
    if (r->buffer && r->buffer->align_bytes && r->buffer->phys % phys_align(r))
        json_string(j, NULL, "the buffer is not aligned as planned");
    if (r->buffer && r->buffer->align_bytes && (uintptr_t)r->buffer->virt % r->buffer->align_bytes)
        json_string(j, NULL, "the buffer's virtual address is not aligned as planned");
    json_array_end(j);
}

/* The buffer's first physically contiguous runs (phys_addr, bytes), in buffer order. */
static void phys_runs_json(struct json *j, const struct plat_buffer *b)
{
    json_array_begin(j, "phys_runs");
    for (unsigned i = 0; i < b->runs_listed; i++) {
        json_object_begin(j, NULL);
        json_u64(j, "phys_addr", b->runs[i].phys);
        json_u64(j, "bytes", b->runs[i].bytes);
        json_object_end(j);
    }
    json_array_end(j);
}

/* The processor CPUID was read on (after pinning, on Linux). */
static void cpuid_cpu_json(struct json *j, const struct machine *m)
{
    json_object_begin(j, "cpuid_read_on");
    if (m->cpuid_cpu_how && m->cpuid_cpu >= 0) /* chase-sim says nothing: no CPU */
        json_u64(j, "cpu", (uint64_t)m->cpuid_cpu);
    else
        json_string(j, "cpu", NULL);
    json_string(j, "how", m->cpuid_cpu_how);
    json_object_end(j);
}

#if defined(__aarch64__)
/* An AArch64 core's MIDR_EL1 and the part it names ("Cortex-A55"; null when not in the table). */
static void arm_core_json(struct json *j, uint32_t midr)
{
    struct arm_midr m;
    char hex[16];
    arm_midr_decode(midr, &m);
    ksnprintf(hex, sizeof(hex), "0x%08x", midr);
    json_string(j, "midr", hex);
    json_string(j, "core_part", arm_part_name(m.implementer, m.part));
}
#endif

/* Where a processor's place came from, and the firmware's word where it differs. */
static void topology_json(struct json *j, const struct plat_cpu *c)
{
    json_u64(j, "die", c->die);
    json_u64(j, "core_type", c->core_type);
#if defined(__aarch64__)
    if (c->core_type) /* the core type is the part MIDR_EL1 names */
        arm_core_json(j, c->core_type);
#endif
    json_string(j, "topology", c->topology);
    if (!c->fw_differs)
        return;
    json_object_begin(j, "firmware_location"); /* MP services' Location: kept as a check */
    json_u64(j, "package", c->fw_package);
    json_u64(j, "die", c->fw_die);
    json_u64(j, "core", c->fw_core);
    json_u64(j, "thread", c->fw_thread);
    json_object_end(j);
}

/* The counts the platform reports: total, enabled, held, and places not from CPUID. */
static void processor_counts_json(struct json *j, unsigned listed, unsigned differs, bool firmware)
{
    unsigned enabled, held, failed, total = plat_cpus_total(&enabled, &held, &failed);
    json_object_begin(j, "processor_counts");
    json_u64(j, "total", total);
    json_u64(j, "enabled", enabled);
    json_u64(j, "listed", listed);
    if (firmware) /* enabled in the tables, not held: a start refused (AArch64 PSCI CPU_ON) */
        json_u64(j, "not_started", enabled > held ? enabled - held : 0);
    json_u64(j, "topology_not_from_cpuid", failed);
    json_u64(j, "firmware_location_differs", differs);
    json_object_end(j);
}

/* A memory node index, or null when the platform does not know it. */
static void node_json(struct json *j, const char *key, bool known, unsigned node)
{
    if (known)
        json_u64(j, key, node);
    else
        json_string(j, key, NULL);
}

/* The processors and where they are; lost ones did not come back within a timeout. */
static void processors_json(struct json *j, bool firmware)
{
    unsigned enabled, held, failed, differs = 0;
    plat_cpus_total(&enabled, &held, &failed);
    struct plat_cpu *cpus = plat_alloc((held ? held : 1) * sizeof(*cpus));
    char why[160] = "no memory for the processor table";
    unsigned n = cpus ? plat_cpus(cpus, held, why, sizeof(why)) : 0;
    json_array_begin(j, "processors");
    for (unsigned i = 0; i < n; i++) {
        json_object_begin(j, NULL);
        json_u64(j, "id", cpus[i].id);
        json_u64(j, "package", cpus[i].package);
        json_u64(j, "core", cpus[i].core);
        json_u64(j, "thread", cpus[i].thread);
        node_json(j, "node", cpus[i].node_known, cpus[i].node);
        json_u64(j, "apic_id", cpus[i].apic_id);
        topology_json(j, &cpus[i]);
        json_bool(j, "runs_chase", cpus[i].bsp);
        json_bool(j, "lost", cpus[i].lost);
        json_object_end(j);
        differs += cpus[i].fw_differs;
    }
    json_array_end(j);
    json_string(j, "processors_note", n && (held >= enabled || !why[0]) ? NULL : why);
    processor_counts_json(j, n, differs, firmware);
    unsigned lost = firmware ? mp_lost_count() : 0; /* chase-host: a thread, ended with it */
    json_string(j, "on_exit_forced",
                lost ? "reboot: a processor was lost and may still run chase's code" : NULL);
    plat_free(cpus);
}

/* chase's page tables: their pages and memory node (firmware; the node null elsewhere). */
static void tables_json(struct json *j, const struct plat_buffer *b)
{
    json_object_begin(j, "tables");
    json_u64(j, "pages", b->table_pages);
    node_json(j, "node", b->table_node_known, b->table_node);
    json_object_end(j);
}

/* The chase buffer: where it is, its pages and memory type, and (chase-host) its contiguity. */
static void buffer_json(struct json *j, const struct plat_buffer *b)
{
    json_object_begin(j, "buffer");
    json_u64(j, "phys_addr", b->phys);
    json_u64(j, "virt_addr", (uint64_t)(uintptr_t)b->virt);
    json_u64(j, "size_bytes", b->size_bytes);
    json_u64(j, "page_size_bytes", b->page_bytes);
    json_string(j, "page_source", b->page_source);
    json_u64(j, "align_bytes", b->align_bytes);
    json_u64(j, "table_pages", b->table_pages);
    json_u64(j, "identity_map_bytes", b->identity_top);
    json_string(j, "mem_type", b->mem_type);
    json_string(j, "placement", b->placement);
    if (b->contiguity_known) {
        json_double(j, "contiguous_share", b->contiguous_share, 4);
        json_u64(j, "contiguous_runs", b->contiguous_runs);
        phys_runs_json(j, b);
    }
    node_json(j, "node", b->node_known, b->node);
    json_string(j, "node_note", b->node_note[0] ? b->node_note : NULL);
    json_object_end(j);
    tables_json(j, b);
    json_u64(j, "page_size_bytes", b->page_bytes);
}

void results_run_json(struct strbuf *out, const struct run_record *r)
{
    struct json j;
    strbuf_reset(out);
    json_init(&j, out);
    json_object_begin(&j, NULL);
    json_string(&j, "tool", "chase");
    json_string(&j, "version", CHASE_VERSION);
    json_string(&j, "status", r->status);
    json_string(&j, "platform", r->m->platform);
#if defined(__aarch64__)
    json_string(&j, "arch", "aarch64");
#else
    json_string(&j, "arch", "x86_64");
#endif
    json_bool(&j, "simulated", r->simulated != NULL);
    if (r->simulated)
        json_string(&j, "hierarchy", r->simulated);
    json_object_begin(&j, "firmware");
    json_string(&j, "vendor", r->m->firmware_vendor);
    json_u64(&j, "revision", r->m->firmware_revision);
    json_object_end(&j);
    cpu_json(&j, &r->m->cpu);
    cpuid_cpu_json(&j, r->m);
    json_bool(&j, "hypervisor", r->m->cpu.hypervisor);
    json_string(&j, "hypervisor_vendor", r->m->cpu.hypervisor ? r->m->cpu.hypervisor_vendor : NULL);
    json_u64(&j, "memory_total_bytes", r->m->memory_total_bytes);
    if (r->timing) {
        timing_json(&j, r->timing);
        if (!r->simulated)
            windows_json(&j, r);
    }
    if (r->buffer)
        buffer_json(&j, r->buffer);
    results_machine_json(&j, r);
    results_identity_json(&j, r);
    if (r->mca)
        mcheck_json(&j, r->mca);
    if (r->cfg)
        results_config_json(&j, r->cfg);
    warnings_json(&j, r);
    if (!r->simulated) {
        processors_json(&j, kstrcmp(r->m->platform, "uefi") == 0);
        results_nodes_json(&j);
    }
    json_string(&j, "start_time", r->start_time);
    ship_json(&j, r->fleet);
    json_string(&j, "end_time", r->end_time);
    json_string(&j, "running", r->running);
    experiments_json(&j, r);
    experiment_time_json(&j, r);
    results_stalls_json(&j, r);
    if (r->json_extra)
        r->json_extra(&j, r->json_extra_ctx);
    json_object_end(&j);
}
