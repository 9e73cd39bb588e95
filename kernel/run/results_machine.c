// SPDX-License-Identifier: MIT
// run.json's machine facts that change latency: memory types (MTRRs, PAT, CR0), the
// hardware prefetchers and what the prefetch key did, SMT and the boost state; the stalls the
// tail experiment saw that no memory explains (SMIs, a hypervisor's exits).
#include "experiments/experiment.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "machine/ap_msr.h"
#include "point/stall_record.h"
#include "run/prefetch.h"
#include "run/results.h"

static void json_hex(struct json *j, const char *key, uint64_t v)
{
    char text[24];
    ksnprintf(text, sizeof(text), "0x%llx", (unsigned long long)v);
    json_string(j, key, text);
}

static void variable_mtrrs_json(struct json *j, const struct memtype_regs *t)
{
    json_array_begin(j, "variable");
    for (unsigned i = 0; i < t->nvar; i++) {
        json_object_begin(j, NULL);
        json_hex(j, "base", t->var[i].base);
        json_hex(j, "mask", t->var[i].mask);
        json_bool(j, "valid", (t->var[i].mask & MTRR_PHYSMASK_VALID) != 0);
        json_string(j, "type", memtype_name((unsigned)(t->var[i].base & 0xff)));
        json_object_end(j);
    }
    json_array_end(j);
}

static void memory_types_json(struct json *j, const struct memtype_regs *t)
{
    json_object_begin(j, "memory_types");
    json_bool(j, "read", t->read);
    if (!t->read) {
#if defined(__aarch64__)
        json_string(j, "why", "not on this architecture (AArch64: MTRRs and PAT are x86's)");
#else
        json_string(j, "why", "MTRRs and PAT are read only in ring 0 (chase.efi)");
#endif
        json_object_end(j);
        return;
    }
    json_u64(j, "phys_address_bits", t->phys_bits);
    json_hex(j, "mtrr_cap", t->mtrr_cap);
    json_hex(j, "mtrr_def_type", t->mtrr_def_type);
    json_bool(j, "mtrrs_enabled", (t->mtrr_def_type & MTRR_DEF_E) != 0);
    json_bool(j, "fixed_enabled", (t->mtrr_def_type & MTRR_DEF_FE) != 0);
    json_string(j, "default_type", memtype_name((unsigned)(t->mtrr_def_type & MTRR_DEF_TYPE_MASK)));
    json_array_begin(j, "fixed");
    for (unsigned i = 0; (t->mtrr_cap & MTRRCAP_FIX) && i < MTRR_FIXED_MSRS; i++)
        json_hex(j, NULL, t->fixed[i]);
    json_array_end(j);
    variable_mtrrs_json(j, t);
    json_hex(j, "pat", t->pat);
    json_array_begin(j, "pat_entries");
    for (unsigned i = 0; i < 8; i++)
        json_string(j, NULL, memtype_name(memtype_pat_entry(t, i)));
    json_array_end(j);
    json_hex(j, "cr0", t->cr0);
    json_bool(j, "cache_disabled", (t->cr0 & CR0_CD) != 0);
    json_bool(j, "not_write_through", (t->cr0 & CR0_NW) != 0);
    if (t->amd) {
        json_hex(j, "amd_syscfg", t->amd_syscfg);
        json_hex(j, "amd_tom2", t->amd_tom2);
    }
    if (t->test_uc_bytes) {
        json_object_begin(j, "test_uc");
        json_hex(j, "base", t->test_uc_base);
        json_hex(j, "bytes", t->test_uc_bytes);
        json_object_end(j);
    }
    json_object_end(j);
}

/* Each prefetcher the model's table names, and what the last prefetch=off did to it. */
static void prefetchers_each_json(struct json *j, const struct run_record *r)
{
    const struct prefetch_ctl *c = &r->m->facts.prefetch;
    const struct prefetch_run *p = r->prefetch;
    json_bool(j, "model_in_table", c->msr && !c->unsure);
    json_bool(j, "written_one_at_a_time", p && p->one_by_one);
    json_string(j, "uncontrolled", c->uncontrolled);
    json_array_begin(j, "each");
    for (unsigned i = 0; i < c->nprefetchers; i++) {
        json_object_begin(j, NULL);
        json_string(j, "name", c->prefetcher[i].name);
        json_hex(j, "bit", c->prefetcher[i].bit);
        json_string(j, "when_asked_off", prefetch_state_names[p ? p->state[i] : PREFETCHER_ON]);
        json_object_end(j);
    }
    json_array_end(j);
}

static void prefetch_json(struct json *j, const struct run_record *r)
{
    const struct cpu_facts *f = &r->m->facts;
    json_object_begin(j, "prefetch");
    if (f->prefetch.msr)
        json_hex(j, "control_msr", f->prefetch.msr);
    else
        json_string(j, "control_msr", NULL);
    json_hex(j, "disable_bits", f->prefetch.disable_bits);
    json_string(j, "prefetchers", f->prefetch.names);
    json_string(j, "documented", f->prefetch.doc);
    if (f->prefetch_read)
        json_hex(j, "value_at_start", f->prefetch.msr ? f->prefetch_value : 0);
    else
        json_string(j, "value_at_start", NULL);
    if (r->cfg)
        json_string(j, "requested", prefetch_names[r->cfg->global.prefetch]);
    json_string(j, "note", r->prefetch && r->prefetch->note[0] ? r->prefetch->note : NULL);
    prefetchers_each_json(j, r);
    json_object_begin(j, "experiments");
    for (unsigned i = 0; r->cfg && i < r->cfg->global.n_experiments; i++) {
        unsigned x = r->cfg->global.experiments[i];
        if (r->exps[x].prefetch)
            json_string(j, experiment_table[x]->cfg.name, r->exps[x].prefetch);
    }
    json_object_end(j);
    json_object_end(j);
}

static void smt_boost_json(struct json *j, const struct cpu_facts *f)
{
    json_object_begin(j, "smt");
    json_bool(j, "cpuid_htt", f->htt);
    json_u64(j, "threads_per_core", f->threads_per_core);
    json_string(j, "source", f->smt_source);
    if (f->threads_per_core)
        json_bool(j, "core_has_sibling_thread", f->threads_per_core > 1);
    else
        json_string(j, "core_has_sibling_thread", NULL);
    json_object_end(j);
    json_object_begin(j, "boost");
#if defined(__aarch64__)
    json_string(j, "why", "not on this architecture (turbo and its MSRs are x86's)");
#endif
    json_bool(j, "supported", f->boost_supported);
    if (f->boost_disabled >= 0)
        json_bool(j, "disabled", f->boost_disabled != 0);
    else
        json_string(j, "disabled", NULL);
    if (f->base_ratio >= 0)
        json_u64(j, "base_ratio", (uint64_t)f->base_ratio);
    if (f->current_ratio >= 0)
        json_u64(j, "current_ratio", (uint64_t)f->current_ratio);
    if (f->current_pstate >= 0)
        json_u64(j, "current_pstate", (uint64_t)f->current_pstate);
    json_object_end(j);
}

/* One processor's record of one setting: what it found, how often it set and gave it back. */
static void ap_record_json(struct json *j, const char *key, const struct ap_msr_record *a)
{
    if (!a->msr) {
        json_string(j, key, NULL); /* never asked on this processor */
        return;
    }
    json_object_begin(j, key);
    json_hex(j, "msr", a->msr);
    json_hex(j, "bits", a->bits);
    if (a->read)
        json_hex(j, "found", a->found);
    else
        json_string(j, "found", NULL);
    json_u64(j, "work_set_and_restored", a->set);
    json_u64(j, "work_found_set", a->already);
    json_u64(j, "work_not_kept", a->not_stuck);
    json_u64(j, "work_partly_set", a->partly);
    if (a->partly)
        json_hex(j, "partly_set_bits", a->partly_bits);
    json_u64(j, "work_unreadable", a->unreadable);
    json_u64(j, "restore_failed", a->restore_failed);
    json_u64(j, "work_found_set_by_sibling", a->shared_found); /* the MSR is the core's */
    json_u64(j, "restore_left_to_sibling", a->restore_left);
    json_u64(j, "restore_made_for_sibling", a->restore_taken);
    json_object_end(j);
}

/* The per-core settings on the other processors: what each found and did for its work. */
static void ap_msrs_json(struct json *j)
{
    const struct ap_msr_book *b = ap_msr_book();
    json_object_begin(j, "processor_msrs");
#if defined(__aarch64__)
    json_string(j, "note", "not on this architecture (AArch64 has no MSRs)");
#else
    json_string(j, "note",
                "per-core MSRs: the processor running chase is in windows.de_cfg_found "
                "and prefetch.value_at_start; every other processor sets the same "
                "bits when it enters chase's loop for an experiment and restores them "
                "when it leaves; where a sibling finds set the bits another thread of "
                "its core set, the MSR is the core's and the last of them restores it "
                "(the firmware only: chase-host writes no MSR)");
#endif
    json_array_begin(j, "processors");
    for (unsigned i = 0; i < PLAT_CPUS_MAX; i++) {
        if (!b->used[i])
            continue;
        json_object_begin(j, NULL);
        json_u64(j, "id", b->cpu_id[i]);
        for (unsigned w = 0; w < AP_MSR_SETTINGS; w++)
            ap_record_json(j, ap_msr_name(w), &b->rec[i][w]);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

void results_machine_json(struct json *j, const struct run_record *r)
{
    if (r->simulated)
        return; /* chase-sim: a modelled cache, no registers */
    memory_types_json(j, &r->m->memtype);
    results_arm_json(j, &r->m->arm);
    if (!r->m->facts.read)
        return; /* chase-sim: no CPU to describe */
    prefetch_json(j, r);
    smt_boost_json(j, &r->m->facts);
    ap_msrs_json(j);
}

void results_stalls_json(struct json *j, const struct run_record *r)
{
    const struct stall_record *t = r->stalls;
    char note[300];
    if (!t || !t->measured) {
        json_string(j, "stalls", NULL); /* the tail experiment did not run */
        return;
    }
    json_object_begin(j, "stalls");
    json_string(j, "source", "the tail experiment's timed batches, every size");
    json_double(j, "beyond_ns", t->beyond_ns, 0);
    json_u64(j, "batches", t->batches);
    json_double(j, "span_s", t->span_ns / 1e9, 6);
    json_u64(j, "count", t->count);
    json_double(j, "longest_ns", t->longest_ns, 1);
    json_double(j, "per_minute", stall_record_per_minute(t), 2);
    json_bool(j, "smi_counting", t->smi_counting);
    if (t->smi_counting)
        json_u64(j, "smi_count", t->smi_count);
    else
        json_string(j, "smi_count", NULL);
    json_u64(j, "dropped_windows", t->dropped_windows);
    json_bool(j, "not_memory", t->count > 0);
    stall_record_note(t, r->m->cpu.hypervisor, note, sizeof(note));
    json_string(j, "note", note[0] ? note : NULL);
    json_object_end(j);
}
