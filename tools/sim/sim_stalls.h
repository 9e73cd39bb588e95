// SPDX-License-Identifier: MIT
// Stalls in time (sim_stalls.c): DRAM refresh and SMIs, on the model's clock of load latencies.
#ifndef SIM_STALLS_H
#define SIM_STALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A stall that recurs: every period_ns, for stall_ns (period 0: none). */
struct sim_stall {
    double period_ns;
    double stall_ns;
};

/* The model's clock and what it met: loads follow one another (a chase), so the clock is the
 * sum of their latencies, in core cycles. */
struct sim_clock {
    double now_cycles;
    double cycles_per_ns;
    double refresh_period_c, refresh_stall_c; /* cycles (period 0: no refresh) */
    double refresh_late_c; /* a refresh starts up to this late (cycles), see sim_clock_set */
    double smi_period_c, smi_stall_c; /* cycles (period 0: no SMI) */
    uint64_t refreshes_met;           /* DRAM loads that waited for a refresh */
    uint64_t smis;                    /* SMIs the clock crossed */
};

/*
 * Parse "PERIOD/STALL" (len bytes at s), each a decimal number with ns, us or ms, like
 * 3.9us/350ns; true with *out set when both parse and 0 < stall < period.
 */
bool sim_stall_parse(const char *s, size_t len, struct sim_stall *out);
/* Write st as "PERIODns/STALLns" into buf (capacity cap). */
void sim_stall_format(const struct sim_stall *st, char *buf, size_t cap);

/*
 * Start clock c at 0 for refresh and smi (either may have period 0), at ghz cycles per ns.
 * A controller issues each refresh when the rank is free, not on the exact tick (DDR4 and DDR5
 * may postpone several); so refresh k starts at k periods plus a fixed pseudo-random delay of
 * up to one DRAM load (dram_cycles). Without it a serialized chase would lock onto the
 * refresh's end and meet every refresh at the same point of a load.
 */
void sim_clock_set(struct sim_clock *c, const struct sim_stall *refresh,
                   const struct sim_stall *smi, double ghz, unsigned dram_cycles);
/* Whether c models any stall in time (then loads go one by one, on the clock). */
static inline bool sim_clock_timed(const struct sim_clock *c)
{
    return c->refresh_period_c > 0 || c->smi_period_c > 0;
}
/*
 * A load that took `cycles` in the caches (dram: it went to DRAM) issued now: the extra cycles
 * a refresh in progress makes a DRAM load wait (the rest of the refresh), plus an SMI's stall
 * when one falls during it; the clock moves past the load. Returns the load's cycles.
 */
unsigned sim_clock_load(struct sim_clock *c, unsigned cycles, bool dram);

#endif
