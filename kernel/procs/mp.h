// SPDX-License-Identifier: MIT
// What the experiments on several processors share: the processor list, groups, starting work.
#ifndef CHASE_EXP_MP_H
#define CHASE_EXP_MP_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/cpu_select.h"
#include "point/ctx.h"
#include "procs/win_slice.h"
#include "platform.h"

/* Processors one run starts together at most (mp_run_steps, a bandwidth team): a 2-socket
   server of 2 x 128 cores x 2 threads fits; a run of more takes the first MP_TEAM_MAX. */
#define MP_TEAM_MAX 512

/* How long a processor may take for one window or one piece of work before it is left out. */
#define MP_TIMEOUT_US 10000000ULL /* 10 s */

/* A processor as the experiments see it: its location and what CPUID says there. */
struct mp_cpu {
    struct plat_cpu p;
    unsigned core_type; /* CPUID 0x1A EAX[31:24] on hybrid parts (0x20 Atom, 0x40 Core); the
                           platform's (AArch64: MIDR_EL1, plat_cpu) where CPUID says none; 0 */
    uint32_t l2_group;  /* processors with the same value share an L2 (x2APIC ID bits above it) */
    uint32_t l3_group;  /* ... an L3 */
    bool groups_known;  /* false: nothing says which caches it shares (AArch64 without a PPTT
                           that lists caches): each processor a group of its own */
    bool probed;        /* the values above were read on the processor itself */
};

/*
 * The processors an experiment uses: `want` of them (0: all, at most cap and PLAT_CPUS_MAX),
 * not lost, each probed on itself; when they are fewer than the machine has, a subset spread
 * over nodes, packages, dies and core types (cpu_select_spread), said on the console. Returns
 * how many (>= 2), or 0 with ctx->failure saying why (a simulated machine, no MP services, one
 * processor).
 */
unsigned mp_cpus(struct exp_ctx *ctx, unsigned want, struct mp_cpu *cpus, unsigned cap);

/*
 * mp_cpus for an experiment's cpus key: a count as mp_cpus; all, p, e or a list every
 * processor named (not lost), at most cap, with no PLAT_CPUS_MAX bound; said on the console
 * when not all. Returns how many answered their probe (>= 2), or 0 with ctx->failure.
 */
unsigned mp_cpus_chosen(struct exp_ctx *ctx, const struct cpu_choice *want, struct mp_cpu *cpus,
                        unsigned cap);

/* How many processors the platform holds (0: none known): the room mp_cpus_chosen may need. */
unsigned mp_cpus_held(void);

/* The most of cpus[0..n) that share one L3 instance (the same l3_group); 0 when n is 0. */
unsigned mp_l3_most(const struct mp_cpu *cpus, unsigned n);
/* The L3 instances cpus[0..n) read through: their distinct l3_group values (a processor with
   no L3 is a group of its own: the last cache it has is its own). */
unsigned mp_l3_count(const struct mp_cpu *cpus, unsigned n);

/* Copy the platform's lost marks into cpus (after a timeout). */
void mp_refresh_lost(struct mp_cpu *cpus, unsigned n);

/* The name of a core type ("P-core", "E-core"; on AArch64 its MIDR's part, "Cortex-A76";
   "-" when none is known). */
const char *mp_core_type_name(unsigned core_type);

/* Work for one processor, in one window. */
struct mp_job {
    void (*fn)(void *arg);
    void *arg;
};

/* Work for one processor in as many windows as it asks for (win_slice.h: how long each). */
struct mp_step_job {
    bool (*step)(void *arg); /* one window's share; true while more remains */
    void *arg;
};

/*
 * Run jobs[i] on cpus[i] for i < n (at most MP_TEAM_MAX) at once: the others started first, the
 * caller's own processor (if among them) inside windows here, its interrupts let in between two;
 * then wait at most timeout_us. done[i] says which came back (the caller's: every window of it
 * without a fault or NMI). Returns 0, -1 when they could not be started, or PLAT_CPU_TIMEOUT.
 */
int mp_run_steps(const struct mp_cpu *cpus, unsigned n, const struct mp_step_job *jobs,
                 uint64_t timeout_us, bool *done);

/* mp_run_steps with jobs of one window each. */
int mp_run_together(const struct mp_cpu *cpus, unsigned n, const struct mp_job *jobs,
                    uint64_t timeout_us, bool *done);

/* Print the processor table: number, package, core, thread, node, core type, L2/L3 groups. */
void mp_print_cpus(const struct mp_cpu *cpus, unsigned n);

/* Print the matrix m (n x n, row i: cpus[i] times; -1: not measured) of one-way medians in ns,
   or, beyond print_max processors, a line saying the pairs are in the CSV. */
void mp_print_matrix(const struct mp_cpu *cpus, unsigned n, const double *m, unsigned print_max);

/* Spin until *flag == value or the TSC passes deadline; false on the deadline. */
bool mp_wait_for(const volatile uint64_t *flag, uint64_t value, uint64_t deadline_tsc);

/*
 * Spin until *flag == value (WIN_GO_ON), the end of window w (WIN_WINDOW_END: wait on in the
 * next window) or deadline_tsc (WIN_DEADLINE).
 */
enum win_state mp_wait_in(const volatile uint64_t *flag, uint64_t value, uint64_t deadline_tsc,
                          const struct win_slice *w);

/* The longest window of this run (window_max_ms), in TSC ticks; 0 where the rate is unknown. */
uint64_t mp_window_ticks(const struct exp_ctx *ctx);

/* The flag every long AP job (loaded's generators) stops at; on a line of its own. */
volatile uint64_t *mp_stop_flag(void);
/* Raise it: on every way out, the panic path included, so no AP keeps running chase's code. */
void mp_stop_all(void);

/*
 * After the run on the firmware: when a processor was lost (it may still run chase's code, or store
 * into memory chase gives back), say so and make *on_exit a reboot. Returns how many were lost.
 */
unsigned mp_exit_check(enum on_exit *on_exit);

/* How many processors are lost so far (run.json records the reboot it forces). */
unsigned mp_lost_count(void);

#endif
