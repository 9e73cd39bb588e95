// SPDX-License-Identifier: MIT
// The buffer a run's plan needs: its size and its alignment, from the selected experiments.
#ifndef CHASE_BUFFER_PLAN_H
#define CHASE_BUFFER_PLAN_H

#include <stdint.h>

#include "config/config.h"
#include "machine/machine.h"

#define BUFFER_ALIGN_BYTES (2ULL << 20) /* the cache-set bits of a 2 MiB page are known */
#define BUFFER_ALIGN_MAX (1ULL << 30)   /* the largest page: no stride asks for more */

/* The largest buffer any selected experiment needs on m, in bytes. */
uint64_t run_buffer_need(const struct chase_config *cfg, const struct machine *m);

/*
 * The buffer's alignment in bytes: BUFFER_ALIGN_BYTES, or the largest power-of-two stride any
 * selected experiment uses, up to BUFFER_ALIGN_MAX.
 */
uint64_t run_plan_alignment(const struct chase_config *cfg);

#endif
