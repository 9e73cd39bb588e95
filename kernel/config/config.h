// SPDX-License-Identifier: MIT
// Configuration: global keys and keyed sections, parsed from the config file and load options.
#ifndef CHASE_CONFIG_H
#define CHASE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/machine.h"
#include "lib/strbuf.h"

enum profile { PROFILE_FULL, PROFILE_QUICK };
enum on_exit { ON_EXIT_WAIT, ON_EXIT_RETURN, ON_EXIT_SHUTDOWN, ON_EXIT_REBOOT };

/* Room for the experiment table: as many as the Makefile's EXPERIMENTS list names, whose count
   the build passes as CHASE_EXPERIMENTS (check-experiments.sh keeps the list equal to the table,
   kernel/experiments/table.c asserts the table fits), so the room grows with the table. */
#ifndef CHASE_EXPERIMENTS
#error "CHASE_EXPERIMENTS (the count of the Makefile's EXPERIMENTS list) is not defined"
#endif
#define EXPERIMENTS_MAX CHASE_EXPERIMENTS
#define REPS_MAX 1000
#define PRECISION_MAX_PPM 500000    /* 50% */
#define POINT_MAX_MS_MAX 3600000ULL /* an hour */
#define WINDOW_MAX_MS_MAX 1000ULL   /* interrupts off longer than this starves the firmware */
#define WARM_LAPS_MAX 64
#define CFG_NODE_MAX 1023 /* the node key: below Linux's MAX_NUMNODES (1024) */
#define PASSES_MAX 16
/* A text key's room: a configuration entry's value (192). */
#define CFG_TEXT_MAX 192
/* Uploads tried again at most this often: with the back-off's cap (run/ship.h) a server that is
   down holds a machine for minutes, not hours. */
#define RESULTS_RETRIES_MAX 10

enum key_type {
    KEY_U64,         /* plain integer (decimal or 0x hex) */
    KEY_SIZE,        /* integer with optional K, M or G binary suffix */
    KEY_CHOICE,      /* one of key_desc.choices, stored as unsigned index */
    KEY_EXPERIMENTS, /* comma-separated experiment names, or "all" */
    KEY_SIZE_LIST,   /* comma-separated sizes, each in [min, max] (struct cfg_list) */
    KEY_U64_AUTO,    /* "auto" or an integer in [min, max] (struct cfg_auto) */
    KEY_SIZE_AUTO,   /* "auto" or a size in [min, max] (struct cfg_auto) */
    KEY_CHOICE_LIST, /* comma-separated names of key_desc.choices: indices (struct cfg_list) */
    KEY_PERCENT,     /* a percentage ("0.5" or "0.5%"), stored as uint64_t parts per million
                        of the whole (0.5% = 5000) in [min, max] */
    KEY_TEXT,        /* text of at most max - 1 characters, stored in char[max] */
    KEY_SECRET,      /* KEY_TEXT never printed or written out (a token): only whether it is set */
    KEY_CPUS         /* processors: all, p, e, a count in [min, max] or a list (struct
                        cpu_choice, machine/cpu_select.h) */
};

/* Parts per million of the whole in one percent (KEY_PERCENT). */
#define CFG_PPM_PER_PERCENT 10000

#define CFG_LIST_MAX 8

/* A list value (KEY_SIZE_LIST; KEY_CHOICE_LIST: indices into the key's choices). */
struct cfg_list {
    uint64_t v[CFG_LIST_MAX];
    unsigned n;
};

/*
 * A value that may be "auto" (KEY_U64_AUTO, KEY_SIZE_AUTO): the experiment's resolve
 * hook computes it from the machine and the other keys, and it is printed and written
 * to run.json with what it came to.
 */
struct cfg_auto {
    uint64_t value;
    bool is_auto;
};

/* Page sizes a page key can ask for (indices into page_names): auto keeps what the buffer has. */
enum page_choice { PAGE_CHOICE_AUTO, PAGE_CHOICE_4K, PAGE_CHOICE_2M, PAGE_CHOICE_1G };

/* One configuration key: where its value lives and what it accepts. */
struct key_desc {
    const char *name;
    enum key_type type;
    size_t offset;              /* of the value in the parameter struct */
    uint64_t min, max;          /* accepted range (KEY_U64, KEY_SIZE) */
    const char *const *choices; /* NULL-terminated (KEY_CHOICE) */
    const char *unit;           /* "bytes", "" */
    const char *help;
};

struct cfg_table;

struct global_params {
    const struct cfg_table *table;         /* the sections experiments[] indexes */
    unsigned experiments[EXPERIMENTS_MAX]; /* indices into table, run order */
    unsigned n_experiments;
    unsigned profile; /* enum profile */
    unsigned on_exit; /* enum on_exit */
    uint64_t seed;
    uint64_t reps;
    uint64_t precision_ppm;    /* KEY_PERCENT: target half-width of the median's interval */
    uint64_t point_max_ms;     /* time cap of one point's repetitions */
    uint64_t window_max_ms;    /* cap of one repetition's window (interrupts off) */
    uint64_t passes;           /* interleaved passes over a sweep's points (1: one pass) */
    struct cfg_auto warm_laps; /* laps of warm-up; auto: measure_plan's own rule */
    unsigned fault_test;       /* enum fault_test (measure.h): tests only */
    unsigned page;             /* index into page_names: 0 auto, then 4K, 2M, 1G */
    unsigned prefetch;         /* enum prefetch_mode: the hardware prefetchers while measuring */
    unsigned memtype_test;     /* enum memtype_test (machine.h): tests only */
    unsigned serial_log;       /* 1: machine-readable lines to the serial port (lib/slog.h) */
    struct cfg_auto node;      /* memory node of the chase buffer; auto: the boot processor's */
    /* Where the run goes too ("", "serial" or an http(s) URL); the token sent as "Authorization:
       Bearer" ("": none); the tries after the first of each upload. */
    char results[CFG_TEXT_MAX];
    char results_token[CFG_TEXT_MAX];
    uint64_t results_retries;
};

/* The hardware prefetchers while an experiment measures (prefetch_names). */
enum prefetch_mode { PREFETCH_AS_IS, PREFETCH_OFF };

/* Keys every section has besides its own ("<experiment>.prefetch"): overrides of global keys. */
struct section_common {
    unsigned prefetch; /* index into section_prefetch_names: 0 "global", then as-is, off */
};

/*
 * Room for one experiment's parameter struct in struct chase_config. Each experiment defines
 * its struct in its own file and checks there, at compile time, that it fits (CFG_PARAMS_FIT).
 */
#define CFG_PARAMS_BYTES 256
#define CFG_PARAMS_ALIGN 8

struct cfg_params {
    _Alignas(CFG_PARAMS_ALIGN) unsigned char bytes[CFG_PARAMS_BYTES];
};

/* Fails the build when type does not fit in struct cfg_params. */
#define CFG_PARAMS_FIT(type)                                                                       \
    _Static_assert(sizeof(type) <= CFG_PARAMS_BYTES && _Alignof(type) <= CFG_PARAMS_ALIGN,         \
                   #type " does not fit in struct cfg_params")

/* The effective configuration of a run: the global keys, then one struct per section. */
struct chase_config {
    struct global_params global;
    struct cfg_params params[EXPERIMENTS_MAX];     /* indexed like global.table */
    struct section_common common[EXPERIMENTS_MAX]; /* indexed like global.table */
};

/* The prefetch mode section i measures with: its own key, else the global one. */
static inline enum prefetch_mode cfg_prefetch(const struct chase_config *cfg, size_t i)
{
    unsigned own = cfg->common[i].prefetch;
    return own ? (enum prefetch_mode)(own - 1) : (enum prefetch_mode)cfg->global.prefetch;
}

/* Cross-checks report through this, naming the key whose setting is wrong. */
struct cfg_check {
    const struct cfg_entries *entries;
    struct cfg_errors *errs;
    const char *section;
};

/*
 * One keyed section of the configuration ("[name]", "name.key = value"): its keys and the
 * hooks over its parameter struct. The experiments layer hands config a table of these.
 */
struct cfg_section {
    const char *name;
    const struct key_desc *keys;
    size_t nkeys;
    size_t params_size;   /* of its parameter struct, at most CFG_PARAMS_BYTES */
    const char *size_key; /* the key that sets how much buffer it needs */
    /* Defaults derived from the machine and the profile. */
    void (*defaults)(void *params, const struct machine *m, enum profile profile);
    /* Values left "auto" computed from the machine and the other keys (NULL: none). */
    void (*resolve)(void *params, const struct machine *m);
    /* Contradictions between keys (min > max, ...), reported with cfg_check_fail. */
    void (*check)(const void *params, const struct machine *m, struct cfg_check *c);
    /* Bytes of chase buffer the plan needs on m (a buffer for each processor counts them all). */
    uint64_t (*buffer_bytes)(const void *params, const struct machine *m);
};

/* The sections a configuration knows, in order (at most EXPERIMENTS_MAX). */
struct cfg_table {
    const struct cfg_section *(*section)(size_t i); /* the i-th section, i < n */
    size_t n;
};

/* Index of the section called name in t, or -1. */
int cfg_table_find(const struct cfg_table *t, const char *name);

/* The parameter struct of section i of cfg->global.table. */
static inline void *cfg_params(struct chase_config *cfg, size_t i)
{
    return cfg->params[i].bytes;
}

static inline const void *cfg_params_const(const struct chase_config *cfg, size_t i)
{
    return cfg->params[i].bytes;
}

/* Report a contradiction for key (without the section prefix), at the source that set it. */
void cfg_check_fail(struct cfg_check *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * The key called name ("reps", "section.key") of a resolved configuration, with the struct
 * its value lives in in *params. NULL when there is no such key.
 */
const struct key_desc *cfg_key(const struct chase_config *cfg, const char *name,
                               const void **params);

extern const struct key_desc global_keys[];
extern const size_t global_key_count;
extern const char *const profile_names[];
extern const char *const on_exit_names[];
extern const char *const fault_test_names[];
extern const char *const page_names[];
extern const char *const prefetch_names[];
extern const char *const serial_log_names[];
extern const struct key_desc section_common_keys[];
extern const size_t section_common_key_count;

/* Bytes of the page size named by page_names[index]; 0 for "auto". */
uint64_t cfg_page_bytes(unsigned index);

/* Where a setting came from, for error messages. */
struct cfg_source {
    char name[128]; /* "\chase\chase.cfg" or "load options"; a longer path keeps its end */
    unsigned line;  /* line in the file, or option number (from 1) */
};

struct cfg_entry {
    char key[64]; /* "reps" or "section.key" */
    char value[192];
    struct cfg_source src;
};

#define CFG_ENTRIES_MAX 128

/* Settings in the order they were given; later ones override earlier ones. */
struct cfg_entries {
    struct cfg_entry e[CFG_ENTRIES_MAX];
    unsigned n;
    bool want_help; /* "help" was among the load options */
};

/* Errors found while reading a configuration; one line each. */
struct cfg_errors {
    struct strbuf text;
    unsigned count;
};

/* Record one error, formatted as "SOURCE:LINE: message". */
void cfg_error(struct cfg_errors *errs, const struct cfg_source *src, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Read a configuration file's text (len bytes, need not be NUL-terminated) into
 * entries: "key = value", "experiment.key = value", "[experiment]" sections (the names of
 * t's sections) and '#' comments. Syntax errors go to errs. Returns the number of errors added.
 */
unsigned cfg_read_file(struct cfg_entries *entries, const struct cfg_table *t, const char *text,
                       size_t len, const char *source_name, struct cfg_errors *errs);

/*
 * Read load options (a command line: "key=value" words separated by blanks; a
 * first word without '=' that names the program is skipped; "help" sets want_help).
 * Returns the number of errors added.
 */
unsigned cfg_read_options(struct cfg_entries *entries, const char *cmdline,
                          struct cfg_errors *errs);

/*
 * Build the effective configuration of t's sections: machine-derived defaults for the
 * profile that the entries select, then every entry in order, then the cross-checks of each
 * selected section. Unknown keys, malformed values and contradictions go to errs.
 * Returns true when there was no error.
 */
bool cfg_resolve(struct chase_config *cfg, const struct cfg_table *t,
                 const struct cfg_entries *entries, const struct machine *m,
                 struct cfg_errors *errs);

/* Parse a size ("64", "4K", "2M", "1G", "0x1000"); false when malformed or too large. */
bool cfg_parse_size(const char *s, uint64_t *out);

/* Format parts per million of the whole as a percentage ("0.5%", "2%"). */
void cfg_format_percent(char *buf, size_t cap, uint64_t ppm);

/* Format a key's value as the configuration would write it ("64K", "auto (64K)", "16,64"). */
void cfg_format_value(char *buf, size_t cap, const struct key_desc *k, const void *params);

/* Write a key's value to run.json (an auto value also gets "<key>_auto": true). */
struct json;
void cfg_value_json(struct json *j, const struct key_desc *k, const void *params);

#endif
