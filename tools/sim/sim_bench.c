// SPDX-License-Identifier: MIT
// chase-sim --bench: how many simulated loads per second the model and backend sustain.
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "chain.h"
#include "sim_buffer.h"
#include "sim_cli.h"
#include "sim_measure.h"

#define BENCH_BUFFER_BYTES (64ULL << 20)
#define BENCH_REPS 3

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One random chain of size bytes through sim_measure; returns simulated loads per second. */
static double bench_random(struct run_buffer *buf, uint64_t size, double *cycles)
{
    struct chain_layout l = {.base = buf->virt, .stride_bytes = 64, .slots = size / 64};
    void **head = chain_build_random(&l, 42);
    struct chase_point pt = {.head = {head}, .streams = 1, .lap_hops = l.slots};
    struct measure_plan plan = {.reps = BENCH_REPS, .min_hops = 1u << 20, .max_hops = 1ULL << 32};
    struct point_result r;
    double t0 = now_s();
    if (sim_measure(&pt, &plan, NULL, &r) != 0)
        return 0;
    double dt = now_s() - t0;
    uint64_t loads = l.slots + r.hops * r.reps;
    *cycles = r.tsc.median;
    measure_release(&r);
    return (double)loads / dt;
}

int sim_bench(const struct sim_spec *spec, const char *name, const struct sim_cli *cli)
{
    static const uint64_t sizes[] = {16ULL << 10, 128ULL << 10, 1ULL << 20,
                                     4ULL << 20,  16ULL << 20,  64ULL << 20};
    struct sim_hier h;
    struct sim_backend backend;
    struct run_buffer buf;
    char why[160], line[1024];
    if (sim_hier_init(&h, spec, cli->page_bytes, cli->seed) != 0 ||
        plat_buffer_alloc(BENCH_BUFFER_BYTES, 2ULL << 20, &buf, why, sizeof(why)) != 0) {
        fprintf(stderr, "chase-sim: bench: out of memory\n");
        return 1;
    }
    sim_spec_format(spec, line, sizeof(line));
    printf("chase-sim bench: %s\n  %s\n", name, line);
    sim_backend_bind(&backend, &h, sim_buffer_current());
    double worst = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        double cycles = 0, rate = bench_random(&buf, sizes[i], &cycles);
        worst = (i == 0 || rate < worst) ? rate : worst;
        printf("  random chase %6llu KiB: %7.1f M simulated loads/s (%.1f cycles per load)\n",
               (unsigned long long)(sizes[i] >> 10), rate / 1e6, cycles);
    }
    printf("simulated loads per second (slowest size): %.1f M\n", worst / 1e6);
    sim_backend_release(&backend);
    plat_buffer_free(&buf);
    sim_hier_free(&h);
    return 0;
}
