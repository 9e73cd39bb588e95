// SPDX-License-Identifier: MIT
// chase-host internals shared by its files: the run folder and buffer helpers.
#ifndef CHASE_HOST_H
#define CHASE_HOST_H

#include <stdint.h>

/* Create the next free DIR/NNNN folder; returns 0 and remembers it, or -1 (errno set). */
int host_make_run_dir(const char *out_dir);
/* Creates dir and every missing folder above it (as mkdir -p does); 0, or -1 with errno. */
int host_make_dirs(const char *dir);

/* Usable memory in bytes (MemTotal), and what could be had now (MemAvailable). */
void host_memory(uint64_t *total, uint64_t *available);

/*
 * Remember the CPUs this process may run on (its affinity mask), before the process pins
 * itself to one: the workers are held on those.
 */
void host_mp_affinity_save(void);

struct fault_info;
/*
 * Run a measurement window on the processor plat_window_cpu chose: returns 1 when that is the
 * caller's own (run it here), else plat_window_run's result.
 */
int host_mp_window_run(void (*fn)(void *arg), void *arg, struct fault_info *fault);

#endif
