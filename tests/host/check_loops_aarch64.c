// SPDX-License-Identifier: MIT
// Checks kernel/arch/aarch64/chase_loop.S under qemu-aarch64: every loop ends where its chains'
// hops lead, the counter moves forward at CNTFRQ_EL0's rate; prints "ok -" / "not ok -" lines.
#include <stdint.h>
#include <stdio.h>

#include "arch/chase_loop.h"
#include "arch/aarch64/cpu.h"

#define SLOTS 61 /* prime: slot i -> (i + STEP) mod SLOTS is one cycle over all of them */
#define STEP 17
#define CHAINS CHASE_LOCKSTEP_MAX

static void *ring[CHAINS][SLOTS];
static int failures;

static void check(int ok, const char *what, unsigned n)
{
    printf("%s - %s (%u)\n", ok ? "ok" : "not ok", what, n);
    failures += !ok;
}

/* Build chain c: slot i holds the address of slot (i + STEP) mod SLOTS. */
static void build(unsigned c)
{
    for (unsigned i = 0; i < SLOTS; i++)
        ring[c][i] = &ring[c][(i + STEP) % SLOTS];
}

/* Where hops dependent loads from slot 0 of chain c end. */
static void **after(unsigned c, uint64_t hops)
{
    return &ring[c][(hops % SLOTS) * STEP % SLOTS];
}

static void check_single(void)
{
    void **end = NULL;
    for (uint64_t iters = 1; iters <= 5; iters++) {
        chase_timed_rdtsc((void **)&ring[0][0], iters, &end);
        check(end == after(0, iters * CHASE_UNROLL), "chase_timed_rdtsc ends after its loads",
              (unsigned)iters);
        chase_timed_rdtscp((void **)&ring[0][0], iters, &end);
        check(end == after(0, iters * CHASE_UNROLL), "chase_timed_rdtscp ends after its loads",
              (unsigned)iters);
        chase_timed_wide((void **)&ring[0][0], iters, &end);
        check(end == after(0, iters * CHASE_UNROLL_WIDE), "chase_timed_wide ends after its loads",
              (unsigned)iters);
    }
}

/* chase_batches: where it ends, and one ordered stamp before and after each batch. */
static void check_batches(void)
{
    uint64_t stamps[8];
    for (uint64_t hops = 1; hops <= 5; hops++) {
        void **end = chase_batches((void **)&ring[0][0], 7, hops, stamps);
        int ordered = 1;
        for (unsigned i = 0; i < 7; i++)
            ordered &= stamps[i + 1] >= stamps[i];
        check(end == after(0, 7 * hops) && ordered,
              "chase_batches ends after its loads, its stamps in order", (unsigned)hops);
    }
}

static void check_lockstep(void)
{
#define LOCKSTEP_ENTRY(n) [n - 2] = chase_lockstep_##n,
#define SERIAL_ENTRY(n) [n - 2] = chase_serial_##n,
    static const chase_lockstep_fn lockstep[CHAINS - 1] = {CHASE_LOCKSTEP_COUNTS(LOCKSTEP_ENTRY)};
    static const chase_lockstep_fn serial[CHAINS - 1] = {CHASE_LOCKSTEP_COUNTS(SERIAL_ENTRY)};
    for (unsigned n = 2; n <= CHAINS; n++) {
        for (unsigned kind = 0; kind < 2; kind++) {
            void **heads[CHAINS];
            for (unsigned c = 0; c < n; c++)
                heads[c] = &ring[c][0];
            (kind ? serial : lockstep)[n - 2](heads, 3, 0);
            int ok = 1;
            for (unsigned c = 0; c < n; c++)
                ok &= heads[c] == after(c, 3 * CHASE_UNROLL);
            check(ok,
                  kind ? "chase_serial_N: every head advanced"
                       : "chase_lockstep_N: every head advanced",
                  n);
        }
    }
}

int main(void)
{
    for (unsigned c = 0; c < CHAINS; c++)
        build(c);
    check_single();
    check_batches();
    check_lockstep();
    uint64_t hz = arch_counter_hz(), t0 = arch_tsc_fenced(), t1 = arch_tsc_fenced();
    check(hz > 0, "CNTFRQ_EL0 gives the counter's rate", 0);
    check(t1 >= t0, "CNTVCT_EL0 does not go back", 0);
    check(timer_empty_rdtsc() < hz, "an empty timed region lasts less than a second", 0);
    /* 2^22 dependent adds take more than no time under any clock of 1 GHz or less. */
    uint64_t ticks = add_chain_timed(1u << 18);
    check(ticks > 0 && ticks < 60 * hz, "the add chain takes measurable time", 0);
    return failures != 0;
}
