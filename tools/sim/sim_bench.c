// SPDX-License-Identifier: MIT
// chase-sim --bench: how many simulated loads per second the model and the backend sustain.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chase/chain.h"
#include "lib/stats.h"
#include "sim_buffer.h"
#include "sim_cli.h"
#include "sim_measure.h"

#define BENCH_BUFFER_BYTES (64ULL << 20)
#define BENCH_REPS 2
#define BENCH_MORE_REPS 4
/*
 * Loads per repetition: with 2^20 the model's rate read up to a fifth lower, and varied
 * more from run to run, than with longer repetitions on the same build (docs/sim.md).
 */
#define BENCH_MIN_HOPS (1u << 22)
#define BENCH_TRIALS 7            /* per size; the median is reported, and the fastest */
#define BENCH_TARGET_LOADS_S 50e6 /* the model's target: loads per second per core */

/*
 * Seconds of CPU time this thread has used: the rate per core, which other work on a
 * shared machine (the time this thread waits for a CPU) does not lower.
 */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct bench_result {
    double end_to_end; /* loads per second of a whole point: recording the lap included */
    double model;      /* loads per second of the replayed repetitions alone */
    double fastest;    /* the model's rate in the fastest trial */
    double cycles;     /* simulated cycles per load */
};

/* CPU seconds sim_measure takes on pt with reps repetitions of hops hops; loads in *loads. */
static double timed_point(const struct chase_point *pt, unsigned reps, uint64_t hops,
                          uint64_t *loads, double *cycles)
{
    struct measure_plan plan = {.reps = reps, .min_hops = hops, .max_hops = hops};
    struct point_result r;
    double t0 = cpu_s();
    if (sim_measure(pt, &plan, NULL, &r) != 0)
        return -1;
    double dt = cpu_s() - t0;
    *loads = r.warm_hops + r.hops * r.reps;
    *cycles = r.tsc.median;
    measure_release(&r);
    return dt;
}

/*
 * One random chain of size bytes through sim_measure, twice: with BENCH_REPS and with
 * BENCH_REPS + BENCH_MORE_REPS repetitions of at least a lap; the difference is the
 * model's own speed on BENCH_MORE_REPS replayed repetitions.
 */
static int bench_once(const struct chase_point *pt, uint64_t hops, struct bench_result *out)
{
    uint64_t few, many;
    double t_few = timed_point(pt, BENCH_REPS, hops, &few, &out->cycles);
    double t_many = timed_point(pt, BENCH_REPS + BENCH_MORE_REPS, hops, &many, &out->cycles);
    if (t_few < 0 || t_many < 0)
        return -1;
    out->end_to_end = (double)few / t_few;
    out->model = t_many > t_few ? (double)(many - few) / (t_many - t_few) : 0;
    return 0;
}

/* BENCH_TRIALS measurements of a random chain of size bytes; their medians in *out. */
static int bench_random(struct plat_buffer *buf, uint64_t size, struct bench_result *out)
{
    struct chain_layout l = {.base = buf->virt, .stride_bytes = 64, .slots = size / 64};
    struct chase_point pt = {.streams = 1, .lap_hops = l.slots};
    uint64_t hops = l.slots > BENCH_MIN_HOPS ? l.slots : BENCH_MIN_HOPS;
    double model[BENCH_TRIALS], end_to_end[BENCH_TRIALS];
    pt.head[0] = chain_build_random(&l, 42);
    for (unsigned t = 0; t < BENCH_TRIALS; t++) {
        if (bench_once(&pt, hops, out) != 0)
            return -1;
        model[t] = out->model;
        end_to_end[t] = out->end_to_end;
    }
    stats_sort(model, BENCH_TRIALS); /* its last is the fastest */
    out->model = stats_quantile_sorted(model, BENCH_TRIALS, 0.5);
    out->fastest = model[BENCH_TRIALS - 1];
    out->end_to_end = stats_median(end_to_end, BENCH_TRIALS);
    return 0;
}

int sim_bench(const struct sim_spec *spec, const char *name, const struct sim_cli *cli)
{
    static const uint64_t sizes[] = {16ULL << 10, 128ULL << 10, 1ULL << 20,
                                     4ULL << 20,  16ULL << 20,  64ULL << 20};
    struct sim_hier h;
    struct sim_backend backend;
    struct plat_buffer buf;
    char why[160], line[1024];
    if (sim_hier_init(&h, spec, cli->page_bytes, cli->seed) != 0 ||
        plat_buffer_alloc(BENCH_BUFFER_BYTES, 2ULL << 20, &buf, why, sizeof(why)) != 0) {
        fprintf(stderr, "chase-sim: bench: out of memory\n");
        return 1;
    }
    sim_spec_format(spec, line, sizeof(line));
    printf("chase-sim bench: %s (loads per CPU second, median of %u trials)\n  %s\n", name,
           BENCH_TRIALS, line);
    sim_backend_bind(&backend, &h, sim_buffer_current());
    double worst = 0, worst_fastest = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        struct bench_result r;
        if (bench_random(&buf, sizes[i], &r) != 0) {
            fprintf(stderr, "chase-sim: bench: the point could not be simulated\n");
            break;
        }
        if (i == 0 || r.model < worst) {
            worst = r.model;
            worst_fastest = r.fastest;
        }
        printf("  random chase %6llu KiB: %7.1f M loads/s model (fastest %5.1f), %5.1f M loads/s "
               "end to end (%.1f cycles per load)\n",
               (unsigned long long)(sizes[i] >> 10), r.model / 1e6, r.fastest / 1e6,
               r.end_to_end / 1e6, r.cycles);
    }
    printf("simulated loads per second, model, slowest size: %.1f M, fastest trial %.1f M "
           "(target %.0f M for the median: %s)\n",
           worst / 1e6, worst_fastest / 1e6, BENCH_TARGET_LOADS_S / 1e6,
           worst >= BENCH_TARGET_LOADS_S ? "met" : "missed");
    sim_backend_release(&backend);
    plat_buffer_free(&buf);
    sim_hier_free(&h);
    return 0;
}
