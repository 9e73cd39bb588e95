// SPDX-License-Identifier: MIT
// A memory node x memory node read bandwidth matrix: all the processors of one node reading
// buffers in each node's memory together.
#include "stream/node_bw.h"

#include "platform.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "point/sizes.h"

/* The processors of node `node` among those chosen, into nb->row_cpus; how many. */
static unsigned row_cpus(const struct plat_numa *t, unsigned node, struct node_bw *nb)
{
    unsigned n = 0;
    for (unsigned i = 0; i < nb->ncpus; i++)
        for (unsigned k = 0; k < t->node[node].ncpus; k++)
            if (t->node[node].cpu[k] == (int)nb->cpus[i].p.id && !nb->cpus[i].p.lost) {
                nb->row_cpus[n++] = nb->cpus[i];
                break;
            }
    return n;
}

/* One cell: the row's n processors reading their shares of buf. */
static int cell_measure(struct exp_ctx *ctx, struct node_bw *nb, unsigned n,
                        const struct plat_buffer *buf, uint64_t size_bytes, struct node_bw_cell *c)
{
    static const struct bw_mix read_all = {"read", {{BW_READ, 1}}, 1};
    uint64_t share = size_bytes / n / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
    nb->team.cpus = nb->row_cpus;
    nb->team.n = n;
    nb->team.size = share ? share : BW_SIZE_ALIGN_BYTES;
    nb->team.sample_keys = NULL;
    for (unsigned i = 0; i < n; i++)
        nb->team.base[i] = buf->virt + (share ? i * share : 0);
    double gbs[BW_CANDIDATES_MAX];
    for (unsigned k = 0; k < BW_CANDIDATES_MAX; k++)
        gbs[k] = KM_NAN;
    *c = (struct node_bw_cell){.processors = n};
    for (unsigned w = 0; w < nb->ncand; w++) { /* every width, the fastest kept (bandwidth's) */
        struct bw_team_out o;
        nb->team.width = nb->cand[w];
        if (bw_team_measure(ctx, &nb->team, &read_all, &o) != 0)
            return -1;
        gbs[w] = o.median;
        if (!c->measured || o.median > c->gbs)
            *c = (struct node_bw_cell){true, o.median, o.min, o.max, n, o.reps, w, {0}};
    }
    kmemcpy(c->width_gbs, gbs, sizeof(gbs));
    return 0;
}

uint64_t node_bw_read_bytes(const struct mp_cpu *cpus, unsigned n, uint64_t llc_bytes,
                            uint64_t least_bytes, uint64_t *cache_bytes)
{
    *cache_bytes = mp_l3_count(cpus, n) * llc_bytes;
    uint64_t read = NODE_BW_CACHE_MULTIPLE * *cache_bytes;
    read = (read + BW_SIZE_ALIGN_BYTES - 1) / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
    return read > least_bytes ? read : least_bytes;
}

uint64_t node_bw_begin(struct exp_ctx *ctx, const struct plat_numa *t, uint64_t chain_bytes,
                       struct node_bw *nb)
{
    char failure[sizeof(ctx->failure)], sa[24], sb[24], sc[24], sd[24];
    kmemcpy(failure, ctx->failure, sizeof(failure));
    nb->skipped[0] = 0;
    nb->read_bytes = chain_bytes;
    nb->cache_bytes = nb->caches = 0;
    nb->nnodes = t->nnodes;
    if (!(nb->cell = plat_alloc((size_t)t->nnodes * t->nnodes * sizeof(*nb->cell)))) {
        ksnprintf(nb->skipped, sizeof(nb->skipped), "no memory for a %u x %u matrix", t->nnodes,
                  t->nnodes);
        return chain_bytes;
    }
    /* ctx->failure is the experiment's: the reason goes to nb->skipped */
    if ((nb->ncpus = mp_cpus(ctx, 0, nb->cpus, PLAT_CPUS_MAX)) == 0) {
        ksnprintf(nb->skipped, sizeof(nb->skipped), "%s", ctx->failure);
        kmemcpy(ctx->failure, failure, sizeof(failure));
        return chain_bytes;
    }
    for (unsigned node = 0; node < t->nnodes; node++) {
        unsigned n = row_cpus(t, node, nb);
        uint64_t cache,
            read = node_bw_read_bytes(nb->row_cpus, n, exp_llc_bytes(ctx->m), chain_bytes, &cache);
        if (cache > nb->cache_bytes) {
            nb->cache_bytes = cache;
            nb->caches = mp_l3_count(nb->row_cpus, n);
        }
        nb->read_bytes = read > nb->read_bytes ? read : nb->read_bytes;
    }
    if (nb->read_bytes > chain_bytes)
        con_printf("read bandwidth: each cell reads %s of its node's buffer, %u times the %s that "
                   "the last caches of a node's processors hold (%u of %s), beyond the chain's "
                   "%s\n",
                   exp_size(sa, sizeof(sa), nb->read_bytes), NODE_BW_CACHE_MULTIPLE,
                   exp_size(sb, sizeof(sb), nb->cache_bytes), nb->caches,
                   exp_size(sc, sizeof(sc), exp_llc_bytes(ctx->m)),
                   exp_size(sd, sizeof(sd), chain_bytes));
    return nb->read_bytes;
}

int node_bw_measure(struct exp_ctx *ctx, const struct plat_numa *t, const unsigned *mem,
                    unsigned nmem, const struct plat_buffer *buf, struct node_bw *nb)
{
    if (nb->skipped[0])
        return 0;
    char failure[sizeof(ctx->failure)];
    kmemcpy(failure, ctx->failure, sizeof(failure));
    /* ctx->failure is the experiment's: the reason below goes to nb->skipped */
    if (bw_width_choose(ctx, SIMD_AUTO, &nb->team.width) != 0) {
        ksnprintf(nb->skipped, sizeof(nb->skipped), "%s", ctx->failure);
        kmemcpy(ctx->failure, failure, sizeof(failure));
        plat_window_xstate(0);
        return 0;
    }
    nb->ncand = bw_width_candidates(&ctx->m->cpu.simd, ctx->m->ring0, SIMD_AUTO, nb->cand);
    nb->cand[0] = nb->team.width; /* the one chosen and enabled, the widest */
    con_printf("read bandwidth: every processor of a node reads its share of %llu bytes in "
               "each node's memory, %s (%u-bit)%s, all started together\n",
               (unsigned long long)nb->read_bytes, simd_width_name(nb->team.width),
               simd_vector_bits(&ctx->m->cpu.simd, nb->team.width),
               nb->ncand > 1 ? " and every narrower width, the fastest kept" : "");
    int rc = 0;
    for (unsigned a = 0; a < t->nnodes && rc == 0; a++) {
        unsigned n = row_cpus(t, a, nb);
        for (unsigned k = 0; n && k < nmem && rc == 0; k++) {
            if (cell_measure(ctx, nb, n, &buf[k], nb->read_bytes,
                             &nb->cell[a * nb->nnodes + mem[k]]) == 0)
                continue;
            ksnprintf(ctx->failure, sizeof(ctx->failure),
                      "read bandwidth from node %u into node %u: a processor did not come back "
                      "in time",
                      a, mem[k]);
            con_printf("%s\n", ctx->failure);
            rc = EXP_RUN_FAILED;
        }
    }
    plat_window_xstate(0);
    return rc;
}

void node_bw_end(struct node_bw *nb)
{
    plat_free(nb->cell);
    nb->cell = NULL;
    nb->nnodes = 0;
}

void node_bw_print(const struct plat_numa *t, const unsigned *mem, unsigned nmem,
                   const struct node_bw *nb)
{
    if (nb->skipped[0]) {
        con_printf("node x node read bandwidth: not measured (%s)\n", nb->skipped);
        return;
    }
    con_printf("node x node read bandwidth, GB/s median (processors); row: the processors' "
               "node, column: memory's node\n%6s",
               "");
    for (unsigned k = 0; k < nmem; k++)
        con_printf(" %14u", mem[k]);
    con_printf("\n");
    for (unsigned a = 0; a < t->nnodes; a++) {
        bool any = false;
        for (unsigned k = 0; k < nmem; k++)
            any |= node_bw_at(nb, a, mem[k])->measured;
        if (!any)
            continue;
        con_printf("%6u", a);
        for (unsigned k = 0; k < nmem; k++) {
            const struct node_bw_cell *c = node_bw_at(nb, a, mem[k]);
            char cell[24] = "-";
            if (c->measured)
                ksnprintf(cell, sizeof(cell), "%.2f (%u)", c->gbs, c->processors);
            con_printf(" %14s", cell);
        }
        con_printf("\n");
    }
}
