// SPDX-License-Identifier: MIT
// The end-of-run summary: plateaus of the random curve, and where the files are.
#include "summary.h"

#include "config.h"
#include "console.h"
#include "stats.h"

#define RISE 1.25

static void close_plateau(struct plateau *p, const double *ns, const double *cycles, unsigned from,
                          unsigned to)
{
    double a[256], b[256];
    unsigned n = 0;
    for (unsigned i = from; i < to && n < 256; i++, n++) {
        a[n] = ns[i];
        b[n] = cycles[i];
    }
    stats_sort(a, n);
    stats_sort(b, n);
    p->ns = stats_quantile_sorted(a, n, 0.5);
    p->cycles = stats_quantile_sorted(b, n, 0.5);
}

unsigned summary_plateaus(const uint64_t *size, const double *ns, const double *cycles,
                          unsigned n, struct plateau *out, unsigned cap)
{
    unsigned count = 0, start = 0;
    if (!n || !cap)
        return 0;
    for (unsigned i = 1; i <= n; i++) {
        bool end = i == n;
        if (!end) {
            double base = ns[start];
            for (unsigned k = start; k < i; k++)
                base = ns[k] < base ? ns[k] : base;
            bool rise = ns[i] > base * RISE && (i + 1 >= n || ns[i + 1] > base * RISE);
            end = rise;
        }
        if (!end)
            continue;
        if (count < cap) {
            out[count].first_size = size[start];
            out[count].last_size = size[i - 1];
            close_plateau(&out[count], ns, cycles, start, i);
            count++;
        }
        start = i;
    }
    return count;
}

void summary_print(const struct run_ctx *ctx, const char *where)
{
    struct plateau p[SUMMARY_MAX_LEVELS];
    unsigned n = summary_plateaus(ctx->curve_size, ctx->curve_ns, ctx->curve_cycles, ctx->curve_n,
                                  p, SUMMARY_MAX_LEVELS);
    con_printf("\n== summary\n");
    if (n) {
        con_printf("latency plateaus of the random chase (a plateau ends where latency rises "
                   "by 25%%):\n");
        con_printf("%8s %12s %12s %10s %10s\n", "plateau", "from", "to", "ns", "cycles");
        for (unsigned i = 0; i < n; i++) {
            char a[24], b[24];
            cfg_format_size(a, sizeof(a), p[i].first_size);
            cfg_format_size(b, sizeof(b), p[i].last_size);
            con_printf("%8u %12s %12s %10.2f %10.2f\n", i + 1, a, b, p[i].ns, p[i].cycles);
        }
    }
    if (ctx->m->cpu.hypervisor)
        con_printf("note: measured under a hypervisor; under emulation (TCG) timings mean "
                   "nothing\n");
    con_printf("results: %s\n", where);
}
