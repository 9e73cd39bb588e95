// SPDX-License-Identifier: MIT
// chase-report fleet: its options, and the steps from run folders to fleet.md, fleet.json,
// fleet.html and the PNGs (and a reference file, when asked).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fleet/fleet.h"
#include "fleet/fleet_text.h"

#define FLEET_INPUTS 16

struct fleet_opts {
    const char *input[FLEET_INPUTS];
    size_t ninputs;
    const char *out, *reference, *write_reference;
    long group; /* --group N for --write-reference; 0: the largest judged group */
};

static void fleet_usage(FILE *o)
{
    fprintf(o,
            "usage: chase-report fleet INPUT... --out DIR [--reference FILE]\n"
            "                          [--write-reference FILE [--group N]]\n"
            "  INPUT              a folder holding chase run folders at any depth (run.json), or\n"
            "                     chase-collect's fleet.sqlite (runs.path relative to its folder)\n"
            "  --out DIR          where fleet.md, fleet.json, fleet.html and the PNGs go\n"
            "  --reference FILE   also hold every machine against this reference file\n"
            "  --write-reference FILE  write a reference from a group's medians and spreads\n"
            "  --group N          the group --write-reference takes (default: the largest)\n");
}

static int fleet_args(int argc, char **argv, struct fleet_opts *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool more = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fleet_usage(stdout);
            exit(0);
        } else if (strcmp(a, "--out") == 0 && more) {
            o->out = argv[++i];
        } else if (strcmp(a, "--reference") == 0 && more) {
            o->reference = argv[++i];
        } else if (strcmp(a, "--write-reference") == 0 && more) {
            o->write_reference = argv[++i];
        } else if (strcmp(a, "--group") == 0 && more) {
            char *end;
            o->group = strtol(argv[++i], &end, 10);
            if (*end || o->group < 1) {
                fprintf(stderr, "chase-report fleet: --group wants a group number (1, 2, ...)\n");
                return -1;
            }
        } else if (a[0] == '-') {
            fprintf(stderr, "chase-report fleet: unknown option %s\n", a);
            fleet_usage(stderr);
            return -1;
        } else if (o->ninputs < FLEET_INPUTS) {
            o->input[o->ninputs++] = a;
        }
    }
    if (!o->ninputs || !o->out) {
        fleet_usage(stderr);
        return -1;
    }
    return 0;
}

/* The group --write-reference takes: --group N, else the largest judged (else the largest). */
static long reference_group(const struct fleet *f, long asked)
{
    if (asked)
        return asked <= (long)f->ngroups ? asked - 1 : -1;
    long best = 0;
    for (size_t g = 1; g < f->ngroups; g++) {
        bool judged = f->group[g].against == (int)g, best_judged = f->group[best].against == best;
        if ((judged && !best_judged) || (judged == best_judged && f->group[g].n > f->group[best].n))
            best = (long)g;
    }
    return best;
}

static int fleet_outputs(struct fleet *f, const struct fleet_opts *o, char *err, size_t cap)
{
    static char plots[FLEET_FIGURES * 2][FLEET_NAME * 2];
    if (mkdir(o->out, 0755) != 0 && errno != EEXIST) {
        snprintf(err, cap, "cannot create %s: %s", o->out, strerror(errno));
        return -1;
    }
    if (fleet_write_md(f, o->out, err, cap) != 0 || fleet_write_json(f, o->out, err, cap) != 0)
        return -1;
    size_t n = fleet_write_plots(f, o->out, plots, FLEET_FIGURES * 2);
    if (fleet_write_html(f, o->out, plots, n, err, cap) != 0)
        return -1;
    if (o->write_reference) {
        long g = reference_group(f, o->group);
        if (g < 0) {
            snprintf(err, cap, "--group %ld: there are %zu groups", o->group, f->ngroups);
            return -1;
        }
        if (fleet_reference_write(f, (size_t)g, o->write_reference, err, cap) != 0)
            return -1;
        printf("reference: %s (group %ld, %zu machines)\n", o->write_reference, g + 1,
               f->group[g].n);
    }
    printf("fleet: %zu machines in %zu groups, %zu figures outside an envelope; %d plots\n",
           f->nmachines, f->ngroups, f->nflags, (int)n);
    printf("report: %s/fleet.md, %s/fleet.json, %s/fleet.html\n", o->out, o->out, o->out);
    return 0;
}

int fleet_main(int argc, char **argv)
{
    struct fleet_opts o = {0};
    char err[1024];
    if (fleet_args(argc, argv, &o) != 0)
        return 2;
    struct fleet *f = calloc(1, sizeof(*f));
    if (f) {
        f->machine = calloc(FLEET_MACHINES, sizeof(*f->machine));
        f->group = calloc(FLEET_GROUPS, sizeof(*f->group));
    }
    int rc = 2;
    if (!f || !f->machine || !f->group) {
        fprintf(stderr, "chase-report fleet: out of memory\n");
        goto out;
    }
    if (fleet_collect(f, o.input, o.ninputs, err, sizeof(err)) != 0 ||
        (o.reference && fleet_reference_read(f, o.reference, err, sizeof(err)) != 0)) {
        fprintf(stderr, "chase-report fleet: %s\n", err);
        goto out;
    }
    for (size_t i = 0; i < f->nskipped && i < 8; i++)
        fprintf(stderr, "chase-report fleet: left out: %s\n", f->skipped[i]);
    fleet_judge(f);
    fleet_judge_reference(f);
    rc = fleet_outputs(f, &o, err, sizeof(err)) == 0 ? 0 : 1;
    if (rc)
        fprintf(stderr, "chase-report fleet: %s\n", err);
out:
    if (f) {
        free(f->machine);
        free(f->group);
    }
    free(f);
    return rc;
}
