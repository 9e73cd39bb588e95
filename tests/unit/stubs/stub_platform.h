// SPDX-License-Identifier: MIT
// What the platform stubs captured, for tests to check.
#ifndef CHASE_STUB_PLATFORM_H
#define CHASE_STUB_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>

#include "platform.h"

#define STUB_CONSOLE_BYTES 65536

extern char stub_console[STUB_CONSOLE_BYTES];
extern size_t stub_console_len;
extern unsigned stub_files_written;

/* Windows plat_window_run ran. */
extern unsigned stub_windows;
/*
 * After stub_window_skip more windows, the next stub_window_interruptions windows run fn,
 * then report stub_window_interruption_vector (NMI: 2). */
extern unsigned stub_window_skip;
extern unsigned stub_window_interruptions;
extern unsigned stub_window_interruption_vector;

/* Forget what the console stub captured. */
void stub_console_reset(void);

/* What plat_serial_write was given, while stub_serial_present says there is a port. */
extern char stub_serial[1 << 16];
extern size_t stub_serial_len;
extern bool stub_serial_present;

/*
 * Fake processors for the experiments on several (plat_cpus lists them, plat_cpus_total holds
 * them all): 0, the default, is the unit tests' one processor. plat_cpu_run runs its work on
 * the caller's thread; plat_cpus_start on a thread of each processor's own, joined by
 * plat_cpus_wait. The one marked bsp is the caller's.
 */
extern struct plat_cpu stub_cpus[PLAT_CPUS_MAX];
extern unsigned stub_ncpus;

/* Keep the calling thread, and the fake processors' threads it starts, on the CPU it is on, so
   that every fake processor's CPUID probe (mp_cpus) sees the same place: one l3_group. */
void stub_cpus_pin(void);
/* Give the thread back the CPUs it had before stub_cpus_pin (nothing when it was not pinned). */
void stub_cpus_unpin(void);

#endif
