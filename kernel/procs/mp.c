// SPDX-License-Identifier: MIT
// What the experiments on several processors share: the processor list, groups, starting work.
#include "procs/mp.h"

#include "arch/cpu.h"
#include "machine/arm_id.h"
#include "machine/cpu_select.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

#define CPUID_LEAF_FEATURES 1
#define CPUID_LEAF_EXT_FEATURES 7
#define CPUID_LEAF_CACHES 4
#define CPUID_LEAF_X2APIC 0xb
#define CPUID_LEAF_HYBRID 0x1a
#define CPUID_LEAF_AMD_CACHES 0x8000001dU
#define CPUID7_EDX_HYBRID (1u << 15)
#define CPUID_CACHE_TYPE_MASK 0x1fu /* leaf 4 EAX[4:0]: 0 means no more caches */
#define CPUID_CACHE_LEVEL_SHIFT 5   /* EAX[7:5] */
#define CPUID_CACHE_LEVEL_MASK 0x7u
#define CPUID_CACHE_SHARING_SHIFT 14 /* EAX[25:14]: IDs sharing it, minus one */
#define CPUID_CACHE_SHARING_MASK 0xfffu
#define CPUID_HYBRID_TYPE_SHIFT 24  /* leaf 0x1A EAX[31:24] */
#define CPUID_INITIAL_APIC_SHIFT 24 /* leaf 1 EBX[31:24] */
#define CPUID_CACHE_SUBLEAVES 8

/* The group of the cache at level on this processor: x2APIC ID above its sharing bits. */
static uint32_t cache_group(uint32_t leaf, unsigned level, uint32_t apic)
{
    uint32_t r[4];
    for (uint32_t sub = 0; sub < CPUID_CACHE_SUBLEAVES; sub++) {
        arch_cpuid(leaf, sub, r);
        if ((r[0] & CPUID_CACHE_TYPE_MASK) == 0)
            break;
        if (((r[0] >> CPUID_CACHE_LEVEL_SHIFT) & CPUID_CACHE_LEVEL_MASK) != level)
            continue;
        uint32_t sharing = ((r[0] >> CPUID_CACHE_SHARING_SHIFT) & CPUID_CACHE_SHARING_MASK) + 1;
        unsigned shift = 0;
        while ((1u << shift) < sharing)
            shift++;
        return apic >> shift;
    }
    return apic; /* no such cache: a group of its own */
}

/* Run on each processor itself: its x2APIC ID, core type and cache groups from CPUID. */
static void probe_here(void *arg)
{
    struct mp_cpu *c = arg;
    uint32_t r[4], max;
    arch_cpuid(0, 0, r);
    max = r[0];
    if (max == 0) { /* no CPUID (AArch64): the platform's ID (MPIDR), type and groups (PPTT) */
        c->core_type = c->p.core_type;
        c->groups_known = c->p.cache_groups_known;
        c->l2_group = c->groups_known ? c->p.l2_group : PLAT_GROUP_OWN | c->p.apic_id;
        c->l3_group = c->groups_known ? c->p.l3_group : PLAT_GROUP_OWN | c->p.apic_id;
        c->probed = true;
        return;
    }
    c->groups_known = true;
    bool amd = r[1] == 0x68747541; /* "Auth" of AuthenticAMD */
    arch_cpuid(CPUID_LEAF_FEATURES, 0, r);
    uint32_t apic = r[1] >> CPUID_INITIAL_APIC_SHIFT;
    if (max >= CPUID_LEAF_X2APIC) {
        arch_cpuid(CPUID_LEAF_X2APIC, 0, r);
        if (r[1])
            apic = r[3];
    }
    c->core_type = c->p.core_type; /* the platform's word (AArch64: MIDR) unless CPUID has one */
    if (max >= CPUID_LEAF_HYBRID) {
        arch_cpuid(CPUID_LEAF_EXT_FEATURES, 0, r);
        if (r[3] & CPUID7_EDX_HYBRID) {
            arch_cpuid(CPUID_LEAF_HYBRID, 0, r);
            c->core_type = r[0] >> CPUID_HYBRID_TYPE_SHIFT;
        }
    }
    uint32_t leaf = amd ? CPUID_LEAF_AMD_CACHES : CPUID_LEAF_CACHES;
    c->l2_group = cache_group(leaf, 2, apic);
    c->l3_group = cache_group(leaf, 3, apic);
    c->p.apic_id = apic;
    c->probed = true;
}

/* Every processor the platform holds, in a table from plat_alloc (*n of them); NULL: none. */
static struct plat_cpu *all_cpus(unsigned *n, char *why, size_t why_cap)
{
    unsigned enabled, held, failed;
    plat_cpus_total(&enabled, &held, &failed);
    struct plat_cpu *all = plat_alloc((held ? held : 1) * sizeof(*all));
    *n = all ? plat_cpus(all, held, why, why_cap) : 0;
    return all;
}

unsigned mp_l3_most(const struct mp_cpu *cpus, unsigned n)
{
    unsigned most = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = 0;
        for (unsigned j = 0; j < n; j++)
            k += cpus[j].l3_group == cpus[i].l3_group;
        most = k > most ? k : most;
    }
    return most;
}

unsigned mp_l3_count(const struct mp_cpu *cpus, unsigned n)
{
    unsigned count = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned j = 0;
        while (j < i && cpus[j].l3_group != cpus[i].l3_group)
            j++;
        count += j == i;
    }
    return count;
}

void mp_refresh_lost(struct mp_cpu *cpus, unsigned n)
{
    char why[8];
    unsigned total;
    struct plat_cpu *all = all_cpus(&total, why, sizeof(why));
    for (unsigned i = 0; i < n; i++)
        for (unsigned k = 0; k < total; k++)
            if (all[k].id == cpus[i].p.id)
                cpus[i].p.lost = all[k].lost;
    plat_free(all);
}

const char *mp_core_type_name(unsigned core_type)
{
#if defined(__aarch64__)
    struct arm_midr m;
    arm_midr_decode(core_type, &m);
    const char *part = arm_part_name(m.implementer, m.part);
    return !core_type ? "-" : part ? part : "unnamed part";
#else
    return core_type == CPU_TYPE_CORE ? "P-core" : core_type == CPU_TYPE_ATOM ? "E-core" : "-";
#endif
}

/* Say which processors were chosen, when not all of them. */
static void say_chosen(const struct plat_cpu *all, unsigned total, const unsigned *pick, unsigned k,
                       const struct cpu_choice *want)
{
    static const char *const how[] = {
        "spread over memory nodes, packages, dies and core types (one thread per core first)",
        "every processor (cpus = all)", "the P-cores (cpus = p, CPUID 0x1A)",
        "the E-cores (cpus = e, CPUID 0x1A)", "those listed (cpus = a list)"};
    if (k >= total)
        return;
    con_printf("processors: %u of %u, %s:", k, total, how[want->kind]);
    for (unsigned i = 0; i < k; i++)
        con_printf(" %u", all[pick[i]].id);
    con_printf("\n");
}

/* Probe the chosen processors on themselves into cpus; returns how many answered. */
static unsigned probe_chosen(const struct plat_cpu *all, const unsigned *pick, unsigned k,
                             struct mp_cpu *cpus)
{
    unsigned n = 0;
    for (unsigned i = 0; i < k; i++) {
        const struct plat_cpu *p = &all[pick[i]];
        kmemset(&cpus[n], 0, sizeof(cpus[n]));
        cpus[n].p = *p;
        struct fault_info f;
        int rc = p->bsp ? plat_window_run(probe_here, &cpus[n], &f)
                        : plat_cpu_run(p->id, probe_here, &cpus[n], MP_TIMEOUT_US);
        if (rc == 0)
            n++;
        else
            con_printf("processor %u did not answer the CPUID probe%s: left out\n", p->id,
                       rc == PLAT_CPU_TIMEOUT ? " in time" : "");
    }
    return n;
}

/* Why fewer than two processors answered, into ctx->failure. */
static void say_too_few(struct exp_ctx *ctx, const struct cpu_choice *want, unsigned n, unsigned k,
                        unsigned total, unsigned lost, const char *why)
{
    if (!total)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "needs two processors or more: %s", why);
    else if (k < 2 && want->kind != CPU_CHOICE_COUNT)
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs two processors or more: the cpus key names %u of the %u (%u lost "
                  "earlier: they did not come back within their timeout)",
                  k, total, lost);
    else
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs two processors or more: %u of %u answered (%u lost earlier: they "
                  "did not come back within their timeout)",
                  n, total, lost);
}

unsigned mp_cpus_chosen(struct exp_ctx *ctx, const struct cpu_choice *want, struct mp_cpu *cpus,
                        unsigned cap)
{
    char why[160] = "";
    if (ctx->measure != measure_chase) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs real processors: this measurement backend models one processor's caches");
        return 0;
    }
    unsigned total, lost = 0, n = 0, k = 0;
    struct plat_cpu *all = all_cpus(&total, why, sizeof(why));
    unsigned *pick = plat_alloc((total ? total : 1) * sizeof(*pick));
    for (unsigned i = 0; i < total; i++)
        lost += all[i].lost;
    if (pick) {
        k = cpu_select(all, total, want, PLAT_CPUS_MAX, cap, pick);
        say_chosen(all, total - lost, pick, k, want);
        n = probe_chosen(all, pick, k, cpus);
    }
    plat_free(pick);
    plat_free(all);
    if (n < 2) {
        say_too_few(ctx, want, n, k, total, lost, why);
        return 0;
    }
    return n;
}

unsigned mp_cpus(struct exp_ctx *ctx, unsigned want, struct mp_cpu *cpus, unsigned cap)
{
    struct cpu_choice spread = {.kind = CPU_CHOICE_COUNT, .count = want};
    return mp_cpus_chosen(ctx, &spread, cpus, cap);
}

static bool job_step(void *arg)
{
    const struct mp_step_job *j = arg;
    return j->step(j->arg);
}

/* The caller's own job, in windows here: one after another while it asks for more. */
struct here_job {
    const struct mp_step_job *job;
    bool more;
};

static void here_step(void *arg)
{
    struct here_job *h = arg;
    h->more = h->job->step(h->job->arg);
}

/* Run job on the caller's processor; true when no window of it faulted or saw an NMI. */
static bool run_here(const struct mp_step_job *job)
{
    struct here_job h = {job, false};
    bool clean = true;
    do {
        struct fault_info f;
        h.more = false; /* stays so when a fault stops the step half-way */
        clean &= plat_window_run(here_step, &h, &f) == 0;
    } while (h.more);
    return clean;
}

int mp_run_steps(const struct mp_cpu *cpus, unsigned n, const struct mp_step_job *jobs,
                 uint64_t timeout_us, bool *done)
{
    /* one run at a time, on the boot processor: the tables are its own */
    static unsigned ids[MP_TEAM_MAX], map[MP_TEAM_MAX];
    static void *others[MP_TEAM_MAX];
    static bool back[MP_TEAM_MAX];
    unsigned k = 0;
    int here = -1;
    for (unsigned i = 0; i < n && i < MP_TEAM_MAX; i++) {
        done[i] = false;
        if (cpus[i].p.bsp) {
            here = (int)i;
            continue;
        }
        map[k] = i;
        ids[k++] = cpus[i].p.id;
    }
    for (unsigned j = 0; j < k; j++)
        others[j] = (void *)&jobs[map[j]];
    if (k && plat_cpus_start(ids, k, job_step, others, timeout_us) != 0)
        return -1;
    if (here >= 0)
        done[here] = run_here(&jobs[here]);
    int rc = k ? plat_cpus_wait(back, k, timeout_us) : 0;
    for (unsigned j = 0; j < k; j++)
        done[map[j]] = back[j];
    return rc;
}

/* A job of one window as a step: all of it, nothing more. */
static bool one_window(void *arg)
{
    const struct mp_job *j = arg;
    j->fn(j->arg);
    return false;
}

int mp_run_together(const struct mp_cpu *cpus, unsigned n, const struct mp_job *jobs,
                    uint64_t timeout_us, bool *done)
{
    static struct mp_step_job steps[MP_TEAM_MAX]; /* one run at a time, on the boot processor */
    for (unsigned i = 0; i < n && i < MP_TEAM_MAX; i++)
        steps[i] = (struct mp_step_job){one_window, (void *)&jobs[i]};
    return mp_run_steps(cpus, n, steps, timeout_us, done);
}

void mp_print_cpus(const struct mp_cpu *cpus, unsigned n)
{
    con_printf("%5s %7s %5s %6s %4s %7s %8s %8s %8s\n", "cpu", "package", "core", "thread", "node",
               "type", "apic_id", "l2_group", "l3_group");
    bool unknown = false;
    for (unsigned i = 0; i < n; i++)
        unknown |= !cpus[i].groups_known;
    if (unknown)
        con_printf("cache groups unknown (no PPTT lists these processors' caches): each processor "
                   "is a group of its own, and c2c says caches_unknown\n");
    for (unsigned i = 0; i < n; i++) {
        const struct mp_cpu *c = &cpus[i];
        con_printf("%5u %7u %5u %6u %4u %7s %8u %8u %8u%s\n", c->p.id, c->p.package, c->p.core,
                   c->p.thread, c->p.node, mp_core_type_name(c->core_type), c->p.apic_id,
                   c->l2_group, c->l3_group, c->p.bsp ? "  (runs chase)" : "");
    }
}

/* Spins between two looks at the TSC: a plain load loop answers as soon as the line comes. */
#define SPINS_PER_CLOCK_LOOK 4096

bool mp_wait_for(const volatile uint64_t *flag, uint64_t value, uint64_t deadline_tsc)
{
    for (;;) {
        for (unsigned i = 0; i < SPINS_PER_CLOCK_LOOK; i++)
            if (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == value)
                return true;
        if (arch_tsc_fenced() > deadline_tsc)
            return false;
    }
}

enum win_state mp_wait_in(const volatile uint64_t *flag, uint64_t value, uint64_t deadline_tsc,
                          const struct win_slice *w)
{
    if (mp_wait_for(flag, value, win_wait_until(w, deadline_tsc)))
        return WIN_GO_ON;
    enum win_state st = win_check(w, arch_tsc_fenced(), deadline_tsc);
    return st == WIN_GO_ON ? WIN_WINDOW_END : st; /* past the earlier of the two: the window */
}

uint64_t mp_window_ticks(const struct exp_ctx *ctx)
{
    return win_ticks_of(ctx->cfg->global.window_max_ms, ctx->timing->wall_tsc_hz);
}

/* The stop flag, on a line of its own: never in the traffic the generators may write. */
static volatile uint64_t stop_line[16] __attribute__((aligned(128)));

volatile uint64_t *mp_stop_flag(void)
{
    return stop_line;
}

void mp_stop_all(void)
{
    __atomic_store_n(stop_line, 1, __ATOMIC_RELEASE);
}

unsigned mp_lost_count(void)
{
    char why[8];
    unsigned n, lost = 0;
    struct plat_cpu *all = all_cpus(&n, why, sizeof(why));
    for (unsigned i = 0; i < n; i++)
        lost += all[i].lost;
    plat_free(all);
    return lost;
}

unsigned mp_exit_check(enum on_exit *on_exit)
{
    mp_stop_all();
    unsigned lost = mp_lost_count();
    if (lost && *on_exit != ON_EXIT_REBOOT) {
        con_printf("chase: %u processor%s lost: %s may still run chase's code, so the run ends "
                   "with a reboot instead of on_exit = %s\n",
                   lost, lost > 1 ? "s" : "", lost > 1 ? "they" : "it", on_exit_names[*on_exit]);
        *on_exit = ON_EXIT_REBOOT;
    }
    return lost;
}

unsigned mp_cpus_held(void)
{
    unsigned enabled, held, failed;
    plat_cpus_total(&enabled, &held, &failed);
    return held;
}

void mp_print_matrix(const struct mp_cpu *cpus, unsigned n, const double *m, unsigned print_max)
{
    if (n > print_max) {
        con_printf("(%u processors: the pairs are in the CSV; by group below)\n", n);
        return;
    }
    con_printf("one-way latency, ns (median; row times, column answers)\n%6s", "");
    for (unsigned j = 0; j < n; j++)
        con_printf(" %7u", cpus[j].p.id);
    con_printf("\n");
    for (unsigned i = 0; i < n; i++) {
        con_printf("%6u", cpus[i].p.id);
        for (unsigned j = 0; j < n; j++)
            if (i == j || m[i * n + j] < 0)
                con_printf(" %7s", i == j ? "-" : "lost");
            else
                con_printf(" %7.1f", m[i * n + j]);
        con_printf("\n");
    }
}
