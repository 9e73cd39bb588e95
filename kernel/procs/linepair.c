// SPDX-License-Identifier: MIT
// One ordered pair's line-state measurements: every state, in every home the pair is measured
// with (chase's buffer; a node away from both processors' nodes), each a result for a row.
#include "procs/linepair.h"

#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/stats.h"
#include "machine/numa_table.h"

void ls_homes_begin(struct ls_homes *h, const struct exp_ctx *ctx, uint8_t *base, uint64_t bytes)
{
    char why[160];
    kmemset(h, 0, sizeof(*h));
    h->buffer = (struct ls_area){base, bytes, 0};
    h->buffer_node_known = ctx->buffer.node_known;
    h->buffer_node = ctx->buffer.node;
    unsigned nodes = plat_numa(&h->t, why, sizeof(why));
    if (nodes < 2) { /* one node, or none known: chase's buffer is the only home */
        if (nodes)
            node_table_free(&h->t);
        h->t.nnodes = 0;
        return;
    }
    unsigned n = h->t.nnodes;
    h->has_mem = plat_alloc(n * sizeof(*h->has_mem));
    h->nb = plat_alloc(n * sizeof(*h->nb));
    h->tried = plat_alloc(n * sizeof(*h->tried));
    h->area = plat_alloc(n * sizeof(*h->area));
    if (!h->has_mem || !h->nb || !h->tried || !h->area) {
        ls_homes_end(h);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        h->has_mem[i] = h->t.node[i].mem_bytes > 0;
        h->nb[i] = (struct plat_buffer){0};
        h->tried[i] = false;
    }
}

void ls_homes_end(struct ls_homes *h)
{
    for (unsigned i = 0; h->nb && h->tried && i < h->t.nnodes; i++)
        if (h->nb[i].virt)
            plat_node_buffer_free(&h->nb[i]);
    plat_free(h->has_mem);
    plat_free(h->nb);
    plat_free(h->tried);
    plat_free(h->area);
    h->has_mem = NULL, h->nb = NULL, h->tried = NULL, h->area = NULL;
    if (h->t.nnodes)
        node_table_free(&h->t);
}

/* The area in node i's buffer, made when first asked for; NULL when it cannot be had (said). */
static struct ls_area *ls_node_area(struct ls_homes *h, unsigned i)
{
    char why[160];
    if (!h->tried[i]) {
        h->tried[i] = true;
        if (plat_node_buffer_alloc(i, LS_AREA_BYTES, LS_AREA_ALIGN_BYTES, &h->nb[i], why,
                                   sizeof(why)) != 0) {
            h->nb[i].virt = NULL;
            ksnprintf(h->note, sizeof(h->note), "no buffer in node %u for its home: %s", i, why);
            con_printf("line states: %s\n", h->note);
        } else {
            h->area[i] = (struct ls_area){h->nb[i].virt, LS_AREA_BYTES, 0};
            con_printf("line states: node %u buffer for lines homed away from a pair: 0x%llx, "
                       "%s\n",
                       i, (unsigned long long)h->nb[i].phys,
                       h->nb[i].placement ? h->nb[i].placement : "placed");
        }
    }
    return h->nb[i].virt ? &h->area[i] : NULL;
}

/* Median, min and p90 of the run's per-repetition walks, ns per line. */
static void ls_stats(const struct exp_ctx *ctx, const struct ls_run *r, struct ls_result *res)
{
    double v[LS_REPS_MAX];
    for (uint64_t i = 0; i < r->reps; i++)
        v[i] = timing_ticks_to_ns(ctx->timing, (double)r->ticks[i]) / (double)r->lines;
    stats_sort(v, r->reps);
    res->ns_median = stats_quantile_sorted(v, r->reps, 0.5);
    res->ns_min = v[0];
    res->ns_p90 = stats_quantile_sorted(v, r->reps, 0.9);
}

/* One state in one area: the two or three sides at once. False when one did not come back. */
static bool ls_one(const struct exp_ctx *ctx, const struct ls_pair *pp, struct ls_area *area,
                   struct ls_result *res)
{
    struct ls_run *r = pp->run;
    struct mp_cpu three[3] = {pp->cpus[pp->a], pp->cpus[pp->b]};
    struct mp_step_job jobs[3] = {{ls_timer, r}, {ls_answer, r}, {ls_helper, r}};
    bool done[3];
    unsigned k = 2;
    if (res->state == LS_SHARED)
        three[k++] = pp->cpus[res->helper];
    r->area = area;
    ls_begin(r, res->state);
    int rc = mp_run_steps(three, k, jobs, MP_TIMEOUT_US, done);
    ls_end(r);
    res->ok = rc == 0 && !r->failed;
    if (res->ok)
        ls_stats(ctx, r, res);
    return rc != PLAT_CPU_TIMEOUT;
}

unsigned ls_pair_measure(struct ls_homes *h, const struct exp_ctx *ctx, const struct ls_pair *pp,
                         void (*row)(void *arg, const struct ls_result *res), void *arg)
{
    const struct plat_cpu *a = &pp->cpus[pp->a].p, *b = &pp->cpus[pp->b].p;
    int other = -1, helper = ls_helper_pick(pp->cpus, pp->n, pp->a, pp->b);
    if (h->has_mem && h->buffer_node_known && a->node_known && b->node_known)
        other =
            ls_home_other(h->t.nnodes, h->has_mem, h->t.distance, a->node, b->node, h->buffer_node);
    unsigned bad = 0;
    bool alive = true;
    for (int home = 0; home < 2; home++) {
        struct ls_area *area = home == 0 ? &h->buffer : NULL;
        if (home == 1 && other >= 0)
            area = ls_node_area(h, (unsigned)other);
        if (!area)
            continue;
        for (unsigned s = 0; s < LS_STATES; s++) {
            struct ls_result res = {.state = (enum ls_state)s, .helper = -1};
            res.home_other = home == 1;
            res.home_known = home == 1 || h->buffer_node_known;
            res.home_node = home == 1 ? (unsigned)other : h->buffer_node;
            if (s == LS_SHARED && helper < 0)
                continue; /* two processors: no third to share with (said by the caller) */
            if (s == LS_SHARED)
                res.helper = helper;
            if (alive)
                alive = ls_one(ctx, pp, area, &res);
            bad += !res.ok;
            row(arg, &res);
        }
    }
    return bad;
}
