// SPDX-License-Identifier: MIT
// What the kernel needs from the platform it runs on (efi/ on firmware, tools/host/ on Linux).
#ifndef CHASE_PLATFORM_H
#define CHASE_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Allocate n bytes of zeroed general memory (never called inside a window); NULL on failure. */
void *plat_alloc(size_t n);
/* Release memory from plat_alloc; NULL is ignored. */
void plat_free(void *p);

/* Write NUL-terminated ASCII text to the console (LF line ends; the platform converts). */
void plat_console_write(const char *s);

/*
 * Write a whole file named `name` (e.g. "random.csv") into this run's result folder,
 * replacing an earlier version of it. Returns 0 on success, -1 on failure.
 */
int plat_file_write(const char *name, const void *data, size_t len);

/* Where the run's files go, for people ("\chase\runs\0003" or "./runs/0003"). */
const char *plat_result_path(void);

/*
 * One calibration sample of the TSC against the platform's reference clock:
 * ticks counted while the reference measured ref_ns nanoseconds. Returns false
 * when no reference is available.
 */
bool plat_tsc_reference(uint64_t *ticks, uint64_t *ref_ns);
/* Name of the reference clock used by plat_tsc_reference ("stall", "clock_monotonic_raw"). */
const char *plat_tsc_reference_name(void);

/* A CPU exception that interrupted a measurement window. */
struct fault_info {
    bool faulted;
    unsigned vector;     /* 0..31 */
    uint64_t error_code; /* 0 when the vector pushes none */
    uint64_t rip;
    uint64_t cr2;        /* the faulting address, for page faults */
};

/*
 * Run fn(arg) inside a measurement window: on the bare machine, interrupts off,
 * chase's own page tables and IDT loaded, all restored afterwards; no firmware call
 * may happen inside. Returns 0, or -1 when a CPU exception stopped fn, with fault
 * filled in (the window is left cleanly either way). On Linux fn simply runs.
 */
int plat_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault);

#endif
