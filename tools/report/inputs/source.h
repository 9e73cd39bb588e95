// SPDX-License-Identifier: MIT
// One input of chase-report (a chase result folder or another tool's output) as curves and tables.
#ifndef REPORT_SOURCE_H
#define REPORT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/interpret.h"
#include "lib/csv.h"
#include "inputs/rjson.h"

#define SOURCE_MAX_CURVES 32
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
};

struct curve {
    char label[64];
    enum an_role role;
    uint64_t page_bytes;   /* 0 when unknown */
    uint64_t stride_bytes; /* 0 when unknown */
    bool relative;         /* latencies are time added to an L1 hit (tinymembench) */
    size_t n, cap;
    double *size;   /* bytes */
    double *ns;     /* ns per load */
    double *cycles; /* core cycles per load, NaN when unknown */
};

struct cache_info {
    int level;
    char type[16]; /* "data", "unified", "instruction" */
    double size_bytes, ways, line_bytes, sets, shared_by;
};

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
    char status[EXP_COUNT][SOURCE_TEXT]; /* run.json's word on each experiment, "" if none */
    size_t ncurves;
    struct curve curve[SOURCE_MAX_CURVES];
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

/*
 * Load the input at path: a chase result folder, a chase experiment CSV, or the text output
 * of lmbench lat_mem_rd, random-chase, tinymembench or multichase -v, recognised by shape.
 * s must be zeroed. Returns 0, or -1 with err (capacity cap) saying why; an unrecognised file
 * gets the list of accepted formats.
 */
int source_load(const char *path, struct source *s, char *err, size_t cap);
/*
 * Read the len bytes at text as the file s->path names (set by the caller): a name ending in
 * ".csv" is a chase experiment CSV, anything else is recognised by shape as in source_load.
 * Returns 0, or -1 with err (capacity cap). The path-free entry of the readers (fuzzing, tests).
 */
int source_load_text(struct source *s, const char *text, size_t len, char *err, size_t cap);
/* Release everything a source holds. */
void source_free(struct source *s);
/* Add a warning (printf-like) to s; extra warnings beyond SOURCE_MAX_WARNINGS are dropped. */
void source_warn(struct source *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A new empty curve in s with that label and role; NULL when s has SOURCE_MAX_CURVES. */
struct curve *source_add_curve(struct source *s, const char *label, enum an_role role);
/* Append a point; false when the curve is full or memory runs out. */
bool curve_push(struct curve *c, double size, double ns, double cycles);
/* Sort a curve's points by size. */
void curve_sort(struct curve *c);
/* Drop curves with no points (after parsing). */
void source_drop_empty(struct source *s);

/* The text the accepted formats are listed with in errors. */
extern const char source_formats_help[];

/* Parsers of other tools' text output (input_foreign*.c); each returns 0 or -1 with err. */
bool foreign_is_lmbench(const char *text, size_t len);
bool foreign_is_random_chase(const char *text, size_t len);
bool foreign_is_tinymembench(const char *text, size_t len);
bool foreign_is_multichase(const char *text, size_t len);
int foreign_parse_lmbench(const char *text, size_t len, struct source *s, char *err, size_t cap);
int foreign_parse_random_chase(const char *text, size_t len, struct source *s, char *err,
                               size_t cap);
int foreign_parse_tinymembench(const char *text, size_t len, struct source *s, char *err,
                               size_t cap);
int foreign_parse_multichase(const char *text, size_t len, struct source *s, char *err, size_t cap);

/* The chase result-folder reader (input_run.c): load the folder at s->path. */
int run_load_folder(struct source *s, char *err, size_t cap);
/* Read run.json's text into s (machine, caches, status); a bad one is a warning. */
void run_load_json(struct source *s, const char *text, size_t len);
/* Read one experiment CSV text into s as experiment e (tables and curves). */
int run_load_table(struct source *s, size_t e, const char *text, size_t len, char *err, size_t cap);

#endif
