// SPDX-License-Identifier: MIT
// One input of chase-report (a chase result folder or another tool's output) as curves and
// tables: what every reader fills, and the helpers they fill it with.
#ifndef REPORT_SOURCE_H
#define REPORT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/interpret.h"
#include "lib/csv.h"
#include "inputs/rjson.h"

/* Curves one input holds: as many as kernel/analysis reads. */
#define SOURCE_MAX_CURVES AN_MAX_CURVES
#define SOURCE_MAX_CACHES 16
#define SOURCE_MAX_WARNINGS 12
#define SOURCE_TEXT 200
/* Most points one curve keeps; later points are dropped with a warning. */
#define CURVE_MAX_POINTS 100000

/* Experiments are indexed as in kernel/analysis/table.c; EXP_COUNT bounds the index. */
#define EXP_COUNT AN_EXP_MAX

/* The experiment's name as chase writes it; NULL when out of range. */
const char *exp_name(size_t e);

enum source_format {
    FMT_RUN,          /* a chase result folder (chase.efi, chase-host, chase-sim) */
    FMT_CSV,          /* one chase experiment CSV given on its own */
    FMT_LMBENCH,      /* lmbench lat_mem_rd */
    FMT_RANDOM_CHASE, /* afborchert pointer-chasing random-chase */
    FMT_TINYMEMBENCH, /* tinymembench latency table */
    FMT_MULTICHASE,   /* multichase -v, one block per run */
    FMT_MEMLAT,       /* Chips and Cheese's MemoryLatency (clamchowder/Microbenchmarks) */
    FMT_RAMLAT,       /* ramlat -n (wtarreau/ramspeed) */
    FMT_SBCBENCH,     /* a whole sbc-bench log: its tinymembench and ramlat tables */
};

/* The arrays a curve's points are kept in, owned by its source: the curve (kernel/analysis's
 * struct an_curve) points at them and only reads them. */
struct curve_points {
    size_t cap;     /* points the arrays hold */
    double *size;   /* bytes */
    double *ns;     /* ns per load */
    double *cycles; /* core cycles per load, NaN when unknown */
};

struct cache_info {
    int level;
    char type[16]; /* "data", "unified", "instruction" */
    double size_bytes, ways, line_bytes, sets, shared_by;
};

/* An experiment's side files (inputs/input_side.h): its histogram, its slow batches and its
   second table (an_experiment's side_table). */
enum side_kind { SIDE_HIST, SIDE_SAMPLES, SIDE_TABLE, SIDE_KINDS };

struct source {
    char path[4096];
    enum source_format format;
    char name[SOURCE_TEXT];    /* for people: "run 0003", "lat_mem_rd.txt (lmbench lat_mem_rd)" */
    char tag[48];              /* for file names: "0003", "lat_mem_rd-txt" */
    char machine[SOURCE_TEXT]; /* CPU brand and model, or "unknown machine" */
    bool simulated;
    char hierarchy[SOURCE_TEXT]; /* chase-sim's hierarchy, "" otherwise */
    struct rjson *run;           /* run.json, NULL when there is none */
    struct csv *table[EXP_COUNT];
    struct csv *side[EXP_COUNT][SIDE_KINDS]; /* NULL when the run has none */
    char status[EXP_COUNT][SOURCE_TEXT];     /* run.json's word on each experiment, "" if none */
    size_t ncurves;
    /* The curves as kernel/analysis reads them (label, role, page and stride sizes, points);
     * whole bytes for page_bytes and stride_bytes, 0 when unknown */
    struct an_curve curve[SOURCE_MAX_CURVES];
    struct curve_points points[SOURCE_MAX_CURVES]; /* curve[i]'s arrays */
    size_t ncaches;
    struct cache_info cache[SOURCE_MAX_CACHES];
    char cache_from[48]; /* who described the caches: "CPUID", "PPTT", "CLIDR/CCSIDR", "sysfs",
                            "simulated"...; "the machine" when the input does not say */
    double core_hz;      /* 0 when unknown */
    double page_bytes;   /* buffer page size of the run, 0 when unknown */
    bool hypervisor;     /* run.json says the CPU runs under a hypervisor */
    size_t nwarnings;
    char warning[SOURCE_MAX_WARNINGS][SOURCE_TEXT];
};

/* Release everything a source holds. */
void source_free(struct source *s);
/* Add a warning (printf-like) to s; extra warnings beyond SOURCE_MAX_WARNINGS are dropped. */
void source_warn(struct source *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A new empty curve in s with that label and role; NULL when s has SOURCE_MAX_CURVES. */
struct an_curve *source_add_curve(struct source *s, const char *label, enum an_role role);
/* Curves a reader of several tables still owes: each table yet to come keeps room for its levels
 * curve, which comes before any table's plotted-only curves (a whole sbc-bench log holds up to
 * 30 tables). */
struct curve_budget {
    size_t tables_left;   /* tables not yet started */
    size_t extra_dropped; /* plotted-only curves left out for want of room */
};
/* A new plotted-only curve (AN_ROLE_EXTRA) in s when room is left beside b->tables_left levels
 * curves still to come; NULL otherwise (b->extra_dropped counts it). */
struct an_curve *source_add_extra(struct source *s, struct curve_budget *b, const char *label);
/* One warning on s when b dropped plotted-only curves. */
void source_warn_budget(struct source *s, const struct curve_budget *b);
/* Append a point to s's curve c; false when the curve is full or memory runs out. */
bool curve_push(struct source *s, struct an_curve *c, double size, double ns, double cycles);
/* Sort the points of curve i of s by size. */
void curve_sort(struct source *s, size_t i);
/* Drop curves with no points (after parsing). */
void source_drop_empty(struct source *s);

/* The text the accepted formats are listed with in errors. */
extern const char source_formats_help[];

#endif
