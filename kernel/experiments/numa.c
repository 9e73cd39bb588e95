// SPDX-License-Identifier: MIT
// The numa experiment: the random chase from a processor of each memory node over a buffer
// in each node's memory, a node x node matrix beside the firmware's distances (SLIT), and the
// read bandwidth of all of a node's processors into each node's memory beside it; CPU-less nodes
// and special-purpose memory are targets too, HMAT's advertised figures beside the measured.
#include "experiments/driver.h"
#include "experiments/numa_msc.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "machine/hmat.h"
#include "machine/numa_table.h"
#include "machine/tiers.h"
#include "procs/mp.h"
#include "stream/node_bw.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_numa;

#define NUMA_ALIGN_BYTES (2ULL << 20) /* node buffers: 2 MiB aligned, like the chase buffer */
#define NUMA_FIT_SHARE 2 /* auto sizes use at most half of the smallest node's free span */

struct numa_params {
    struct cfg_auto size; /* bytes of each node's chain */
    uint64_t stride_bytes;
};
CFG_PARAMS_FIT(struct numa_params);

#define P(field) offsetof(struct numa_params, field)

static const struct key_desc numa_keys[] = {
    {"size", KEY_SIZE_AUTO, P(size), 4096, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "chain size in every node's memory (auto: 4x the LLC, at least 64M, 4M when quick; "
     "lowered to half the smallest node's free memory); the bandwidth matrix reads twice what "
     "a node's processors' last caches hold (every L3 instance among them) where that is more"},
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "distance between slots (default: the cache line)"},
};

static void numa_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct numa_params *p = params;
    p->size.is_auto = true;
    p->size.value = exp_sweep_max_bytes(m, profile);
    p->stride_bytes = exp_line_bytes(m);
}

static void numa_resolve(void *params, const struct machine *m)
{
    struct numa_params *p = params;
    if (p->size.is_auto && !p->size.value) /* "auto" written out: the full profile's size */
        p->size.value = exp_sweep_max_bytes(m, PROFILE_FULL);
}

static void numa_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct numa_params *p = params;
    (void)m;
    exp_check_stride(c, "stride", p->stride_bytes);
    if (p->size.value < p->stride_bytes)
        cfg_check_fail(c, "size", "size (%llu) is smaller than one stride (%llu)",
                       (unsigned long long)p->size.value, (unsigned long long)p->stride_bytes);
}

/*
 * Its chains live in buffers from the nodes (plat_node_buffer_alloc), not in the chase buffer;
 * a run of numa alone still gets the smallest chase buffer (one 2 MiB page), never none.
 */
static uint64_t numa_buffer_bytes(const void *params, const struct machine *m)
{
    (void)params, (void)m;
    return NUMA_ALIGN_BYTES;
}

/* One cell of the matrix. */
struct numa_cell {
    bool measured;
    double ns_median, ns_min, cycles;
};

/* The run: the nodes, which hold memory and processors, their buffers and the matrix. */
struct numa_run {
    const struct numa_params *p;
    struct plat_numa t;
    uint64_t size_bytes;
    unsigned *mem, nmem;     /* nodes with free memory */
    int *cpu_of;             /* a usable processor of each node, or -1 */
    struct plat_buffer *buf; /* per memory node (index into mem) */
    struct numa_cell *cell;  /* nnodes x nnodes: [cpu node][mem node] */
    unsigned from;           /* the node whose processor chases now */
    struct node_bw bw;       /* the read bandwidth matrix */
    const struct hmat *hmat; /* the firmware's advertised figures (NULL: no HMAT) */
};

/* Cell [a][b] of the latency matrix. */
static struct numa_cell *numa_cell_at(const struct numa_run *d, unsigned a, unsigned b)
{
    return &d->cell[a * d->t.nnodes + b];
}

static void numa_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct numa_run *d = data;
    uint64_t line = exp_line_bytes(ctx->m), stride = d->p->stride_bytes;
    pp->plan = exp_plan(ctx, d->size_bytes, stride < line ? stride : line, 1);
    pp->label = pp->chain_bytes = d->size_bytes;
    pp->slots = pp->lap_hops = d->size_bytes / stride;
}

static int numa_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct numa_run *d = data;
    struct chain_layout l = {d->buf[pp->index].virt, 0, d->p->stride_bytes, pp->slots, 0};
    /* the same cycle in every node: only where the memory is differs between cells */
    point_cycle(&pp->pt, &l, 0, ctx->cfg->global.seed);
    return 0;
}

/* The read bandwidth columns of cell [a][b] as CSV text (empty when not measured). */
static const char *bw_text(const struct numa_run *d, unsigned a, unsigned b, char *buf, size_t cap)
{
    const struct node_bw_cell *c = node_bw_at(&d->bw, a, b);
    char widths[96];
    bw_widths_text(c->width_gbs, d->bw.cand, d->bw.ncand, widths, sizeof(widths));
    if (c->measured)
        ksnprintf(buf, cap, "%.3f,%.3f,%.3f,%u,%u,%llu,%s,%s", c->gbs, c->gbs_min, c->gbs_max,
                  c->processors, c->reps, (unsigned long long)d->bw.read_bytes,
                  simd_width_name(d->bw.cand[c->width]), widths);
    else
        ksnprintf(buf, cap, ",,,,,,,");
    return buf;
}

/* SLIT's distance from node a to node b as CSV text ("" when unknown). */
static const char *distance_text(const struct numa_run *d, unsigned a, unsigned b, char *buf,
                                 size_t cap)
{
    buf[0] = 0;
    if (d->t.slit)
        ksnprintf(buf, cap, "%u", plat_numa_distance(&d->t, a, b));
    return buf;
}

static void numa_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                     const struct point_result *r)
{
    struct numa_run *d = data;
    unsigned to = d->mem[pp->index];
    char keys[160], dist[8], sz[24], bw[256], placed[200], adv[160];
    ksnprintf(keys, sizeof(keys), "%u,%u,%u,%u,%d,%llu", d->from, to, d->t.node[d->from].domain,
              d->t.node[to].domain, d->cpu_of[d->from], (unsigned long long)d->size_bytes);
    exp_samples(ctx, keys, r);
    con_printf("%4u %4u %5d %10s %4s ", d->from, to, d->cpu_of[d->from],
               exp_size(sz, sizeof(sz), d->size_bytes),
               d->t.slit ? distance_text(d, d->from, to, dist, sizeof(dist)) : "-");
    exp_table_common(ctx, r);
    const struct node_bw_cell *b = node_bw_at(&d->bw, d->from, to);
    tiers_hmat_cells(d->hmat, d->t.node[d->from].domain, d->t.node[to].domain, exp_ns(ctx, r),
                     b->measured ? b->gbs : 0, adv, sizeof(adv));
    strbuf_printf(&ctx->csv, "%s,%s,%llu,%llu,0x%016llx,0x%llx,%s,%s,%s,%s,", keys,
                  distance_text(d, d->from, to, dist, sizeof(dist)),
                  (unsigned long long)d->p->stride_bytes, (unsigned long long)pp->slots,
                  (unsigned long long)pp->pt.link_sum, (unsigned long long)d->buf[pp->index].phys,
                  exp_csv_field(placed, sizeof(placed), d->buf[pp->index].placement),
                  bw_text(d, d->from, to, bw, sizeof(bw)), d->cpu_of[to] >= 0 ? "false" : "true",
                  adv);
    struct numa_cell *c = numa_cell_at(d, d->from, to);
    *c = (struct numa_cell){true, exp_ns(ctx, r), timing_ticks_to_ns(ctx->timing, r->tsc.min),
                            exp_cycles(r)};
    exp_csv_common(ctx, r, pp->build_ticks);
}

/* The memory nodes and a processor of each; EXP_RUN_SKIPPED with the reason when < 2. */
static int numa_nodes(struct exp_ctx *ctx, struct numa_run *d)
{
    char why[200] = "";
    if (ctx->measure != measure_chase) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs real memory nodes: this measurement backend models one processor's "
                  "caches");
        return EXP_RUN_SKIPPED;
    }
    unsigned n = plat_numa(&d->t, why, sizeof(why)), ncpu = 0;
    char no_hmat[200];
    d->hmat = plat_hmat(no_hmat, sizeof(no_hmat)); /* why there is none: run.json's hmat.note */
    if (n < 2) {
        if (n)
            ksnprintf(ctx->failure, sizeof(ctx->failure),
                      "needs two memory nodes or more: one node here (%s)", d->t.source);
        else
            ksnprintf(ctx->failure, sizeof(ctx->failure), "needs two memory nodes or more: %s",
                      why);
        return EXP_RUN_SKIPPED;
    }
    d->mem = plat_alloc(n * sizeof(*d->mem));
    d->cpu_of = plat_alloc(n * sizeof(*d->cpu_of));
    d->buf = plat_alloc(n * sizeof(*d->buf));
    d->cell = plat_alloc((size_t)n * n * sizeof(*d->cell));
    if (!d->mem || !d->cpu_of || !d->buf || !d->cell) {
        ksnprintf(ctx->failure, sizeof(ctx->failure), "no memory for %u nodes' matrix", n);
        return EXP_RUN_FAILED;
    }
    for (unsigned i = 0; i < n; i++) {
        d->cpu_of[i] = -1;
        for (unsigned k = 0; k < d->t.node[i].ncpus && d->cpu_of[i] < 0; k++)
            d->cpu_of[i] = d->t.node[i].cpu[k];
        ncpu += d->cpu_of[i] >= 0;
    }
    d->nmem = tiers_targets(&d->t, d->mem); /* CPU-less and special-purpose memory included */
    if (d->nmem < 2 || !ncpu) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs two memory nodes or more: %u of %u nodes have free memory, %u a "
                  "usable processor (%s)",
                  d->nmem, n, ncpu, d->t.source);
        return EXP_RUN_SKIPPED;
    }
    return 0;
}

/* The smallest free span of the memory nodes. */
static uint64_t numa_smallest_free(const struct numa_run *d)
{
    uint64_t smallest = UINT64_MAX;
    for (unsigned i = 0; i < d->nmem; i++) {
        uint64_t f = d->t.node[d->mem[i]].free_bytes;
        smallest = f < smallest ? f : smallest;
    }
    return smallest;
}

/* The chain size: the key's, an auto one lowered to fit the smallest node's free span. */
static void numa_size(struct numa_run *d)
{
    uint64_t smallest = numa_smallest_free(d), size = d->p->size.value;
    if (d->p->size.is_auto && size > smallest / NUMA_FIT_SHARE) {
        size = exp_pow2_at_most(smallest / NUMA_FIT_SHARE);
        con_printf("size auto lowered to %llu bytes: half the smallest node's free memory\n",
                   (unsigned long long)size);
    }
    d->size_bytes = size / d->p->stride_bytes * d->p->stride_bytes;
}

/* Each node buffer: the chain's size, or what the bandwidth matrix reads when more, lowered to
   half the smallest node's free memory (said), never below the chain's. */
static uint64_t numa_buffer_size(const struct numa_run *d)
{
    uint64_t read = d->bw.read_bytes,
             fit = exp_pow2_at_most(numa_smallest_free(d) / NUMA_FIT_SHARE);
    if (read <= d->size_bytes)
        return d->size_bytes;
    if (read > fit) {
        char a[24], b[24];
        read = fit > d->size_bytes ? fit : d->size_bytes;
        con_printf("read bandwidth: the cells read %s instead, half the smallest node's free "
                   "memory: the last caches of a node's processors (%s) may hold part of it\n",
                   exp_size(a, sizeof(a), read), exp_size(b, sizeof(b), d->bw.cache_bytes));
    }
    return read;
}

/* A buffer in each memory node; EXP_RUN_FAILED naming the node that cannot hold one. */
static int numa_buffers(struct exp_ctx *ctx, struct numa_run *d)
{
    char why[200];
    uint64_t size = numa_buffer_size(d);
    d->bw.read_bytes = d->bw.read_bytes < size ? d->bw.read_bytes : size;
    for (unsigned i = 0; i < d->nmem; i++) {
        if (plat_node_buffer_alloc(d->mem[i], size, NUMA_ALIGN_BYTES, &d->buf[i], why,
                                   sizeof(why)) != 0) {
            ksnprintf(ctx->failure, sizeof(ctx->failure), "no buffer in node %u: %s", d->mem[i],
                      why);
            con_printf("%s\n", ctx->failure);
            return EXP_RUN_FAILED;
        }
        con_printf("node %u buffer: 0x%llx, %llu bytes, %s%s%s\n", d->mem[i],
                   (unsigned long long)d->buf[i].phys, (unsigned long long)d->buf[i].size_bytes,
                   d->buf[i].placement ? d->buf[i].placement : "placed",
                   d->buf[i].mem_type ? ", " : "", d->buf[i].mem_type ? d->buf[i].mem_type : "");
    }
    return 0;
}

static void numa_free(struct numa_run *d)
{
    for (unsigned i = 0; d->buf && i < d->nmem; i++)
        plat_node_buffer_free(&d->buf[i]);
}

/* Everything numa_nodes and node_bw_begin allocated. */
static void numa_release(struct numa_run *d)
{
    node_bw_end(&d->bw);
    plat_free(d->mem);
    plat_free(d->cpu_of);
    plat_free(d->buf);
    plat_free(d->cell);
    node_table_free(&d->t);
}

/* The nodes as found: domain, memory, free span, ranges, processors. */
static void numa_print_nodes(const struct numa_run *d)
{
    con_printf("%4s %6s %10s %10s %10s %6s %5s  %s\n", "node", "domain", "memory", "free",
               "special", "ranges", "cpus", "chases from");
    for (unsigned i = 0; i < d->t.nnodes; i++) {
        const struct plat_node *nd = &d->t.node[i];
        char mem[24], fr[24], sp[24], from[64] = "-";
        const char *by;
        int near = tiers_measured_from(&d->t, d->hmat, i, &by);
        if (d->cpu_of[i] >= 0)
            ksnprintf(from, sizeof(from), "cpu %d", d->cpu_of[i]);
        else if (near >= 0) /* CPU-less: HMAT's attached initiator, else the nearest by SLIT */
            ksnprintf(from, sizeof(from), "cpu %d of node %d, the nearest%s", d->cpu_of[near], near,
                      kstrcmp(by, "HMAT") == 0 ? " (HMAT)" : "");
        con_printf("%4u %6u %10s %10s %10s %6u %5u  %s\n", i, nd->domain,
                   exp_size(mem, sizeof(mem), nd->mem_bytes),
                   exp_size(fr, sizeof(fr), nd->free_bytes),
                   exp_size(sp, sizeof(sp), nd->special_bytes), nd->nranges, nd->ncpus, from);
    }
    if (d->t.note[0])
        con_printf("note: %s\n", d->t.note);
}

/* The matrix: a row per processor's node, a column per memory node, SLIT beside each cell. */
static void numa_print_matrix(const struct numa_run *d)
{
    con_printf("node x node latency, ns median (SLIT distance); row: processor's node, column: "
               "memory's node\n%6s",
               "");
    for (unsigned k = 0; k < d->nmem; k++)
        con_printf(" %14u", d->mem[k]);
    con_printf("\n");
    for (unsigned i = 0; i < d->t.nnodes; i++) {
        if (d->cpu_of[i] < 0)
            continue;
        con_printf("%6u", i);
        for (unsigned k = 0; k < d->nmem; k++) {
            const struct numa_cell *c = numa_cell_at(d, i, d->mem[k]);
            char cell[24], dist[8];
            if (!c->measured)
                ksnprintf(cell, sizeof(cell), "-");
            else
                ksnprintf(cell, sizeof(cell), "%.1f (%s)", c->ns_median,
                          d->t.slit ? distance_text(d, i, d->mem[k], dist, sizeof(dist)) : "-");
            con_printf(" %14s", cell);
        }
        con_printf("\n");
    }
}

/* Each measured pair beside HMAT's advertised latency and bandwidth (when the firmware has one). */
static void numa_print_tiers(const struct numa_run *d)
{
    if (!d->hmat)
        return;
    con_printf("measured beside HMAT (latency: read, else access; bandwidth likewise)\n%4s %4s "
               "%8s %10s %10s %10s %10s\n",
               "from", "mem", "cpu_less", "ns", "HMAT ns", "GB/s", "HMAT MB/s");
    for (unsigned i = 0; i < d->t.nnodes; i++)
        for (unsigned k = 0; d->cpu_of[i] >= 0 && k < d->nmem; k++) {
            const struct numa_cell *c = numa_cell_at(d, i, d->mem[k]);
            const struct node_bw_cell *b = node_bw_at(&d->bw, i, d->mem[k]);
            const struct hmat_pair *p =
                hmat_pair_of(d->hmat, d->t.node[i].domain, d->t.node[d->mem[k]].domain);
            const char *kind;
            double ns = 0;
            uint64_t mbs = 0;
            bool has_ns = hmat_latency_ns(p, &ns, &kind),
                 has_bw = hmat_bandwidth_mbs(p, &mbs, &kind);
            con_printf("%4u %4u %8s %10.1f %10.1f %10.2f %10llu\n", i, d->mem[k],
                       d->cpu_of[d->mem[k]] >= 0 ? "no" : "yes", c->measured ? c->ns_median : 0.0,
                       has_ns ? ns : 0.0, b->measured ? b->gbs : 0.0,
                       has_bw ? (unsigned long long)mbs : 0ULL);
        }
}

/* The row of one processor's node: its windows sent to that processor. */
static int numa_from(struct exp_ctx *ctx, struct numa_run *d, unsigned node)
{
    d->from = node;
    con_printf("from node %u (processor %d):\n", node, d->cpu_of[node]);
    if (plat_window_cpu((unsigned)d->cpu_of[node], MP_TIMEOUT_US) != 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure), "processor %d of node %u cannot run windows",
                  d->cpu_of[node], node);
        con_printf("%s: left out\n", ctx->failure);
        return EXP_RUN_FAILED;
    }
    con_printf("%4s %4s %5s %10s %4s ", "from", "mem", "cpu", "size", "slit");
    exp_table_head_common();
    struct exp_sweep sweep = {.points = d->nmem,
                              .data = d,
                              .interleave = true,
                              .plan = numa_plan,
                              .build = numa_build,
                              .row = numa_row};
    int rc = exp_sweep_run(ctx, &sweep);
    plat_window_cpu(PLAT_WINDOW_HERE, 0);
    return rc;
}

static int numa_measure(struct exp_ctx *ctx, struct numa_run *d);

static int numa_run(struct exp_ctx *ctx, const void *params)
{
    static struct numa_run d;
    kmemset(&d, 0, sizeof(d));
    d.p = params;
    int rc = numa_measure(ctx, &d);
    numa_release(&d);
    return rc;
}

/* The whole experiment over d (its allocations left for numa_release). */
static int numa_measure(struct exp_ctx *ctx, struct numa_run *d)
{
    exp_header(ctx, &experiment_numa,
               "the random chase from each node's processor over each "
               "node's memory");
    strbuf_puts(
        &ctx->csv,
        "cpu_node,mem_node,cpu_domain,mem_domain,cpu,size_bytes,slit_distance,"
        "stride_bytes,slots,chain_checksum,buffer_phys,buffer_placement,read_gbs,read_gbs_min,"
        "read_gbs_max,read_processors,read_reps,read_bytes,read_width,read_widths_"
        "gbs,cpu_less," TIERS_CSV_HEAD "," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples,
                "cpu_node,mem_node,cpu_domain,mem_domain,cpu,size_bytes," EXP_SAMPLES_COMMON "\n");
    int rc = numa_nodes(ctx, d);
    if (rc)
        return rc;
    numa_print_nodes(d);
    numa_size(d);
    node_bw_begin(ctx, &d->t, d->size_bytes, &d->bw);
    if ((rc = numa_buffers(ctx, d)) != 0) {
        numa_free(d);
        return rc;
    }
    /* first, so that every latency row carries its cell's bandwidth */
    int bw_rc = node_bw_measure(ctx, &d->t, d->mem, d->nmem, d->buf, &d->bw);
    char bw_failure[sizeof(ctx->failure)];
    kmemcpy(bw_failure, ctx->failure, sizeof(bw_failure));
    unsigned rows = 0, failed = 0;
    for (unsigned i = 0; i < d->t.nnodes; i++) {
        if (d->cpu_of[i] < 0)
            continue;
        rows++;
        if (numa_from(ctx, d, i) != 0)
            failed++;
    }
    numa_free(d);
    numa_print_matrix(d);
    node_bw_print(&d->t, d->mem, d->nmem, &d->bw);
    numa_print_tiers(d);
    /* numa.msc.csv: a chase across each memory-side cache (after the node buffers are freed) */
    int msc_rc = msc_sweep_caches(ctx, &d->t, d->hmat, d->cpu_of);
    if (failed == rows)
        return EXP_RUN_FAILED;
    if (failed)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "%u of %u nodes' rows left out", failed,
                  rows);
    else if (bw_rc) /* the latency matrix is whole; the bandwidth matrix lost a processor */
        kmemcpy(ctx->failure, bw_failure, sizeof(bw_failure));
    return bw_rc ? bw_rc : msc_rc; /* a failed cache sweep set ctx->failure */
}

const struct experiment experiment_numa = {
    .cfg =
        {
            .name = "numa",
            .keys = numa_keys,
            .nkeys = sizeof(numa_keys) / sizeof(numa_keys[0]),
            .params_size = sizeof(struct numa_params),
            .defaults = numa_defaults,
            .resolve = numa_resolve,
            .check = numa_check,
            .buffer_bytes = numa_buffer_bytes,
        },
    .describe = "the random chase from a processor of each memory node over a buffer in each "
                "node's memory: a node x node latency matrix beside SLIT's distances, and the "
                "read bandwidth of all of a node's processors into each node's memory; CPU-less "
                "nodes and special-purpose memory too, beside the firmware's HMAT",
    .why = "memory of another node (socket, die, CXL) is farther: the matrix shows how much, and "
           "whether SLIT's order is the measured one",
    .run = numa_run,
};
