// SPDX-License-Identifier: MIT
// The bandwidth kernels' names and byte accounting (what a GB/s counts).
#include "stream/bw.h"

#include "point/ctx.h"

#include "config/config.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "platform.h"

const char *const bw_kernel_names[] = {"read",    "write",     "copy",      "nt_write",
                                       "nt_copy", "rep_movsb", "rep_stosb", NULL};

bool bw_is_copy(enum bw_kernel k)
{
    return k == BW_COPY || k == BW_NT_COPY || k == BW_REP_MOVSB;
}

uint64_t bw_span_bytes(enum bw_kernel k, uint64_t size_bytes)
{
    return bw_is_copy(k) ? size_bytes / 2 : size_bytes;
}

uint64_t bw_bytes_moved(enum bw_kernel k, uint64_t span, uint64_t laps)
{
    return span * laps * (bw_is_copy(k) ? 2 : 1);
}

unsigned bw_width_bits(enum bw_kernel k, const struct simd_caps *c, enum simd_width w)
{
    return k == BW_REP_MOVSB || k == BW_REP_STOSB ? 0 : simd_vector_bits(c, w);
}

double bw_l1_peak_bpc(enum bw_kernel k, double load_bpc, double store_bpc)
{
    switch (k) {
    case BW_READ:
        return load_bpc;
    case BW_WRITE:
        return store_bpc;
    case BW_COPY:
        return 2 * (load_bpc < store_bpc ? load_bpc : store_bpc);
    default:
        return KM_NAN;
    }
}

unsigned bw_width_candidates(const struct simd_caps *c, bool ring0, enum simd_width asked,
                             enum simd_width *w)
{
    enum simd_width first = simd_choose(c, ring0, asked, NULL, 0);
    if (first == SIMD_AUTO)
        return 0;
    unsigned n = 0;
    w[n++] = first;
    for (int v = (int)first - 1; asked == SIMD_AUTO && v > SIMD_AUTO && n < BW_CANDIDATES_MAX; v--)
        if (simd_usable(c, ring0, (enum simd_width)v, NULL, 0))
            w[n++] = (enum simd_width)v;
    return n;
}

void bw_check_width(struct cfg_check *c, const char *key, const struct machine *m, unsigned width)
{
    char why[160];
    if (width != SIMD_AUTO &&
        simd_choose(&m->cpu.simd, m->ring0, (enum simd_width)width, why, sizeof(why)) == SIMD_AUTO)
        cfg_check_fail(c, key, "%s", why);
}

void bw_check_kernel(struct cfg_check *c, const char *key, unsigned kernel)
{
    if (!BW_ARCH_STRING_KERNELS && (kernel == BW_REP_MOVSB || kernel == BW_REP_STOSB))
        cfg_check_fail(c, key,
                       "%s is not on this architecture (x86-64's string instructions); "
                       "the kernels here are read, write, copy, nt_write, nt_copy",
                       bw_kernel_names[kernel]);
}

int bw_width_choose(struct exp_ctx *ctx, int asked, enum simd_width *w)
{
    *w = simd_choose(&ctx->m->cpu.simd, ctx->m->ring0, (enum simd_width)asked, ctx->failure,
                     sizeof(ctx->failure));
    if (*w == SIMD_AUTO)
        return EXP_RUN_SKIPPED;
    if (!plat_window_xstate(simd_xcr0_needed(*w))) {
        ksnprintf(ctx->failure, sizeof(ctx->failure), "the %s register state cannot be enabled",
                  simd_width_name(*w));
        return EXP_RUN_SKIPPED;
    }
    return 0;
}

void bw_best_add(struct bw_best *b, unsigned c, const struct bw_result *r)
{
    if (c == 0)
        for (unsigned j = 0; j < BW_CANDIDATES_MAX; j++)
            b->gbs[j] = KM_NAN;
    if (c >= BW_CANDIDATES_MAX)
        return;
    b->gbs[c] = r->gbs_median;
    if (c == 0 || r->gbs_median > b->best.gbs_median) {
        b->best = *r;
        b->cand = c;
    }
}

void bw_widths_text(const double *gbs, const enum simd_width *w, unsigned n, char *out, size_t cap)
{
    size_t at = 0;
    out[0] = 0;
    for (unsigned i = 0; i < n && at < cap; i++)
        if (kisfinite(gbs[i]))
            at += (size_t)ksnprintf(out + at, cap - at, "%s%s:%.3f", at ? " " : "",
                                    simd_width_name(w[i]), gbs[i]);
}
