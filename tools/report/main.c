// SPDX-License-Identifier: MIT
// chase-report: cache levels, the latency model, plots and a report from chase runs and others.
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/fmt.h"
#include "fit/analysis.h"
#include "inputs/load.h"
#include "inputs/rtext.h"
#include "outputs/output.h"
#include "fleet/fleet.h"

#define MAX_INPUTS 16

struct options {
    const char *out;
    bool json;
    double l1_ns;
    const char *input[MAX_INPUTS];
    size_t ninputs;
};

static void usage(FILE *f)
{
    fprintf(f, "usage: chase-report [--out DIR] [--json] [--l1-ns NS] INPUT...\n"
               "       chase-report fleet DIR|fleet.sqlite... --out DIR (see fleet --help)\n"
               "  INPUT     a chase result folder, a chase experiment CSV, or the output of\n"
               "            lmbench lat_mem_rd, random-chase, tinymembench or multichase -v\n"
               "  --out     folder for report.md and the PNG plots (default: INPUT/report for\n"
               "            a folder, INPUT.report for a file; none with --json alone)\n"
               "  --json    print the analysis as JSON on stdout\n"
               "  --l1-ns   L1 hit latency to add to tinymembench's times (they are above L1)\n");
}

static int parse_args(int argc, char **argv, struct options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--json") == 0) {
            o->json = true;
        } else if (strcmp(a, "--out") == 0 && i + 1 < argc) {
            o->out = argv[++i];
        } else if (strcmp(a, "--l1-ns") == 0 && i + 1 < argc) {
            const char *v = argv[++i];
            if (!rtext_parse_double(v, strlen(v), &o->l1_ns) || !(o->l1_ns > 0) || o->l1_ns > 1e3) {
                fprintf(stderr, "chase-report: --l1-ns wants a latency in ns, like 1.2\n");
                return -1;
            }
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "chase-report: unknown option %s\n", a);
            usage(stderr);
            return -1;
        } else if (o->ninputs < MAX_INPUTS) {
            o->input[o->ninputs++] = a;
        } else {
            fprintf(stderr, "chase-report: at most %d inputs\n", MAX_INPUTS);
            return -1;
        }
    }
    if (o->ninputs == 0) {
        usage(stderr);
        return -1;
    }
    return 0;
}

/* mkdir -p for the output folder. */
static int make_dirs(const char *path)
{
    char buf[4096];
    if (strlen(path) >= sizeof(buf))
        return -1;
    snprintf(buf, sizeof(buf), "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = 0;
        if (mkdir(buf, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static void default_out(const struct source *s, char *dst, size_t cap)
{
    struct stat st;
    bool dir = stat(s->path, &st) == 0 && S_ISDIR(st.st_mode);
    snprintf(dst, cap, dir ? "%s/report" : "%s.report", s->path);
}

static void print_summary(const struct source_result *r, size_t n, const char *out)
{
    for (size_t i = 0; i < n; i++) {
        const struct detection *d = primary_detection(&r[i]);
        printf("%s: %s\n", r[i].src->name, r[i].src->machine);
        if (r[i].an.primary >= 0 && r[i].cr[r[i].an.primary].c->relative)
            printf("  (latencies are time added to an L1 hit; --l1-ns adds it)\n");
        for (size_t k = 0; d && k < d->nlevels; k++) {
            const struct level *lv = &d->level[k];
            char sz[32] = "open", nm[8];
            if (lv->size_known)
                fmt_size(sz, sizeof(sz), lv->size_bytes);
            level_name_of(nm, sizeof(nm), d, k);
            /* The kind when the level may not be a cache; report.md says why. */
            printf("  %-3s %8s  %8.2f ns%s%s\n", nm, sz, lv->latency_ns,
                   lv->kind == LEVEL_CACHE ? "" : "  ",
                   lv->kind == LEVEL_CACHE ? "" : level_kind_name(lv->kind));
        }
        if (d && isfinite(d->dram_ns))
            printf("  DRAM            %s%.1f ns\n", d->dram_lower_bound ? ">= " : "", d->dram_ns);
    }
    printf("report: %s/report.md\n", out);
}

static int write_outputs(const struct options *o, struct source_result *r, struct source *src,
                         size_t n)
{
    char out[4200], err[512];
    if (o->out)
        snprintf(out, sizeof(out), "%s", o->out);
    else
        default_out(&src[0], out, sizeof(out));
    if (make_dirs(out) != 0) {
        fprintf(stderr, "chase-report: cannot create %s: %s\n", out, strerror(errno));
        return 1;
    }
    static struct plot_list lists[MAX_INPUTS + 1];
    plots_make(r, n, out, lists);
    for (size_t i = 0; i <= n; i++)
        for (size_t k = 0; k < lists[i].n; k++)
            if (!lists[i].p[k].ok)
                fprintf(stderr, "chase-report: warning: %s\n", lists[i].p[k].err);
    if (report_md_write(out, r, n, lists, err, sizeof(err)) != 0) {
        fprintf(stderr, "chase-report: %s\n", err);
        return 1;
    }
    if (!o->json)
        print_summary(r, n, out);
    else
        fprintf(stderr, "chase-report: report: %s/report.md\n", out);
    return 0;
}

/* Plot files are prefixed by each input's tag: two folders both called 0001 (a firmware run and
 * a host run) get 0001 and 0001-2. */
static void unique_tags(struct source *src, size_t n)
{
    for (size_t i = 1; i < n; i++)
        for (size_t k = 0; k < i; k++)
            if (strcmp(src[i].tag, src[k].tag) == 0) {
                size_t len = strnlen(src[i].tag, sizeof(src[i].tag) - 8);
                snprintf(src[i].tag + len, sizeof(src[i].tag) - len, "-%zu", i + 1);
                break;
            }
}

int main(int argc, char **argv)
{
    struct options o = {0};
    if (argc > 1 && strcmp(argv[1], "fleet") == 0)
        return fleet_main(argc - 1, argv + 1);
    if (parse_args(argc, argv, &o) != 0)
        return 2;
    static struct source src[MAX_INPUTS];
    static struct source_result res[MAX_INPUTS];
    char err[1024];
    int rc = 0;
    size_t n = 0;
    for (; n < o.ninputs; n++)
        if (source_load(o.input[n], &src[n], err, sizeof(err)) != 0) {
            fprintf(stderr, "chase-report: %s\n", err);
            rc = 2;
            break;
        }
    if (rc == 0) {
        unique_tags(src, n);
        struct analysis_opts ao = {o.l1_ns};
        analyse_all(res, src, n, &ao);
        if (o.json)
            report_json_print(stdout, res, n);
        if (o.out || !o.json)
            rc = write_outputs(&o, res, src, n);
        analyse_free(res, n);
    }
    for (size_t i = 0; i < n + (rc == 2 && n < o.ninputs); i++)
        source_free(&src[i]);
    return rc;
}
