// SPDX-License-Identifier: MIT
// chase-sim's command line: options, the hierarchy (preset, description or file), its errors.
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim_spec.h"

struct sim_cli {
    const char *out_dir;     /* --out, default "runs" */
    const char *config_path; /* --config, or NULL */
    const char *hierarchy;   /* --hierarchy as given */
    const char *prefetch;    /* --prefetch: a PF item's fields after "PF:", or NULL */
    char *config_text;       /* the --config file's text */
    size_t config_len;
    char *hierarchy_text; /* a hierarchy file's text */
    char options[4096];   /* key=value words for chase_main */
    double ghz;           /* simulated core clock, --ghz (default 1) */
    uint64_t page_bytes;  /* simulated page size until chase's page key says otherwise */
    uint64_t seed;        /* the model's random choices, --seed (default 1) */
    bool want_help, list_presets, describe, bench;
};

/* Read argv into cli. Returns -1 to go on, or the exit status to stop with (help, errors). */
int sim_cli_parse(struct sim_cli *cli, int argc, char **argv);
/*
 * Turn --hierarchy into spec: a preset name, a description (it has a ':'), or a file.
 * *name receives what to call it. Returns 0, or 2 after printing the error with a caret
 * under the bad field.
 */
int sim_cli_hierarchy(struct sim_cli *cli, struct sim_spec *spec, const char **name);
/* Release what sim_cli_parse and sim_cli_hierarchy read. */
void sim_cli_release(struct sim_cli *cli);

/* Print the usage text. */
void sim_cli_usage(FILE *f);
/* Print every preset: name, what it models, its description. */
void sim_cli_list_presets(FILE *f);
/* Print a parsed hierarchy, one level a line, and its one-line description. */
void sim_cli_describe(FILE *f, const struct sim_spec *spec, const char *name);

/* Measure the model's speed (simulated loads per second) and print it; returns 0 or 1. */
int sim_bench(const struct sim_spec *spec, const char *name, const struct sim_cli *cli);

#endif
