// SPDX-License-Identifier: MIT
// Configuration: keys from the experiment table, parsed from the config file and load options.
#ifndef CHASE_CONFIG_H
#define CHASE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine/machine.h"
#include "lib/strbuf.h"

enum profile { PROFILE_FULL, PROFILE_QUICK };
enum on_exit { ON_EXIT_WAIT, ON_EXIT_RETURN, ON_EXIT_SHUTDOWN, ON_EXIT_REBOOT };

#define EXPERIMENTS_MAX 16
#define REPS_MAX 1000
#define PRECISION_MAX_PPM 500000       /* 50% */
#define POINT_MAX_MS_MAX 3600000ULL    /* an hour */
#define WARM_LAPS_MAX 64

enum key_type {
    KEY_U64,         /* plain integer (decimal or 0x hex) */
    KEY_SIZE,        /* integer with optional K, M or G binary suffix */
    KEY_CHOICE,      /* one of key_desc.choices, stored as unsigned index */
    KEY_EXPERIMENTS, /* comma-separated experiment names, or "all" */
    KEY_SIZE_LIST,   /* comma-separated sizes, each in [min, max] (struct cfg_list) */
    KEY_U64_AUTO,    /* "auto" or an integer in [min, max] (struct cfg_auto) */
    KEY_SIZE_AUTO,   /* "auto" or a size in [min, max] (struct cfg_auto) */
    KEY_PERCENT      /* a percentage ("0.5" or "0.5%"), stored as uint64_t parts per million
                        of the whole (0.5% = 5000) in [min, max] */
};

/* Parts per million of the whole in one percent (KEY_PERCENT). */
#define CFG_PPM_PER_PERCENT 10000

#define CFG_LIST_MAX 8

/* A list value (KEY_SIZE_LIST). */
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

struct global_params {
    unsigned experiments[EXPERIMENTS_MAX]; /* indices into the experiment table, run order */
    unsigned n_experiments;
    unsigned profile;  /* enum profile */
    unsigned on_exit;  /* enum on_exit */
    uint64_t seed;
    uint64_t reps;
    uint64_t precision_ppm;  /* KEY_PERCENT: target half-width of the median's interval */
    uint64_t point_max_ms;   /* time cap of one point's repetitions */
    struct cfg_auto warm_laps; /* laps of warm-up; auto: measure_plan's own rule */
    unsigned fault_test; /* enum fault_test (measure.h): tests only */
    unsigned page;       /* index into page_names: 0 auto, then 4K, 2M, 1G */
};

struct random_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    uint64_t stride_bytes;
    uint64_t offset_bytes;
    uint64_t locality_bytes; /* 0: one random order over all slots */
    unsigned page;           /* enum page_choice */
};

struct linear_params {
    uint64_t size_bytes;
    uint64_t min_stride_bytes;
    uint64_t max_stride_bytes;
    uint64_t step_bytes;
    unsigned page; /* enum page_choice */
};

struct fused_params {
    uint64_t size_bytes;
    uint64_t min_stride_bytes;
    uint64_t max_stride_bytes;
    uint64_t step_bytes;
    uint64_t max_fuse;
};

struct dual_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    uint64_t stride_bytes;
    struct cfg_auto lag; /* slots */
};

struct scan_params {
    uint64_t huge_bytes;
    uint64_t small_min_bytes;
    uint64_t small_max_bytes;
    uint64_t points_per_octave;
    uint64_t stride_bytes;
};

struct ring_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    struct cfg_list strides; /* bytes */
};

struct offset_params {
    uint64_t stride_bytes;
    struct cfg_auto size; /* bytes */
    uint64_t offset_step_bytes;
    uint64_t offset_max_bytes;
};

struct parallel_params {
    uint64_t size_bytes;
    uint64_t max_chains;
    uint64_t stride_bytes;
};

struct tlb_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    struct cfg_list pages; /* bytes: 4K, 2M, 1G */
};

/* The effective configuration of a run. */
struct chase_config {
    struct global_params global;
    struct random_params random;
    struct linear_params linear;
    struct fused_params fused;
    struct dual_params dual;
    struct scan_params scan;
    struct ring_params ring;
    struct offset_params offset;
    struct parallel_params parallel;
    struct tlb_params tlb;
};

extern const struct key_desc global_keys[];
extern const size_t global_key_count;
extern const char *const profile_names[];
extern const char *const on_exit_names[];
extern const char *const fault_test_names[];
extern const char *const page_names[];

/* Bytes of the page size named by page_names[index]; 0 for "auto". */
uint64_t cfg_page_bytes(unsigned index);

/* Where a setting came from, for error messages. */
struct cfg_source {
    char name[48]; /* "\chase\chase.cfg" or "load options" */
    unsigned line; /* line in the file, or option number (from 1) */
};

struct cfg_entry {
    char key[64];   /* "reps" or "random.min" */
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
 * entries: "key = value", "experiment.key = value", "[experiment]" sections and
 * '#' comments. Syntax errors go to errs. Returns the number of errors added.
 */
unsigned cfg_read_file(struct cfg_entries *entries, const char *text, size_t len,
                       const char *source_name, struct cfg_errors *errs);

/*
 * Read load options (a command line: "key=value" words separated by blanks; a
 * first word without '=' that names the program is skipped; "help" sets want_help).
 * Returns the number of errors added.
 */
unsigned cfg_read_options(struct cfg_entries *entries, const char *cmdline,
                          struct cfg_errors *errs);

/*
 * Build the effective configuration: machine-derived defaults for the profile that
 * the entries select, then every entry in order, then the cross-checks of each
 * experiment. Unknown keys, malformed values and contradictions go to errs.
 * Returns true when there was no error.
 */
bool cfg_resolve(struct chase_config *cfg, const struct cfg_entries *entries,
                 const struct machine *m, struct cfg_errors *errs);

/* Parse a size ("64", "4K", "2M", "1G", "0x1000"); false when malformed or too large. */
bool cfg_parse_size(const char *s, uint64_t *out);

/* Format a byte count the way a person writes it ("32K", "1.5M", "100"). */
void cfg_format_size(char *buf, size_t cap, uint64_t bytes);

/* Format parts per million of the whole as a percentage ("0.5%", "2%"). */
void cfg_format_percent(char *buf, size_t cap, uint64_t ppm);

/* Format a key's value as the configuration would write it ("64K", "auto (64K)", "16,64"). */
void cfg_format_value(char *buf, size_t cap, const struct key_desc *k, const void *params);

/* Write a key's value to run.json (an auto value also gets "<key>_auto": true). */
struct json;
void cfg_value_json(struct json *j, const struct key_desc *k, const void *params);

#endif
