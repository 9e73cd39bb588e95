// SPDX-License-Identifier: MIT
// The offset experiment's report side: sets that stand out as the offset sweeps up and down.
#include "analysis/judge.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/stats.h"
#include "platform.h"

/* offset: a point stands out from the sweep by this fraction and this many robust sigmas. */
#define OFFSET_FRACTION 0.10
#define OFFSET_SIGMAS 4.0
#define MAD_TO_SIGMA 1.4826

struct sweep {
    size_t n;
    double *off, *ns;
    double *mn; /* each point's fastest repetition (ns_min), NaN when the table has none */
};

/* The sweep in one direction, in the order of the table. */
static void offset_series(const struct csv *t, const char *dir, struct sweep *s)
{
    int cd = csv_col(t, "direction"), co = csv_col(t, "offset_bytes"), cn = csv_col(t, "ns_median");
    int cm = csv_col(t, "ns_min");
    s->n = 0;
    for (size_t i = 0; s->off && s->ns && s->mn && i < t->nrows; i++)
        if (kstrcmp(csv_text(t, i, cd), dir) == 0 && kisfinite(csv_num(t, i, co)) &&
            kisfinite(csv_num(t, i, cn))) {
            s->off[s->n] = csv_num(t, i, co);
            s->mn[s->n] = cm >= 0 ? csv_num(t, i, cm) : KM_NAN;
            s->ns[s->n++] = csv_num(t, i, cn);
        }
}

/* The down sweep's point at offset o: its index, or d->n when it has none. */
static size_t down_index(const struct sweep *d, double o)
{
    size_t i = 0;
    while (i < d->n && d->off[i] != o)
        i++;
    return i;
}

static double down_at(const struct sweep *d, double o)
{
    size_t i = down_index(d, o);
    return i < d->n ? d->ns[i] : KM_NAN;
}

/* Whether the up sweep's point i and the down sweep's at its offset differ: their medians by
 * more than tol, and, where the table has them, their fastest repetitions the same way. A
 * policy that follows the sweep's history changes every repetition; a point whose median rose
 * while its fastest repetition stayed level with the other sweep's was measured in a noisy
 * while (other tenants), and is said apart (*noisy). */
static bool sweeps_differ(const struct sweep *u, const struct sweep *d, size_t i, double tol,
                          bool *noisy)
{
    size_t k = down_index(d, u->off[i]);
    *noisy = false;
    if (k == d->n || !(kfabs(u->ns[i] - d->ns[k]) > tol))
        return false;
    double dm = u->mn[i] - d->mn[k];
    if (!kisfinite(dm))
        return true;
    *noisy = !(kfabs(dm) > tol && dm * (u->ns[i] - d->ns[k]) > 0);
    return !*noisy;
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
                        double tol, size_t *dedicated, size_t *hysteresis, size_t *noisy)
{
    size_t rows = 0;
    int leaders = verdict_list(v, "leader_offsets_bytes", "bytes",
                               "offsets standing out in both sweep directions (leader sets?)");
    for (size_t i = 0; i < u->n; i++) {
        double dn = down_at(d, u->off[i]), un = u->ns[i];
        bool both = leader_like(u, d, u->off[i], un, med, tol), loud;
        bool differ = sweeps_differ(u, d, i, tol, &loud);
        *noisy += loud && !both;
        if (!both && !differ && !loud)
            continue;
        if (rows++ == 0) {
            verdict_line(v, "| offset (bytes) | up ns | down ns | candidate |");
            verdict_line(v, "|---|---|---|---|");
        }
        *dedicated += both;
        if (both)
            verdict_list_add(v, leaders, u->off[i]);
        *hysteresis += differ && !both;
        verdict_line(v, "| %.0f | %.2f | %.2f | %s |", u->off[i], un, dn,
                     both     ? "the sweep changes after it both ways: leader set?"
                     : differ ? "up and down differ"
                              : "medians differ, fastest repetitions agree: noise");
    }
}

static void judge_offset(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return;
    v->present = true;
    size_t rows = (t->nrows + 1) * sizeof(double);
    struct sweep u = {0, plat_alloc(rows), plat_alloc(rows), plat_alloc(rows)};
    struct sweep d = {0, plat_alloc(rows), plat_alloc(rows), plat_alloc(rows)};
    double *dev = plat_alloc(rows);
    offset_series(t, "up", &u);
    offset_series(t, "down", &d);
    if (u.n < 3 || d.n < 3 || !dev) {
        verdict_headline(v, "offset.csv needs up and down sweeps (direction, offset_bytes, "
                            "ns_median)");
        goto out;
    }
    double med = stats_median(u.ns, u.n);
    for (size_t i = 0; i < u.n; i++)
        dev[i] = kfabs(u.ns[i] - med);
    double tol =
        kfmax(OFFSET_FRACTION * med, OFFSET_SIGMAS * MAD_TO_SIGMA * stats_median(dev, u.n));
    size_t dedicated = 0, hysteresis = 0, noisy = 0;
    offset_rows(v, &u, &d, med, tol, &dedicated, &hysteresis, &noisy);
    verdict_number(v, "dedicated_set_candidates", (double)dedicated, "offsets",
                   "offsets standing out from the median in both directions");
    verdict_number(v, "direction_dependent_offsets", (double)hysteresis, "offsets",
                   "offsets where the up and down sweeps differ");
    verdict_number(v, "noisy_offsets", (double)noisy, "offsets",
                   "medians differ but the fastest repetitions agree");
    verdict_headline(v,
                     "%zu offsets stand out from the median %.2f ns in both directions "
                     "(dedicated-set candidates) and %zu differ between the up and down "
                     "sweeps (policy following the sweep's history)",
                     dedicated, med, hysteresis);
    if (noisy)
        judge_append(v->headline, VERDICT_CHARS,
                     "; %zu more only in a noisy while (fastest repetitions agree)", noisy);
out:
    plat_free(u.off);
    plat_free(u.ns);
    plat_free(u.mn);
    plat_free(d.off);
    plat_free(d.ns);
    plat_free(d.mn);
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
