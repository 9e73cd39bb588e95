// SPDX-License-Identifier: MIT
// The run's machine checks: mca.c's reads at the run's edges and between experiments, on one
// processor per package, and what the console, the summary and run.json say about them.
#include "run/machine_checks.h"

#include "arch/cpu.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/json.h"
#include "lib/kstring.h"
#include "lib/slog.h"
#include "platform.h"
#include "procs/mp.h"

/* The status registers of one processor, read in one window there (a window per MSR would cost
 * a processor start each on the firmware). */
struct snapshot {
    bool smca;
    unsigned nbanks; /* from MCG_CAP, capped to what the range holds */
    uint64_t cap;
    uint64_t status[MCA_BANKS_MAX];
    bool valid;
};

/* What snap_read answers from; set around each mca_check (single-threaded). */
static const struct snapshot *current;

static bool snap_read(uint32_t msr, uint64_t *value)
{
    struct mca_log layout = {.smca = current ? current->smca : false};
    if (current && current->valid && msr == MSR_MCG_CAP) {
        *value = current->cap;
        return true;
    }
    for (unsigned b = 0; current && current->valid && b < current->nbanks; b++)
        if (msr == mca_status_msr(&layout, b)) {
            *value = current->status[b];
            return true;
        }
    return plat_read_msr(msr, value); /* addresses, misc, IPID: one by one, only for errors */
}

#if !defined(__aarch64__)
static void cpuid_here(uint32_t leaf, uint32_t subleaf, uint32_t out[4])
{
    arch_cpuid(leaf, subleaf, out);
}

/* In a window: MCG_CAP, then every status register below its count (they exist by the SDM). */
static void snapshot_job(void *arg)
{
    struct snapshot *s = arg;
    struct mca_log layout = {.smca = s->smca};
    s->cap = arch_rdmsr(MSR_MCG_CAP);
    s->nbanks = mca_banks_readable(&layout, (unsigned)(s->cap & MCG_CAP_COUNT_MASK));
    for (unsigned b = 0; b < s->nbanks; b++)
        s->status[b] = arch_rdmsr(mca_status_msr(&layout, b));
    s->valid = true;
}
#endif

/* Windows (and plat_read_msr) on package i's processor; false when it cannot run them. */
static bool windows_on(const struct mcheck *w, unsigned i)
{
    if (w->cpu[i] < 0)
        return plat_window_cpu(PLAT_WINDOW_HERE, 0) == 0;
    return plat_window_cpu((unsigned)w->cpu[i], MP_TIMEOUT_US) == 0;
}

/* The status snapshot of the processor windows run on now (ring 0 only: chase-host reads
 * through the msr driver, one MSR at a time). */
static void snapshot_take(const struct mcheck *w, bool smca, struct snapshot *s)
{
    kmemset(s, 0, sizeof(*s));
    s->smca = smca;
#if !defined(__aarch64__)
    struct fault_info fault;
    if (w->m->ring0 && plat_window_run(snapshot_job, s, &fault) != 0)
        s->valid = false; /* a fault: every MSR one by one, each fault-safe */
#else
    (void)w;
#endif
}

/* One error in one line: package, bank, block, class, status, address where valid. */
static void error_print(const char *lead, unsigned package, const struct mca_error *e)
{
    char addr[40] = "";
    if (e->addr_valid)
        ksnprintf(addr, sizeof(addr), ", address 0x%llx", (unsigned long long)e->addr);
    con_printf("%spackage %u bank %u%s%s: %s %s (status 0x%016llx%s), %s\n", lead, package, e->bank,
               e->block ? " " : "", e->block ? e->block : "",
               e->uncorrected ? "uncorrected" : "corrected", e->what, (unsigned long long)e->status,
               addr, e->when);
}

/* Package p is read (or counted when there are more than MCHECK_PACKAGES_MAX). */
static void package_add(struct mcheck *w, unsigned package, int cpu)
{
    for (unsigned i = 0; i < w->n; i++)
        if (w->package[i] == package)
            return;
    w->packages_total++;
    if (w->n < MCHECK_PACKAGES_MAX) {
        w->package[w->n] = package;
        w->cpu[w->n++] = cpu;
    }
}

/* The processor running chase first, then one processor of every other package (ring 0: the
 * windows of other processors can read MSRs; chase-host reads its own processor's). */
static void choose_packages(struct mcheck *w)
{
    unsigned enabled, held = 0, failed;
    char why[120];
    if (w->m->ring0)
        plat_cpus_total(&enabled, &held, &failed);
    struct plat_cpu *all = held > 1 ? plat_alloc(held * sizeof(*all)) : NULL;
    unsigned n = all ? plat_cpus(all, held, why, sizeof(why)) : 0;
    unsigned own = 0;
    for (unsigned i = 0; i < n; i++)
        own = all[i].bsp ? all[i].package : own;
    package_add(w, own, -1);
    for (unsigned i = 0; i < n; i++)
        if (!all[i].bsp && !all[i].lost)
            package_add(w, all[i].package, (int)all[i].id);
    plat_free(all);
}

/* Package i's processor cannot run windows (lost): another of that package, if there is one. */
static bool repick(struct mcheck *w, unsigned i)
{
    unsigned enabled, held = 0, failed;
    char why[120];
    plat_cpus_total(&enabled, &held, &failed);
    struct plat_cpu *all = w->cpu[i] >= 0 && held > 1 ? plat_alloc(held * sizeof(*all)) : NULL;
    unsigned n = all ? plat_cpus(all, held, why, sizeof(why)) : 0;
    bool found = false;
    for (unsigned k = 0; k < n && !found; k++) {
        found = !all[k].bsp && !all[k].lost && all[k].package == w->package[i] &&
                (int)all[k].id != w->cpu[i];
        if (found)
            w->cpu[i] = (int)all[k].id;
    }
    plat_free(all);
    return found && windows_on(w, i);
}

#if !defined(__aarch64__)
/* Package i's first read. */
static void read_first(struct mcheck *w, unsigned i)
{
    struct snapshot s;
    struct mca_log *l = &w->log[i];
    if (!windows_on(w, i)) {
        kstrlcpy(l->note, "its processor cannot run windows", sizeof(l->note));
        return;
    }
    if (!mca_probe(l, &w->m->cpu, cpuid_here))
        return;
    snapshot_take(w, l->smca, &s);
    w->one_window[i] = s.valid;
    current = &s;
    mca_begin(l, &w->m->cpu, cpuid_here, snap_read);
    current = NULL;
}
#endif

static unsigned total(const struct mcheck *w, unsigned (*of)(const struct mca_log *l))
{
    unsigned sum = 0;
    for (unsigned i = 0; i < w->n; i++)
        sum += of(&w->log[i]);
    return sum;
}

static unsigned errors_of(const struct mca_log *l)
{
    return l->errors_total;
}
static unsigned before_of(const struct mca_log *l)
{
    return l->before_run;
}
static unsigned memory_of(const struct mca_log *l)
{
    return l->memory_during_run;
}

static void banner_lines(const struct mcheck *w)
{
    const struct mca_log *l = &w->log[0];
    if (!l->supported) {
        con_printf("  mca        not read: %s\n", l->note);
        return;
    }
    char where[96] = "the boot processor";
    if (w->n > 1)
        ksnprintf(where, sizeof(where), "one processor in each of %u packages%s", w->n,
                  w->packages_total > w->n ? " (more not read)" : "");
    unsigned before = total(w, before_of);
    con_printf("  mca        %u bank%s (%s) read on %s; %u error%s logged before the run%s%s\n",
               l->banks_read, l->banks_read == 1 ? "" : "s", l->smca ? "AMD SMCA" : "MCi", where,
               before, before == 1 ? "" : "s", l->note[0] ? "; " : "", l->note);
    for (unsigned i = 0; i < w->n; i++)
        for (unsigned k = 0; k < w->log[i].nerrors; k++)
            error_print("  mca        ", w->package[i], &w->log[i].error[k]);
}

void mcheck_begin(struct mcheck *w, const struct machine *m)
{
    kmemset(w, 0, sizeof(*w));
    w->m = m;
    if (!m->facts.read) { /* chase-sim */
        kstrlcpy(w->log[0].note, "a modelled machine: no banks", sizeof(w->log[0].note));
        return;
    }
    choose_packages(w);
#if defined(__aarch64__)
    kstrlcpy(w->log[0].note,
             "not on this architecture (machine-check banks are x86's; Arm's RAS error records "
             "are not read)",
             sizeof(w->log[0].note));
#else
    for (unsigned i = 0; i < w->n; i++)
        read_first(w, i);
    plat_window_cpu(PLAT_WINDOW_HERE, 0);
#endif
    banner_lines(w);
}

/* Package i again; prints what is new. */
static void read_again(struct mcheck *w, unsigned i, const char *when)
{
    struct mca_log *l = &w->log[i];
    unsigned before = l->errors_total, kept = l->nerrors, memory = l->memory_during_run;
    struct snapshot s;
    if (!l->supported || (!windows_on(w, i) && !repick(w, i)))
        return;
    snapshot_take(w, l->smca, &s);
    w->one_window[i] = s.valid;
    current = &s;
    unsigned found = mca_check(l, when, snap_read);
    current = NULL;
    if (!found)
        return;
    for (unsigned k = kept; k < l->nerrors; k++)
        error_print("machine check: ", w->package[i], &l->error[k]);
    if (l->errors_total - before > l->nerrors - kept)
        con_printf("machine check: %u more not kept\n",
                   l->errors_total - before - (l->nerrors - kept));
    if (l->memory_during_run > memory)
        con_printf("machine check: a memory controller of package %u logged an error during %s: "
                   "this run's DRAM figures are suspect\n",
                   w->package[i], when);
}

void mcheck_after(struct mcheck *w, const char *when)
{
    for (unsigned i = 0; i < w->n; i++)
        read_again(w, i, when);
    if (w->n > 1)
        plat_window_cpu(PLAT_WINDOW_HERE, 0);
}

const char *mcheck_summary(const struct mcheck *w, char *out, size_t cap)
{
    unsigned errors = total(w, errors_of), before = total(w, before_of);
    unsigned memory = total(w, memory_of), during = errors - before;
    out[0] = '\0';
    if (!w->log[0].supported || errors == 0)
        return out;
    ksnprintf(out, cap,
              "machine checks: %u error%s logged during the run (%u by a memory controller), %u "
              "before it%s\n",
              during, during == 1 ? "" : "s", memory, before,
              memory ? "; DRAM figures are SUSPECT (run.json machine_checks)" : "");
    return out;
}

static void hex_or_null(struct json *j, const char *key, bool valid, uint64_t v)
{
    char hex[24];
    ksnprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)v);
    json_string(j, key, valid ? hex : NULL);
}

static void error_json(struct json *j, unsigned package, const struct mca_error *e)
{
    char hex[24];
    json_object_begin(j, NULL);
    json_u64(j, "package", package);
    json_u64(j, "bank", e->bank);
    ksnprintf(hex, sizeof(hex), "0x%016llx", (unsigned long long)e->status);
    json_string(j, "status", hex);
    hex_or_null(j, "address", e->addr_valid, e->addr);
    hex_or_null(j, "misc", e->misc_valid, e->misc);
    hex_or_null(j, "ipid", e->ipid_valid, e->ipid);
    json_string(j, "block", e->block);
    json_string(j, "class", mca_class_name(e->cls));
    json_string(j, "decoded", e->what);
    json_bool(j, "uncorrected", e->uncorrected);
    json_bool(j, "memory_controller", e->memory);
    json_string(j, "when", e->when);
    json_object_end(j);
}

static void read_on_json(struct json *j, const struct mcheck *w)
{
    json_array_begin(j, "read_on");
    for (unsigned i = 0; i < w->n; i++) {
        json_object_begin(j, NULL);
        json_u64(j, "package", w->package[i]);
        if (w->cpu[i] < 0)
            json_string(j, "processor", "boot");
        else
            json_u64(j, "processor", (uint64_t)w->cpu[i]);
        json_bool(j, "read", w->log[i].supported);
        json_u64(j, "banks_read", w->log[i].banks_read);
        json_bool(j, "statuses_in_one_window", w->one_window[i]);
        json_u64(j, "errors", w->log[i].errors_total);
        json_string(j, "note", w->log[i].note[0] ? w->log[i].note : NULL);
        json_object_end(j);
    }
    json_array_end(j);
}

void mcheck_json(struct json *j, const struct mcheck *w)
{
    const struct mca_log *l = &w->log[0];
    unsigned errors = total(w, errors_of), before = total(w, before_of);
    json_object_begin(j, "machine_checks");
    json_bool(j, "read", l->supported);
    json_string(j, "note", l->note[0] ? l->note : NULL);
    json_string(j, "registers", !l->supported ? NULL : l->smca ? "AMD SMCA" : "IA32_MCi");
    json_u64(j, "banks", l->nbanks);
    json_u64(j, "banks_read", l->banks_read);
    json_u64(j, "packages", w->packages_total);
    read_on_json(j, w);
    json_u64(j, "errors", errors);
    json_u64(j, "errors_before_run", before);
    json_u64(j, "errors_during_run", errors - before);
    json_u64(j, "memory_controller_errors_during_run", total(w, memory_of));
    json_bool(j, "dram_suspect", total(w, memory_of) > 0);
    json_array_begin(j, "logged");
    for (unsigned i = 0; i < w->n; i++)
        for (unsigned k = 0; k < w->log[i].nerrors; k++)
            error_json(j, w->package[i], &w->log[i].error[k]);
    json_array_end(j);
    json_object_end(j);
}

/* A serial-log value: quoted where it holds a blank (docs/serial-log.md; ours hold no quote). */
static const char *log_value(const char *v, char *buf, size_t cap)
{
    if (!kstrchr(v, ' '))
        return v;
    ksnprintf(buf, cap, "\"%s\"", v);
    return buf;
}

void mcheck_slog(const struct mcheck *w)
{
    if (!slog_active() || !w->log[0].supported)
        return;
    unsigned errors = total(w, errors_of), before = total(w, before_of);
    for (unsigned i = 0; i < w->n; i++)
        for (unsigned k = 0; k < w->log[i].nerrors; k++) {
            const struct mca_error *e = &w->log[i].error[k];
            char addr[24] = "", cls[48], when[48];
            if (e->addr_valid)
                ksnprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)e->addr);
            slog_summary("machine_check",
                         "package=%u bank=%u status=0x%016llx address=%s class=%s "
                         "memory_controller=%d uncorrected=%d when=%s",
                         w->package[i], e->bank, (unsigned long long)e->status, addr,
                         log_value(mca_class_name(e->cls), cls, sizeof(cls)), e->memory ? 1 : 0,
                         e->uncorrected ? 1 : 0, log_value(e->when, when, sizeof(when)));
        }
    slog_summary("machine_checks", "errors=%u before_run=%u memory_during_run=%u dram_suspect=%d",
                 errors, before, total(w, memory_of), total(w, memory_of) ? 1 : 0);
}
