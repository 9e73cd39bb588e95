// SPDX-License-Identifier: MIT
// chase-report fleet: many machines' newest runs side by side, grouped by hardware
// configuration, each held against its group's envelope (or a reference file's).
#ifndef REPORT_FLEET_H
#define REPORT_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The envelope rule (docs/fleet-report.md): a figure is outside its group's envelope when it
 * lies more than FLEET_ENVELOPE_K robust standard deviations from the group's median. The
 * robust standard deviation is 1.4826 x the median absolute deviation (the factor makes the
 * MAD of normally distributed values equal to their standard deviation: a fact, not a choice),
 * but never less than what the runs could resolve (the figure's resolution, from each run's
 * precision setting and size step). K = 3: a machine like its peers, with normal scatter, falls
 * outside one given figure about 3 times in 1000.
 */
#define FLEET_ENVELOPE_K 3.0
#define FLEET_MAD_TO_SD 1.4826
/* Fewest machines a group's median and spread are judged from: with two, the median is their
 * mean and the MAD the half-difference, so neither machine can stand out from the other. */
#define FLEET_JUDGE_MIN 3

#define FLEET_TEXT 120
#define FLEET_NAME 64
#define FLEET_FIGURES 64
#define FLEET_MACHINES 1024
#define FLEET_GROUPS 64
#define FLEET_FLAGS 512

/* Which way a figure is better, for the word a flag uses (worse, better, smaller, larger). */
enum fleet_better { FLEET_BETTER_LOWER, FLEET_BETTER_HIGHER, FLEET_BETTER_NEITHER };

struct fleet_figure {
    char name[FLEET_NAME]; /* JSON key: "L2_latency_ns", "bandwidth_DRAM_read_gbs" */
    char unit[12];
    enum fleet_better better;
    int rank; /* where it goes in tables and plots (smaller first) */
    double value;
    double resolution; /* the smallest difference the run could resolve, relative to value */
};

/* What the run.json says the machine is; "" where it does not say. */
struct fleet_identity {
    bool smbios;              /* the run read SMBIOS tables */
    char vendor[FLEET_TEXT];  /* system manufacturer */
    char product[FLEET_TEXT]; /* system product */
    char serial[FLEET_TEXT], uuid[40], mac[24];
    char firmware[FLEET_TEXT];  /* SMBIOS vendor version (date), else the UEFI firmware */
    char cpu[FLEET_TEXT];       /* brand string */
    char cpu_model[FLEET_TEXT]; /* vendor, family, model, stepping: the grouping's CPU */
    char microcode[24];
    char encryption[24];    /* memory encryption state */
    char dimms[FLEET_TEXT]; /* "4 x 16 GB DDR5-4800, 4 of 8 slots" */
    char dimm_part[FLEET_TEXT];
    int dimm_count;      /* installed memory devices; -1 unknown */
    unsigned dimm_speed; /* configured (else rated) MT/s of the first; 0 unknown */
};

struct fleet_machine {
    char name[FLEET_NAME];
    char name_from[48];      /* "SMBIOS serial", "SMBIOS UUID", "boot NIC MAC", "folder" */
    char run_path[4096];     /* its newest run folder */
    char run_id[FLEET_NAME]; /* run.json's run_id, else the folder's name */
    char start_time[32];     /* run.json's start_time ("" unknown) */
    unsigned runs;           /* runs of this machine found; the newest is shown */
    struct fleet_identity id;
    size_t nfig;
    struct fleet_figure fig[FLEET_FIGURES];
    int group; /* index in fleet.group */
};

/* One figure's statistics over a group's machines. */
struct fleet_stat {
    char name[FLEET_NAME];
    char unit[12];
    enum fleet_better better;
    int rank;
    size_t n;                      /* machines with the figure */
    double median, spread, lo, hi; /* spread: the robust sd used (floored); [lo, hi] envelope */
};

struct fleet_group {
    char key[512]; /* the configuration as one string: CPU and DIMMs */
    char cpu_model[FLEET_TEXT];
    char dimms[FLEET_TEXT]; /* "4 x CHS-D5 at 4800 MT/s" or "unknown (no SMBIOS)" */
    size_t n;
    size_t member[FLEET_MACHINES];
    int against; /* the group whose envelope its machines are held against: itself, a
                    larger group of the same CPU, or -1: cannot be judged */
    size_t nstat;
    struct fleet_stat stat[FLEET_FIGURES];
    struct fleet_identity common; /* the most common identity values among its machines */
};

/* A machine outside an envelope on one figure, and what in its identity may explain it. */
struct fleet_flag {
    size_t machine;
    char figure[FLEET_NAME], unit[12];
    double value, median, lo, hi;
    char against[FLEET_TEXT]; /* "group 1" or "the reference FILE" */
    char direction[16];       /* worse, better, smaller, larger */
    char explain[512];        /* the identity differences, or that none was recorded */
};

struct fleet {
    size_t nmachines;
    struct fleet_machine *machine; /* FLEET_MACHINES of them */
    size_t ngroups;
    struct fleet_group *group; /* FLEET_GROUPS */
    size_t nflags;
    struct fleet_flag flag[FLEET_FLAGS];
    char inputs[FLEET_TEXT * 4];
    size_t nskipped; /* run folders that could not be read */
    char skipped[8][FLEET_TEXT];
    bool has_reference;
    char reference_path[FLEET_TEXT];
    struct fleet_group reference; /* the reference file as a group of no machines */
};

/* Read one run folder: its identity, name and headline figures (the analysis chase-report runs
 * on one run). 0, or -1 with err saying why. machine is filled except group. */
int fleet_read_run(const char *dir, const char *fallback_name, struct fleet_machine *m, char *err,
                   size_t cap);

/* Add every run under each input (a folder searched at any depth for run.json, or a
 * chase-collect fleet.sqlite), keeping each machine's newest run. 0, or -1 with err. */
int fleet_collect(struct fleet *f, const char *const *inputs, size_t n, char *err, size_t cap);

/* Group the machines, compute every group's envelope and flag the machines outside. */
void fleet_judge(struct fleet *f);
/* Hold every machine against the reference (fleet.reference) too. */
void fleet_judge_reference(struct fleet *f);

/* The reference file: read into f->reference (0, or -1 with err); write from group g. */
int fleet_reference_read(struct fleet *f, const char *path, char *err, size_t cap);
int fleet_reference_write(const struct fleet *f, size_t g, const char *path, char *err, size_t cap);

/* The outputs, into folder out: fleet.md, fleet.json, the PNGs and fleet.html. */
int fleet_write_md(const struct fleet *f, const char *out, char *err, size_t cap);
int fleet_write_json(const struct fleet *f, const char *out, char *err, size_t cap);
/* The PNGs (one per figure); their file names into names (up to max); how many were drawn. */
size_t fleet_write_plots(const struct fleet *f, const char *out, char names[][FLEET_NAME * 2],
                         size_t max);
int fleet_write_html(const struct fleet *f, const char *out, char names[][FLEET_NAME * 2],
                     size_t nplots, char *err, size_t cap);

/* The figure called name of machine m, or NULL. */
const struct fleet_figure *fleet_figure_of(const struct fleet_machine *m, const char *name);

/* chase-report fleet ARGS...: the subcommand (argv[0] is "fleet"). Exit status. */
int fleet_main(int argc, char **argv);

#endif
