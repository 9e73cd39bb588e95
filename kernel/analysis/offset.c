// SPDX-License-Identifier: MIT
// The offset experiment's report side: sets that stand out as the offset sweeps up and down.
#include "analysis/judge.h"
#include "analysis/interpret.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "platform.h"

/* offset: a point stands out from the sweep by this fraction and this many robust sigmas. */
#define OFFSET_FRACTION 0.10
#define OFFSET_SIGMAS 4.0
#define MAD_TO_SIGMA 1.4826

struct sweep {
    size_t n;
    double *off, *ns;
};

/* The sweep in one direction, in the order of the table. */
static void offset_series(const struct csv *t, const char *dir, struct sweep *s)
{
    int cd = csv_col(t, "direction"), co = csv_col(t, "offset_bytes"), cn = csv_col(t, "ns_median");
    s->n = 0;
    for (size_t i = 0; s->off && s->ns && i < t->nrows; i++)
        if (kstrcmp(csv_text(t, i, cd), dir) == 0 && kisfinite(csv_num(t, i, co)) &&
            kisfinite(csv_num(t, i, cn))) {
            s->off[s->n] = csv_num(t, i, co);
            s->ns[s->n++] = csv_num(t, i, cn);
        }
}

static double down_at(const struct sweep *d, double o)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->off[i] == o)
            return d->ns[i];
    return KM_NAN;
}

/* In sweep w, whether the point at offset o differs from the point measured after it; -1:
 * none after it in w (the end of a sweep: the turning point's successor is the down sweep's,
 * judged there once). */
static int changes_after(const struct sweep *w, double o, double tol)
{
    for (size_t i = 0; i + 1 < w->n; i++)
        if (w->off[i] == o)
            return kfabs(w->ns[i + 1] - w->ns[i]) > tol;
    return -1;
}

/*
 * Whether the offset o looks like a leader set. Followers take the policy the selector holds,
 * which only a leader's misses move: after a leader of policy A (whose own latency is A's)
 * the followers turn to B's latency, and the other way round. So a leader differs from the
 * point measured after it, in both sweeps. A follower differs only when a leader comes next,
 * a different neighbour in the two directions. An end of the sweeps, with one successor,
 * must also stand out from the median both ways. Without set dueling nothing changes along
 * the sweep and no offset is a candidate.
 */
static bool leader_like(const struct sweep *u, const struct sweep *d, double o, double un,
                        double med, double tol)
{
    int cu = changes_after(u, o, tol), cd = changes_after(d, o, tol);
    double dn = down_at(d, o);
    bool out = kfabs(un - med) > tol && kfabs(dn - med) > tol && (un - med) * (dn - med) > 0;
    if (cu >= 0 && cd >= 0)
        return cu > 0 && cd > 0;
    return (cu > 0 || cd > 0) && out;
}

/* The offsets standing out into v's table; counts both kinds. */
static void offset_rows(struct verdict *v, const struct sweep *u, const struct sweep *d, double med,
                        double tol, size_t *dedicated, size_t *hysteresis)
{
    for (size_t i = 0; i < u->n; i++) {
        double dn = down_at(d, u->off[i]), un = u->ns[i];
        bool both = leader_like(u, d, u->off[i], un, med, tol);
        bool differ = kfabs(un - dn) > tol;
        if (!both && !differ)
            continue;
        if (*dedicated + *hysteresis == 0) {
            verdict_line(v, "| offset (bytes) | up ns | down ns | candidate |");
            verdict_line(v, "|---|---|---|---|");
        }
        *dedicated += both;
        if (both && v->data.nleaders < VERDICT_LIST)
            v->data.leader_offsets_bytes[v->data.nleaders++] = u->off[i];
        *hysteresis += differ && !both;
        verdict_line(v, "| %.0f | %.2f | %.2f | %s |", u->off[i], un, dn,
                     both ? "the sweep changes after it both ways: leader set?"
                          : "up and down differ");
    }
}

static void judge_offset(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return;
    v->present = true;
    size_t rows = (t->nrows + 1) * sizeof(double);
    struct sweep u = {0, plat_alloc(rows), plat_alloc(rows)};
    struct sweep d = {0, plat_alloc(rows), plat_alloc(rows)};
    double *dev = plat_alloc(rows);
    offset_series(t, "up", &u);
    offset_series(t, "down", &d);
    if (u.n < 3 || d.n < 3 || !dev) {
        verdict_headline(v, "offset.csv needs up and down sweeps (direction, offset_bytes, "
                            "ns_median)");
        goto out;
    }
    double med = judge_median(u.ns, u.n);
    for (size_t i = 0; i < u.n; i++)
        dev[i] = kfabs(u.ns[i] - med);
    double tol =
        kfmax(OFFSET_FRACTION * med, OFFSET_SIGMAS * MAD_TO_SIGMA * judge_median(dev, u.n));
    size_t dedicated = 0, hysteresis = 0;
    v->data.fields |= VD_LEADERS;
    offset_rows(v, &u, &d, med, tol, &dedicated, &hysteresis);
    verdict_item(v, "dedicated_set_candidates", (double)dedicated);
    verdict_item(v, "direction_dependent_offsets", (double)hysteresis);
    verdict_headline(v,
                     "%zu offsets stand out from the median %.2f ns in both directions "
                     "(dedicated-set candidates) and %zu differ between the up and down "
                     "sweeps (policy following the sweep's history)",
                     dedicated, med, hysteresis);
out:
    plat_free(u.off);
    plat_free(u.ns);
    plat_free(d.off);
    plat_free(d.ns);
    plat_free(dev);
}

const struct an_experiment analysis_offset = {
    .name = "offset",
    .plot = {.stem = "offset",
             .x = "offset_bytes",
             .y = "ns_median",
             .split = "direction",
             .label = AN_LABEL_NAME,
             .xlabel = "offset (bytes)",
             .ylabel = "ns per load",
             .what = "set-dueling hunt: offset swept up and down",
             .caption = "Latency of a one-set chain as its offset moves through the sets, up then "
                        "down: sets that stand out both ways may be dedicated to one policy."},
    .judge = judge_offset,
};
